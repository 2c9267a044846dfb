"""genebench test-runner worker ("zygote").

This file and its sibling modules (harness_*.py, one concept each: src/runner/README.md) are
embedded into the genebench binary and written to a private temporary directory when a pool
starts (src/runner/pool.c). It is started as

    PYTHON -s -B harness.py CTL_FD --libraries NAMES [--import MODULES] [--lint]
        [--seccomp] [--warm-dir DIR] [--native PATH [--remap]]

with a connected AF_UNIX stream socket on CTL_FD. NAMES are the top-level names of the
third-party libraries (src/runner/library_list.h), MODULES the ones of their modules this
worker preloads (src/runner/tier.c picks a worker per run), both comma-separated. It imports
the heavy modules once, freezes the heap, and then serves requests: for every run it forks a
child that sets up the sandbox (new session, rlimits, optional uid drop, run directory as cwd)
and runs the program and its tests, one run at a time (harness_serve.py, harness_child.py).
A lint worker (--lint) serves several runs at once (harness_serve.py: serve_lint): the lint
sessions of every genebench thread, each tagged; it is ready once pylint is imported and its
linter built, and warms up the rest between requests (harness_lint.py). Results travel as
structured records, never as parsed text (harness_wire.py).

No harness module has a global that changes after start-up: main() builds the worker's state
(harness_child.Worker, harness_lint.Lint, harness_process.Native) and passes it down, and the
seal (harness_seal.py) covers every harness module.
"""

import gc
import os
import socket
import sys

from harness_child import Worker
from harness_lint import LINT_PRELOAD, Lint, warm_pylint
from harness_process import collapse_heap, install_seccomp, load_native, remap, warm_after_fork
from harness_seal import harness_modules, seal_snapshot
from harness_serve import NativeWait, serve_lint, serve_tests
from harness_wire import clip, send

# The standard-library modules every test worker preloads (after the third-party ones of
# --import): what benchmark programs and the operators' library calls use (A1-A8). Order
# matters only for the error message.
STDLIB_PRELOAD = [
    "threading", "queue", "unittest", "http.client", "base64", "datetime", "time", "collections",
    "itertools", "functools", "math", "re", "string", "heapq", "bisect", "random", "json", "copy",
    "types", "traceback", "linecache", "resource", "ctypes", "io", "hashlib", "statistics",
    "fractions", "decimal", "operator", "typing", "sqlite3", "tempfile", "shutil",
]


class Options:
    """The worker's command line (see the module's docstring)."""

    def __init__(self, argv):
        args = argv[2:]

        def value(flag):
            return args[args.index(flag) + 1] if flag in args else None

        def names(flag):
            return [n for n in (value(flag) or "").split(",") if n]

        self.ctl_fd = int(argv[1])
        self.lint = "--lint" in args
        self.seccomp = "--seccomp" in args
        self.private_shm = "--private-shm" in args
        self.warm_dir = value("--warm-dir")
        self.native_path = value("--native")
        self.remap = "--remap" in args
        self.libraries = names("--libraries")
        # A run whose program imports more imports it in its child: the choice of a worker
        # costs time, never correctness.
        self.imports = names("--import")


def main(argv, libc):
    opts = Options(argv)
    ctl = socket.socket(fileno=opts.ctl_fd)
    preload = opts.imports + STDLIB_PRELOAD + (LINT_PRELOAD if opts.lint else [])
    for name in preload:
        try:
            __import__(name)
        except BaseException as exc:  # noqa: BLE001 - reported to genebench
            send(ctl, {"op": "error", "module": name, "error": clip("%s: %s" % (type(exc).__name__, exc))})
            return 1
    lint = Lint(opts.warm_dir, opts.libraries) if opts.lint else None
    steps = []
    if lint is not None:
        try:
            steps = warm_pylint(lint)
        except BaseException as exc:  # noqa: BLE001
            send(ctl, {"op": "error", "module": "pylint", "error": clip("%s: %s" % (type(exc).__name__, exc))})
            return 1
    # pylint's import wraps sys.stdout/sys.stderr in colorama stream wrappers, which are
    # slow and would sit between every run and its stdout pipe.
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    seccomp = install_seccomp() if opts.seccomp else False
    # Our own prints never reach a run: the child redirects 0-2 first.
    try:
        warm_after_fork()
    except Exception as exc:  # noqa: BLE001 - a slower worker, not a broken one
        sys.stderr.write("genebench harness: warming the after-fork handlers failed: %r\n" % (exc,))
    native = load_native(opts.native_path)
    wait = NativeWait(native.lib) if native.lib is not None else None
    worker = Worker(seal_snapshot(harness_modules(__file__)), libc, sys.modules.get("numpy"), lint,
                    "/dev/shm" if opts.private_shm else None)
    gc.collect()
    gc.freeze()
    remap_report = "off"
    if opts.remap:
        remap_report = remap(native)
    else:
        collapse_heap()
    send(ctl, {"op": "ready", "python": sys.version.split()[0], "pid": os.getpid(),
               "seccomp": "1" if seccomp else "0", "remap": remap_report,
               "proc": "1" if os.path.isdir("/proc/self") else "0",
               "native": "yes" if native.lib is not None else "no: " + clip(native.why)})
    if lint is not None:
        serve_lint(worker, ctl, steps)
    return serve_tests(worker, ctl, wait)


def start():
    """The worker's process set-up before main(): a handle on libc (kept by the Worker), and
    the child subreaper flag unless we are pid 1 of our own pid namespace."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        libc = None
    if os.getpid() != 1 and libc is not None:
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    return main(sys.argv, libc)


if __name__ == "__main__":
    sys.exit(start())
