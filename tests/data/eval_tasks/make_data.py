#!/usr/bin/python3
"""Writes the fixtures of tests/e2e/e2e_eval_tasks.sh (run from this directory; the output is committed):
  stdio.jsonl, stdio-hard.jsonl   three stdio tasks (from examples/benchmark.jsonl) and hand-hardened
                                  versions of them (same behaviour, other code)
  java_oracle.json                right Java translations of the three tasks (task id -> source)
  bugs.jsonl                      inject-bugs-shaped repair tasks: an assert task, a unittest task and a
                                  task whose hardened version has a helper module, each with the
                                  same bug in the original and in the hardened program
  fixed.jsonl, fixed-hard.jsonl   the programs without the bug (what an oracle answers)"""
import json

ex = {}
for line in open("../../../examples/benchmark.jsonl"):
    t = json.loads(line)
    ex[t["id"]] = t
stdio = [ex[i] for i in ("example/stdio_grades", "example/stdio_primes", "example/stdio_rle")]


def dump(path, tasks):
    with open(path, "w") as f:
        for t in tasks:
            f.write(json.dumps(t, sort_keys=True) + "\n")


dump("stdio.jsonl", stdio)
hard = []
for t in stdio:
    h = dict(t)
    h["source"] = "import time\n_started = time.monotonic()\n" + t["source"]
    hard.append(h)
dump("stdio-hard.jsonl", hard)

java = {
    "example/stdio_grades": """import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(in.readLine().trim());
        long total = 0;
        int count = 0;
        String bestName = null;
        long bestScore = 0;
        for (int i = 0; i < n; i++) {
            String line = in.readLine();
            if (line == null) break;
            String[] parts = line.trim().split("\\\\s+");
            if (parts.length != 2) continue;
            long score = Long.parseLong(parts[1]);
            total += score;
            count++;
            if (bestName == null || score > bestScore) {
                bestName = parts[0];
                bestScore = score;
            }
        }
        System.out.println(String.format(Locale.ROOT, "%.2f", (double) total / count));
        System.out.println(bestName);
    }
}
""",
    "example/stdio_primes": """import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        boolean[] composite = new boolean[n + 1];
        StringBuilder out = new StringBuilder();
        int count = 0;
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            count++;
            if (out.length() > 0) out.append(' ');
            out.append(i);
            for (long j = (long) i * i; j <= n; j += i) composite[(int) j] = true;
        }
        System.out.println(count);
        System.out.println(out);
    }
}
""",
    "example/stdio_rle": """import java.io.*;

public class Main {
    static String encode(String line) {
        if (line.isEmpty()) return "";
        StringBuilder out = new StringBuilder();
        char current = line.charAt(0);
        int run = 1;
        for (int i = 1; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == current) {
                run++;
            } else {
                out.append(current).append(run);
                current = ch;
                run = 1;
            }
        }
        out.append(current).append(run);
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int t = Integer.parseInt(in.readLine().trim());
        for (int k = 0; k < t; k++) System.out.println(encode(in.readLine().trim()));
    }
}
""",
}
with open("java_oracle.json", "w") as f:
    json.dump(java, f, indent=1, sort_keys=True)
    f.write("\n")

# Repair: three bugs, the same in both versions.
add = {"id": "rep/add_all", "entry_point": "add_all", "pinned": ["add_all"], "meta": {},
       "source": 'def add_all(nums):\n    """Return the sum of the numbers in nums."""\n    total = 0\n    for n in nums:\n        total += n\n    return total\n',
       "tests": {"kind": "assert", "code": "def check(candidate):\n    assert candidate([1, 2, 3]) == 6\n    assert candidate([]) == 0\n\ncheck(add_all)\n"},
       "extra_files": {}}
add_hard = 'def add_all(nums):\n    """Return the sum of the numbers in nums."""\n    acc = 0\n    index = 0\n    while index < len(nums):\n        acc = acc + nums[index]\n        index += 1\n    return acc\n'
acct = {"id": "rep/Account", "entry_point": "Account", "pinned": ["Account", "deposit", "balance"], "meta": {},
        "source": 'class Account:\n    """A bank account: deposit adds to the balance."""\n\n    def __init__(self):\n        self.balance = 0\n\n    def deposit(self, amount):\n        self.balance += amount\n        return self.balance\n',
        "tests": {"kind": "unittest", "classes": ["AccountTest"],
                  "code": "import unittest\n\n\nclass AccountTest(unittest.TestCase):\n    def test_deposit(self):\n        a = Account()\n        self.assertEqual(a.deposit(5), 5)\n        self.assertEqual(a.deposit(2), 7)\n"},
        "extra_files": {}}
acct_hard = 'class Account:\n    """A bank account: deposit adds to the balance."""\n\n    def __init__(self):\n        self.balance = 0\n\n    def deposit(self, amount):\n        new_balance = self.balance\n        new_balance += amount\n        self.balance = new_balance\n        return self.balance\n'
maxi = {"id": "rep/largest", "entry_point": "largest", "pinned": ["largest"], "meta": {},
        "source": 'def largest(nums):\n    """The largest number of a non-empty list."""\n    best = nums[0]\n    for n in nums:\n        if n > best:\n            best = n\n    return best\n',
        "tests": {"kind": "assert", "code": "assert largest([3, 9, 2]) == 9\nassert largest([-4, -2]) == -2\n"},
        "extra_files": {}}
maxi_hard = 'from helpers_cmp import is_above\n\n\ndef largest(nums):\n    """The largest number of a non-empty list."""\n    best = nums[0]\n    for n in nums:\n        if is_above(n, best):\n            best = n\n    return best\n'
maxi_helpers = {"helpers_cmp.py": "def is_above(a, b):\n    return a > b\n"}

bugs, fixed, fixed_hard = [], [], []
for task, hsrc, hextra, (before, after), hbefore in [
        (add, add_hard, {}, ("total += n", "total -= n"), ("acc = acc + nums[index]", "acc = acc - nums[index]")),
        (acct, acct_hard, {}, ("self.balance += amount", "self.balance -= amount"), ("new_balance += amount", "new_balance -= amount")),
        (maxi, maxi_hard, maxi_helpers, ("if n > best:", "if n < best:"), ("return a > b", "return a < b"))]:
    fixed.append(task)
    h = dict(task)
    h["source"] = hsrc
    h["extra_files"] = hextra
    fixed_hard.append(h)
    b = dict(task)
    b["id"] = task["id"] + "#bug-1-1"
    b["source"] = task["source"].replace(before, after)
    hb_src, hb_extra = hsrc, dict(hextra)
    if hbefore[0] in hsrc:
        hb_src = hsrc.replace(*hbefore)
    else:
        hb_extra = {k: v.replace(*hbefore) for k, v in hextra.items()}
    assert b["source"] != task["source"] and (hb_src != hsrc or hb_extra != hextra)
    b["hardened_buggy"] = {"source": hb_src, "extra_files": hb_extra}
    b["order"] = 1
    b["bug"] = {"of": task["id"], "seed": 1, "candidate": 0}
    bugs.append(b)
dump("bugs.jsonl", bugs)
dump("fixed.jsonl", fixed)
dump("fixed-hard.jsonl", fixed_hard)
