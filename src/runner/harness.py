"""genebench test-runner worker ("zygote").

This file is embedded into the genebench binary and written to a private temporary
directory when a pool starts (src/runner/pool.c). It is started as

    PYTHON -s -B harness.py CTL_FD [--lint] [--seccomp] [--warm-dir DIR] [--preload stdlib|numpy]

with a connected AF_UNIX stream socket on CTL_FD. It imports the heavy modules once,
freezes the heap, and then serves requests: for every run it forks a child that sets up
the sandbox (new session, rlimits, optional uid drop, run directory as cwd) and runs the
program and its tests, one run at a time. A lint worker (--lint) serves several runs at
once (serve_lint): the lint sessions of every genebench thread, each tagged; it is ready
once pylint is imported and its linter built, and warms up the rest between requests.
Results travel as structured records, never as parsed text.

Wire format (both directions): u32 little-endian body length, then the body: a sequence
of fields, each u32 key length, key bytes, u32 value length, value bytes. Requests that
run something carry three file descriptors (SCM_RIGHTS) on their first bytes: stdin,
stdout and stderr for the child.
"""

import contextlib
import gc
import os
import re
import resource
import select
import signal
import socket
import struct
import sys
import time

CTL_FD = int(sys.argv[1])
ARGS = sys.argv[2:]
LINT = "--lint" in ARGS
SECCOMP = "--seccomp" in ARGS
WARM_DIR = ARGS[ARGS.index("--warm-dir") + 1] if "--warm-dir" in ARGS else None
NATIVE_PATH = ARGS[ARGS.index("--native") + 1] if "--native" in ARGS else None
REMAP = "--remap" in ARGS
# The import set of a test worker (src/runner/tier.c picks one per run): "stdlib" preloads the
# standard-library modules of PRELOAD only, "numpy" those and numpy, no --preload everything.
# A run whose program imports more imports it in its child: the choice costs time, never
# correctness.
TIER = ARGS[ARGS.index("--preload") + 1] if "--preload" in ARGS else "full"

# Modules every worker preloads: what benchmark programs and the operators' library calls
# use (A1-A8). Order matters only for the error message.
PRELOAD = [
    "numpy", "scipy", "scipy.stats", "sklearn", "sklearn.utils", "cryptography",
    "cryptography.fernet", "dateutil", "dateutil.parser", "threading", "queue", "unittest",
    "http.client", "base64", "datetime", "time", "collections", "itertools", "functools",
    "math", "re", "string", "heapq", "bisect", "random", "json", "copy", "types",
    "traceback", "linecache", "resource", "ctypes", "io", "hashlib", "statistics",
    "fractions", "decimal", "operator", "typing", "sqlite3", "tempfile", "shutil",
]
THIRD_PARTY = ("numpy", "scipy", "sklearn", "cryptography", "dateutil")
TIER_PRELOAD = {
    "stdlib": [m for m in PRELOAD if m.split(".")[0] not in THIRD_PARTY],
    "numpy": [m for m in PRELOAD if m.split(".")[0] not in THIRD_PARTY or m == "numpy"],
    "full": PRELOAD,
}
LINT_PRELOAD = ["pylint", "pylint.lint", "pylint.reporters.collecting_reporter"]

# pylint options used by gb_pool_lint (documented in src/runner/runner.h).
PYLINT_OPTIONS = [
    "--rcfile=" + os.devnull,
    "--persistent=n",
    "--jobs=1",
    "--score=y",
    "--reports=n",
    "--disable=missing-module-docstring,missing-class-docstring,missing-function-docstring",
    "--ignored-modules=" + ",".join(THIRD_PARTY),
]

MAX_FIELD = 4096
LIBC = None  # ctypes handle on libc, loaded once by main()  # longest exception message / test name sent back


# ---------------------------------------------------------------- wire format
def encode(fields):
    parts = []
    for key, value in fields.items():
        kb = key.encode()
        if isinstance(value, bytes):
            vb = value
        else:
            vb = str(value).encode("utf-8", "surrogateescape")
        parts.append(struct.pack("<I", len(kb)))
        parts.append(kb)
        parts.append(struct.pack("<I", len(vb)))
        parts.append(vb)
    body = b"".join(parts)
    return struct.pack("<I", len(body)) + body


def decode(body):
    fields = {}
    i = 0
    n = len(body)
    while i + 4 <= n:
        (kl,) = struct.unpack_from("<I", body, i)
        i += 4
        key = body[i:i + kl].decode()
        i += kl
        (vl,) = struct.unpack_from("<I", body, i)
        i += 4
        fields[key] = body[i:i + vl]
        i += vl
    return fields


def send(sock, fields):
    sock.sendall(encode(fields))


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def recv_msg(sock):
    """Next request and the descriptors that came with it, or (None, []) at EOF."""
    head = b""
    fds = []
    while len(head) < 4:
        data, got, _flags, _addr = socket.recv_fds(sock, 4 - len(head), 8)
        if not data:
            for fd in got:
                os.close(fd)
            for fd in fds:
                os.close(fd)
            return None, []
        head += data
        fds.extend(got)
    (length,) = struct.unpack("<I", head)
    body = recv_exact(sock, length) if length else b""
    if body is None:
        for fd in fds:
            os.close(fd)
        return None, []
    return decode(body), fds


def text(fields, key, default=""):
    value = fields.get(key)
    if value is None:
        return default
    return value.decode("utf-8", "surrogateescape")


def clip(s):
    s = str(s)
    return s if len(s) <= MAX_FIELD else s[:MAX_FIELD] + "..."


# ---------------------------------------------------------------- sandbox helpers
def install_seccomp():
    """Refuse socket() for every family but AF_UNIX (plain mode: no network namespace)."""
    import ctypes
    import platform

    arches = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}
    machine = platform.machine()
    if machine not in arches:
        return False
    audit_arch, nr_socket = arches[machine]
    ld_w_abs, jeq_k, jge_k, ret_k = 0x20, 0x15, 0x35, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ERRNO | EACCES
    prog = [
        (ld_w_abs, 0, 0, 4),             # 0: A = arch
        (jeq_k, 0, 7, audit_arch),       # 1: other arch -> deny (8)
        (ld_w_abs, 0, 0, 0),             # 2: A = nr
        (jge_k, 5, 0, 0x40000000),       # 3: x32 ABI -> deny (9)
        (jeq_k, 0, 3, nr_socket),        # 4: not socket -> allow (8)
        (ld_w_abs, 0, 0, 16),            # 5: A = args[0] (low half)
        (jeq_k, 1, 0, 1),                # 6: AF_UNIX -> allow (8)
        (ret_k, 0, 0, deny),             # 7
        (ret_k, 0, 0, allow),            # 8
        (ret_k, 0, 0, deny),             # 9
    ]
    # Instruction 1 jumps to 9 on a foreign arch (jf=7 from 1 lands on 9).
    raw = b"".join(struct.pack("<HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw)

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog), ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    return libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0  # PR_SET_SECCOMP, FILTER


NATIVE = None  # the worker's shared object (src/runner/remap.c, src/runner/runwait.c), when it loads
NATIVE_WHY = "not given"


def load_native():
    """Load the shared object genebench wrote next to this file. PyDLL: its calls keep the
    GIL, so nothing else runs while mappings are being replaced. Without it the worker uses
    the Python wait loop (serve_run_py) and does not remap."""
    global NATIVE, NATIVE_WHY
    if not NATIVE_PATH:
        return
    import ctypes

    try:
        lib = ctypes.PyDLL(NATIVE_PATH)
    except OSError as exc:
        NATIVE_WHY = str(exc)
        return
    lib.gb_remap.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.gb_remap.restype = ctypes.c_int
    lib.gb_run_wait.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_size_t)]
    lib.gb_run_wait.restype = ctypes.c_int
    lib.gb_run_drain.argtypes = [ctypes.c_int, ctypes.c_size_t]
    lib.gb_run_drain.restype = ctypes.c_size_t
    lib.gb_run_result.argtypes = []
    lib.gb_run_result.restype = ctypes.c_void_p
    NATIVE = lib


def remap():
    """Replace the library and interpreter mappings by huge-page-backed anonymous memory
    holding the same bytes (src/runner/remap.c). Returns its one-line report."""
    import ctypes

    if NATIVE is None:
        collapse_heap()
        return "not remapped: cannot load %s: %s" % (NATIVE_PATH, NATIVE_WHY)
    report = ctypes.create_string_buffer(256)
    moved = NATIVE.gb_remap(report, len(report))
    if moved < 0:
        collapse_heap()
    return report.value.decode("utf-8", "replace")


def collapse_heap():
    """Back the frozen heap with transparent huge pages (MADV_COLLAPSE, Linux >= 6.1).
    A fork then copies a few page-middle-directory entries instead of thousands of page
    table entries; measured: fork+exit of a warm worker 7.4 ms -> 4.1 ms."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        with open("/proc/self/maps") as maps:
            lines = maps.readlines()
        for line in lines:
            parts = line.split()
            if not parts[1].startswith("rw") or (len(parts) > 5 and parts[5] != "[heap]"):
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            start = (lo + 0x1FFFFF) & ~0x1FFFFF
            end = hi & ~0x1FFFFF
            if end > start:
                libc.madvise(start, end - start, 25)  # MADV_COLLAPSE
    except (OSError, AttributeError, ValueError):
        pass


LINTER = None  # the PyLinter of the warm-up run, reused by every lint (options parsed once)
WARMED = False  # whether the lint worker had ended its warm-up when this process forked from it

# The warm-up program when genebench gives none (genebench's commands give one built from
# the operators' library calls: gb_api_warm_program in operators/api_call.c).
WARM_SOURCE = """import numpy as np
import scipy.stats
from sklearn.utils import shuffle


def f(x):
    return np.sum(x) + scipy.stats.norm.pdf(0) + len(shuffle([1]))
"""


def warm_pylint():
    """The lint worker's warm-up, in two stages. This first one builds the linter (options
    parsed, checkers loaded, the builtins module inferred) on a one-line program and lints
    it twice, the second time through the path every later lint takes (check() on the kept
    linter), so that what that initialises on first use is in the image every session
    forks from. It takes about 0.1 s after pylint's import, and the worker is ready then.
    Returns the second stage as a list of steps (warm_steps), which serve_lint runs between
    requests."""
    if not WARM_DIR:
        return []
    path = os.path.join(WARM_DIR, "warm.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(WARM_SOURCE)
    first = os.path.join(WARM_DIR, "warm_first.py")
    with open(first, "w") as f:
        f.write("VALUE = 1\n")
    with warm_context():
        run_pylint([first])
        run_pylint([first])
    return warm_steps(path)


@contextlib.contextmanager
def warm_context():
    """Run a warm-up step from the warm directory, as a lint runs from its own, and leave
    nothing of it behind but the library modules astroid built."""
    cwd = os.getcwd()
    saved_path = list(sys.path)
    try:
        os.chdir(WARM_DIR)
        yield
    finally:
        os.chdir(cwd)
        sys.path[:] = saved_path
        forget_modules(WARM_DIR)


def warm_steps(path):
    """The second stage of the warm-up: have astroid build each standard-library module
    that the warm program (genebench's: the modules its operators insert calls of) imports,
    one step each, then lint the program once, which infers its calls. Each step builds
    whole modules: a session forked between two steps starts from a consistent cache and
    builds what it lacks itself, as a fresh pylint would. Building http.client alone is
    about 0.9 s (it infers into ssl), datetime 0.3 s; the whole stage about 2 s."""
    import ast

    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found = [node.module]
        else:
            continue
        names += [n for n in found if n.partition(".")[0] not in THIRD_PARTY and n not in names]

    def build(name):
        from astroid import MANAGER

        with warm_context():
            try:
                MANAGER.ast_from_module_name(name)
            except Exception:  # noqa: BLE001 - the lint step below meets the same error, if it matters
                pass

    def lint():
        with warm_context():
            run_pylint([path])

    return [lambda name=name: build(name) for name in names] + [lint]


def libraries_opaque():
    """Make the third-party libraries opaque to astroid: a module whose top-level package is
    in THIRD_PARTY is never parsed, so what a program takes from it is uninferable, and
    --ignored-modules (PYLINT_OPTIONS) keeps pylint from reporting it as missing. Parsing
    them was most of pylint's warm-up (numpy and scipy.stats alone: 5 of 8.5 s on a quiet
    host) and a third of each lint; on 293 benchmark and hardened programs, 28 of them
    with library calls, every score and message was the same (README: the lint gate).
    The standard library is still parsed. Idempotent."""
    import astroid.manager
    from astroid.exceptions import AstroidImportError

    manager = astroid.manager.AstroidManager
    if getattr(manager, "genebench_opaque", False):
        return
    build = manager.ast_from_module_name

    def ast_from_module_name(self, modname, *args, **kwargs):
        if isinstance(modname, str) and modname.partition(".")[0] in THIRD_PARTY:
            raise AstroidImportError("genebench: library {modname} is opaque to the lint gate", modname=modname)
        return build(self, modname, *args, **kwargs)

    manager.ast_from_module_name = ast_from_module_name
    manager.genebench_opaque = True


def run_pylint(paths):
    """(score, messages) of pylint on paths as one program. The first call builds the
    linter with PYLINT_OPTIONS; later calls reuse it: check() resets the statistics and the
    per-file message state, so the result is that of a fresh `pylint` run."""
    global LINTER
    from pylint.reporters.collecting_reporter import CollectingReporter

    reporter = CollectingReporter()
    if LINTER is None:
        from pylint.lint import Run

        libraries_opaque()

        LINTER = Run(PYLINT_OPTIONS + list(paths), reporter=reporter, exit=False).linter
        reuse_module_checker(LINTER)
    else:
        # duplicate-code compares the modules of a program with each other: a one-module
        # program can never get it, and pylint then skips that checker's work on the module
        dup = len(paths) > 1
        if LINTER.is_message_enabled("duplicate-code") != dup:
            (LINTER.enable if dup else LINTER.disable)("duplicate-code")
        LINTER.set_reporter(reporter)
        LINTER.check(list(paths))
        LINTER.generate_reports()
    stats = LINTER.stats
    if getattr(stats, "statement", 0) == 0:
        return 10.0, reporter.messages
    note = getattr(stats, "global_note", None)
    if note is None:
        return 10.0, reporter.messages
    return max(0.0, min(10.0, float(note))), reporter.messages


def reuse_module_checker(linter):
    """Build pylint's walker once per set of enabled messages instead of at every check().

    check() sets up, in PyLinter._astroid_module_checker, the list of checkers that have an
    enabled message, and a walker holding each one's visit and leave methods; that is about
    4 of a lint's 28 ms. Both depend only on which messages are enabled globally (pylint
    asks is_message_enabled without a line: linter._msgs_state), so they are kept per state
    of it: the first check() in a state goes through pylint's own set-up, which is
    remembered; later ones reset the walker's statement count, open the same checkers, walk
    with the same walker, and close the checkers, which is what pylint's set-up and
    tear-down do beside building them. Only for the pylint versions whose set-up this was
    read against (2.16); any other keeps pylint's own."""
    import pylint

    if not pylint.__version__.startswith("2.16."):
        return
    stock = linter._astroid_module_checker  # noqa: SLF001 - see above
    kept = {}

    @contextlib.contextmanager
    def module_checker():
        key = (frozenset(linter._msgs_state.items()), linter.config.reports)  # noqa: SLF001
        entry = kept.get(key)
        if entry is None:
            with stock() as check:
                walker = getattr(check, "keywords", {}).get("walker")
                if walker is not None and hasattr(walker, "nbstatements"):
                    kept[key] = (linter.prepare_checkers(), check, walker)
                yield check
            return
        checkers, check, walker = entry
        walker.nbstatements = 0
        walker.exception_msg = False
        for checker in checkers:
            checker.open()
        yield check
        linter.stats.statement = walker.nbstatements
        for checker in reversed(checkers):
            checker.close()

    linter._astroid_module_checker = module_checker  # noqa: SLF001


def forget_modules(root):
    """Drop from astroid's caches every module built from a file under root (the program
    just linted), so that a later program's `main` or `helpers` is never answered with an
    earlier one's. Library modules stay cached."""
    try:
        from astroid import MANAGER
    except ImportError:
        return
    prefix = os.path.join(os.path.realpath(root), "")
    prefix_raw = os.path.join(root, "")

    def under(path):
        return isinstance(path, str) and (path.startswith(prefix) or path.startswith(prefix_raw))

    for name, module in list(MANAGER.astroid_cache.items()):
        if under(getattr(module, "file", None)):
            del MANAGER.astroid_cache[name]
    for key, value in list(MANAGER._mod_file_cache.items()):  # noqa: SLF001 - no public API
        if under(key[1]) or under(getattr(value, "location", None)):
            del MANAGER._mod_file_cache[key]  # noqa: SLF001


def children_of_self():
    pid = os.getpid()
    kids = []
    try:
        for tid in os.listdir("/proc/self/task"):
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                kids.extend(int(x) for x in f.read().split())
    except OSError:
        pass
    return kids


def kill_everything(child):
    """Kill and reap the run child and every process it left behind. As pid 1 of our own
    pid namespace, kill(-1) reaches exactly the processes of this run. Otherwise we are a
    child subreaper: orphans are re-parented to us, so we kill our children until none is
    left (the process limit bounds a fork bomb)."""
    try:
        os.killpg(child, signal.SIGKILL)
    except OSError:
        pass
    if os.getpid() == 1:
        while True:
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                return
    while True:
        for kid in children_of_self():
            try:
                os.kill(kid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


# ---------------------------------------------------------------- the seal
# What keeps a program from making failing tests pass (README: "What a test run can
# trust"). The verdict travels from the child to genebench on a pipe; genebench accepts a
# pass only when (1) the record carries the run's token, which the worker writes into a
# pipe after the fork, so it is in no memory the program could read, and which the child
# reads only after the tests finished; (2) the child exited with status 0 and no signal;
# (3) the pipe holds exactly that one record. In the child, the tests are compiled before
# the program runs and executed with the `exec` taken before it, so replacing builtins.exec
# or builtins.compile changes nothing; after the tests, the objects the harness relies on
# (builtins, its own functions, unittest's classes and functions) are compared with a
# snapshot taken in the worker, and any change is a failure ("Tampering"), as is a trace
# or profile hook still set when the tests start. What this cannot stop is inherent to
# tests that run in the program's process: a program that reimplements this protocol
# (finds the token's descriptor and writes its own record), objects whose __eq__ is always
# true, or changes made through ctypes to memory the harness uses.

class Tampering(Exception):
    """The program changed what the harness relies on to run its tests."""


SEAL_UNITTEST = ("unittest", "unittest.case", "unittest.result", "unittest.suite", "unittest.loader",
                 "unittest.util", "unittest.runner", "unittest.signals")
SEAL = None  # built by seal_snapshot() in the worker
SEAL_MUTABLE = ("SEAL", "LINTER", "WARMED")  # harness globals that change after the snapshot


def seal_snapshot():
    """Record, in the worker, the identity of every binding the harness relies on: the
    builtins, this module's globals, and unittest's modules, classes and their methods.
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
            if ns is globals() and key in SEAL_MUTABLE:
                continue
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
    add_namespace(core, "the harness", globals(), False)
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


# ---------------------------------------------------------------- the child
def frame_of_interest(tb, run_dir):
    """(file label, line, source) of the frame to blame: the innermost frame of the test
    code, else the innermost frame of the program's own files, else the innermost."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    pick = None
    for filename, line in reversed(frames):
        if filename == "<tests>":
            pick = (filename, line)
            break
    if pick is None:
        for filename, line in reversed(frames):
            if filename.startswith(run_dir + os.sep):
                pick = (filename, line)
                break
    if pick is None and frames:
        pick = frames[-1]
    if pick is None:
        return None
    import linecache

    filename, line = pick
    label = "tests" if filename == "<tests>" else os.path.relpath(filename, run_dir)
    source = statement_at(filename, line) or linecache.getline(filename, line).strip()
    return "%s line %d: %s" % (label, line, source) if source else "%s line %d" % (label, line)


def statement_at(filename, line):
    """The innermost simple statement covering line, on one line with its whitespace
    collapsed, so a multi-line assert is named whole."""
    import ast
    import linecache

    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.lineno > line or (node.end_lineno or node.lineno) < line:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While,
                             ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)):
            continue
        if best is None or node.lineno >= best.lineno:
            best = node
    if best is None:
        return None
    segment = ast.get_source_segment(text, best)
    if not segment:
        return None
    return clip(" ".join(segment.split()))


def describe_exception(exc, run_dir):
    if isinstance(exc, SystemExit):
        message = "SystemExit(%r) raised before the tests finished" % (exc.code,)
    else:
        try:
            message = str(exc)
        except Exception:  # noqa: BLE001 - a broken __str__ is the program's problem
            message = "<unprintable %s>" % type(exc).__name__
    try:
        where = frame_of_interest(exc.__traceback__, run_dir) or ""
    except Exception:  # noqa: BLE001 - e.g. the program replaced compile(), which ast uses
        where = ""
    return {
        "exc_type": type(exc).__name__,
        "exc_message": clip(message),
        "failed_test": clip(where),
    }


def new_main_module(run_dir, main_path):
    import builtins
    import types

    mod = types.ModuleType("__main__")
    mod.__file__ = main_path
    mod.__builtins__ = builtins
    mod.__dict__["__cached__"] = None
    # The program runs as __main__ (like `python main.py`), and helper modules that do
    # `from main import x` get this same module instead of a second copy.
    sys.modules["__main__"] = mod
    sys.modules["main"] = mod
    return mod


def exec_program(mod, main_path):
    with open(main_path, "rb") as f:
        source = f.read()
    exec(compile(source, main_path, "exec"), mod.__dict__)


def compile_tests(test_source):
    """The tests' code object, compiled before the program runs, so that a program that
    replaces builtins.compile cannot change what the tests are."""
    import linecache

    lines = test_source.splitlines(True)
    linecache.cache["<tests>"] = (len(test_source), None, lines, "<tests>")
    return compile(test_source, "<tests>", "exec")


def run_assert(req, run_dir, main_path, result):
    run_exec = exec  # taken before the program runs: a replaced builtins.exec is not used
    tests = compile_tests(text(req, "test"))
    mod = new_main_module(run_dir, main_path)
    try:
        exec_program(mod, main_path)
        seal_before_tests()
        run_exec(tests, mod.__dict__)
    except BaseException as exc:  # noqa: BLE001 - SystemExit included on purpose
        result.update(describe_exception(exc, run_dir))
        result["outcome"] = "fail"
        return
    result["outcome"] = "pass"


def run_stdio(req, run_dir, main_path, result):
    mod = new_main_module(run_dir, main_path)
    try:
        exec_program(mod, main_path)
    except SystemExit as exc:
        # `exit()` after printing the answer is normal for a script; only a non-zero
        # status is a failure, as for `python main.py`.
        if exc.code not in (None, 0):
            result.update(describe_exception(exc, run_dir))
            result["exc_message"] = clip("exit status %r" % (exc.code,))
            result["outcome"] = "fail"
            return
    except BaseException as exc:  # noqa: BLE001
        result.update(describe_exception(exc, run_dir))
        result["outcome"] = "fail"
        return
    result["outcome"] = "pass"


def run_unittest(req, run_dir, main_path, result):
    import unittest

    run_exec = exec  # as in run_assert
    tests = compile_tests(text(req, "test"))
    mod = new_main_module(run_dir, main_path)
    try:
        exec_program(mod, main_path)
        seal_before_tests()
        run_exec(tests, mod.__dict__)
    except BaseException as exc:  # noqa: BLE001
        result.update(describe_exception(exc, run_dir))
        result["outcome"] = "fail"
        return

    class Collect(unittest.TestResult):
        def __init__(self):
            super().__init__()
            self.bad = []

        def addError(self, test, err):
            super().addError(test, err)
            self.bad.append((test, err))

        def addFailure(self, test, err):
            super().addFailure(test, err)
            self.bad.append((test, err))

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self.bad.append((test, None))

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is not None:
                self.bad.append((subtest, err))

    def test_name(test):
        name = test.id()
        return name[len("__main__."):] if name.startswith("__main__.") else name

    failed = []
    first = None
    total = 0
    for name in [c for c in text(req, "classes").split("\n") if c]:
        cls = mod.__dict__.get(name)
        if not isinstance(cls, type) or not issubclass(cls, unittest.TestCase):
            failed.append(name)
            if first is None:
                first = {"failed_test": name, "exc_type": "NameError",
                         "exc_message": "test class %s is not defined by the tests" % name}
            continue
        suite = unittest.TestLoader().loadTestsFromTestCase(cls)
        collect = Collect()
        try:
            suite.run(collect)
        except BaseException as exc:  # noqa: BLE001 - e.g. SystemExit from a tearDown
            failed.append(name)
            if first is None:
                first = describe_exception(exc, run_dir)
                first["failed_test"] = name
            continue
        total += collect.testsRun
        if collect.testsRun == 0:
            failed.append(name)
            if first is None:
                first = {"failed_test": name, "exc_type": "",
                         "exc_message": "test class %s ran no test" % name}
        for test, err in collect.bad:
            failed.append(test_name(test))
            if first is None:
                if err is None:
                    first = {"failed_test": test_name(test), "exc_type": "",
                             "exc_message": "unexpected success"}
                else:
                    info = describe_exception(err[1], run_dir)
                    where = info["failed_test"]
                    info["failed_test"] = test_name(test) + (" (" + where + ")" if where else "")
                    first = info
    result["tests_run"] = total
    if failed:
        result["outcome"] = "fail"
        result["failed_tests"] = "\n".join(clip(f) for f in failed)
        result.update(first)
    else:
        result["outcome"] = "pass"


def lint_messages(messages, run_dir):
    return clip("\n".join("%s:%d: %s %s" % (os.path.relpath(m.path, run_dir) if m.path else "",
                                              m.line, m.msg_id, m.symbol) for m in messages))


def run_lint_session(run_dir, result):
    """A lint session (kind "lintd"): serve lint requests on fd 0, a socket, one at a time
    and in order, until genebench closes it. Each request names a subdirectory of run_dir
    holding a program; the reply has its score. Between lints only the library modules stay
    in astroid's cache (forget_modules), so a lint's result depends on the program and on
    the programs linted before it in this session, which the caller keeps in a fixed order
    (one session per task): results are reproducible, and each lint costs no fork."""
    sock = socket.socket(fileno=0)
    while True:
        req, fds = recv_msg(sock)
        for fd in fds:
            os.close(fd)
        if req is None:
            break
        sub = os.path.join(run_dir, text(req, "sub"))
        reply = {"op": "lint"}
        try:
            paths = [os.path.join(sub, p) for p in text(req, "modules").split("\n") if p]
            sys.path[0] = sub
            score, messages = run_pylint(paths)
            reply["outcome"] = "pass"
            reply["score"] = repr(score)
            reply["messages"] = lint_messages(messages, sub)
            reply["warm"] = "1" if WARMED else "0"
        except Exception as exc:  # noqa: BLE001 - reported, the session goes on
            reply = {"op": "lint", "outcome": "error", "exc_type": type(exc).__name__, "exc_message": clip(exc)}
        forget_modules(sub)
        send(sock, reply)
    result["outcome"] = "pass"


# ---------------------------------------------------------------- upstream harness rules
# What the harness a task was imported from does to a program (GbHarnessRules in
# src/model/task.h; the request's "rules"), so that an offspring the upstream harness would
# reject fails here too. Written from the upstream sources (human-eval execution.py and
# CRUXEval utils_execute.py reliability_guard; ClassEval test_pipeline.py extract_code and
# add_static_statement); tests/harness/ runs exports through that real code.

GUARD_OS = (
    "kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty",
    "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown",
    "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir",
)
GUARD_MODULES = ("ipdb", "joblib", "resource", "psutil", "tkinter")
# Packages the upstream harness process has not imported when the guard runs and that cannot be
# imported after it (scikit-learn sets os.environ and imports joblib). The worker preloads them,
# so the run's child forgets them and imports them afresh, as the upstream child would.
GUARD_FORGET = ("sklearn", "joblib")


def apply_guard():
    """reliability_guard()'s effects; returns a function that undoes them (run after the tests,
    so that this harness can report)."""
    import builtins
    import faulthandler
    import shutil
    import subprocess

    saved = []

    def put(obj, name, value):
        saved.append((obj, name, getattr(obj, name, None), hasattr(obj, name)))
        setattr(obj, name, value)

    for name in list(sys.modules):
        if name.split(".")[0] in GUARD_FORGET:
            saved.append((sys.modules, name, sys.modules[name], True))
            del sys.modules[name]
    faulthandler.disable()
    put(builtins, "exit", None)
    put(builtins, "quit", None)
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in GUARD_OS:
        put(os, name, None)
    for name in ("rmtree", "move", "chown"):
        put(shutil, name, None)
    put(subprocess, "Popen", None)
    put(builtins, "help", None)
    for name in GUARD_MODULES:
        saved.append((sys.modules, name, sys.modules.get(name), name in sys.modules))
        sys.modules[name] = None

    def undo():
        for obj, name, value, present in reversed(saved):
            if obj is sys.modules:
                if present:
                    sys.modules[name] = value
                else:
                    sys.modules.pop(name, None)
            elif present:
                setattr(obj, name, value)
            else:
                delattr(obj, name)

    return undo


def classeval_extract_code(text):
    """AutoTest.extract_code for a model name without "incoder"."""
    text = text.rstrip()
    for identifier in ("### Response:", "@@ Response:", "[/INST]"):
        if identifier in text:
            text = text.split(identifier)[1]
            break
    for pattern in (r"```python(.*?)```", r"```ruby(.*?)```", r"```scss(.*?)```", r"```python(.*?)",
                    r"```(.*?)```", r"\[PYTHON\](.*?)\[/PYTHON\]"):
        found = re.findall(pattern, text, re.S)
        if found:
            return found[0]
    code_list = text.split("\n")
    removed = []
    for line in code_list:
        if line.strip().startswith("class"):
            break
        if not line.strip().startswith("import") and not line.strip().startswith("from"):
            removed.append(line)
    text = "\n".join(line for line in code_list if line not in removed)
    lead = None
    for line in text.split("\n"):
        if line.strip().startswith("class"):
            lead = len(line) - len(line.lstrip())
            break
    if lead:
        text = "\n".join(" " * (len(line) - len(line.lstrip()) - lead) + line.lstrip() for line in text.split("\n"))
    return text


def classeval_add_static(code):
    """AutoTest.add_static_statement."""
    out = []
    for line in (line for line in code.split("\n") if "@staticmethod" not in line):
        if (line.strip().startswith("def ") and "self" not in line and "cls" not in line
                and len(line) - len(line.lstrip()) == 4):
            out.append("    @staticmethod")
        out.append(line)
    return "\n".join(out)


def apply_harness_rules(req, main_path):
    """Apply the request's upstream rules before the program runs; returns an undo function."""
    rules = text(req, "rules")
    if rules == "guard":
        return apply_guard()
    if rules == "classeval":
        with open(main_path, encoding="utf-8") as f:
            source = f.read()
        source = text(req, "prelude") + "\n" + classeval_add_static(classeval_extract_code(source))
        with open(main_path, "w", encoding="utf-8") as f:
            f.write(source)
    return lambda: None


# ---------------------------------------------------------------- probes (equivalence)
# A probe (kind "probe", nsga2/equiv.h) runs the program once, then calls its entry point on
# each input of the request (literal argument lists that genebench checked against its
# whitelist, src/model/calls.h), or runs it as __main__ once per stdin text (mode "stdio"), and
# sends back per input a canonical description of what happened: returned value or exception
# type, the arguments after the call (mutation), captured stdout, and the CPU and wall time of
# the call. genebench compares the descriptions of two programs; nothing is compared here, so
# the program never sees the original's results. Everything the description is built with is
# bound before the program runs (default arguments below; the seal checks the harness's
# functions and the builtins after the run), so a program that replaces a builtin during a call
# cannot change how its result is described.

class ProbeTimeout(BaseException):
    """A probed call ran past its time limit (raised by the SIGALRM handler)."""


PROBE_NUMPY = sys.modules.get("numpy")  # set again by main() once numpy is imported
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


def probe_canon(x, depth=0, seen=None, _type=type, _isinstance=isinstance, _id=id, _len=len, _sorted=sorted,
                _int=int, _float=float, _bool=bool, _str=str, _bytes=bytes, _bytearray=bytearray,
                _complex=complex, _list=list, _tuple=tuple, _dict=dict, _set=set, _frozenset=frozenset,
                _getattr=object.__getattribute__, _str_repr=str.__repr__, _bytes_repr=bytes.__repr__,
                _join=str.join, _BaseException=BaseException, _callable=callable, _slice=slice):
    """The canonical description of a value (a str). Containers by content (a subclass reads as
    its base), dicts and sets sorted by the descriptions of their keys, numpy scalars and arrays
    by value, other objects as their type's name and their attributes."""
    if seen is None:
        seen = set()
    if depth > 40:
        return "..."
    if x is None or x is True or x is False:
        return "True" if x is True else "False" if x is False else "None"
    t = _type(x)
    np = PROBE_NUMPY
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
            return "ndarray(%s, %s)" % (_str(x.shape), probe_canon(x.tolist(), depth + 1, seen))
        if _isinstance(x, _list):
            return "[" + _join(", ", [probe_canon(e, depth + 1, seen) for e in _list.copy(x)]) + "]"
        if _isinstance(x, _tuple):
            items = [probe_canon(e, depth + 1, seen) for e in _tuple.__getitem__(x, _slice(None))]
            return "(" + _join(", ", items) + ("," if _len(items) == 1 else "") + ")"
        if _isinstance(x, _dict):
            pairs = [(probe_canon(k, depth + 1, seen), probe_canon(v, depth + 1, seen))
                     for k, v in _dict.items(_dict.copy(x))]
            return "{" + _join(", ", ["%s: %s" % kv for kv in _sorted(pairs)]) + "}"
        if _isinstance(x, (_set, _frozenset)):
            items = _sorted(probe_canon(e, depth + 1, seen) for e in _frozenset(x))
            return ("frozenset" if _isinstance(x, _frozenset) else "set") + "({" + _join(", ", items) + "})"
        if _isinstance(x, _BaseException):
            return "%s%s" % (t.__name__, probe_canon(_tuple(x.args), depth + 1, seen))
        try:
            attrs = _getattr(x, "__dict__")
        except Exception:  # noqa: BLE001
            attrs = None
        if _isinstance(attrs, _dict) and not _isinstance(x, _type) and not _callable(x):
            return "%s%s" % (t.__name__, probe_canon(attrs, depth + 1, seen))
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


def run_probe(req, run_dir, main_path, result, _process_time=time.process_time, _monotonic=time.monotonic,
              _setitimer=signal.setitimer, _signal=signal.signal, _open=open):
    import io

    mode = text(req, "mode", "call")
    entry = text(req, "entry")
    inputs = text(req, "inputs").split("\0") if text(req, "inputs") else []
    limit = float(text(req, "limit", "1"))
    budget = float(text(req, "budget", "5"))
    builders = []
    if mode == "call":
        for item in inputs:
            try:
                builders.append(probe_args_builder(item))
            except BaseException:  # noqa: BLE001 - a bad input is genebench's bug: no result
                builders.append(None)
    string_io, bytes_io, text_wrapper = io.StringIO, io.BytesIO, io.TextIOWrapper
    old_handler = _signal(signal.SIGALRM, probe_alarm)
    fn = None
    mod = None
    if mode == "call":
        mod = new_main_module(run_dir, main_path)
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
        if _monotonic() - t_all > budget:
            result["s" + key] = "skip"
            continue
        out_buf = None
        status = "ok"
        value = ""
        c0 = w0 = 0.0
        try:
            if mode == "call":
                if builders[i] is None:
                    result["s" + key] = "skip"
                    continue
                args, kwargs = builders[i]()
                sys.stdout = out_buf = string_io()
            else:
                path = os.path.join(run_dir, "probe_stdin.txt")
                with _open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(item)
                fd = os.open(path, os.O_RDONLY)
                os.dup2(fd, 0)
                os.close(fd)
                sys.stdin = _open(0, "r", closefd=False)
                raw = bytes_io()
                sys.stdout = out_buf = text_wrapper(raw, encoding="utf-8", errors="replace", write_through=True)
                out_buf.raw_bytes = raw
            c0, w0 = _process_time(), _monotonic()
            _setitimer(signal.ITIMER_REAL, limit)
            try:
                if mode == "call":
                    ret = fn(*args, **kwargs)
                    value = "ret=" + probe_canon(ret)
                else:
                    smod = new_main_module(run_dir, main_path)
                    try:
                        exec_program(smod, main_path)
                        value = "exit=0"
                    except SystemExit as exc:
                        value = "exit=0" if exc.code in (None, 0) else "exit=%s" % probe_canon(exc.code)
            finally:
                _setitimer(signal.ITIMER_REAL, 0)
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
                if mode == "call":
                    out = string_io.getvalue(out_buf)
                else:
                    out_buf.flush()
                    out = out_buf.raw_bytes.getvalue().decode("utf-8", "replace")
            except BaseException:  # noqa: BLE001
                out = "<unreadable output>"
        if mode == "call" and status == "ok":
            try:
                value += ";args=" + probe_canon((args, kwargs))
            except BaseException as exc:  # noqa: BLE001
                value += ";args=<%s>" % type(exc).__name__
        result["s" + key] = status
        result["v" + key] = probe_clip(value)
        result["o" + key] = probe_clip(out) if mode == "call" else out[:1 << 14]
        result["c" + key] = repr(c1 - c0)
        result["w" + key] = repr(w1 - w0)
    _signal(signal.SIGALRM, old_handler)
    result["n"] = len(inputs)
    result["outcome"] = "pass"


def run_request(req, result):
    """Run what req asks for in this process, from its run directory; fill result."""
    run_dir = text(req, "dir")
    os.chdir(run_dir)
    os.environ["TMPDIR"] = run_dir
    os.environ["HOME"] = run_dir
    main_path = os.path.join(run_dir, "main.py")
    sys.path[0] = run_dir
    sys.argv[:] = [main_path]
    kind = text(req, "kind")
    if kind in ("assert", "unittest", "stdio", "probe"):
        result["program"] = "started"  # from here on, a harness exception fails the run
        undo = apply_harness_rules(req, main_path)
        try:
            if kind == "assert":
                run_assert(req, run_dir, main_path, result)
            elif kind == "unittest":
                run_unittest(req, run_dir, main_path, result)
            elif kind == "probe":
                run_probe(req, run_dir, main_path, result)
            else:
                run_stdio(req, run_dir, main_path, result)
        finally:
            undo()
    elif kind == "lintd":
        run_lint_session(run_dir, result)
    else:
        result["exc_message"] = "unknown run kind %r" % kind


def exec_command(req, result_w):
    """Run kind "exec": replace this child by the command of req ("argv", "env": NUL-separated),
    in the run directory, with the limits, uid and namespaces already set. The result pipe is
    closed first, so the command cannot write a result record: genebench judges an exec run by
    its exit status and output only. Returns (with an exception) only when the command could not
    be started; the harness then reports an error."""
    run_dir = text(req, "dir")
    os.chdir(run_dir)
    argv = text(req, "argv").split("\0")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": run_dir, "TMPDIR": run_dir}
    for item in text(req, "env").split("\0"):
        if "=" in item:
            key, value = item.split("=", 1)
            env[key] = value
    if not argv or not os.path.isabs(argv[0]):
        raise ValueError("exec: argv[0] must be an absolute path")
    if not os.access(argv[0], os.X_OK):
        raise FileNotFoundError("exec: %s is not an executable file in the sandbox" % argv[0])
    os.close(result_w)
    try:
        os.execve(argv[0], argv, env)
    except BaseException:  # noqa: BLE001 - the record pipe is gone: report by the exit status
        os._exit(127)


def child(req, fds, result_w, ctl, token_r):
    t_start = time.monotonic()
    # Taken before the program runs (see "the seal"): what reports the result.
    os_read, os_write, os_exit, encode_record, check = os.read, os.write, os._exit, encode, seal_check
    check_code, encode_code = seal_check.__code__, encode.__code__
    seal = SEAL
    kind = text(req, "kind")
    result = {"outcome": "error"}
    sealed = b""
    try:
        ctl.detach()  # the fd is closed below; the socket object must not close it again
        os.setsid()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        low, high = min(result_w, token_r), max(result_w, token_r)
        os.closerange(3, low)
        os.closerange(low + 1, high)
        os.closerange(high + 1, 1 << 16)
        # The token, read before the program runs and its descriptor closed: the program
        # finds no descriptor to read it from (only the memory of this frame).
        sealed = os.read(token_r, 64)
        os.close(token_r)
        limits = [
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_CPU, int(text(req, "cpu", "10"))),
            (resource.RLIMIT_AS, int(text(req, "as", "0"))),
            (resource.RLIMIT_FSIZE, int(text(req, "fsize", "0"))),
            (resource.RLIMIT_NOFILE, int(text(req, "nofile", "0"))),
            (resource.RLIMIT_NPROC, int(text(req, "nproc", "0"))),
        ]
        for which, value in limits:
            if value <= 0:
                continue
            hard = value + 1 if which == resource.RLIMIT_CPU else value
            _soft, old_hard = resource.getrlimit(which)
            if old_hard != resource.RLIM_INFINITY and hard > old_hard:
                hard = old_hard
            resource.setrlimit(which, (min(value, hard), hard))
        uid = int(text(req, "uid", "-1"))
        if uid >= 0:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        if LIBC is not None and os.getppid() != 1:
            LIBC.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG (plain mode only)
        if kind == "exec":
            exec_command(req, result_w)  # returns only when it cannot exec
        run_request(req, result)
    except BaseException as exc:  # noqa: BLE001 - the harness itself failed
        # once the program ran, the harness's failure may be its doing: a failed run
        started = result.get("program") == "started"
        result = {"outcome": "fail" if started else "error", "exc_type": type(exc).__name__,
                  "exc_message": clip(exc)}
    # The program may have closed or replaced sys.stdout/sys.stderr or fds 1 and 2.
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    result.pop("program", None)
    # stdio: the verdict is the output, which genebench compares; a program may set builtins.input
    if kind in ("assert", "unittest", "probe") and result.get("outcome") in ("pass", "fail"):
        try:
            if check.__code__ is not check_code or encode_record.__code__ is not encode_code:
                why = "the program changed the code of the harness's seal"
            elif seal is None:
                why = "the worker has no seal snapshot"
            else:
                why = check(seal, kind == "unittest")
        except BaseException as exc:  # noqa: BLE001 - a broken check is a failed run
            why = "the seal check failed: %s: %s" % (type(exc).__name__, exc)
        if why:
            result = {"outcome": "fail", "exc_type": "Tampering", "exc_message": clip(why)}
    result["token"] = sealed
    result["t_start"] = repr(t_start)
    result["t_end"] = repr(time.monotonic())
    data = encode_record(result)
    try:
        while data:
            n = os_write(result_w, data)
            data = data[n:]
    except OSError:
        pass
    os_exit(0)


# ---------------------------------------------------------------- warming the after-fork path
def warm_after_fork(rounds=40):
    """Run, in the worker itself, the Python handlers that os.fork() runs in every child
    (threading's and logging's). Python 3.11 rewrites a function's bytecode while it warms
    up (call counters, then specialised instructions); a function first run in a child
    writes to its code object, and every child copies those pages. Run here before the heap
    is frozen, that happens once. In this single-threaded process the handlers only
    re-create unlocked locks. Measured with bench_runner: 567 -> 531 page faults per child.
    (Warming the harness's run path the same way was measured too: it made children fault
    more, 649 per run, and is not done.)"""
    import logging
    import threading

    for _ in range(rounds):
        threading._after_fork()  # noqa: SLF001 - the handler os.fork() registers
        logging._after_at_fork_child_reinit_locks()  # noqa: SLF001


# ---------------------------------------------------------------- the worker loop
class NativeWait:
    """Arguments of gb_run_wait (src/runner/runwait.c), built once: the wait after a fork then
    allocates nothing in the worker while the child is alive."""

    def __init__(self):
        import ctypes

        self.close_fds = (ctypes.c_int * 4)()
        self.times = (ctypes.c_double * 2)()
        self.length = ctypes.c_size_t(0)
        self.string_at = ctypes.string_at


def serve_run(ctl, req, fds, wait):
    """Fork a child for req and wait for it in C (gb_run_wait), then report."""
    result_r, result_w = os.pipe()
    token_r, token_w = os.pipe()
    wait.close_fds[0] = result_w
    for i, fd in enumerate(fds[:3]):
        wait.close_fds[i + 1] = fd
    faults0 = resource.getrusage(resource.RUSAGE_SELF)
    ctl_fd = ctl.fileno()
    t_fork0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(result_r)
        os.close(token_w)
        child(req, fds, result_w, ctl, token_r)
    token = give_token(token_r, token_w)
    flags = NATIVE.gb_run_wait(ctl_fd, pid, result_r, wait.close_fds, 1 + len(fds[:3]), wait.times, wait.length)
    for fd in fds[3:]:
        os.close(fd)
    if flags < 0 or flags & 2:  # genebench went away: kill the run and leave
        kill_everything(pid)
        os._exit(0)
    t_fork1, t_exit = wait.times[0], wait.times[1]
    _pid, status, rusage = os.wait4(pid, 0)
    kill_everything(pid)
    length = NATIVE.gb_run_drain(result_r, wait.length.value)
    os.close(result_r)
    faults1 = resource.getrusage(resource.RUSAGE_SELF)
    send(ctl, done_record(status, rusage, faults0, faults1, t_fork0, t_fork1, t_exit,
                          wait.string_at(NATIVE.gb_run_result(), length), token))


def give_token(token_r, token_w):
    """After the fork, in the worker: the run's token, written into the child's token pipe
    (the seal). Made after the fork, so no copy of it is in the child's memory."""
    os.close(token_r)
    token = os.urandom(16).hex().encode()
    os.write(token_w, token)
    os.close(token_w)
    return token


def done_record(status, rusage, faults0, faults1, t_fork0, t_fork1, t_exit, result, token):
    return {
        "token": token,
        "op": "done",
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0,
        "maxrss": rusage.ru_maxrss,
        "cpu": repr(rusage.ru_utime + rusage.ru_stime),
        "child_faults": rusage.ru_minflt + rusage.ru_majflt,
        "worker_faults": faults1.ru_minflt + faults1.ru_majflt - faults0.ru_minflt - faults0.ru_majflt,
        "t_fork0": repr(t_fork0),
        "t_fork1": repr(t_fork1),
        "t_exit": repr(t_exit),
        "t_reaped": repr(time.monotonic()),
        "result": result,
    }


def fork_child(ctl, req, fds):
    """Fork req's child; in the worker, with the child's descriptors closed, returns (pid,
    the read end of its result pipe, its token, t_fork0, t_fork1, page faults before)."""
    result_r, result_w = os.pipe()
    token_r, token_w = os.pipe()
    faults0 = resource.getrusage(resource.RUSAGE_SELF)
    t_fork0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(result_r)
        os.close(token_w)
        child(req, fds, result_w, ctl, token_r)
    token = give_token(token_r, token_w)
    t_fork1 = time.monotonic()
    os.close(result_w)
    for fd in fds:
        os.close(fd)
    return pid, result_r, token, t_fork0, t_fork1, faults0


def serve_run_py(ctl, req, fds):
    """serve_run without the shared object: the same wait, in Python."""
    pid, result_r, token, t_fork0, t_fork1, faults0 = fork_child(ctl, req, fds)
    send(ctl, {"op": "started", "pid": pid})
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    os.set_blocking(result_r, False)
    chunks = []
    size = 0
    killed = False
    exited = False
    poller = select.poll()
    poller.register(ctl.fileno(), select.POLLIN)
    poller.register(result_r, select.POLLIN)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    while not exited:
        events = poller.poll(None if pidfd is not None else 10)
        for fd, _ev in events:
            if fd == ctl.fileno():
                try:
                    msg, extra = recv_msg(ctl)
                except OSError:
                    msg, extra = None, []
                for x in extra:
                    os.close(x)
                if msg is None:  # genebench went away: kill the run and leave
                    kill_everything(pid)
                    os._exit(0)
                if text(msg, "op") == "kill" and not killed:
                    killed = True
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            elif fd == result_r:
                try:
                    data = os.read(result_r, 65536)
                except BlockingIOError:
                    data = None
                if data == b"":
                    poller.unregister(result_r)
                elif data and size < (1 << 20):
                    chunks.append(data)
                    size += len(data)
            elif fd == pidfd:
                exited = True
        if pidfd is None and not exited:
            # No pidfd (Linux < 5.3): look without reaping, so wait4 below gets the rusage.
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            exited = info is not None
    t_exit = time.monotonic()
    _pid, status, rusage = os.wait4(pid, 0)
    kill_everything(pid)
    while True:
        try:
            data = os.read(result_r, 65536)
        except BlockingIOError:
            break
        if not data:
            break
        if size < (1 << 20):
            chunks.append(data)
            size += len(data)
    os.close(result_r)
    if pidfd is not None:
        os.close(pidfd)
    faults1 = resource.getrusage(resource.RUSAGE_SELF)
    send(ctl, done_record(status, rusage, faults0, faults1, t_fork0, t_fork1, t_exit, b"".join(chunks), token))


class LintRun:
    """A run in progress on a lint worker (serve_lint)."""

    def __init__(self, tag, pid, result_r, token, t_fork0, t_fork1, faults0):
        self.tag, self.pid, self.result_r, self.token = tag, pid, result_r, token
        self.t_fork0, self.t_fork1, self.faults0 = t_fork0, t_fork1, faults0
        self.chunks, self.size = [], 0
        try:
            self.pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.pidfd = None  # Linux < 5.3: polled with waitid

    def read(self):
        """Read what the child wrote on its result pipe; False at EOF."""
        while True:
            try:
                data = os.read(self.result_r, 65536)
            except BlockingIOError:
                return True
            if not data:
                return False
            if self.size < (1 << 20):
                self.chunks.append(data)
                self.size += len(data)

    def kill(self):
        for killer in (os.killpg, os.kill):
            try:
                killer(self.pid, signal.SIGKILL)
            except OSError:
                pass

    def finish(self, ctl):
        """The child exited: reap it and what is left of its process group, report."""
        t_exit = time.monotonic()
        _pid, status, rusage = os.wait4(self.pid, 0)
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except OSError:
            pass
        self.read()
        os.close(self.result_r)
        if self.pidfd is not None:
            os.close(self.pidfd)
        faults1 = resource.getrusage(resource.RUSAGE_SELF)
        record = done_record(status, rusage, self.faults0, faults1, self.t_fork0, self.t_fork1, t_exit,
                             b"".join(self.chunks), self.token)
        record["tag"] = self.tag
        send(ctl, record)


def serve_lint(ctl, steps):
    """The loop of a lint worker: it serves several runs at once, each named by the "tag"
    of its request, which its "done" record and a "kill" for it carry. A lint run spends
    its time in pylint, not in the fork, so one warm lint worker (one pylint warm-up) serves
    the lint sessions of every thread of genebench, each in a child of its own. A child is
    killed on its own: its process group (it calls setsid) and never a sibling.
    While no request waits, it runs the steps of the warm-up's second stage (warm_steps),
    one at a time; after the last it says "warm" (genebench then replaces the sessions
    started before, at their next lint: README, the lint gate)."""
    ctl_fd = ctl.fileno()
    runs = {}  # fd to watch (pidfd or result pipe) -> LintRun
    poller = select.poll()
    poller.register(ctl_fd, select.POLLIN)
    steps = list(steps)
    if not steps:
        warm_done(ctl)
    while True:
        polled = any(run.pidfd is None for run in set(runs.values()))
        events = poller.poll(0 if steps else 50 if polled else None)
        if not events and steps:
            try:
                steps.pop(0)()
            except Exception as exc:  # noqa: BLE001 - sessions build what they lack themselves
                sys.__stderr__.write("genebench harness: a warm-up step of pylint failed: %r\n" % (exc,))
            if not steps:
                warm_done(ctl)
        for fd, _ev in events:
            if fd == ctl_fd:
                try:
                    req, fds = recv_msg(ctl)
                except OSError:
                    req, fds = None, []
                if req is None:  # genebench went away: kill the runs and leave
                    for run in set(runs.values()):
                        run.kill()
                    os._exit(0)
                op = text(req, "op")
                if op == "run" and len(fds) == 3:
                    run = LintRun(text(req, "tag"), *fork_child(ctl, req, fds))
                    os.set_blocking(run.result_r, False)
                    runs[run.result_r] = run
                    poller.register(run.result_r, select.POLLIN)
                    if run.pidfd is not None:
                        runs[run.pidfd] = run
                        poller.register(run.pidfd, select.POLLIN)
                    continue
                for fd_ in fds:
                    os.close(fd_)
                if op == "run":
                    send(ctl, {"op": "done", "tag": text(req, "tag"), "exit": -1, "signal": 0, "maxrss": 0,
                               "result": encode({"outcome": "error", "exc_message": "request without 3 fds"})})
                elif op == "kill":  # a kill for a run that already ended is ignored
                    for run in set(runs.values()):
                        if run.tag == text(req, "tag"):
                            run.kill()
            elif fd in runs:
                run = runs[fd]
                if fd == run.result_r:
                    if not run.read():
                        poller.unregister(fd)
                else:
                    lint_run_ended(ctl, poller, runs, run)
        for run in set(runs.values()):
            if run.pidfd is None and os.waitid(os.P_PID, run.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                lint_run_ended(ctl, poller, runs, run)
        if not runs:
            reap_strays()


def warm_done(ctl):
    """The end of the warm-up: what it built joins the frozen image (gc.freeze, as at
    "ready"), and the sessions forked from now on say so in their replies."""
    global WARMED
    WARMED = True
    gc.collect()
    gc.freeze()
    send(ctl, {"op": "warm"})


def lint_run_ended(ctl, poller, runs, run):
    for fd in (run.result_r, run.pidfd):
        if fd is not None and runs.pop(fd, None) is not None:
            try:
                poller.unregister(fd)
            except KeyError:
                pass
    run.finish(ctl)


def reap_strays():
    """With no run in progress: kill and reap whatever a run left behind (orphans come to
    us, as pid 1 of the sandbox's pid namespace or as a child subreaper)."""
    if os.getpid() == 1:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    else:
        for kid in children_of_self():
            try:
                os.kill(kid, signal.SIGKILL)
            except OSError:
                pass
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main():
    global SEAL, PROBE_NUMPY
    ctl = socket.socket(fileno=CTL_FD)
    preload = TIER_PRELOAD[TIER] + (LINT_PRELOAD if LINT else [])
    for name in preload:
        try:
            __import__(name)
        except BaseException as exc:  # noqa: BLE001 - reported to genebench
            send(ctl, {"op": "error", "module": name, "error": clip("%s: %s" % (type(exc).__name__, exc))})
            return 1
    PROBE_NUMPY = sys.modules.get("numpy")
    steps = []
    if LINT:
        try:
            steps = warm_pylint()
        except BaseException as exc:  # noqa: BLE001
            send(ctl, {"op": "error", "module": "pylint", "error": clip("%s: %s" % (type(exc).__name__, exc))})
            return 1
    # pylint's import wraps sys.stdout/sys.stderr in colorama stream wrappers, which are
    # slow and would sit between every run and its stdout pipe.
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    seccomp = install_seccomp() if SECCOMP else False
    # Our own prints never reach a run: the child redirects 0-2 first.
    try:
        warm_after_fork()
    except Exception as exc:  # noqa: BLE001 - a slower worker, not a broken one
        sys.stderr.write("genebench harness: warming the after-fork handlers failed: %r\n" % (exc,))
    load_native()
    wait = NativeWait() if NATIVE is not None else None
    SEAL = seal_snapshot()
    gc.collect()
    gc.freeze()
    remap_report = "off"
    if REMAP:
        remap_report = remap()
    else:
        collapse_heap()
    send(ctl, {"op": "ready", "python": sys.version.split()[0], "pid": os.getpid(),
               "seccomp": "1" if seccomp else "0", "remap": remap_report,
               "proc": "1" if os.path.isdir("/proc/self") else "0",
               "native": "yes" if NATIVE is not None else "no: " + clip(NATIVE_WHY)})
    if LINT:
        serve_lint(ctl, steps)
    while True:
        try:
            req, fds = recv_msg(ctl)
        except OSError:
            return 0
        if req is None:
            return 0
        op = text(req, "op")
        if op == "run":
            if len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                send(ctl, {"op": "done", "exit": -1, "signal": 0, "maxrss": 0,
                           "result": encode({"outcome": "error", "exc_message": "request without 3 fds"})})
                continue
            if wait is not None:
                serve_run(ctl, req, fds, wait)
            else:
                serve_run_py(ctl, req, fds)
        else:
            for fd in fds:
                os.close(fd)
            # a stale "kill" for a run that already finished is ignored


if __name__ == "__main__":
    try:
        import ctypes

        LIBC = ctypes.CDLL(None, use_errno=True)
    except OSError:
        LIBC = None
    if os.getpid() != 1 and LIBC is not None:
        LIBC.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    sys.exit(main())
