"""The seal: what keeps a program from making failing tests pass (src/runner/README.md:
"What a test run can trust").

The verdict travels from the child to genebench on a pipe; genebench accepts a pass only
when (1) the record carries the run's token, which the worker writes into a pipe after the
fork, so it is in no memory the program could read, and which the child reads only after the
tests finished; (2) the child exited with status 0 and no signal; (3) the pipe holds exactly
that one record. In the child, the tests are compiled before the program runs and executed
with the `exec` taken before it, so replacing builtins.exec or builtins.compile changes
nothing; after the tests, the objects the harness relies on (builtins, every harness
module's bindings and functions, unittest's classes and functions) are compared with a
snapshot taken in the worker, and any change is a failure ("Tampering"), as is a trace or
profile hook still set when the tests start. What this cannot stop is inherent to tests that
run in the program's process: a program that reimplements this protocol (finds the token's
descriptor and writes its own record), objects whose __eq__ is always true, or changes made
through ctypes to memory the harness uses.

The harness modules hold no binding that changes after the snapshot: the worker's state
lives in objects that main() owns and passes down (harness.py: Worker).
"""

import os
import sys


class Tampering(Exception):
    """The program changed what the harness relies on to run its tests."""


SEAL_UNITTEST = ("unittest", "unittest.case", "unittest.result", "unittest.suite", "unittest.loader",
                 "unittest.util", "unittest.runner", "unittest.signals")


def harness_modules(harness_file):
    """The harness's modules: every loaded module whose file is in harness_file's directory
    (harness.py runs as __main__; its siblings are imported by name). The seal covers each."""
    here = os.path.dirname(os.path.abspath(harness_file))
    found = []
    for mod in list(sys.modules.values()):
        path = getattr(mod, "__file__", None)
        if isinstance(path, str) and os.path.dirname(os.path.abspath(path)) == here and mod not in found:
            found.append(mod)
    return found


def seal_snapshot(modules):
    """Record, in the worker, the identity of every binding the harness relies on: the
    builtins, the namespaces of modules (the harness's: harness_modules), and unittest's
    modules, classes and their methods.
    Returns {"core": part, "unittest": part}; a part is (entries, functions, modules):
    entries are (label, namespace, key, value), functions are (label, function, __code__,
    __defaults__, __kwdefaults__), modules are (name, module) pairs that sys.modules must
    still hold. Only the unittest part is checked after unittest runs."""
    import builtins
    import types

    seen = set()

    def add_function(part, label, fn):
        if isinstance(fn, types.FunctionType) and id(fn) not in seen:
            seen.add(id(fn))
            part[1].append((label, fn, fn.__code__, fn.__defaults__, fn.__kwdefaults__))

    def add_namespace(part, label, ns, unittest_part):
        for key, value in list(ns.items()):
            part[0].append((label, ns, key, value))
            add_function(part, "%s.%s" % (label, key), value)
            if unittest_part and isinstance(value, type) and value.__module__.startswith("unittest") and \
                    id(value) not in seen:
                seen.add(id(value))
                cls_ns = value.__dict__
                cls_label = "%s.%s" % (value.__module__, value.__qualname__)
                for ckey, cvalue in cls_ns.items():
                    # methods only: a test may set data such as TestCase.maxDiff
                    fn = cvalue.__func__ if isinstance(cvalue, (classmethod, staticmethod)) else cvalue
                    if isinstance(fn, types.FunctionType) or isinstance(cvalue, property):
                        part[0].append((cls_label, cls_ns, ckey, cvalue))
                    add_function(part, "%s.%s" % (cls_label, ckey), fn)

    core = ([], [], [("builtins", builtins)])
    add_namespace(core, "builtins", vars(builtins), False)
    for mod in modules:
        add_namespace(core, "the harness", vars(mod), False)
    unit = ([], [], [])
    for name in SEAL_UNITTEST:
        mod = sys.modules.get(name)
        if mod is not None:
            unit[2].append((name, mod))
            add_namespace(unit, name, vars(mod), True)
    return {"core": core, "unittest": unit}


def seal_before_tests():
    """Between the program and its tests: no trace or profile hook may be left (a trace
    function can jump over a failing assertion)."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        raise Tampering("the program left a trace or profile hook set (sys.settrace/sys.setprofile)")


def seal_check(seal, unittest_too):
    """What the program changed of the snapshot, as a message, or None."""
    missing = object()
    for part in (seal["core"], seal["unittest"]) if unittest_too else (seal["core"],):
        entries, functions, modules = part
        for name, mod in modules:
            if sys.modules.get(name) is not mod:
                return "the program replaced the module %s in sys.modules" % name
        for label, ns, key, value in entries:
            if ns.get(key, missing) is not value:
                return "the program replaced %s.%s" % (label, key) if label != "the harness" else \
                    "the program replaced the harness's %s" % key
        for label, fn, code, defaults, kwdefaults in functions:
            if fn.__code__ is not code or fn.__defaults__ is not defaults or fn.__kwdefaults__ is not kwdefaults:
                return "the program changed the code of %s" % label
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return "the program left a trace or profile hook set (sys.settrace/sys.setprofile)"
    return None

