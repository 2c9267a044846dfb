"""The worker's loops: a test worker forks one child per run and waits for it (in C through
the native helper, or in Python), a lint worker serves several runs at once; both report
each run's end as a "done" record with the run's token."""

import gc
import os
import resource
import select
import signal
import sys
import time

from harness_child import child
from harness_process import empty_dir, kill_everything, reap_strays
from harness_wire import encode, recv_msg, send, text


class NativeWait:
    """The native helper (lib: its ctypes handle, harness_process.load_native) and the
    arguments of its gb_run_wait (src/runner/runwait.c), built once: the wait after a fork
    then allocates nothing in the worker while the child is alive."""

    def __init__(self, lib):
        import ctypes

        self.lib = lib
        self.close_fds = (ctypes.c_int * 4)()
        self.times = (ctypes.c_double * 2)()
        self.length = ctypes.c_size_t(0)
        self.string_at = ctypes.string_at


def serve_run(worker, ctl, req, fds, wait):
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
        child(worker, req, fds, result_w, ctl, token_r)
    token = give_token(token_r, token_w)
    flags = wait.lib.gb_run_wait(ctl_fd, pid, result_r, wait.close_fds, 1 + len(fds[:3]), wait.times, wait.length)
    for fd in fds[3:]:
        os.close(fd)
    if flags < 0 or flags & 2:  # genebench went away: kill the run and leave
        kill_everything(pid)
        os._exit(0)
    t_fork1, t_exit = wait.times[0], wait.times[1]
    _pid, status, rusage = os.wait4(pid, 0)
    kill_everything(pid)
    length = wait.lib.gb_run_drain(result_r, wait.length.value)
    os.close(result_r)
    faults1 = resource.getrusage(resource.RUSAGE_SELF)
    send(ctl, done_record(status, rusage, faults0, faults1, t_fork0, t_fork1, t_exit,
                          wait.string_at(wait.lib.gb_run_result(), length), token))


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


def fork_child(worker, ctl, req, fds):
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
        child(worker, req, fds, result_w, ctl, token_r)
    token = give_token(token_r, token_w)
    t_fork1 = time.monotonic()
    os.close(result_w)
    for fd in fds:
        os.close(fd)
    return pid, result_r, token, t_fork0, t_fork1, faults0


def serve_run_py(worker, ctl, req, fds):
    """serve_run without the shared object: the same wait, in Python."""
    pid, result_r, token, t_fork0, t_fork1, faults0 = fork_child(worker, ctl, req, fds)
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


def serve_lint(worker, ctl, steps):
    """The loop of a lint worker: it serves several runs at once, each named by the "tag"
    of its request, which its "done" record and a "kill" for it carry. A lint run spends
    its time in pylint, not in the fork, so one warm lint worker (one pylint warm-up) serves
    the lint sessions of every thread of genebench, each in a child of its own. A child is
    killed on its own: its process group (it calls setsid) and never a sibling.
    While no request waits, it runs the steps of the warm-up's second stage (harness_lint.py: warm_steps),
    one at a time; after the last it says "warm" (genebench then replaces the sessions
    started before, at their next lint: src/runner/README.md, the lint gate)."""
    ctl_fd = ctl.fileno()
    runs = {}  # fd to watch (pidfd or result pipe) -> LintRun
    poller = select.poll()
    poller.register(ctl_fd, select.POLLIN)
    steps = list(steps)
    if not steps:
        warm_done(worker.lint, ctl)
    while True:
        polled = any(run.pidfd is None for run in set(runs.values()))
        events = poller.poll(0 if steps else 50 if polled else None)
        if not events and steps:
            try:
                steps.pop(0)()
            except Exception as exc:  # noqa: BLE001 - sessions build what they lack themselves
                sys.__stderr__.write("genebench harness: a warm-up step of pylint failed: %r\n" % (exc,))
            if not steps:
                warm_done(worker.lint, ctl)
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
                    run = LintRun(text(req, "tag"), *fork_child(worker, ctl, req, fds))
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


def warm_done(lint, ctl):
    """The end of the warm-up: what it built joins the frozen image (gc.freeze, as at
    "ready"), and the sessions forked from now on say so in their replies (lint.warmed)."""
    lint.warmed = True
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



def serve_tests(worker, ctl, wait):
    """The loop of a test worker: one run at a time, until genebench goes away. wait is the
    NativeWait of the native helper, or None (serve_run_py)."""
    while True:
        try:
            req, fds = recv_msg(ctl)
        except OSError:
            return 0
        if req is None:
            return 0
        op = text(req, "op")
        if op == "run":
            # stdin, stdout, stderr, and the tests of a split run (harness_judge.py)
            if len(fds) != (4 if text(req, "split") == "1" else 3):
                for fd in fds:
                    os.close(fd)
                send(ctl, {"op": "done", "exit": -1, "signal": 0, "maxrss": 0,
                           "result": encode({"outcome": "error", "exc_message": "request without its fds"})})
                continue
            if wait is not None:
                serve_run(worker, ctl, req, fds, wait)
            else:
                serve_run_py(worker, ctl, req, fds)
            if worker.shm is not None:
                empty_dir(worker.shm)  # after "done": the next run starts with an empty /dev/shm
        else:
            for fd in fds:
                os.close(fd)
            # a stale "kill" for a run that already finished is ignored
