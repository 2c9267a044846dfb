#!/usr/bin/env bash
# The search for inputs that reach the original's branches (nsga2/README.md, "Equivalence beyond
# the tests"): each of the twenty-two programs of tests/data/equiv_branches/planted.jsonl passes the
# tests of orig.jsonl and changes only a branch those tests never reach (large, negative or zero
# numbers, empty, long, duplicated, nested or mixed lists, magic strings and dictionary keys, a
# None default, a parse error, a boundary, argument mutation, unicode, a loop, an index error, the
# arms of a conditional expression and of an `or`);
# `compare` finds every one and names the input, and every original agrees with itself.
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv_branches

out=$("$gb" check -j 2 "$data/planted.jsonl" 2>&1); rc=$?
check "every planted program passes the original tests" "[ $rc -eq 0 ] && grep -q '22 tasks, 22 passed' <<<\"\$out\""

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 2>&1); rc=$?
echo "$out"
check "planted changes: exit 1" "[ $rc -eq 1 ]"
check "all twenty-two planted changes are found" "[ \$(grep -c '^DISAGREE branch/' <<<\"\$out\") -eq 22 ]"
check "each disagreement names the input and both results" \
    "[ \$(grep -c 'first disagreement on input [0-9]*: [a-z_]*(' <<<\"\$out\") -eq 22 ] &&
     [ \$(grep -c '^    A: ' <<<\"\$out\") -eq 22 ] && [ \$(grep -c '^    B: ' <<<\"\$out\") -eq 22 ]"
check "the threshold beyond the tests is found with a mined input" \
    "grep -A3 '^DISAGREE branch/threshold' <<<\"\$out\" | grep -q 'f(10[0-9]*)\|f(10000)'"

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 --search 0 2>&1)
before=$(grep -c '^DISAGREE branch/' <<<"$out")
echo "without the search: $before of 22 found"
check "the derived inputs alone miss some" "[ $before -lt 22 ]"

for seed in 1 7; do
    out=$("$gb" compare "$data/orig.jsonl" "$data/orig.jsonl" -j 2 --seed $seed 2>&1); rc=$?
    check "every original agrees with itself (seed $seed)" \
        "[ $rc -eq 0 ] && [ \$(grep -c '^AGREE    branch/' <<<\"\$out\") -eq 22 ]"
done
check "coverage is reported per task" "[ \$(grep -c '^    branches: ' <<<\"\$out\") -eq 22 ]"
check "the originals' branches are all reached" "! grep -q 'uncovered:' <<<\"\$out\""

# same seed, same inputs: the same first disagreements at any -j
"$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 -o "$tmp/a.json" >/dev/null 2>&1
"$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 1 -o "$tmp/b.json" >/dev/null 2>&1
firsts() { $py -c 'import json,sys; print([t.get("first", {}).get("input") for t in json.load(open(sys.argv[1]))["tasks"]])' "$1"; }
check "deterministic by seed (any -j)" '[ "$(firsts "$tmp/a.json")" = "$(firsts "$tmp/b.json")" ]'
exit $fail
