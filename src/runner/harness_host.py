"""The program's side of a split run (harness_judge.py): a process of its own, forked by the
judge, that runs the program as __main__ and then answers the judge's requests on a pipe,
one at a time: call a function or method, get or set an attribute, and a few operators of an
object it holds. Arguments arrive as plain data (harness_codec.py); results, the exception a
call raised and the new contents of the arguments it changed go back the same way; what it
prints goes to its stdout, a pipe the judge reads (nothing in this process swaps streams or
sets timers per call, for tests and probes alike). This process holds no token and no descriptor of the result record: what
it answers is what the program does, never the verdict.
"""

import os
import sys
import time
import types

from harness_codec import Broken, Refused, recv, send
from harness_program import describe_exception, exec_program, new_main_module
from harness_seal import seal_check

# What the judge may ask of an object besides calling it and its attributes.
OPERATIONS = {
    "len": len,
    "iter": list,
    "getitem": lambda obj, key: obj[key],
    "setitem": lambda obj, key, value: obj.__setitem__(key, value),
    "delitem": lambda obj, key: obj.__delitem__(key),
    "contains": lambda obj, item: item in obj,
    "eq": lambda obj, other: obj == other,
    "repr": repr,
    "str": str,
    "isinstance": isinstance,
    "delattr": delattr,
}


class Objects:
    """The objects the judge holds handles to, by number; kept alive until the run ends."""

    def __init__(self):
        self.by_id, self.ids = {}, {}
        # CPU seconds spent inside the program's calls (not in decoding their arguments or
        # encoding what they give back), for `compare`'s cost check ("calls_cpu"). The program
        # can change it; the probe takes it only where it is below its own measure.
        self.calls_cpu = 0.0

    def handle_of(self, obj):
        key = id(obj)
        ident = self.ids.get(key)
        if ident is None:
            ident = len(self.by_id) + 1
            self.by_id[ident], self.ids[key] = obj, ident
        if isinstance(obj, type):
            kind = "e" if issubclass(obj, BaseException) else "c"
        elif isinstance(obj, types.ModuleType):
            kind = "m"
        else:
            kind = "f" if callable(obj) else "o"
        name = getattr(obj, "__name__", None) if kind in "ecm" else None
        if not isinstance(name, str):
            name = type(obj).__name__ if isinstance(type(obj).__name__, str) else "object"
        if kind == "e":
            name = "%s %s" % (name, builtin_base(obj))
        return ident, kind, name

    def handle(self, ident, _kind, _name):
        if ident not in self.by_id:
            raise Broken("a handle to no object")
        return self.by_id[ident]


def builtin_base(cls):
    """The name of the nearest class of cls's MRO that is a builtin Exception (else "Exception")."""
    import builtins

    for base in cls.__mro__:
        if base.__module__ == "builtins" and issubclass(base, Exception) and getattr(builtins, base.__name__, None) is base:
            return base.__name__
    return "Exception"


def exception_record(objects, exc, run_dir):
    """("raise", type handle or 0, type name, builtin base name, args, description)."""
    import builtins

    base = builtin_base(type(exc))
    own = type(exc) if type(exc).__module__ != "builtins" else None
    try:
        args = tuple(exc.args)
        send_args = args if all(type(a) in (str, int, float, bool, type(None)) for a in args) else None
    except BaseException:  # noqa: BLE001 - a broken exception is described by its text only
        send_args = None
    info = describe_exception(exc, run_dir)
    ident = objects.handle_of(own)[0] if own is not None else 0
    name = type(exc).__name__ if isinstance(type(exc).__name__, str) else "Exception"
    if own is None and getattr(builtins, name, None) is not type(exc):
        ident, name = 0, base
    return ("raise", ident, name, base, send_args,
            (info["exc_type"], info["exc_message"], info["failed_test"]))


def answer(objects, request, run_dir):
    op = request[0]
    if op == "call":
        _op, target, args, kwargs, changed = request
        # stdout is the process's own (a pipe the judge reads): what the call printed is in it
        # before the answer, flushed here
        started = time.process_time()
        try:
            value = objects.by_id[target](*args, **kwargs)
        finally:
            objects.calls_cpu += time.process_time() - started
            flush_output()
        back = [args[i] if type(i) is int else kwargs[i] for i in changed]
        return ("ok", value, back, "")
    if op == "calls_cpu":
        return ("ok", objects.calls_cpu, [], "")
    if op == "getattr":
        return ("ok", getattr(objects.by_id[request[1]], request[2]), [], "")
    if op == "setattr":
        setattr(objects.by_id[request[1]], request[2], request[3])
        return ("ok", None, [], "")
    return ("ok", OPERATIONS[op](objects.by_id[request[1]], *request[2]), [], "")


def namespace_of(mod):
    """The program's top-level names the tests may use: every name but the module's own dunders."""
    return {k: v for k, v in mod.__dict__.items() if not (k.startswith("__") and k.endswith("__"))}


def serve_host(calls_r, replies_w, run_dir, main_path, seal, unittest_too, undo, name="__main__"):
    """Run the program, then answer requests until the judge closes the pipe. Never returns.
    undo: undoes the upstream rules (harness_rules) before the seal check, as an unsplit run does;
    name: the program module's name (harness_rules.main_name)."""
    objects = Objects()
    mod = new_main_module(run_dir, main_path, name)
    try:
        exec_program(mod, main_path)
        first = ("ready", namespace_of(mod))
    except BaseException as exc:  # noqa: BLE001 - SystemExit included: the tests did not run
        first = ("failed", describe_exception(exc, run_dir))
    # What the program printed at import time is in the run's output before anything the tests
    # print (the judge writes a call's output itself), and survives the judge ending this process.
    flush_output()
    try:
        send(replies_w, first, objects.handle_of)
        while True:
            try:
                request = recv(calls_r, objects.handle)
            except Broken:
                break
            if request[0] == "seal":
                undo()
                reply = ("ok", seal_check(seal, unittest_too) if seal is not None else None, [], "")
            else:
                try:
                    reply = answer(objects, request, run_dir)
                except BaseException as exc:  # noqa: BLE001 - the judge raises its plain copy
                    reply = exception_record(objects, exc, run_dir)
            try:
                send(replies_w, reply, objects.handle_of)
            except Refused as exc:
                send(replies_w, exception_record(objects, exc, run_dir), objects.handle_of)
    except BaseException:  # noqa: BLE001 - the judge sees the pipe close
        pass
    flush_output()
    os._exit(0)


def flush_output():
    """Flush the program's stdout and stderr (it may have closed or replaced them)."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
