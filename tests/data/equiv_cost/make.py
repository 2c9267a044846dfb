"""Writes orig.jsonl and planted.jsonl for the cost bound on the larger inputs: four changes of
cost class, O(n) -> O(n^2) on a list, a dict and a count (planted over the cost bound), an
original that is quadratic already (planted: itself) and a constant-factor slowdown (allowed).
Run by hand after editing; both outputs are checked in."""
import json

T = [
    # (id, entry, original, planted, tests)
    ("dedup", "dedup",
     "def dedup(xs):\n    seen = set()\n    out = []\n    for x in xs:\n        if x not in seen:\n"
     "            seen.add(x)\n            out.append(x)\n    return out\n",
     "def dedup(xs):\n    seen = []\n    out = []\n    for x in xs:\n        if x not in seen:\n"
     "            seen.append(x)\n            out.append(x)\n    return out\n",
     "assert dedup([3, 1, 3, 2]) == [3, 1, 2]\nassert dedup([]) == []\n"),
    ("prefix", "prefix",
     "def prefix(xs):\n    out = []\n    total = 0\n    for x in xs:\n        total += x\n        out.append(total)\n"
     "    return out\n",
     "def prefix(xs):\n    out = []\n    for i in range(len(xs)):\n        out.append(sum(xs[:i + 1]))\n    return out\n",
     "assert prefix([1, 2, 3]) == [1, 3, 6]\n"),
    ("first_index", "first_index",
     "def first_index(words):\n    d = {}\n    for i, w in enumerate(words):\n        if w not in d:\n"
     "            d[w] = i\n    return d\n",
     "def first_index(words):\n    d = {}\n    for i, w in enumerate(words):\n        if w not in list(d.keys()):\n"
     "            d[w] = i\n    return d\n",
     "assert first_index(['a', 'b', 'a']) == {'a': 0, 'b': 1}\n"),
    ("triangles", "triangles",
     "def triangles(n):\n    total = 0\n    for i in range(n + 1):\n        total += i * (i + 1) // 2\n    return total\n",
     "def triangles(n):\n    total = 0\n    for i in range(n + 1):\n        total += sum(range(i + 1))\n    return total\n",
     "assert triangles(3) == 10\nassert triangles(0) == 0\n"),
    ("inversions", "inversions",
     "def inversions(xs):\n    count = 0\n    for i in range(len(xs)):\n        for j in range(i + 1, len(xs)):\n"
     "            if xs[i] > xs[j]:\n                count += 1\n    return count\n",
     None,
     "assert inversions([3, 1, 2]) == 2\nassert inversions([1, 2]) == 0\n"),
    ("digits", "digits",
     "def digits(xs):\n    total = 0\n    for x in xs:\n        total += sum(int(d) for d in str(abs(x)))\n    return total\n",
     "def digits(xs):\n    total = 0\n    for x in xs:\n        total += sum(int(d) for d in str(abs(x)))\n    again = 0\n"
     "    for x in xs:\n        again += sum(int(d) for d in str(abs(x)))\n    return (total + again) // 2\n",
     "assert digits([12, 3]) == 6\n"),
]


def task(tid, entry, src, tests):
    return {"id": "cost/" + tid, "source": src, "entry_point": entry,
            "tests": {"kind": "assert", "code": tests}, "extra_files": {}, "meta": {}}


with open("orig.jsonl", "w") as o, open("planted.jsonl", "w") as p:
    for tid, entry, src, planted, tests in T:
        o.write(json.dumps(task(tid, entry, src, tests)) + "\n")
        p.write(json.dumps(task(tid, entry, planted or src, tests)) + "\n")
