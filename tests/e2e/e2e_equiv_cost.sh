#!/usr/bin/env bash
# The cost bound on the larger inputs (nsga2/README.md, "Equivalence beyond the tests"): the
# larger inputs are thousands of elements long (or a count the program loops on raised to
# thousands), so a change of cost class shows. Of tests/data/equiv_cost/planted.jsonl, four
# O(n) -> O(n^2) changes (a list scanned where a set was, a sum recomputed per element, a dict's
# keys copied per lookup, a count looped on twice) are over the cost bound; an original that is
# quadratic already agrees with itself every time (its larger inputs are shrunk until it is fast
# on them), and the work done twice (a constant factor) stays within the bound.
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv_cost

out=$("$gb" check -j 2 "$data/planted.jsonl" 2>&1); rc=$?
check "every planted program passes the original tests" "[ $rc -eq 0 ] && grep -q '6 tasks, 6 passed' <<<\"\$out\""

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 -o "$tmp/planted.json" 2>&1); rc=$?
echo "$out"
check "planted changes: exit 1" "[ $rc -eq 1 ]"
for id in dedup prefix first_index triangles; do
    check "O(n) -> O(n^2) is over the cost bound: $id" "grep -q '^SLOWER   cost/$id: .* inputs agree, but B costs' <<<\"\$out\""
done
check "a constant factor stays within the bound" "grep -q '^AGREE    cost/digits' <<<\"\$out\""
check "every task keeps larger inputs" "$py - '$tmp/planted.json' <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r['tasks']:
    assert t['large'] >= 1, t
PY"

# the quadratic original against itself, several times: its larger inputs are shrunk until it
# is fast on them, so it is never over its own cost bound
grep -E '"cost/(inversions|digits)"' "$data/orig.jsonl" >"$tmp/self.jsonl"
for run in 1 2 3; do
    out=$("$gb" compare "$tmp/self.jsonl" "$tmp/self.jsonl" -j 2 2>&1); rc=$?
    echo "$out" | grep -v '^    '
    check "a quadratic original agrees with itself (run $run)" \
        "[ $rc -eq 0 ] && [ \$(grep -c '^AGREE    cost/' <<<\"\$out\") -eq 2 ]"
done
exit $fail
