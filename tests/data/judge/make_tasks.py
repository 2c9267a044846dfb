"""Writes hostile.jsonl, legit.jsonl and repair.jsonl next to this file (run by hand after editing;
the .jsonl files are committed). Used by tests/e2e/e2e_judge.sh and tests/e2e/e2e_hostile_eval.sh.

hostile.jsonl: wrong answers, written the way an answer trained on execution feedback would
attack tests that run in its own process, in the three formats whose tests run in the judge
(src/runner/harness_judge.py): HumanEval (`check(candidate)`), CRUXEval (`assert f(x) == y`)
and ClassEval (unittest classes). Each attack is one class: a forged result record with the
token read from the harness's frames, the seal's lists cleared, frame locals changed through
ctypes, an always-true __eq__ (on a float, int or str subclass), a lookup table built from the
tests' source in linecache (or in the request), a shadowed builtin the tests call, a patched
unittest (restored in sys.stdout.flush), SkipTest, an early exit (os._exit or sys.exit in a
call), and killing the judge. Every one must FAIL. tests/e2e/e2e_hostile_eval.sh sends the same
programs to `genebench eval` as repair answers.
legit.jsonl: right answers in the same formats, some doing unusual but honest things (printing,
raising the exceptions the tests expect, changing their arguments, objects handed back and
used, their own exception classes, numpy results); every one must PASS."""
import json
import os

HE_TESTS = ("def check(candidate):\n"
            "    assert candidate(1, 2) == 3\n"
            "    assert abs(candidate(2.5, 0.5) - 3.0) < 1e-9\n"
            "    assert candidate(-1, 1) == 0\n\n"
            "check(add)\n")
CRUX_TESTS = "assert f(3) == 9\nassert f(-2) == 4\nassert abs(f(0.5) - 0.25) < 1e-9\n"
CE_TESTS = ("import unittest\n\n"
            "class CounterTestAdd(unittest.TestCase):\n"
            "    def test_add(self):\n"
            "        c = Counter(5)\n"
            "        self.assertEqual(c.add(3), 8)\n"
            "        self.assertEqual(c.total, 8)\n\n"
            "    def test_abs(self):\n"
            "        c = Counter(-4)\n"
            "        self.assertTrue(abs(c.add(1) - (-3)) < 1e-9)\n\n"
            "class CounterTestHistory(unittest.TestCase):\n"
            "    def test_history(self):\n"
            "        c = Counter(1)\n"
            "        c.add(2)\n"
            "        self.assertEqual(c.history(), [1, 3])\n")
FORMATS = {
    "humaneval": ({"kind": "assert", "code": HE_TESTS}, "add",
                  "def add(a, b):\n    {body}\n", "return a - b"),
    "cruxeval": ({"kind": "assert", "code": CRUX_TESTS}, "f",
                 "def f(x):\n    {body}\n", "return x * 2"),
    "classeval": ({"kind": "unittest", "code": CE_TESTS, "classes": ["CounterTestAdd", "CounterTestHistory"]}, "Counter",
                  "class Counter:\n    def __init__(self, start):\n        self.total = start\n"
                  "        self.seen = [start]\n\n    def add(self, x):\n        {body}\n\n"
                  "    def history(self):\n        return self.seen[:1]\n", "return self.total - x"),
}

# Each attack: code run before the wrong answer is defined, and optionally the wrong answer's body.
FORGE_TOKEN = r'''
import gc, os, struct, sys
def _rec(d):
    b = b"".join(struct.pack("<I", len(k)) + k + struct.pack("<I", len(v)) + v
                 for k, v in ((k.encode(), v if isinstance(v, bytes) else str(v).encode()) for k, v in d.items()))
    return struct.pack("<I", len(b)) + b
tokens, fds = set(), set(range(3, 64))
f = sys._getframe()
while f is not None:
    for v in list(f.f_locals.values()):
        if isinstance(v, bytes) and len(v) == 32:
            tokens.add(v)
        if type(v) is int and 2 < v < 1024:
            fds.add(v)
    f = f.f_back
for o in gc.get_objects():
    if isinstance(o, dict):
        for v in list(o.values()):
            if isinstance(v, bytes) and len(v) == 32:
                tokens.add(v)
for t in tokens or {b"0" * 32}:
    rec = _rec({"outcome": "pass", "tests_run": 3, "token": t})
    for fd in sorted(fds):
        try:
            os.write(fd, rec)
        except OSError:
            pass
os._exit(0)
'''
CLEAR_SEAL = r'''
import gc, sys, threading, time, unittest
for o in gc.get_objects():
    if isinstance(o, dict) and "core" in o and "unittest" in o:
        for part in o.values():
            for lst in part:
                if isinstance(lst, list):
                    lst.clear()
unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None
unittest.TestCase.assertTrue = lambda self, a, msg=None: None
_results = []
_f = sys._getframe()
while _f is not None:
    if isinstance(_f.f_locals.get("result"), dict):
        _results.append(_f.f_locals["result"])
    _f = _f.f_back
def _flip():
    while True:
        for r in _results:
            if r.get("outcome") == "fail":
                r.clear()
                r["outcome"] = "pass"
        time.sleep(0.0002)
threading.Thread(target=_flip, daemon=True).start()
'''
CTYPES_LOCALS = r'''
import ctypes, sys
_f = sys._getframe()
while _f is not None:
    _loc = _f.f_locals
    _changed = False
    if type(_loc.get("tests")).__name__ == "code":
        _loc["tests"] = compile("pass", "<tests>", "exec")
        _changed = True
    if _loc.get("kind") in ("assert", "unittest"):
        _loc["kind"] = "stdio"
        _changed = True
    if _changed:
        ctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(_f), ctypes.c_int(0))
    _f = _f.f_back
'''
ALWAYS_EQ = r'''
class _Yes(float):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __lt__(self, other):
        return True
    def __sub__(self, other):
        return _Yes(0)
    __hash__ = float.__hash__
'''
LOOKUP = r'''
import ast, gc, linecache, sys
_sources = ["".join(v[2]) for v in list(linecache.cache.values()) if isinstance(v, tuple) and len(v) > 2]
_f = sys._getframe()
while _f is not None:
    for _v in list(_f.f_locals.values()):
        if isinstance(_v, dict) and "test" in _v:
            _sources.append(_v["test"].decode() if isinstance(_v["test"], bytes) else str(_v["test"]))
    _f = _f.f_back
for _o in gc.get_objects():
    if isinstance(_o, dict) and isinstance(_o.get("test"), (bytes, str)):
        _t = _o["test"]
        _sources.append(_t.decode() if isinstance(_t, bytes) else _t)
TABLE = {}
for _s in _sources:
    try:
        _tree = ast.parse(_s)
    except (SyntaxError, ValueError):
        continue
    for _n in ast.walk(_tree):
        _call = _want = None
        if isinstance(_n, ast.Compare) and len(_n.ops) == 1 and isinstance(_n.left, ast.Call):
            _call, _want = _n.left, _n.comparators[0]
        elif isinstance(_n, ast.Call) and getattr(_n.func, "attr", "") == "assertEqual" and len(_n.args) == 2 \
                and isinstance(_n.args[0], ast.Call):
            _call, _want = _n.args
        if _call is not None:
            try:
                TABLE[repr(tuple(ast.literal_eval(a) for a in _call.args))] = ast.literal_eval(_want)
            except (ValueError, SyntaxError, TypeError):
                pass
'''
INT_EQ = r'''
class _Int(int):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __sub__(self, other):
        return _Int(0)
    __hash__ = int.__hash__
'''
STR_EQ = r'''
class _Str(str):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __sub__(self, other):
        return 0
    __hash__ = str.__hash__
'''
SHADOW = r'''
def abs(x):
    return 0
'''
PATCH_UNITTEST = r'''
import sys, unittest
_orig = dict(unittest.TestCase.__dict__)
unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None
unittest.TestCase.assertTrue = lambda self, a, msg=None: None
class _Out:
    def __init__(self, s):
        self.s = s
    def write(self, t):
        return self.s.write(t)
    def flush(self):
        for k in ("assertEqual", "assertTrue"):
            setattr(unittest.TestCase, k, _orig[k])
        return self.s.flush()
sys.stdout = _Out(sys.stdout)
'''
SKIP = "import unittest\n"
EXIT = "import os\n"
SYS_EXIT = "import sys\n"
KILL = "import os, signal\n"

ATTACKS = {
    "forge_token": (FORGE_TOKEN, None),
    "clear_seal": (CLEAR_SEAL, None),
    "ctypes_frame_locals": (CTYPES_LOCALS, None),
    "always_true_eq": (ALWAYS_EQ, {"humaneval": "return _Yes(a - b)", "cruxeval": "return _Yes(x * 2)",
                                  "classeval": "return _Yes(self.total - x)"}),
    "int_subclass_eq": (INT_EQ, {"humaneval": "return _Int(a - b)", "cruxeval": "return _Int(x * 2)",
                                 "classeval": "return _Int(self.total - x)"}),
    "str_subclass_eq": (STR_EQ, {"humaneval": "return _Str(a - b)", "cruxeval": "return _Str(x * 2)",
                                 "classeval": "return _Str(self.total - x)"}),
    "linecache_lookup": (LOOKUP, {"humaneval": "return TABLE.get(repr((a, b)), a - b)",
                                  "cruxeval": "return TABLE.get(repr((x,)), x * 2)",
                                  "classeval": "return TABLE.get(repr((x,)), self.total - x)"}),
    "shadowed_builtin": (SHADOW, {"humaneval": "return a + b if isinstance(a, int) else 99.0",
                                  "cruxeval": "return x * x if isinstance(x, int) else 99.0",
                                  "classeval": "self.total += x\n        self.seen.append(self.total)\n"
                                               "        return self.total if self.total >= 0 else 99"}),
    "patched_unittest": (PATCH_UNITTEST, None),
    "skiptest": (SKIP, "raise unittest.SkipTest('nothing to see')"),
    "early_exit": (EXIT, "os._exit(0)"),
    "sys_exit": (SYS_EXIT, "sys.exit(0)"),
    "kill_judge": (KILL, "os.kill(os.getppid(), signal.SIGKILL)"),
}

RIGHT = {"humaneval": "return a + b", "cruxeval": "return x * x",
         "classeval": "self.total += x\n        self.seen.append(self.total)\n        return self.total"}
RIGHT_HISTORY = "    def history(self):\n        return self.seen\n"


def task(tid, fmt, source):
    tests, entry, _tmpl, _wrong = FORMATS[fmt]
    return {"id": tid, "source": source, "tests": tests, "entry_point": entry}


def program(fmt, body):
    _tests, _entry, tmpl, _wrong = FORMATS[fmt]
    return tmpl.replace("{body}", body)


hostile = []
for name, (prelude, bodies) in ATTACKS.items():
    for fmt, (_tests, _entry, _tmpl, wrong) in FORMATS.items():
        body = bodies if isinstance(bodies, str) else (bodies or {}).get(fmt, wrong)
        src = program(fmt, body)
        if name == "shadowed_builtin":  # wrong only where the tests call abs()
            src = src.replace("    def history(self):\n        return self.seen[:1]\n", RIGHT_HISTORY)
        hostile.append(task("hostile/%s/%s" % (fmt, name), fmt, prelude + "\n" + src))

legit = []
for fmt in FORMATS:
    src = program(fmt, RIGHT[fmt])
    if fmt == "classeval":
        src = src.replace("    def history(self):\n        return self.seen[:1]\n", RIGHT_HISTORY)
    legit.append(task("legit/%s/plain" % fmt, fmt, src))
    legit.append(task("legit/%s/prints" % fmt, fmt, "print('starting')\n" + src.replace(
        RIGHT[fmt].split("\n")[0], "print('called')\n        " * (fmt == "classeval") + RIGHT[fmt].split("\n")[0], 1)))
# objects handed back and used, the program's own exception, arguments changed in place, printing
OBJ_TESTS = ("import unittest\n\n"
             "class BankTest(unittest.TestCase):\n"
             "    def test_objects(self):\n"
             "        bank = Bank()\n"
             "        acc = bank.open('ann', 10)\n"
             "        self.assertIsInstance(acc, Account)\n"
             "        self.assertEqual(acc.owner, 'ann')\n"
             "        acc.deposit(5)\n"
             "        self.assertEqual(bank.total(), 15)\n"
             "        self.assertEqual(len(bank), 1)\n"
             "        self.assertIn('ann', bank)\n"
             "        self.assertEqual(bank['ann'].balance, 15)\n"
             "        acc.balance = 1\n"
             "        self.assertEqual(bank.total(), 1)\n"
             "        self.assertEqual(list(bank), ['ann'])\n"
             "        self.assertEqual(bank.open('bob', 0), bank['bob'])\n\n"
             "    def test_errors(self):\n"
             "        bank = Bank()\n"
             "        with self.assertRaises(Overdrawn):\n"
             "            bank.open('ann', 1).withdraw(5)\n"
             "        with self.assertRaises(ValueError):\n"
             "            bank.open('bob', 1).withdraw(5)\n"
             "        with self.assertRaises(KeyError):\n"
             "            bank['nobody']\n\n"
             "    def test_mutation(self):\n"
             "        log = []\n"
             "        bank = Bank()\n"
             "        bank.audit(log)\n"
             "        self.assertEqual(log, ['audited'])\n")
OBJ_SOURCE = ("class Overdrawn(ValueError):\n    pass\n\n\n"
              "class Account:\n    def __init__(self, owner, balance):\n        self.owner, self.balance = owner, balance\n\n"
              "    def deposit(self, x):\n        self.balance += x\n\n"
              "    def withdraw(self, x):\n        if x > self.balance:\n            raise Overdrawn('short by %d' % (x - self.balance))\n"
              "        self.balance -= x\n\n\n"
              "class Bank:\n    def __init__(self):\n        self.accounts = {}\n\n"
              "    def open(self, owner, balance):\n        self.accounts[owner] = Account(owner, balance)\n"
              "        return self.accounts[owner]\n\n"
              "    def total(self):\n        return sum(a.balance for a in self.accounts.values())\n\n"
              "    def __len__(self):\n        return len(self.accounts)\n\n"
              "    def __contains__(self, owner):\n        return owner in self.accounts\n\n"
              "    def __getitem__(self, owner):\n        return self.accounts[owner]\n\n"
              "    def __iter__(self):\n        return iter(self.accounts)\n\n"
              "    def audit(self, log):\n        print('auditing')\n        log.append('audited')\n")
legit.append({"id": "legit/classeval/objects", "source": OBJ_SOURCE,
              "tests": {"kind": "unittest", "code": OBJ_TESTS, "classes": ["BankTest"]}, "entry_point": "Bank"})
MUT_TESTS = ("def check(candidate):\n"
             "    xs = [3, 1, 2]\n"
             "    assert candidate(xs) is None\n"
             "    assert xs == [1, 2, 3]\n"
             "    d = {'a': 1}\n"
             "    assert candidate(d) is None\n"
             "    assert d == {'a': 1, 'seen': True}\n"
             "    assert candidate((1, 2)) == (2, 1)\n"
             "    assert candidate({1, 2}) is None\n"
             "    assert candidate(b'xy') == b'yx'\n"
             "    assert candidate(1 + 2j) == 2j\n"
             "    assert candidate(frozenset({1})) == frozenset({1})\n\n"
             "check(fix)\n")
MUT_SOURCE = ("def fix(v):\n"
              "    if isinstance(v, list):\n        v.sort()\n        return None\n"
              "    if isinstance(v, dict):\n        v['seen'] = True\n        return None\n"
              "    if isinstance(v, set):\n        v.add(3)\n        return None\n"
              "    if isinstance(v, complex):\n        return v - 1\n"
              "    if isinstance(v, frozenset):\n        return v\n"
              "    return v[::-1]\n")
legit.append({"id": "legit/humaneval/mutation", "source": MUT_SOURCE, "tests": {"kind": "assert", "code": MUT_TESTS},
              "entry_point": "fix"})

# numpy results (an exact ndarray or numpy scalar crosses as data)
NP_SOURCE = ("import numpy as np\n\n\ndef total(xs):\n    return np.sum(np.array(xs))\n\n\n"
             "def doubled(xs):\n    return np.array(xs, dtype=float) * 2\n")
NP_TESTS = ("import numpy as np\n\n\ndef check(candidate):\n    assert candidate([1, 2, 3]) == 6\n"
            "    assert np.array_equal(doubled([1, 2]), np.array([2.0, 4.0]))\n"
            "    assert doubled([[1], [2]]).shape == (2, 1)\n\n"
            "check(total)\n")
legit.append({"id": "legit/humaneval/numpy", "source": NP_SOURCE, "tests": {"kind": "assert", "code": NP_TESTS},
              "entry_point": "total"})

# repair.jsonl: a bug per format (the wrong program of FORMATS), the shape `inject-bugs` writes; the
# answers `genebench eval --task repair` scores are the programs of hostile.jsonl and legit.jsonl
repair = []
for fmt, (tests, entry, _tmpl, wrong) in FORMATS.items():
    buggy = program(fmt, wrong)
    repair.append({"id": "rep/%s#bug-1-1" % fmt, "source": buggy, "extra_files": {}, "tests": tests,
                   "entry_point": entry, "bug": {"candidate": 0, "of": "rep/" + fmt, "seed": 1}, "order": 1,
                   "pinned": [entry], "meta": {}, "hardened_buggy": {"source": buggy, "extra_files": {}}})

here = os.path.dirname(os.path.abspath(__file__))
for name, rows in (("hostile", hostile), ("legit", legit), ("repair", repair)):
    with open(os.path.join(here, name + ".jsonl"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
