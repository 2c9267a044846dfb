"""A run's child: what happens after the worker forks for a run. It sets up the sandbox
(new session, rlimits, optional uid drop, run directory as cwd), runs the request's kind
(tests, a probe, a lint session, or an exec of a command), checks the seal and writes the
one result record that carries the run's token."""

import os
import resource
import signal
import sys
import time

from harness_judge import run_judged
from harness_lint import run_lint_session
from harness_process import exec_only
from harness_probe import run_probe
from harness_probe_apart import run_probe_apart
from harness_program import compile_tests, describe_exception, exec_program, new_main_module
from harness_rules import apply_harness_rules, main_name
from harness_seal import seal_before_tests, seal_check
from harness_view import enter_view
from harness_wire import clip, encode, text


class Worker:
    """What a run's child takes from its worker, built once by main() after the worker's
    imports and never changed after: seal (the snapshot of harness_seal.seal_snapshot),
    libc (a ctypes handle on libc, or None), numpy (the preloaded numpy module, or None) and
    lint (the lint worker's harness_lint.Lint, or None) and shm (the worker's private
    /dev/shm, emptied after every run, or None where it is the host's)."""

    def __init__(self, seal, libc, numpy, lint, shm):
        self.seal, self.libc, self.numpy, self.lint, self.shm = seal, libc, numpy, lint, shm


def run_assert(req, run_dir, main_path, result):
    run_exec = exec  # taken before the program runs: a replaced builtins.exec is not used
    tests = compile_tests(text(req, "test"))
    mod = new_main_module(run_dir, main_path, main_name(req))
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
    mod = new_main_module(run_dir, main_path, main_name(req))
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
    mod = new_main_module(run_dir, main_path, main_name(req))
    try:
        exec_program(mod, main_path)
        seal_before_tests()
        run_exec(tests, mod.__dict__)
    except BaseException as exc:  # noqa: BLE001
        result.update(describe_exception(exc, run_dir))
        result["outcome"] = "fail"
        return
    unittest_verdict(req, run_dir, mod.__dict__, result)


def judged_assert(run_dir):
    """The tests of an assert run, in the judge (harness_judge.run_judged)."""

    def run_tests(namespace, tests, result):
        try:
            exec(tests, namespace)
        except BaseException as exc:  # noqa: BLE001 - SystemExit included on purpose
            result.update(describe_exception(exc, run_dir))
            result["outcome"] = "fail"
            return
        result["outcome"] = "pass"

    return run_tests


def judged_unittest(req, run_dir):
    """The tests of a unittest run, in the judge (harness_judge.run_judged)."""

    def run_tests(namespace, tests, result):
        try:
            exec(tests, namespace)
        except BaseException as exc:  # noqa: BLE001
            result.update(describe_exception(exc, run_dir))
            result["outcome"] = "fail"
            return
        unittest_verdict(req, run_dir, namespace, result)

    return run_tests


def unittest_verdict(req, run_dir, namespace, result):
    """Run the listed test classes of namespace (the tests' globals) and fill result."""
    import unittest

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

        def addSkip(self, test, reason):
            # a program can raise unittest.SkipTest from the code a test calls: a test that
            # did not run to its end did not pass
            super().addSkip(test, reason)
            self.bad.append((test, "skipped: %s" % reason))

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is not None:
                self.bad.append((subtest, err))

    prefix = main_name(req) + "."

    def test_name(test):
        name = test.id()
        return name[len(prefix):] if name.startswith(prefix) else name

    failed = []
    first = None
    total = 0
    for name in [c for c in text(req, "classes").split("\n") if c]:
        cls = namespace.get(name)
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
                elif isinstance(err, str):
                    first = {"failed_test": test_name(test), "exc_type": "SkipTest", "exc_message": clip(err)}
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


def run_request(req, result, worker, private):
    """Run what req asks for in this process, from its run directory; fill result. worker:
    the Worker (what it holds is taken before the program runs). private: the descriptors a
    split run's program process must not have (the result pipe, the token pipe, the tests),
    empty when the run is not split."""
    numpy, lint = worker.numpy, worker.lint
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
        if private:
            # the program runs in a process of its own; the upstream guard is applied there
            rules = text(req, "rules")
            if rules != "guard":
                apply_harness_rules(req, main_path)
            if kind == "probe":
                run_probe_apart(req, run_dir, main_path, result, private, worker.seal, worker.libc, numpy)
                return
            run_tests = judged_assert(run_dir) if kind == "assert" else judged_unittest(req, run_dir)
            run_judged(req, run_dir, main_path, result, private, worker.seal, worker.libc, run_tests)
            return
        undo = apply_harness_rules(req, main_path)
        try:
            if kind == "assert":
                run_assert(req, run_dir, main_path, result)
            elif kind == "unittest":
                run_unittest(req, run_dir, main_path, result)
            elif kind == "probe":
                run_probe(req, run_dir, main_path, result, numpy)
            else:
                run_stdio(req, run_dir, main_path, result)
        finally:
            undo()
    elif kind == "lintd":
        run_lint_session(lint, run_dir, result)
    else:
        result["exc_message"] = "unknown run kind %r" % kind


def exec_command(req, result_w, libc):
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
        if text(req, "exec_nothing") == "1":
            exec_only(libc, argv, env)  # the command, and nothing it would exec after
        os.execve(argv[0], argv, env)
    except BaseException:  # noqa: BLE001 - the record pipe is gone: report by the exit status
        os._exit(127)


def child(worker, req, fds, result_w, ctl, token_r):
    t_start = time.monotonic()
    # Taken before the program runs (the seal, harness_seal.py): what reports the result.
    os_read, os_write, os_exit, encode_record, check = os.read, os.write, os._exit, encode, seal_check
    check_code, encode_code = seal_check.__code__, encode.__code__
    seal, libc = worker.seal, worker.libc
    kind = text(req, "kind")
    result = {"outcome": "error"}
    sealed = b""
    try:
        ctl.detach()  # the fd is closed below; the socket object must not close it again
        os.setsid()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        # A split run (harness_judge.py) keeps the descriptor of its tests (a probe judged apart:
        # its fields) for the judge.
        split = text(req, "split") == "1" and kind in ("assert", "unittest", "probe") and len(fds) == 4
        keep = sorted({result_w, token_r} | ({fds[3]} if split else set()))
        low = 3
        for fd in keep:
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, 1 << 16)
        # The token, read before the program runs and its descriptor closed: the program
        # finds no descriptor to read it from (only the memory of this frame). A split run
        # reads it after its program's process has been forked without it.
        if not split:
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
        if kind == "exec" and text(req, "view") == "1" and worker.shm is not None:
            # a mount namespace of its own, made while the child still may (before the uid drop)
            enter_view(libc, text(req, "argv").split("\0")[0], text(req, "dir"), worker.shm)
        uid = int(text(req, "uid", "-1"))
        if uid >= 0:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        if libc is not None and os.getppid() != 1:
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG (plain mode only)
        if kind == "exec":
            exec_command(req, result_w, libc)  # returns only when it cannot exec
        run_request(req, result, worker, (result_w, token_r, fds[3]) if split else ())
    except BaseException as exc:  # noqa: BLE001 - the harness itself failed
        # once the program ran, the harness's failure may be its doing: a failed run
        started = result.get("program") == "started"
        result = {"outcome": "fail" if started else "error", "exc_type": type(exc).__name__,
                  "exc_message": clip(exc)}
    result.pop("program", None)
    if not sealed:
        try:
            sealed = os.read(token_r, 64)
            os.close(token_r)
        except OSError:
            pass
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
    # Flushed only after the seal check, with the record already encoded: a stream's flush()
    # may be the program's code (it may have replaced sys.stdout/sys.stderr or closed fds 1 and
    # 2), and code that ran between the tests and the check could restore what it patched.
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    try:
        while data:
            n = os_write(result_w, data)
            data = data[n:]
    except OSError:
        pass
    os_exit(0)

