"""The worker's process: its seccomp filter, its native helper (src/runner/remap.c,
src/runner/runwait.c, loaded with ctypes), huge pages for its frozen heap, the warming of the
after-fork handlers, and the killing of what a run left behind."""

import os
import signal
import struct


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


def empty_dir(path):
    """Remove everything under the directory path (not path itself), without following
    symlinks. Iterative, one descriptor open at a time and the names of the way down kept in a
    list: what a run left may be as deep as its disk allows. Stops at an entry it cannot remove
    (it would find it again)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    down = []
    try:
        while True:
            sub = None
            with os.scandir(fd) as it:
                for entry in it:
                    try:
                        os.unlink(entry.name, dir_fd=fd)
                        continue
                    except FileNotFoundError:
                        continue
                    except (IsADirectoryError, PermissionError):
                        pass
                    try:
                        os.rmdir(entry.name, dir_fd=fd)
                    except FileNotFoundError:
                        pass
                    except OSError:
                        sub = sub or entry.name
            if sub is not None:
                os.chmod(sub, 0o700, dir_fd=fd, follow_symlinks=False)
                child = os.open(sub, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = child
                down.append(sub)
                continue
            if not down:
                return
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(down.pop(), dir_fd=fd)
    except OSError:
        return
    finally:
        os.close(fd)


def exec_only(libc, argv, env):
    """Replace this process by argv[0] (absolute) with env, under a seccomp filter that lets
    execve through only for the path buffer passed here: the command itself runs, and every
    later execve (a shell, another interpreter, even the command again) and every execveat is
    refused with EACCES. A program cannot pass that buffer's address (it is in the image the
    execve replaced). Returns only on failure, with an OSError."""
    import ctypes
    import platform

    arches = {"x86_64": (0xC000003E, 59, 322), "aarch64": (0xC00000B7, 221, 281)}
    machine = platform.machine()
    if machine not in arches or libc is None:
        raise OSError("exec: no seccomp filter for this machine (%s)" % machine)
    audit_arch, nr_execve, nr_execveat = arches[machine]
    path = ctypes.create_string_buffer(os.fsencode(argv[0]))
    args = [ctypes.create_string_buffer(os.fsencode(a)) for a in argv]
    envs = [ctypes.create_string_buffer(("%s=%s" % kv).encode()) for kv in env.items()]
    c_argv = (ctypes.c_char_p * (len(args) + 1))(*[ctypes.addressof(a) for a in args], None)
    c_env = (ctypes.c_char_p * (len(envs) + 1))(*[ctypes.addressof(e) for e in envs], None)
    addr = ctypes.addressof(path)
    ld_w_abs, jeq_k, ret_k = 0x20, 0x15, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ERRNO | EACCES
    prog = [
        (ld_w_abs, 0, 0, 4),                     # 0: A = arch
        (jeq_k, 1, 0, audit_arch),               # 1: ours -> 3
        (ret_k, 0, 0, deny),                     # 2
        (ld_w_abs, 0, 0, 0),                     # 3: A = nr
        (jeq_k, 7, 0, nr_execveat),              # 4: execveat -> deny (12)
        (jeq_k, 1, 0, nr_execve),                # 5: execve -> 7
        (ret_k, 0, 0, allow),                    # 6
        (ld_w_abs, 0, 0, 16),                    # 7: A = args[0], low half
        (jeq_k, 0, 3, addr & 0xFFFFFFFF),        # 8: other -> deny (12)
        (ld_w_abs, 0, 0, 20),                    # 9: A = args[0], high half
        (jeq_k, 0, 1, addr >> 32),               # 10: other -> deny (12)
        (ret_k, 0, 0, allow),                    # 11
        (ret_k, 0, 0, deny),                     # 12
    ]
    raw = b"".join(struct.pack("<HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw)

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog), ctypes.addressof(buf))
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "exec: the seccomp filter could not be installed")
    libc.execve(path, c_argv, c_env)
    raise OSError(ctypes.get_errno(), "exec: %s" % argv[0])


class Native:
    """The worker's shared object, when it loads: lib is its ctypes handle (None when it did
    not load), why the reason it did not, path where it was looked for (None: not given).
    Built once by load_native(); never changed after."""

    def __init__(self, path, lib, why):
        self.path, self.lib, self.why = path, lib, why


def load_native(path):
    """Load the shared object genebench wrote next to the harness. PyDLL: its calls keep the
    GIL, so nothing else runs while mappings are being replaced. Without it the worker uses
    the Python wait loop (serve_run_py) and does not remap."""
    if not path:
        return Native(path, None, "not given")
    import ctypes

    try:
        lib = ctypes.PyDLL(path)
    except OSError as exc:
        return Native(path, None, str(exc))
    lib.gb_remap.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.gb_remap.restype = ctypes.c_int
    lib.gb_run_wait.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_size_t)]
    lib.gb_run_wait.restype = ctypes.c_int
    lib.gb_run_drain.argtypes = [ctypes.c_int, ctypes.c_size_t]
    lib.gb_run_drain.restype = ctypes.c_size_t
    lib.gb_run_result.argtypes = []
    lib.gb_run_result.restype = ctypes.c_void_p
    return Native(path, lib, "")


def remap(native):
    """Replace the library and interpreter mappings by huge-page-backed anonymous memory
    holding the same bytes (src/runner/remap.c). Returns its one-line report."""
    import ctypes

    if native.lib is None:
        collapse_heap()
        return "not remapped: cannot load %s: %s" % (native.path, native.why)
    report = ctypes.create_string_buffer(256)
    moved = native.lib.gb_remap(report, len(report))
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
