"""The probes (equivalence).

A probe (kind "probe", nsga2/equiv.h) runs the program once, then calls its entry point on
each input of the request (literal argument lists that genebench checked against its
whitelist, src/model/calls.h), or makes an object of its entry point (a class) and runs a call
sequence on it (mode "class", src/model/sequences.h: the constructor, method calls and
attribute assignments, each with whitelisted literal arguments), or runs it as __main__ once
per stdin text (mode "stdio"), and
sends back per input a canonical description of what happened: returned value or exception
type, the arguments after the call (mutation), captured stdout, and the CPU and wall time of
the call. With "cover" set, the branches the program's own code took on each input are sent too
(probe_branches below; genebench's search for inputs keeps those that reach new ones). genebench
compares the descriptions of two programs; nothing is compared here, so
the program never sees the original's results. Everything the description is built with is
bound before the program runs (default arguments below; the seal checks the harness's
functions and the builtins after the run), so a program that replaces a builtin during a call
cannot change how its result is described.
"""

import os
import signal
import sys
import time

from harness_program import describe_exception, exec_program, new_main_module
from harness_rules import main_name
from harness_seal import seal_before_tests
from harness_wire import text


class ProbeTimeout(BaseException):
    """A probed call ran past its time limit (raised by the SIGALRM handler)."""


PROBE_MAX_VALUE = 2000  # longer descriptions are replaced by their length and SHA-256


def probe_number(x, _float=float, _int=int, _abs=abs):
    """Numbers by value, as == compares them: 1, 1.0 and True-free numpy integers all read
    "1"; a non-integral float reads with 10 significant digits (floats that agree to about
    1e-10 relative agree), nan reads "nan", -0.0 reads "0"."""
    if _type_is(x, _int):
        return int.__repr__(x)
    if x != x:
        return "nan"
    if x in (_float("inf"), _float("-inf")):
        return "inf" if x > 0 else "-inf"
    if x == _int(x) and _abs(x) < 2.0 ** 53:
        return int.__repr__(_int(x))
    return "%.10g" % x


def _type_is(x, t, _type=type):
    return _type(x) is t


def probe_canon(x, np, depth=0, seen=None, _type=type, _isinstance=isinstance, _id=id, _len=len, _sorted=sorted,
                _int=int, _float=float, _bool=bool, _str=str, _bytes=bytes, _bytearray=bytearray,
                _complex=complex, _list=list, _tuple=tuple, _dict=dict, _set=set, _frozenset=frozenset,
                _getattr=object.__getattribute__, _str_repr=str.__repr__, _bytes_repr=bytes.__repr__,
                _join=str.join, _BaseException=BaseException, _callable=callable, _slice=slice):
    """The canonical description of a value (a str). Containers by content (a subclass reads as
    its base), dicts and sets sorted by the descriptions of their keys, numpy scalars and arrays
    by value, other objects as their type's name and their attributes. np is the numpy module
    the worker preloaded, or None."""
    if seen is None:
        seen = set()
    if depth > 40:
        return "..."
    if x is None or x is True or x is False:
        return "True" if x is True else "False" if x is False else "None"
    t = _type(x)
    if np is not None and _isinstance(x, np.generic):
        try:
            x = x.item()
            t = _type(x)
        except Exception:  # noqa: BLE001
            return "<numpy %s>" % t.__name__
        if x is True or x is False:
            return "True" if x is True else "False"
    if _isinstance(x, (_int, _float)) and not _isinstance(x, _bool):
        return probe_number(_int.__int__(x) if _isinstance(x, _int) else _float.__float__(x))
    if _isinstance(x, _complex):
        return "complex(%s, %s)" % (probe_number(x.real), probe_number(x.imag))
    if _isinstance(x, _str):
        return _str_repr(_str.__str__(x))
    if _isinstance(x, (_bytes, _bytearray)):
        return _bytes_repr(_bytes(x))
    if _id(x) in seen:
        return "<cycle>"
    seen.add(_id(x))
    try:
        if np is not None and _isinstance(x, np.ndarray):
            return "ndarray(%s, %s)" % (_str(x.shape), probe_canon(x.tolist(), np, depth + 1, seen))
        if _isinstance(x, _list):
            return "[" + _join(", ", [probe_canon(e, np, depth + 1, seen) for e in _list.copy(x)]) + "]"
        if _isinstance(x, _tuple):
            items = [probe_canon(e, np, depth + 1, seen) for e in _tuple.__getitem__(x, _slice(None))]
            return "(" + _join(", ", items) + ("," if _len(items) == 1 else "") + ")"
        if _isinstance(x, _dict):
            pairs = [(probe_canon(k, np, depth + 1, seen), probe_canon(v, np, depth + 1, seen))
                     for k, v in _dict.items(_dict.copy(x))]
            return "{" + _join(", ", ["%s: %s" % kv for kv in _sorted(pairs)]) + "}"
        if _isinstance(x, (_set, _frozenset)):
            items = _sorted(probe_canon(e, np, depth + 1, seen) for e in _frozenset(x))
            return ("frozenset" if _isinstance(x, _frozenset) else "set") + "({" + _join(", ", items) + "})"
        if _isinstance(x, _BaseException):
            return "%s%s" % (t.__name__, probe_canon(_tuple(x.args), np, depth + 1, seen))
        try:
            attrs = _getattr(x, "__dict__")
        except Exception:  # noqa: BLE001
            attrs = None
        if _isinstance(attrs, _dict) and not _isinstance(x, _type) and not _callable(x):
            return "%s%s" % (t.__name__, probe_canon(attrs, np, depth + 1, seen))
        return "<%s>" % t.__name__
    finally:
        seen.discard(_id(x))


def probe_clip(s, _len=len):
    if _len(s) <= PROBE_MAX_VALUE:
        return s
    import hashlib

    return "<%d chars sha256 %s>" % (_len(s), hashlib.sha256(s.encode("utf-8", "surrogateescape")).hexdigest())


def probe_alarm(signum, frame):
    raise ProbeTimeout()


def probe_args_builder(text_args, _compile=compile, _eval=eval):
    """A function that makes the call's arguments afresh (so a mutation in one call never
    reaches the next): the literal argument list, evaluated with only the data constructors in
    scope. The text passed genebench's whitelist of literal data (src/model/calls.h)."""
    code = _compile("_gb_args(%s)" % text_args, "<probe input>", "eval")
    env = {"__builtins__": {}, "_gb_args": lambda *a, **k: (a, k), "set": set, "frozenset": frozenset,
           "list": list, "tuple": tuple, "dict": dict, "int": int, "float": float, "complex": complex,
           "str": str, "bytes": bytes, "bytearray": bytearray, "bool": bool}
    return lambda: _eval(code, dict(env))


STEP_SEP = "\x1f"  # between the steps of a call sequence (src/model/sequences.h)
STEP_OUT_SEP = "\x1e"  # between the descriptions of the steps (src/runner/runner.h)


def probe_sequence_builder(text_seq):
    """The steps of a call sequence as (kind, name, arguments builder): kind "new" (the
    constructor), "class" (first step `Name=`: the steps run on the class itself), "call" (a
    method) or "set" (an attribute; its value is the one argument)."""
    steps = []
    for k, step in enumerate(text_seq.split(STEP_SEP)):
        cut = min(i for i in (step.find("("), step.find("="), len(step)) if i >= 0)
        if cut == len(step):
            raise ValueError("malformed step")
        if k == 0 and step[cut] == "=":
            steps.append(("class", "", None))
        elif k == 0:
            steps.append(("new", "", probe_args_builder(step[cut + 1:-1])))
        elif step[cut] == "(":
            steps.append(("call", step[1:cut], probe_args_builder(step[cut + 1:-1])))
        else:
            steps.append(("set", step[1:cut], probe_args_builder(step[cut + 1:])))
    return steps


def probe_run_sequence(cls, steps, np, _getattr=getattr, _setattr=setattr, _type=type,
                       _dict_of=object.__getattribute__):
    """Run a call sequence on a new object of cls; the description of every step: its result
    ("new", "ret=<value>", "set" or "raise=<type>"), the object's attributes after it and the
    step's arguments after it. A ProbeTimeout goes through."""
    descs = []
    obj = None
    for kind, name, build in steps:
        if kind == "class":  # the steps run on the class itself (static and class methods)
            obj = cls
            descs.append("class")
            continue
        args, kwargs = build()
        try:
            if kind == "new":
                obj = cls(*args, **kwargs)
                head = "new"
            elif kind == "call":
                head = "ret=" + probe_canon(_getattr(obj, name)(*args, **kwargs), np)
            else:
                _setattr(obj, name, args[0])
                head = "set"
        except ProbeTimeout:
            raise
        except BaseException as exc:  # noqa: BLE001 - the program's exception is the step's result
            head = "raise=" + _type(exc).__name__
            if kind == "new":
                descs.append(head)
                break
        try:
            state = probe_canon(_dict_of(obj, "__dict__"), np)
        except ProbeTimeout:
            raise
        except BaseException as exc:  # noqa: BLE001 - an object without attributes
            state = "<%s>" % _type(exc).__name__
        try:
            after = probe_canon((args, kwargs), np)
        except ProbeTimeout:
            raise
        except BaseException as exc:  # noqa: BLE001
            after = "<%s>" % _type(exc).__name__
        descs.append(probe_clip(head + ";state=" + state + ";args=" + after))
    return STEP_OUT_SEP.join(descs)


def probe_branches(path):
    """The branch outcomes of the program's source: per if/elif/while/for header (lines lo..hi),
    "<lo>t" (on to the first line of its body) and "<lo>f" (on to any other line, or out of
    the function), per except handler and match case "<line>x" (its first body line ran).
    Headers whose body starts on their own line are left out (lines cannot tell the outcomes
    apart). Returns (two-way branches as (lo, hi, body line), reached-line outcomes as
    (line, id), every outcome id in source order)."""
    import ast

    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            tree = ast.parse(f.read())
    except BaseException:  # noqa: BLE001 - a program that does not parse has no branches
        return [], [], []
    two, reach = [], []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While)):
            hi = node.test.end_lineno
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            hi = node.iter.end_lineno
        elif isinstance(node, ast.ExceptHandler) and node.body:
            reach.append((node.body[0].lineno, "%dx" % node.lineno))
            continue
        elif hasattr(ast, "match_case") and isinstance(node, ast.match_case) and node.body:
            reach.append((node.body[0].lineno, "%dx" % node.pattern.lineno))
            continue
        else:
            continue
        body = node.body[0].lineno
        if node.lineno <= body <= hi:
            continue
        two.append((node.lineno, hi, body))
    two.sort()
    reach.sort()
    ids = [i for lo, _, _ in two for i in ("%dt" % lo, "%df" % lo)] + [i for _, i in reach]
    return two, reach, ids


def probe_span(node):
    return (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)


def probe_expr_ids(path, spans):
    """The outcome ids of the conditional expressions and short circuits of path's code whose
    jumps are known (probe_jumps), by line and column: per `a if c else b` at line L, column C
    "L:Ct" (a was taken) and "L:Cf" (b); per operand k (from 1) of an `and`/`or` but the last
    "L:Cbks" (the operator stopped after it) and "L:Cbkn" (it went on to operand k + 1)."""
    import types

    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            stack = [compile(f.read(), path, "exec")]
    except BaseException:  # noqa: BLE001
        return []
    ids = set()
    while stack:
        code = stack.pop()
        for _, jumped, fell in probe_jumps(code, spans, {}).values():
            ids.update((jumped, fell))
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))

    def key(i):
        line, rest = i.split(":", 1)
        col = rest.rstrip("tf").split("b")[0]
        return int(line), int(col), rest[len(col):]

    return sorted(ids, key=key)


def probe_expr_spans(path):
    """Where the compiler puts the jumps of path's conditional expressions and short circuits:
    {position: [(kind, base id, operands)]}, kind "ifexp" (a conditional jump at the test's or
    the whole expression's position) or "boolop" (the k-th jump-or-pop at the operator's
    position belongs to operand k)."""
    import ast

    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            tree = ast.parse(f.read())
    except BaseException:  # noqa: BLE001
        return {}
    spans = {}
    for node in ast.walk(tree):
        base = "%d:%d" % (node.lineno, node.col_offset) if isinstance(node, (ast.IfExp, ast.BoolOp)) else None
        if isinstance(node, ast.IfExp):
            for span in (probe_span(node.test), probe_span(node)):
                spans.setdefault(span, []).append(("ifexp", base, 1))
        elif isinstance(node, ast.BoolOp):
            spans.setdefault(probe_span(node), []).append(("boolop", base, len(node.values)))
    return spans


def probe_jumps(code, spans, cache):
    """{offset: (target, id if jumped, id if not)} of code's jumps that decide a conditional
    expression or a short circuit (probe_expr_spans), computed once per code object."""
    got = cache.get(code)
    if got is not None:
        return got
    import dis

    got = {}
    claimed = {}
    try:
        for ins in dis.get_instructions(code):
            if "JUMP" not in ins.opname or "IF" not in ins.opname or not isinstance(ins.argval, int):
                continue
            pos = ins.positions
            if pos is None:
                continue
            for kind, base, n in spans.get((pos.lineno, pos.end_lineno, pos.col_offset, pos.end_col_offset), ()):
                k = claimed.get((kind, base), 0)
                if kind == "ifexp" and k == 0 and "OR_POP" not in ins.opname:
                    got[ins.offset] = (ins.argval, base + "f", base + "t")
                elif kind == "boolop" and k < n - 1 and "OR_POP" in ins.opname:
                    got[ins.offset] = (ins.argval, base + "b%ds" % (k + 1), base + "b%dn" % (k + 1))
                else:
                    continue
                claimed[(kind, base)] = k + 1
                break
    except BaseException:  # noqa: BLE001 - no jumps known: lines only
        got = {}
    cache[code] = got
    return got


def probe_tracer(path, arcs, spans=None, cache=None, taken=None):
    """A sys.settrace hook that adds to arcs every (line, next line) step of frames running
    path's code (next line -1: the frame returned) and, with spans (probe_expr_spans), to taken
    the outcome of every conditional expression and short circuit it decides: such frames are
    traced by instruction (frame.f_trace_opcodes), the others by line only."""

    def start(frame, event, arg):
        if frame.f_code.co_filename != path:
            return None
        prev = [frame.f_lineno, -1]
        jumps = probe_jumps(frame.f_code, spans, cache) if spans else {}
        if jumps:
            frame.f_trace_opcodes = True

        def step(frame, event, arg):
            if event == "opcode":
                j = jumps.get(prev[1])
                if j is not None:
                    taken.add(j[1] if frame.f_lasti == j[0] else j[2])
                prev[1] = frame.f_lasti
            elif event == "line":
                arcs.add((prev[0], frame.f_lineno))
                prev[0] = frame.f_lineno
            elif event == "return":
                arcs.add((prev[0], -1))
            return step

        return step

    return start


def probe_outcomes(two, reach, arcs):
    """The outcome ids reached by arcs (probe_branches)."""
    got = []
    lines = {b for _, b in arcs}
    for lo, hi, body in two:
        t = f = False
        for a, b in arcs:
            if lo <= a <= hi:
                if b == body:
                    t = True
                elif not lo <= b <= hi:
                    f = True
        if t:
            got.append("%dt" % lo)
        if f:
            got.append("%df" % lo)
    for line, i in reach:
        if line in lines:
            got.append(i)
    return got


def run_probe(req, run_dir, main_path, result, np, _process_time=time.process_time, _monotonic=time.monotonic,
              _setitimer=signal.setitimer, _signal=signal.signal, _open=open):
    import io

    mode = text(req, "mode", "call")
    name = main_name(req)
    entry = text(req, "entry")
    inputs = text(req, "inputs").split("\0") if text(req, "inputs") else []
    limit = float(text(req, "limit", "1"))
    budget = float(text(req, "budget", "5"))
    cost, cost_cpu, cost_spent = text(req, "cost"), float(text(req, "costcpu", "0")), 0.0
    cover = text(req, "cover") == "1"
    two, reach, branch_ids = probe_branches(main_path) if cover else ([], [], [])
    spans, jump_cache = (probe_expr_spans(main_path) if cover else {}), {}
    branch_ids = branch_ids + probe_expr_ids(main_path, spans) if cover else branch_ids
    builders = []
    if mode in ("call", "class"):
        for item in inputs:
            try:
                builders.append(probe_args_builder(item) if mode == "call" else probe_sequence_builder(item))
            except BaseException:  # noqa: BLE001 - a bad input is genebench's bug: no result
                builders.append(None)
    string_io, bytes_io, text_wrapper = io.StringIO, io.BytesIO, io.TextIOWrapper
    old_handler = _signal(signal.SIGALRM, probe_alarm)
    fn = None
    mod = None
    if mode in ("call", "class"):
        mod = new_main_module(run_dir, main_path, name)
        try:
            exec_program(mod, main_path)
            seal_before_tests()
        except BaseException as exc:  # noqa: BLE001
            result.update(describe_exception(exc, run_dir))
            result["outcome"] = "fail"
            return
        fn = mod.__dict__.get(entry)
        if fn is None or not callable(fn):
            result.update({"outcome": "fail", "exc_type": "NameError",
                           "exc_message": "the program defines no callable %s" % entry})
            return
    t_all = _monotonic()
    real_stdout, real_stdin = sys.stdout, sys.stdin
    for i, item in enumerate(inputs):
        key = str(i)
        costs = cost[i:i + 1] == "1"
        if _monotonic() - t_all > budget or (costs and cost_spent > cost_cpu):
            result["s" + key] = "skip"
            continue
        out_buf = None
        arcs, taken = set(), set()
        status = "ok"
        value = ""
        c0 = w0 = 0.0
        try:
            if mode in ("call", "class"):
                if builders[i] is None:
                    result["s" + key] = "skip"
                    continue
                if mode == "call":
                    args, kwargs = builders[i]()
                sys.stdout = out_buf = string_io()
            else:
                path = os.path.join(run_dir, "probe_stdin.txt")
                with _open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(item)
                fd = os.open(path, os.O_RDONLY)
                if fd != 0:  # a program's open(0) closed fd 0 with its file: os.open took it again
                    os.dup2(fd, 0)
                    os.close(fd)
                sys.stdin = _open(0, "r", closefd=False)
                raw = bytes_io()
                sys.stdout = out_buf = text_wrapper(raw, encoding="utf-8", errors="replace", write_through=True)
                out_buf.raw_bytes = raw
            if cover:
                sys.settrace(probe_tracer(main_path, arcs, spans, jump_cache, taken))
            c0, w0 = _process_time(), _monotonic()
            _setitimer(signal.ITIMER_REAL, limit)
            try:
                if mode == "call":
                    ret = fn(*args, **kwargs)
                    value = "ret=" + probe_canon(ret, np)
                elif mode == "class":
                    value = probe_run_sequence(fn, builders[i], np)
                else:
                    smod = new_main_module(run_dir, main_path, name)
                    try:
                        exec_program(smod, main_path)
                        value = "exit=0"
                    except SystemExit as exc:
                        value = "exit=0" if exc.code in (None, 0) else "exit=%s" % probe_canon(exc.code, np)
            finally:
                _setitimer(signal.ITIMER_REAL, 0)
                if cover:
                    sys.settrace(None)
        except ProbeTimeout:
            status = "timeout"
        except BaseException as exc:  # noqa: BLE001 - the program's exception is the result
            value = "raise=" + type(exc).__name__
        c1, w1 = _process_time(), _monotonic()
        sys.stdout, sys.stdin = real_stdout, real_stdin
        if w1 - w0 > limit:
            status = "timeout"
        out = ""
        if out_buf is not None:
            try:
                if mode != "stdio":
                    out = string_io.getvalue(out_buf)
                else:
                    out_buf.flush()
                    out = out_buf.raw_bytes.getvalue().decode("utf-8", "replace")
            except BaseException:  # noqa: BLE001
                out = "<unreadable output>"
        if mode == "call" and status == "ok":
            try:
                value += ";args=" + probe_canon((args, kwargs), np)
            except BaseException as exc:  # noqa: BLE001
                value += ";args=<%s>" % type(exc).__name__
        result["s" + key] = status
        result["v" + key] = value if mode == "class" else probe_clip(value)  # class: clipped per step
        result["o" + key] = out[:1 << 14] if mode == "stdio" else probe_clip(out)
        result["c" + key] = repr(c1 - c0)
        result["w" + key] = repr(w1 - w0)
        if costs:
            cost_spent += c1 - c0
        if cover:
            result["b" + key] = " ".join(probe_outcomes(two, reach, arcs) + sorted(taken))
    if cover:
        result["branches"] = " ".join(branch_ids)
    _signal(signal.SIGALRM, old_handler)
    result["n"] = len(inputs)
    result["outcome"] = "pass"

