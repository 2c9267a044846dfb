#!/usr/bin/python3
"""Writes orig.jsonl, hard.jsonl and hard2.jsonl: the small benchmark of tests/e2e/e2e_eval.sh
(run it again after changing it). Hardened programs are hand-written equivalents."""
import json

def crux(i, srcs, test):
    return [{"id": "crux/%d" % i, "source": s, "entry_point": "f", "tests": {"kind": "assert", "code": test},
             "extra_files": {}, "pinned": ["f"], "meta": {"style": "cruxeval"}} for s in srcs]

tasks = [
    crux(0, ["def f(s):\n    return s + s[::-1]\n",
             "def f(s):\n    tail = ''\n    for ch in s:\n        tail = ch + tail\n    return s + tail\n",
             "def f(s):\n    r = list(s)\n    r.reverse()\n    return ''.join([s, ''.join(r)])\n"],
         "assert f('ab') == 'abba'\n"),
    crux(1, ["def f(nums):\n    out = []\n    for n in nums:\n        if n % 2 == 0:\n            out.append(n * 3)\n    return out\n",
             "def f(nums):\n    return [3 * v for v in nums if not v % 2]\n",
             "def f(nums):\n    acc = []\n    i = 0\n    while i < len(nums):\n        if nums[i] % 2 == 0:\n            acc += [nums[i] * 3]\n        i += 1\n    return acc\n"],
         "assert f([1, 2, 3, 4]) == [6, 12]\n"),
    crux(2, ["def f(d, k):\n    return sorted(d.items(), key=lambda kv: kv[1])[:k]\n",
             "def f(d, k):\n    def by_value(item):\n        return item[1]\n    ranked = sorted(d.items(), key=by_value)\n    return ranked[:k]\n",
             "def f(d, k):\n    items = [(a, b) for a, b in d.items()]\n    items.sort(key=lambda p: p[1])\n    return items[0:k]\n"],
         "assert f({'a': 3, 'b': 1, 'c': 2}, 2) == [('b', 1), ('c', 2)]\n"),
    crux(3, ["def f(text):\n    return text.count('a'), len(text)\n",
             "def f(text):\n    n = 0\n    for c in text:\n        n += c == 'a'\n    return (n, len(text))\n",
             "def f(text):\n    return (sum(1 for c in text if c == 'a'), sum(1 for _ in text))\n"],
         "assert f('banana') == (3, 6)\n"),
]
he_test = ("def check(candidate):\n    assert candidate([1, 2], y=1) == [2, 3]\n    assert candidate([]) == []\n"
           "    assert candidate([5]) == [5], \"single\"\n    xs = [1]\n    assert candidate(xs) == [1]\n"
           "    assert abs(len(candidate([0])) - 1) < 1\n\n\ncheck(add_all)\n")
he_srcs = ["def add_all(xs, y=0):\n    \"\"\"Add y to every number of xs.\"\"\"\n    return [x + y for x in xs]\n",
           "def add_all(xs, y=0):\n    \"\"\"Add y to every number of xs.\"\"\"\n    res = []\n    for x in xs:\n        res.append(y + x)\n    return res\n",
           "def _plus(a, b):\n    return a + b\n\n\ndef add_all(xs, y=0):\n    \"\"\"Add y to every number of xs.\"\"\"\n    return list(map(lambda x: _plus(x, y), xs))\n"]
tasks.append([{"id": "he/add", "source": s, "entry_point": "add_all", "tests": {"kind": "assert", "code": he_test},
               "extra_files": {}, "pinned": ["add_all"], "meta": {"style": "humaneval"}} for s in he_srcs])
ut_srcs = ["class Box:\n    def __init__(self):\n        self.items = []\n\n    def put(self, x):\n        self.items.append(x)\n        return len(self.items)\n"] * 3
ut_test = "import unittest\n\n\nclass TestBox(unittest.TestCase):\n    def test_put(self):\n        self.assertEqual(Box().put(1), 1)\n"
tasks.append([{"id": "ut/box", "source": s, "entry_point": None, "tests": {"kind": "unittest", "code": ut_test,
               "classes": ["TestBox"]}, "extra_files": {}, "pinned": ["Box"], "meta": {}} for s in ut_srcs])
for v, name in enumerate(["orig.jsonl", "hard.jsonl", "hard2.jsonl"]):
    with open(name, "w") as f:
        for t in tasks:
            d = dict(t[v])
            if d["entry_point"] is None:
                del d["entry_point"]
            f.write(json.dumps(d) + "\n")
