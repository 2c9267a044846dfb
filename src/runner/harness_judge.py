"""A split run: the tests' logic in the run's child (the judge), the program in a process of
its own that the judge forks (harness_host.py). The judge never runs the program's code: the
tests see the program's top-level names as plain data (harness_codec.py) or as handles
(Handle) whose calls, attributes and operators are requests to the program's process, and
whose results come back as plain data. The judge holds the run's token and the result pipe;
the program's process has neither, and the judge is not dumpable, so the program cannot read
its memory. So nothing the program does to its own interpreter (frames, builtins, unittest,
ctypes, linecache, exits) reaches the tests or the record.

Which runs are split: genebench decides (src/runner/run.c, gb_pool__tests_split) and sends
such a run's tests as a descriptor, not in the request: the judge reads them only after it
forked the program's process, so their text is in no memory the program inherits (README:
"What a test run can trust").
"""

import builtins
import os
import select
import signal
import sys
import threading
import time

from harness_codec import Broken, Refused, recv, send
from harness_host import serve_host
from harness_program import compile_tests, describe_exception
from harness_rules import apply_guard, main_name
from harness_wire import clip, text


class ProgramError(Exception):
    """The program's process could not answer (it sent something malformed, or went silent)."""


class ProcessExit(Exception):
    """The program's process exited before the tests finished."""


class CallTimeout(Exception):
    """The program's process did not answer within the time given (probes: Link.deadline)."""


class Handle:
    """An object that lives in the program's process. Calls, attribute reads and writes,
    len, iteration, indexing, `in`, str and repr are asked of the program; == against
    another handle asks the program, against anything else is False; truth is always True
    (the program does not decide it). isinstance(x, handle) asks the program."""

    __slots__ = ("_link", "_id", "_kind", "_name", "__weakref__")

    def __init__(self, link, ident, kind, name):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_name", name)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__") and name not in ("__name__", "__qualname__", "__dict__",
                                                                         "__doc__"):
            raise AttributeError(name)
        return self._link.ask(("getattr", self._id, name))

    def __setattr__(self, name, value):
        self._link.ask(("setattr", self._id, name, value))

    def __delattr__(self, name):
        self._link.ask(("delattr", self._id, (name,)))

    def __call__(self, *args, **kwargs):
        return self._link.call(self._id, args, kwargs)

    def __len__(self):
        n = self._link.ask(("len", self._id, ()))
        if type(n) is not int:
            raise TypeError("len() of a program object gave no int")
        return n

    def __iter__(self):
        items = self._link.ask(("iter", self._id, ()))
        return iter(items if type(items) is list else ())

    def __getitem__(self, key):
        return self._link.ask(("getitem", self._id, (key,)))

    def __setitem__(self, key, value):
        self._link.ask(("setitem", self._id, (key, value)))

    def __delitem__(self, key):
        self._link.ask(("delitem", self._id, (key,)))

    def __contains__(self, item):
        return self._link.ask(("contains", self._id, (item,))) is True

    def __eq__(self, other):
        if isinstance(other, Handle) and other._link is self._link:
            return self._link.ask(("eq", self._id, (other,))) is True
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash((Handle, self._id))

    def __bool__(self):
        return True

    def __instancecheck__(self, obj):
        if not isinstance(obj, Handle) or obj._link is not self._link:
            return False
        return self._link.ask(("isinstance", obj._id, (self,))) is True

    def __repr__(self):
        text = self._link.ask(("repr", self._id, ()))
        return text if type(text) is str else "<%s from the program>" % self._name

    def __str__(self):
        text = self._link.ask(("str", self._id, ()))
        return text if type(text) is str else "<%s from the program>" % self._name


class Link:
    """The judge's end of the pipes to the program's process (pid), and what its handles decode to."""

    def __init__(self, pid, calls_w, replies_r, out_r):
        self.pid, self.calls_w, self.replies_r, self.out_r = pid, calls_w, replies_r, out_r
        self.handles, self.exceptions = {}, {}
        # out_r: the program's stdout, a pipe; what it holds goes to the judge's stdout (tests) or
        # into self.taken (probes: take_output); deadline: a monotonic time the next reply must
        # come by (None: none, the run's own limit holds)
        self.taken, self.keep_output, self.deadline = [], False, None
        os.set_blocking(out_r, False)

    def drain(self):
        """Read what the program's stdout pipe holds now."""
        while True:
            try:
                chunk = os.read(self.out_r, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                return
            if not chunk:
                return
            if self.keep_output:
                self.taken.append(chunk)
            else:
                write_output(chunk)

    def take_output(self):
        """What the program printed since the last take (keep_output runs), as bytes."""
        self.drain()
        data = b"".join(self.taken)
        self.taken = []
        return data

    def receive(self):
        """The next message from the program's process, draining its stdout meanwhile (a call
        that prints more than a pipe holds must not block on it)."""
        while True:
            timeout = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            ready = select.select([self.replies_r, self.out_r], [], [], timeout)[0]
            if not ready:
                raise CallTimeout("no answer within the time given")
            if self.out_r in ready:
                self.drain()
            if self.replies_r in ready:
                reply = recv(self.replies_r, self.decode_handle)
                self.drain()
                return reply

    def gone(self, why):
        """The program's process stopped answering: a ProgramError to raise. When it ended by a
        signal (a segfault, the memory limit), the judge ends by the same signal, so that the
        run is a crash as when tests and program shared a process."""
        status = None
        for _ in range(200):
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                break
            status = None
            time.sleep(0.005)
        if status is not None and os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
            os.kill(os.getpid(), signal.SIGKILL)  # a signal whose default is not to end
        if status is not None and os.WIFEXITED(status):
            return ProcessExit("the process ended (exit status %d) before the tests finished" % os.WEXITSTATUS(status))
        return ProgramError("the program's process did not answer: %s" % why)

    def handle_of(self, value):
        if isinstance(value, Handle) and value._link is self:
            return value._id, value._kind, value._name
        for ident, cls in self.exceptions.items():
            if value is cls:
                return ident, "e", cls.__name__
        raise Refused("the tests passed a %s to the program: only plain data and the program's own "
                      "objects cross" % type(value).__name__)

    def exception_class(self, ident, name, base):
        cls = self.exceptions.get(ident)
        if cls is None:
            cls = type(name, (base,), {"__module__": "program"})
            self.exceptions[ident] = cls
        return cls

    def decode_handle(self, ident, kind, name):
        if kind == "e":
            # "Name Base": the program's exception class and its nearest builtin Exception base
            own, _sep, base_name = name.partition(" ")
            base = getattr(builtins, base_name, None)
            if not (isinstance(base, type) and issubclass(base, Exception)):
                base = Exception
            return self.exception_class(ident, own, base)
        if kind == "m":
            mod = sys.modules.get(name)
            if mod is not None and not getattr(mod, "__file__", "").startswith(os.getcwd() + os.sep):
                return mod
        handle = self.handles.get(ident)
        if handle is None:
            handle = self.handles[ident] = Handle(self, ident, kind, name)
        return handle

    def exchange(self, request):
        try:
            send(self.calls_w, request, self.handle_of)
            reply = self.receive()
        except (Broken, OSError) as exc:
            raise self.gone(exc) from None
        if type(reply) is not tuple or not reply:
            raise ProgramError("the program's process sent a malformed reply")
        if reply[0] == "raise" and len(reply) == 6:
            raise self.rebuild(reply)
        if reply[0] != "ok" or len(reply) != 4:
            raise ProgramError("the program's process sent a malformed reply")
        if type(reply[3]) in (str, bytes) and reply[3]:
            write_output(reply[3])
        return reply

    def rebuild(self, reply):
        """A judge-side exception for the program's: the builtin type by name when it is one,
        else a class of the judge named like the program's, under its nearest builtin base
        (never a BaseException that is not an Exception, nor unittest's SkipTest)."""
        _op, ident, name, base_name, args, _info = reply
        base = getattr(builtins, base_name, None) if type(base_name) is str else None
        if not (isinstance(base, type) and issubclass(base, Exception)):
            base = Exception
        if type(name) is not str:
            name = base.__name__
        if type(ident) is not int or ident == 0:
            found = getattr(builtins, name, None)
            cls = found if isinstance(found, type) and issubclass(found, Exception) else base
        else:
            cls = self.exception_class(ident, name, base)
        message = args if type(args) is tuple else (_info[1] if type(_info) is tuple and len(_info) == 3 else "",)
        try:
            return cls(*message)
        except Exception:  # noqa: BLE001 - e.g. UnicodeDecodeError wants 5 arguments
            return cls(str(message[0]) if message else "")

    def ask(self, request):
        return self.exchange(request)[1]

    def call(self, ident, args, kwargs):
        changed = [i for i, a in enumerate(args) if type(a) in (list, dict, set)]
        changed += [k for k, a in kwargs.items() if type(a) in (list, dict, set)]
        reply = self.exchange(("call", ident, args, kwargs, changed))
        back = reply[2]
        if type(back) is list and len(back) == len(changed):
            for where, new in zip(changed, back):
                old = args[where] if type(where) is int else kwargs[where]
                if type(old) is list and type(new) is list:
                    old[:] = new
                elif type(old) is type(new):
                    old.clear()
                    old.update(new)
        return reply[1]


def write_output(data):
    """What a call printed (bytes from the program's process), to the judge's sys.stdout: as
    bytes when it has a binary buffer, else (a test's StringIO) as text."""
    if type(data) is str:
        sys.stdout.write(data)
        return
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8", "replace"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def fork_clean(body):
    """Fork from a thread of its own and run body() in the child (it never returns there):
    the child's only thread starts at that thread's bootstrap, so none of the judge's frames
    (what kind of run this is, its request, the judge's locals) is a frame of the child.
    Returns the child's pid."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    box = []

    def forker():
        pid = os.fork()
        if pid == 0:
            try:
                body()
            finally:
                os._exit(1)
        box.append(pid)

    thread = threading.Thread(target=forker)
    thread.start()
    thread.join()
    if not box:
        raise OSError("cannot fork the program's process")
    return box[0]


def start_host(req, run_dir, main_path, private, seal, libc, unittest_too):
    """Fork the program's process (fork_clean); returns (pid, Link). The child closes every
    descriptor the judge keeps private (the result pipe, the token pipe, the tests) and empties
    the request before the program runs; its stdout is a pipe the judge reads, as a run's
    stdout is a pipe genebench reads. Test runs and probes start it alike."""
    calls_r, calls_w = os.pipe()
    replies_r, replies_w = os.pipe()
    out_r, out_w = os.pipe()
    rules = text(req, "rules")
    name = main_name(req)

    def host():
        for fd in list(private) + [calls_w, replies_r, out_r]:
            os.close(fd)
        os.dup2(out_w, 1)
        os.close(out_w)
        if libc is not None:
            libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: the program's own /proc/self as usual
        undo = apply_guard() if rules == "guard" else (lambda: None)
        req.clear()
        serve_host(calls_r, replies_w, run_dir, main_path, seal, unittest_too, undo, name)

    pid = fork_clean(host)
    os.close(calls_r)
    os.close(replies_w)
    os.close(out_w)
    return pid, Link(pid, calls_w, replies_r, out_r)


def end_host(pid, link, grace=0.5):
    """Close the pipes to the program's process and reap it. It flushes what the program wrote
    and exits when its requests pipe closes; one that has not after grace seconds (a thread of
    the program holding it) is killed, and so is anything it left. What it wrote last is
    passed on (link.drain)."""
    for fd in (link.calls_w, link.replies_r):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == 0 and not exited_within(pid, grace):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:  # already reaped (Link.gone)
        pass
    link.drain()
    try:
        os.close(link.out_r)
    except OSError:
        pass


def exited_within(pid, seconds):
    """Whether the child pid (not reaped) exits within seconds."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        pidfd = None
    if pidfd is not None:
        try:
            return bool(select.select([pidfd], [], [], seconds)[0])
        finally:
            os.close(pidfd)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        time.sleep(0.002)
    return False


def judge_namespace(link, first, name="__main__"):
    """The tests' globals: the program's top-level names (plain data, modules the judge has
    itself, or handles), under the judge's own builtins. A program name that shadows a builtin
    is left out: the tests' abs() or len() is Python's, not one the program defines."""
    if type(first) is not tuple or len(first) != 2 or first[0] != "ready" or type(first[1]) is not dict:
        raise ProgramError("the program's process sent a malformed first message")
    own = vars(builtins)
    ns = {k: v for k, v in first[1].items() if type(k) is str and k not in own}
    ns.update({"__name__": name, "__builtins__": builtins, "__doc__": None})
    return ns


def read_tests(fd):
    parts = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        parts.append(chunk)
    os.close(fd)
    return b"".join(parts).decode("utf-8", "surrogateescape")


def run_judged(req, run_dir, main_path, result, private, seal, libc, run_tests):
    """A split assert or unittest run: fork the program's process, read and compile the tests
    (private[2], the descriptor they came in), wait for the program's first message, run the
    tests here with run_tests(namespace, tests code, result), ask the program's seal (which can
    only add a failure) and end the program's process."""
    unittest_too = text(req, "kind") == "unittest"
    if libc is not None:
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: the program's process cannot read the judge
    pid, link = start_host(req, run_dir, main_path, private, seal, libc, unittest_too)
    try:
        tests = compile_tests(read_tests(private[2]))
        try:
            first = link.receive()
        except (Broken, OSError) as exc:
            gone = link.gone(exc)
            result.update({"outcome": "fail", "exc_type": type(gone).__name__, "exc_message": clip(gone),
                           "failed_test": ""})
            return
        if type(first) is tuple and len(first) == 2 and first[0] == "failed" and type(first[1]) is dict:
            info = first[1]
            result.update({k: v for k, v in info.items() if k in ("exc_type", "exc_message", "failed_test")
                           and type(v) is str})
            result["outcome"] = "fail"
            return
        try:
            namespace = judge_namespace(link, first, main_name(req))
        except ProgramError as exc:
            result.update(describe_exception(exc, run_dir))
            result["outcome"] = "fail"
            return
        run_tests(namespace, tests, result)
        # The program's seal names what it tampered with; it can only turn a pass into a failure.
        try:
            why = link.ask(("seal",))
        except BaseException as exc:  # noqa: BLE001 - a process that cannot answer fails the run
            why = "the program's process did not answer the seal check: %s" % exc
            if result.get("outcome") != "pass":
                why = None
        if why:
            result.clear()
            result.update({"outcome": "fail", "exc_type": "Tampering", "exc_message": clip(why)})
    finally:
        end_host(pid, link)
