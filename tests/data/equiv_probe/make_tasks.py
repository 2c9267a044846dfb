"""Writes orig.jsonl and recognise.jsonl next to this file (run by hand after editing; the .jsonl
files are committed). Used by tests/e2e/e2e_equiv_probe.sh.

orig.jsonl: small programs with tests. recognise.jsonl: for each, a program that passes the same
tests but differs from the original on other inputs, unless it recognises that it is being probed
by `compare` (or the equiv gate), where it behaves as the original: by the per-call timer, the
SIGALRM handler, a StringIO stdout, the caller's code, a harness file name on the stack, the
locals of the frames that call it, or the stdin file of a stdio probe. Probes that run the program the way the
judge runs tests (src/runner/README.md) give it none of these: every one must disagree."""
import json
import os

ORIG = {
    "timer": ("above", "def above(xs, k):\n    return sorted(x for x in xs if x > k)\n",
              "assert above([1, 5, 3], 2) == [3, 5]\nassert above([], 0) == []\n"),
    "alarm_handler": ("total", "def total(xs):\n    return sum(xs)\n",
                      "assert total([1, 2]) == 3\nassert total([]) == 0\n"),
    "stringio": ("initials", "def initials(name):\n    return ''.join(p[0].upper() for p in name.split())\n",
                 "assert initials('ada lovelace') == 'AL'\nassert initials('x') == 'X'\n"),
    "caller_frame": ("mean", "def mean(values):\n    return sum(values) / len(values)\n",
                     "assert mean([2]) == 2\nassert mean([1, 3]) == 2\n"),
    "file_name": ("count", "def count(words):\n    return {w: words.count(w) for w in words}\n",
                  "assert count(['a', 'b', 'a']) == {'a': 2, 'b': 1}\nassert count([]) == {}\n"),
    "caller_locals": ("largest", "def largest(xs):\n    return max(xs)\n",
                     "assert largest([3, 9, 2]) == 9\nassert largest([-4]) == -4\n"),
    "stdin_file": (None, "n = int(input())\nprint(n * 2)\n", None),
}
# Each: a test that says "probed", then the original's body when it holds and a wrong one
# otherwise (wrong only on inputs the tests do not use).
PROBED = {
    "timer": "import signal\ndef _probed():\n    return signal.getitimer(signal.ITIMER_REAL)[0] > 0\n",
    "alarm_handler": ("import signal\ndef _probed():\n"
                      "    return getattr(signal.getsignal(signal.SIGALRM), '__name__', '') == 'probe_alarm'\n"),
    "stringio": "import io, sys\ndef _probed():\n    return isinstance(sys.stdout, io.StringIO)\n",
    "caller_frame": ("import sys\ndef _probed():\n"
                     "    return sys._getframe(2).f_code.co_name == 'run_probe'\n"),
    "file_name": ("import sys\ndef _probed():\n    f = sys._getframe()\n    while f is not None:\n"
                  "        if f.f_code.co_filename.endswith('harness_probe.py'):\n            return True\n"
                  "        f = f.f_back\n    return False\n"),
    "caller_locals": ("import sys\ndef _probed():\n    f = sys._getframe()\n    while f is not None:\n"
                      "        if 'builders' in f.f_locals and 'inputs' in f.f_locals:\n            return True\n"
                      "        f = f.f_back\n    return False\n"),
    "stdin_file": ("import os\ndef _probed():\n    try:\n"
                   "        return os.readlink('/proc/self/fd/0').endswith('probe_stdin.txt')\n"
                   "    except OSError:\n        return os.path.exists('probe_stdin.txt')\n"),
}
WRONG = {
    "timer": "def above(xs, k):\n    out = sorted(x for x in xs if x > k)\n"
             "    return out if _probed() or len(xs) < 4 else out[1:]\n",
    "alarm_handler": "def total(xs):\n    return sum(xs) if _probed() or len(xs) < 3 else sum(xs) + 1\n",
    "stringio": "def initials(name):\n    r = ''.join(p[0].upper() for p in name.split())\n"
                "    return r if _probed() or len(r) < 3 else r.lower()\n",
    "caller_frame": "def mean(values):\n    return sum(values) / len(values) if _probed() or len(values) < 3 else 0.0\n",
    "file_name": "def count(words):\n    c = {w: words.count(w) for w in words}\n"
                 "    return c if _probed() or len(words) < 4 else {}\n",
    "caller_locals": "def largest(xs):\n    return max(xs) if _probed() or len(xs) < 4 else min(xs)\n",
    "stdin_file": "n = int(input())\nprint(n * 2 if _probed() or n < 5 else n * 3)\n",
}


def task(name, source, entry, tests):
    t = {"id": "probe/" + name, "source": source}
    if entry:
        t["entry_point"] = entry
        t["tests"] = {"kind": "assert", "code": tests}
    else:
        t["tests"] = {"kind": "stdio", "cases": [{"stdin": "2\n", "stdout": "4\n"}, {"stdin": "3\n", "stdout": "6\n"}]}
    return t


here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "orig.jsonl"), "w", encoding="utf-8") as o, \
        open(os.path.join(here, "recognise.jsonl"), "w", encoding="utf-8") as r:
    for name, (entry, source, tests) in ORIG.items():
        o.write(json.dumps(task(name, source, entry, tests)) + "\n")
        r.write(json.dumps(task(name, PROBED[name] + "\n\n" + WRONG[name], entry, tests)) + "\n")
