#!/usr/bin/env bash
# Class-level (unittest) tasks in the equivalence check (nsga2/README.md, "Equivalence beyond the
# tests"): each of the eight programs of tests/data/equiv_classes/planted.jsonl passes the tests of
# orig.jsonl and changes only a method branch those tests never reach (an empty stack, a full
# queue, an amount over a limit, a blank word that changes the object's state, a magic key, a
# second call, a negative constructor argument, an attribute set past a threshold); `compare`
# runs call sequences taken from the test methods, finds every one, names the sequence, the step
# and both results, and every original agrees with itself.
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv_classes
n=$($py -c 'import sys; print(sum(1 for _ in open(sys.argv[1])))' "$data/orig.jsonl")

out=$("$gb" check -j 2 "$data/planted.jsonl" 2>&1); rc=$?
check "every planted program passes the original tests" "[ $rc -eq 0 ] && grep -q '$n tasks, $n passed' <<<\"\$out\""

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 -o "$tmp/a.json" 2>&1); rc=$?
echo "$out"
check "planted changes: exit 1" "[ $rc -eq 1 ]"
check "all $n planted changes are found" "[ \$(grep -c '^DISAGREE class/' <<<\"\$out\") -eq $n ]"
check "each disagreement names the call sequence, the step and both results" \
    "[ \$(grep -c 'first disagreement on input [0-9]*: [A-Z][a-z]*(.*); \\.' <<<\"\$out\") -eq $n ] &&
     [ \$(grep -c '^    A: step [0-9]* \\.' <<<\"\$out\") -eq $n ] && [ \$(grep -c '^    B: step [0-9]* \\.' <<<\"\$out\") -eq $n ]"
check "the object's state is compared" \
    "grep -A2 '^DISAGREE class/state' <<<\"\$out\" | grep -q \"B: .*state={'counts': {'': 0}}\""
check "a step the tests take once is taken again" "grep -q '^DISAGREE class/empty_pop.*\\.pop(); \\.pop()' <<<\"\$out\""

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 --search 0 2>&1)
before=$(grep -c '^DISAGREE class/' <<<"$out")
echo "without the search: $before of $n found"
check "the derived sequences alone miss some" "[ $before -lt $n ]"

for seed in 1 7; do
    out=$("$gb" compare "$data/orig.jsonl" "$data/orig.jsonl" -j 2 --seed $seed 2>&1); rc=$?
    check "every original agrees with itself (seed $seed)" \
        "[ $rc -eq 0 ] && [ \$(grep -c '^AGREE    class/' <<<\"\$out\") -eq $n ]"
done
check "coverage is reported per task" "[ \$(grep -c '^    branches: ' <<<\"\$out\") -eq $n ]"
check "the originals' branches are all reached" "! grep -q 'uncovered:' <<<\"\$out\""

# methods the tests call on the class itself (static methods): compare runs their sequences on
# the class, in the program's own process as well (it probes both benchmarks apart)
$py - "$tmp/static.jsonl" <<'PY'
import json, sys
src = ("class Fmt:\n    @staticmethod\n    def join(parts, sep):\n        if not parts:\n            return ''\n"
       "        return sep.join(str(p) for p in parts)\n")
tests = ("import unittest\n\n\nclass FmtTest(unittest.TestCase):\n    def test_join(self):\n"
         "        self.assertEqual(Fmt.join(['a', 'b'], '-'), 'a-b')\n        self.assertEqual(Fmt.join([], '+'), '')\n")
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"id": "class/static", "source": src, "entry_point": "Fmt",
                        "tests": {"kind": "unittest", "code": tests, "classes": ["FmtTest"]}}) + "\n")
PY
out=$("$gb" compare "$tmp/static.jsonl" "$tmp/static.jsonl" -j 2 2>&1); rc=$?
check "static methods called on the class: compared, and the original agrees with itself" \
    "[ $rc -eq 0 ] && grep -q '^AGREE    class/static' <<<\"\$out\""

# same seed, same sequences: the same first disagreements at any -j
"$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 1 -o "$tmp/b.json" >/dev/null 2>&1
firsts() { $py -c 'import json,sys; print([t.get("first", {}).get("input") for t in json.load(open(sys.argv[1]))["tasks"]])' "$1"; }
check "deterministic by seed (any -j)" '[ "$(firsts "$tmp/a.json")" = "$(firsts "$tmp/b.json")" ]'

# evolve: the gate has the sequences, and the record says so
"$gb" evolve "$data/orig.jsonl" --seed 1 --generations 1 -j 2 --no-lint -q -o "$tmp/ev.jsonl" >/dev/null 2>&1
check "evolve records the class tasks' inputs and coverage" \
    "$py -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(0 if len(r) == $n and all(t[\"genebench\"][\"equiv\"][\"inputs\"] > 0 and t[\"genebench\"][\"equiv\"][\"branches\"] > 0 for t in r) else 1)' '$tmp/ev.jsonl'"
"$gb" report "$tmp/ev.jsonl" -o "$tmp/r.html" >/dev/null 2>&1
check "the report's task table shows each task's branch coverage" \
    "[ \$(grep -o '<td data-v=\"100\" class=\"cov\">100% <small>(2/2)</small>' '$tmp/r.html' | wc -l) -eq $n ]"
exit $fail
