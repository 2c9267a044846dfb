"""Writes hostile.jsonl, sandbox.jsonl and legit.jsonl next to this file (run by hand after editing; the
.jsonl files are committed). hostile.jsonl: wrong programs that try to make their failing
tests pass by attacking the harness; every one must FAIL. legit.jsonl: correct programs
that do unusual but honest things (exec, threads, exit(), their own globals named like the
harness's); every one must PASS. Used by tests/e2e/e2e_trust.sh."""
import json
import os

ADD_TESTS = {"kind": "assert", "code": "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n\ncheck(add)\n"}
ADD_WRONG = "def add(a, b):\n    return a - b\n"
UNIT_TESTS = {"kind": "unittest", "classes": ["AddTest"],
              "code": "import unittest\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n        self.assertTrue(add(2, 2) == 4)\n"}
STDIO_TESTS = {"kind": "stdio", "cases": [{"stdin": "2 3\n", "stdout": "5\n"}, {"stdin": "10 -4\n", "stdout": "6\n"}]}

# A forged pass record in the harness's wire format (u32 length-prefixed key/value pairs).
FORGE = '''
import os, struct, sys
def _record(fields):
    body = b"".join(struct.pack("<I", len(k)) + k + struct.pack("<I", len(v)) + v
                    for k, v in ((k.encode(), str(v).encode()) for k, v in fields.items()))
    return struct.pack("<I", len(body)) + body
FORGED = _record({"outcome": "pass", "tests_run": 1})
'''

hostile = {
    # walks up the stack to the harness's result pipe, writes a pass record, exits 1
    "stack_result_fd_exit1": FORGE + '''
f = sys._getframe()
while f is not None:
    if "result_w" in f.f_locals:
        os.write(f.f_locals["result_w"], FORGED)
        os._exit(1)
    f = f.f_back
''' + ADD_WRONG,
    # the same, exit status 0
    "stack_result_fd_exit0": FORGE + '''
f = sys._getframe()
while f is not None:
    if "result_w" in f.f_locals:
        os.write(f.f_locals["result_w"], FORGED)
        os._exit(0)
    f = f.f_back
''' + ADD_WRONG,
    # writes the record into every open descriptor above 2, exits 0
    "every_fd_exit0": FORGE + '''
for fd in range(3, 1024):
    try:
        os.write(fd, FORGED)
    except OSError:
        pass
os._exit(0)
''',
    # reads every descriptor first (a token, if one is there), then forges with what it read
    "read_fds_then_forge": FORGE + '''
import fcntl
seen = {}
for fd in range(3, 1024):
    try:
        fl = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, fl | os.O_NONBLOCK)
        seen[fd] = os.read(fd, 4096)
    except OSError:
        pass
for fd in range(3, 1024):
    try:
        os.write(fd, _record({"outcome": "pass", "tests_run": 1, "token": b"".join(seen.values()).decode("latin-1")}))
    except OSError:
        pass
os._exit(0)
''',
    # the tests never run: exec does nothing
    "replace_exec": "import builtins\nbuiltins.exec = lambda *a, **k: None\n" + ADD_WRONG,
    # the tests compile to nothing
    "replace_compile": "import builtins\n_c = builtins.compile\n"
                       "builtins.compile = lambda src, name, mode, *a, **k: _c('pass', name, mode)\n" + ADD_WRONG,
    # patches the harness's own functions found through the stack
    "patch_harness_globals": '''
import sys
f = sys._getframe()
while f is not None:
    g = f.f_globals
    if "describe_exception" in g:
        g["describe_exception"] = lambda exc, run_dir: {"exc_type": "", "exc_message": "", "failed_test": ""}
        for name in ("compile_tests", "exec_tests"):
            if name in g:
                g[name] = lambda *a, **k: compile("pass", "<tests>", "exec")
        if "seal_before_tests" in g:
            g["seal_before_tests"] = lambda: None
        if "seal_check" in g:
            g["seal_check"].__code__ = (lambda seal, unittest_too: None).__code__
    f = f.f_back
''' + ADD_WRONG,
    # a trace function that swaps the function under test inside the tests' frame
    "trace_swaps_candidate": '''
import sys
def _tracer(frame, event, arg):
    if frame.f_code.co_filename == "<tests>" and event == "call" and "candidate" in frame.f_locals:
        frame.f_locals["candidate"] = lambda a, b: a + b
    return None
sys.settrace(_tracer)
''' + ADD_WRONG,
}
hostile_unit = {
    # assertEqual replaced on the class
    "patch_assertEqual": "import unittest\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n"
                         "unittest.TestCase.assertTrue = lambda self, x, msg=None: None\n" + ADD_WRONG,
    # assertEqual's code replaced in place
    "patch_assertEqual_code": "import unittest\n"
                              "unittest.TestCase.assertEqual.__code__ = (lambda self, a, b, msg=None: None).__code__\n"
                              "unittest.TestCase.assertTrue.__code__ = (lambda self, x, msg=None: None).__code__\n" + ADD_WRONG,
    # failures are never recorded
    "patch_testcase_run": "import unittest\n"
                          "def _run(self, result=None):\n    result.startTest(self)\n    result.addSuccess(self)\n"
                          "    result.stopTest(self)\n"
                          "unittest.TestCase.run = _run\n" + ADD_WRONG,
    # a fake unittest module whose TestCase swallows failures
    "fake_unittest_module": '''
import sys, types, unittest as _real
fake = types.ModuleType("unittest")
fake.__dict__.update(_real.__dict__)
class TestCase(_real.TestCase):
    def assertEqual(self, *a, **k):
        pass
    def assertTrue(self, *a, **k):
        pass
fake.TestCase = TestCase
sys.modules["unittest"] = fake
''' + ADD_WRONG,
    # assertEqual patched from inside the function under test, while the tests run
    "patch_during_tests": "import unittest\n"
                          "def add(a, b):\n    unittest.TestCase.assertTrue = lambda self, x, msg=None: None\n"
                          "    return 3 if (a, b) == (1, 2) else a - b\n",
    # the function under test skips the test that calls it: a skipped test is not a pass
    "skip_test": "import unittest\ndef add(a, b):\n    raise unittest.SkipTest('later')\n",
    # failures are never recorded, and TestCase.run is put back in sys.stdout.flush(), which
    # the harness calls after the tests: the seal check must come first
    "flush_restores_patch": "import sys, unittest\n"
                            "_run = unittest.TestCase.run\n"
                            "def _pass(self, result=None):\n    result.startTest(self)\n    result.addSuccess(self)\n"
                            "    result.stopTest(self)\n"
                            "unittest.TestCase.run = _pass\n"
                            "class _Out:\n    def __init__(self, w):\n        self.w = w\n"
                            "    def write(self, x):\n        return self.w.write(x)\n"
                            "    def flush(self):\n        unittest.TestCase.run = _run\n        return self.w.flush()\n"
                            "sys.stdout = _Out(sys.stdout)\n" + ADD_WRONG,
}
hostile_stdio = {
    # prints the expected output found in the benchmark file named on genebench's command line
    "stdio_reads_benchmark": '''
import json, os, sys
data = sys.stdin.read()
def answer_from(path):
    try:
        with open(path) as f:
            for line in f:
                task = json.loads(line)
                for case in task.get("tests", {}).get("cases", []):
                    if case.get("stdin") == data:
                        return case["stdout"]
    except Exception:
        return None
    return None
candidates = []
for pid in os.listdir("/proc"):
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            candidates += [a.decode() for a in f.read().split(b"\\0") if a.endswith(b".jsonl")]
    except OSError:
        pass
for root in ("/tmp", "/root", "/home", "/work", os.getcwd() + "/.."):
    for dirpath, _dirs, files in os.walk(root):
        if dirpath.count("/") > 6:
            continue
        candidates += [os.path.join(dirpath, f) for f in files if f.endswith(".jsonl")]
for path in candidates:
    for cand in (path, os.path.join("/proc/1/cwd", path)):
        out = answer_from(cand)
        if out is not None:
            sys.stdout.write(out)
            sys.exit(0)
print("0")
''',
    # the right output, then more than genebench keeps: only the kept part would match
    "stdio_trailing_garbage": "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n"
                              "sys.stdout.write(' ' * 200000 + 'garbage')\n",
    # the right output, then a NUL byte and garbage: a comparison of C strings would stop at the NUL
    "stdio_nul_garbage": "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n"
                         "sys.stdout.write('\\0 garbage')\n",
}

legit = {
    "uses_exec": "ns = {}\nexec(compile('def add(a, b):\\n    return a + b\\n', 'gen', 'exec'), ns)\nadd = ns['add']\n",
    "globals_named_like_harness": "result = {'outcome': 'fail'}\nresult_w = 3\ntoken = None\n"
                                  "def describe_exception(*a):\n    return None\n"
                                  "def add(a, b):\n    return a + b\n",
    "threads": "import threading\n\ndef add(a, b):\n    out = []\n    t = threading.Thread(target=lambda: out.append(a + b))\n"
               "    t.start()\n    t.join()\n    return out[0]\n",
    "reads_own_fds": "import os\nos.listdir('/proc/self/fd') if os.path.isdir('/proc/self/fd') else None\n"
                     "def add(a, b):\n    return a + b\n",
}
legit_unit = {
    "unittest_subclass_helpers": "import unittest\n\nclass Base(unittest.TestCase):\n    pass\n\ndef add(a, b):\n    return a + b\n",
}
legit_stdio = {
    "stdio_exit0": "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\nexit()\n",
    "stdio_write": "import sys\na, b = map(int, input().split())\nsys.stdout.write(str(a + b) + '\\n')\n",
    "stdio_fast_input": "import builtins, sys\nbuiltins.input = sys.stdin.readline\n"
                        "a, b = map(int, input().split())\nprint(a + b)\n",
}


# Probes of the sandbox: each test passes only when the sandbox holds (namespaces and userns
# modes). e2e_trust.sh also checks from outside that nothing reached the host's /dev/shm.
SANDBOX_TESTS = {"kind": "assert", "code": "assert probe() == [], probe()\n"}
sandbox = {
    # the host's /dev/shm is not the run's: a file written there must not outlive the run
    "shm_is_private": '''
import os
def probe():
    with open("/dev/shm/genebench-trust-leak", "wb") as f:
        f.write(b"x" * (1 << 20))
    return []
''',
    # /proc is the pid namespace's own: no genebench command line, a handful of processes
    "proc_is_own": '''
import os
def probe():
    seen = []
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if pid.isdigit():
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if cmd.split(b"\\0")[0].endswith(b"genebench") or b".jsonl" in cmd:
                seen.append(cmd.decode("utf-8", "replace"))
    pids = [p for p in os.listdir("/proc") if p.isdigit()] if os.path.isdir("/proc") else []
    if len(pids) > 8:
        seen.append("%d processes visible" % len(pids))
    return seen
''',
    # the file system holds the system directories and the run, nothing of the user's
    "files_are_hidden": '''
import os
def probe():
    found = []
    for path in ("/root", "/home", "/work", "/srv", "/mnt", "/media", "/var", "/opt"):
        if os.path.exists(path) and os.listdir(path):
            found.append(path)
    # /tmp holds only the path to the pool directory (TMPDIR may be deeper), no file
    for dirpath, dirs, files in os.walk("/tmp"):
        dirs[:] = [d for d in dirs if not d.startswith("genebench-pool-")]
        found += [os.path.join(dirpath, f) for f in files][:5]
    return found
''',
    # no io_uring (its requests bypass the seccomp filter), no netlink socket, no memfd (memory
    # outside the run's limits); in every mode
    "no_io_uring_netlink_memfd": '''
import ctypes, errno, os, socket
def probe():
    libc = ctypes.CDLL(None, use_errno=True)
    bad = []
    params = ctypes.create_string_buffer(120)
    if libc.syscall(425, 4, params) >= 0 or ctypes.get_errno() != errno.ENOSYS:  # io_uring_setup
        bad.append("io_uring_setup: errno %d" % ctypes.get_errno())
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
        bad.append("a netlink socket opened")
    except OSError:
        pass
    try:
        os.close(os.memfd_create("x"))
        bad.append("memfd_create worked")
    except OSError:
        pass
    return bad
''',
    # a tree deeper than a descriptor or a stack frame per level allows: removed after the run
    "deep_tree": '''
import os
def probe():
    top = os.getcwd()
    for _ in range(20000):
        os.mkdir("d")
        os.chdir("d")
    with open("f", "w") as f:
        f.write("x")
    os.chdir(top)
    return []
''',
    # no user namespace (unshare, clone), no ptrace of the worker
    "no_user_namespace_no_ptrace": '''
import ctypes, os
def probe():
    libc = ctypes.CDLL(None, use_errno=True)
    bad = []
    if libc.unshare(0x10000000) == 0:
        bad.append("unshare(CLONE_NEWUSER) worked")
    pid = os.fork()
    if pid == 0:
        os._exit(0 if libc.unshare(0x10000000) != 0 else 1)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        bad.append("unshare(CLONE_NEWUSER) worked in a child")
    if libc.ptrace(16, os.getppid(), 0, 0) == 0:  # PTRACE_ATTACH
        bad.append("ptrace(PTRACE_ATTACH, worker) worked")
    return bad
''',
}


def task(tid, source, tests, entry="add"):
    t = {"id": tid, "source": source, "tests": tests}
    if entry:
        t["entry_point"] = entry
    return t


here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "hostile.jsonl"), "w") as f:
    for name, src in hostile.items():
        f.write(json.dumps(task("hostile/" + name, src, ADD_TESTS)) + "\n")
    for name, src in hostile_unit.items():
        f.write(json.dumps(task("hostile/" + name, src, UNIT_TESTS)) + "\n")
    for name, src in hostile_stdio.items():
        f.write(json.dumps(task("hostile/" + name, src, STDIO_TESTS, None)) + "\n")
with open(os.path.join(here, "sandbox.jsonl"), "w") as f:
    for name, src in sandbox.items():
        f.write(json.dumps(task("sandbox/" + name, src, SANDBOX_TESTS, "probe")) + "\n")
with open(os.path.join(here, "legit.jsonl"), "w") as f:
    for name, src in legit.items():
        f.write(json.dumps(task("legit/" + name, src, ADD_TESTS)) + "\n")
    for name, src in legit_unit.items():
        f.write(json.dumps(task("legit/" + name, src, UNIT_TESTS)) + "\n")
    for name, src in legit_stdio.items():
        f.write(json.dumps(task("legit/" + name, src, STDIO_TESTS, None)) + "\n")
