"""Writes orig.jsonl and planted.jsonl: twenty-two originals, each with a planted change in a
branch its tests never reach (run by hand after editing; both outputs are checked in)."""
import json

T = [
    # (id, entry, original, planted, tests)
    ("threshold", "f", "def f(x):\n    if x > 100:\n        return x + 1\n    return x * 2\n",
     "def f(x):\n    if x > 100:\n        return x + 2\n    return x * 2\n", "assert f(3) == 6\nassert f(5) == 10\n"),
    ("negative", "g", "def g(x):\n    if x < 0:\n        return -x\n    return x\n",
     "def g(x):\n    if x < 0:\n        return x\n    return x\n", "assert g(4) == 4\nassert g(7) == 7\n"),
    ("empty_list", "total", "def total(xs):\n    if not xs:\n        return 0\n    return sum(xs)\n",
     "def total(xs):\n    if not xs:\n        return None\n    return sum(xs)\n", "assert total([1, 2]) == 3\n"),
    ("long_list", "head", "def head(xs):\n    if len(xs) > 10:\n        return xs[:10]\n    return xs\n",
     "def head(xs):\n    if len(xs) > 10:\n        return xs[:9]\n    return xs\n", "assert head([1, 2, 3]) == [1, 2, 3]\n"),
    ("magic_string", "greet", "def greet(s):\n    if s == 'admin':\n        return 'root'\n    return 'hi ' + s\n",
     "def greet(s):\n    if s == 'admin':\n        return 'ROOT'\n    return 'hi ' + s\n", "assert greet('bob') == 'hi bob'\n"),
    ("dict_key", "price", "def price(d):\n    if 'discount' in d:\n        return d['base'] - d['discount']\n    return d['base']\n",
     "def price(d):\n    if 'discount' in d:\n        return d['base']\n    return d['base']\n", "assert price({'base': 10}) == 10\n"),
    ("none_default", "pad", "def pad(s, fill=None):\n    if fill is None:\n        return s\n    return fill + s\n",
     "def pad(s, fill=None):\n    if fill is None:\n        return s + ' '\n    return fill + s\n", "assert pad('a', 'x') == 'xa'\nassert pad('b', 'y') == 'yb'\n"),
    ("parse_error", "num", "def num(s):\n    try:\n        return int(s)\n    except ValueError:\n        return -1\n",
     "def num(s):\n    try:\n        return int(s)\n    except ValueError:\n        return 0\n", "assert num('12') == 12\n"),
    ("boundary", "grade", "def grade(n):\n    if n >= 50:\n        return 'pass'\n    return 'fail'\n",
     "def grade(n):\n    if n > 50:\n        return 'pass'\n    return 'fail'\n", "assert grade(70) == 'pass'\nassert grade(10) == 'fail'\n"),
    ("mutation", "push", "def push(xs, v):\n    ys = list(xs)\n    if v in ys:\n        return ys\n    ys.append(v)\n    return ys\n",
     "def push(xs, v):\n    ys = xs\n    if v in ys:\n        return ys\n    ys.append(v)\n    return ys\n", "assert push([1], 1) == [1]\n"),
    ("zero", "inv", "def inv(x):\n    if x == 0:\n        return 0.0\n    return 1 / x\n",
     "def inv(x):\n    if x == 0:\n        return 1.0\n    return 1 / x\n", "assert inv(2) == 0.5\nassert inv(4) == 0.25\n"),
    ("duplicates", "uniq", "def uniq(xs):\n    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n    return out\n",
     "def uniq(xs):\n    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n        else:\n            out.append(0)\n    return out\n",
     "assert uniq([1, 2, 3]) == [1, 2, 3]\n"),
    ("empty_string", "first", "def first(s):\n    if s == '':\n        return '?'\n    return s[0]\n",
     "def first(s):\n    if s == '':\n        return ''\n    return s[0]\n", "assert first('abc') == 'a'\n"),
    ("unicode", "ascii_only", "def ascii_only(s):\n    for c in s:\n        if ord(c) > 127:\n            return False\n    return True\n",
     "def ascii_only(s):\n    for c in s:\n        if ord(c) > 127:\n            return True\n    return True\n", "assert ascii_only('abc') == True\n"),
    ("mixed_types", "count_ints", "def count_ints(xs):\n    n = 0\n    for x in xs:\n        if isinstance(x, str):\n            continue\n        n += 1\n    return n\n",
     "def count_ints(xs):\n    n = 0\n    for x in xs:\n        if isinstance(x, str):\n            n += 1\n        n += 1\n    return n\n", "assert count_ints([1, 2]) == 2\n"),
    ("nested", "depth", "def depth(xs):\n    d = 1\n    for x in xs:\n        if isinstance(x, list):\n            d = max(d, 1 + depth(x))\n    return d\n",
     "def depth(xs):\n    d = 1\n    for x in xs:\n        if isinstance(x, list):\n            d = max(d, depth(x))\n    return d\n", "assert depth([1, 2]) == 1\n"),
    ("large_num", "clamp", "def clamp(x):\n    if x > 9999:\n        return 9999\n    return x\n",
     "def clamp(x):\n    if x > 9999:\n        return 10000\n    return x\n", "assert clamp(5) == 5\n"),
    ("flag", "fmt", "def fmt(x, upper=False):\n    s = str(x)\n    if upper:\n        return s.upper()\n    return s\n",
     "def fmt(x, upper=False):\n    s = str(x)\n    if upper:\n        return s\n    return s\n", "assert fmt('ab', False) == 'ab'\n"),
    ("while_loop", "halve", "def halve(n):\n    k = 0\n    while n > 1:\n        n //= 2\n        k += 1\n    return k\n",
     "def halve(n):\n    k = 0\n    while n > 1:\n        n //= 2\n        k += 2\n    return k\n", "assert halve(1) == 0\n"),
    ("index_error", "at", "def at(xs, i):\n    try:\n        return xs[i]\n    except IndexError:\n        return None\n",
     "def at(xs, i):\n    try:\n        return xs[i]\n    except IndexError:\n        return -1\n", "assert at([1, 2, 3], 1) == 2\n"),
    # arms of a conditional expression and of a short circuit (one line: traced by instruction)
    ("ifexp_arm", "tag", "def tag(s):\n    return 'tag:' + s[1:] if s.startswith('#') else s\n",
     "def tag(s):\n    return 'tag=' + s[1:] if s.startswith('#') else s\n", "assert tag('ab') == 'ab'\n"),
    ("or_fallback", "greet", "def greet(name, nick):\n    return nick or name.title()\n",
     "def greet(name, nick):\n    return nick or name.upper()\n", "assert greet('bo', 'bobby') == 'bobby'\n"),
]


def task(tid, entry, src, tests):
    return {"id": "branch/" + tid, "source": src, "entry_point": entry,
            "tests": {"kind": "assert", "code": tests}, "extra_files": {}, "meta": {}}


with open("orig.jsonl", "w") as o, open("planted.jsonl", "w") as p:
    for tid, entry, src, planted, tests in T:
        o.write(json.dumps(task(tid, entry, src, tests)) + "\n")
        p.write(json.dumps(task(tid, entry, planted, tests)) + "\n")
