"""A probe judged apart (GbPoolConfig.probes_apart: `compare`): the probe's logic runs here, in
the run's child, and the program in a process of its own, started exactly as a split test run
starts it (harness_judge.start_host): the program runs as __main__, then its entry point is
called with plain data through harness_codec, its stdout a pipe. What a call returns, prints,
raises and does to its arguments is recorded here, with the time it took, measured here; nothing
of the recorder (timer, signal handler, captured stream, result record, inputs) is in the
program's process, and its frames are those of a test run's. The probe's fields come as a
descriptor read only after the program's process was forked. An input that runs past its limit
is a timeout and the program's process is started again for the next one.

The descriptions are harness_probe's (probe_canon, probe_clip): an object that stays in the
program's process (a handle) is described by its type's name and its attributes, asked of the
program as plain data. Stdio probes judged apart do not come here: genebench runs each of their
inputs as an ordinary stdio run (src/runner/probe.c).
"""

import os
import signal
import time

from harness_judge import CallTimeout, Handle, ProcessExit, ProgramError, end_host, judge_namespace, start_host
from harness_probe import STEP_OUT_SEP, probe_args_builder, probe_canon, probe_clip, probe_sequence_builder
from harness_rules import main_name
from harness_wire import decode, text

DESCRIBE_DEPTH = 8  # handles inside handles are described this deep, then by their type's name


def cpu_clock(pid):
    """The clock id of process pid's CPU time (Linux: CPUCLOCK_SCHED of the whole process)."""
    return ((~pid) << 3) | 2


class Program:
    """The program's process and what the probe knows of it: started (again) on demand."""

    def __init__(self, req, run_dir, main_path, private, seal, libc):
        self.args = (req, run_dir, main_path, private, seal, libc)
        self.pid = self.link = self.namespace = None
        self.failure = None

    def start(self):
        """Start the program's process; the namespace of its names, or None (self.failure says why)."""
        if self.link is not None:
            return self.namespace
        req, run_dir, main_path, private, seal, libc = self.args
        self.pid, self.link = start_host(req, run_dir, main_path, private, seal, libc, False)
        self.link.keep_output = True
        try:
            first = self.link.receive()
            if type(first) is tuple and len(first) == 2 and first[0] == "failed" and type(first[1]) is dict:
                self.failure = {k: v for k, v in first[1].items()
                                if k in ("exc_type", "exc_message", "failed_test") and type(v) is str}
                return None
            self.namespace = judge_namespace(self.link, first, main_name(req))
        except BaseException as exc:  # noqa: BLE001 - the program did not come up
            self.failure = {"exc_type": type(exc).__name__, "exc_message": str(exc)[:400]}
            return None
        self.link.take_output()  # what it printed at import time is no call's output
        return self.namespace

    def stop(self):
        if self.link is not None:
            end_host(self.pid, self.link, grace=0.05)
        self.pid = self.link = self.namespace = None

    def cpu(self):
        try:
            return time.clock_gettime(cpu_clock(self.pid))
        except OSError:
            return None


def plain(x, depth):
    """x with every handle replaced by what describes its object."""
    t = type(x)
    if isinstance(x, Handle):
        name = object.__getattribute__(x, "_name")
        kind = object.__getattribute__(x, "_kind")
        if kind != "o" or depth >= DESCRIBE_DEPTH:
            return Opaque(name)
        try:
            attrs = x.__dict__
        except CallTimeout:
            raise
        except BaseException:  # noqa: BLE001 - an object without attributes
            return Opaque(name)
        if type(attrs) is not dict:
            return Opaque(name)
        return Named(name, {k: plain(v, depth + 1) for k, v in attrs.items()})
    if t in (list, tuple, set, frozenset):
        return t(plain(v, depth + 1) for v in x)
    if t is dict:
        return {k: plain(v, depth + 1) for k, v in x.items()}
    return x


class Opaque:
    """An object described by its type's name only."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<%s>" % self.name


class Named:
    """An object described by its type's name and attributes."""

    def __init__(self, name, attrs):
        self.name, self.attrs = name, attrs


def canon(x, np):
    """probe_canon, with Named and Opaque read as probe_canon reads an object of that type."""
    if isinstance(x, Opaque):
        return "<%s>" % x.name
    if isinstance(x, Named):
        return "%s%s" % (x.name, canon(x.attrs, np))
    if type(x) in (list, tuple):
        inner = [canon(v, np) for v in x]
        if type(x) is list:
            return "[" + ", ".join(inner) + "]"
        return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
    if type(x) is dict:
        return "{" + ", ".join(sorted("%s: %s" % (canon(k, np), canon(v, np)) for k, v in x.items())) + "}"
    if type(x) in (set, frozenset):
        items = ", ".join(sorted(canon(v, np) for v in x))
        return ("frozenset" if type(x) is frozenset else "set") + "({" + items + "})"
    return probe_canon(x, np)


def value_of(x, np):
    return canon(plain(x, 0), np)


def calls_cpu(prog):
    """The program's process's count of CPU seconds spent in calls (harness_host.CALLS_CPU), or
    None. The process can change it, so it only ever lowers the probe's own measure."""
    if prog.link is None:
        return None
    try:
        value = prog.link.ask(("calls_cpu",))
    except BaseException:  # noqa: BLE001 - no count: the probe's own measure stands
        return None
    return value if type(value) is float else None


def call_once(prog, mode, entry, build, np):
    """One input on the running program: (value, output). Raises CallTimeout."""
    fn = prog.namespace.get(entry)
    if mode == "call":
        args, kwargs = build()
        try:
            value = "ret=" + value_of(fn(*args, **kwargs), np)
        except (CallTimeout, ProgramError, ProcessExit):
            raise
        except Exception as exc:  # noqa: BLE001 - the program's exception, rebuilt here
            value = "raise=" + type(exc).__name__
        try:
            value += ";args=" + canon((args, kwargs), np)
        except CallTimeout:
            raise
        except Exception as exc:  # noqa: BLE001
            value += ";args=<%s>" % type(exc).__name__
        return probe_clip(value)
    descs = []
    obj = None
    for kind, name, step_build in build:
        if kind == "class":  # the steps run on the class itself (static and class methods)
            obj = fn
            descs.append("class")
            continue
        args, kwargs = step_build()
        try:
            if kind == "new":
                obj = fn(*args, **kwargs)
                head = "new"
            elif kind == "call":
                head = "ret=" + value_of(getattr(obj, name)(*args, **kwargs), np)
            else:
                setattr(obj, name, args[0])
                head = "set"
        except (CallTimeout, ProgramError, ProcessExit):
            raise
        except Exception as exc:  # noqa: BLE001
            head = "raise=" + type(exc).__name__
            if kind == "new":
                descs.append(head)
                break
        try:
            state = value_of(obj.__dict__, np) if isinstance(obj, Handle) else "<%s>" % type(obj).__name__
        except CallTimeout:
            raise
        except Exception as exc:  # noqa: BLE001
            state = "<%s>" % type(exc).__name__
        descs.append(probe_clip(head + ";state=" + state + ";args=" + canon((args, kwargs), np)))
    return STEP_OUT_SEP.join(descs)


def read_spec(fd):
    parts = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        parts.append(chunk)
    os.close(fd)
    return decode(b"".join(parts))


def run_probe_apart(req, run_dir, main_path, result, private, seal, libc, np):
    """The probe of req (its fields in private[2]) with the program in a process of its own."""
    if libc is not None:
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: the program's process cannot read the judge
    prog = Program(req, run_dir, main_path, private, seal, libc)
    try:
        prog.start()
        spec = read_spec(private[2])
        probe_inputs(spec, prog, result, np)
    finally:
        prog.stop()


def probe_inputs(spec, prog, result, np):
    mode = text(spec, "mode", "call")
    entry = text(spec, "entry")
    inputs = text(spec, "inputs").split("\0") if text(spec, "inputs") else []
    limit = float(text(spec, "limit", "1"))
    budget = float(text(spec, "budget", "5"))
    cost_mask, cost_cpu, cost_spent = text(spec, "cost"), float(text(spec, "costcpu", "0")), 0.0
    if prog.namespace is None:
        result.update(prog.failure or {"exc_type": "ProgramError", "exc_message": "the program did not start"})
        result["outcome"] = "fail"
        return
    fn = prog.namespace.get(entry)
    if not (isinstance(fn, Handle) and object.__getattribute__(fn, "_kind") in "fc"):
        result.update({"outcome": "fail", "exc_type": "NameError",
                       "exc_message": "the program defines no callable %s" % entry})
        return
    t_all = time.monotonic()
    for i, item in enumerate(inputs):
        key = str(i)
        try:
            build = probe_args_builder(item) if mode == "call" else probe_sequence_builder(item)
        except BaseException:  # noqa: BLE001 - a bad input is genebench's bug: no result
            build = None
        costs = cost_mask[i:i + 1] == "1"
        if build is None or time.monotonic() - t_all > budget or (costs and cost_spent > cost_cpu) or \
                prog.start() is None:
            result["s" + key] = "skip"
            continue
        status, value = "ok", ""
        c0, w0, k0 = prog.cpu(), time.monotonic(), calls_cpu(prog)
        prog.link.deadline = w0 + limit
        try:
            value = call_once(prog, mode, entry, build, np)
        except CallTimeout:
            status = "timeout"
        except ProcessExit:
            value = "exit"  # the program's process ended in the call (os._exit): started again
            prog.stop()
        except ProgramError as exc:
            result.update({"outcome": "fail", "exc_type": type(exc).__name__, "exc_message": str(exc)[:400]})
            return
        w1 = time.monotonic()
        c1 = prog.cpu() if prog.link is not None else None
        out = ""
        if prog.link is not None:
            prog.link.deadline = None
            out = prog.link.take_output().decode("utf-8", "replace")
        if status == "timeout" or w1 - w0 > limit:
            status = "timeout"
            if prog.link is not None:
                os.kill(prog.pid, signal.SIGKILL)
                prog.stop()  # the next input starts the program again
        result["s" + key] = status
        result["v" + key] = value if mode == "class" else probe_clip(value)
        result["o" + key] = probe_clip(out)
        cost = c1 - c0 if c0 is not None and c1 is not None else w1 - w0
        k1 = calls_cpu(prog) if status == "ok" else None
        if k0 is not None and k1 is not None and 0 <= k1 - k0 < cost:
            # the calls alone: crossing a 4096-element argument costs as much as an O(n) call
            cost = k1 - k0
        result["c" + key] = repr(cost)
        result["w" + key] = repr(w1 - w0)
        if costs:
            cost_spent += cost
    result["n"] = len(inputs)
    result["outcome"] = "pass"
