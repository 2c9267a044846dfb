#!/usr/bin/env bash
# Equivalence beyond the tests (nsga2/README.md, "Equivalence beyond the tests"): every program of
# tests/data/equiv/planted.jsonl passes the tests of orig.jsonl, but changes behaviour in a branch
# the tests never reach, attacks the probe, or sleeps in a loop; `compare` finds each, honest
# rewrites (honest.jsonl) agree, and `evolve` records the inputs its equiv gate compared.
# (nsga2/equiv.c's gate path itself is checked with planted children in tests/unit/test_equiv.c.)
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv

for f in honest planted; do
    out=$("$gb" check -j 2 "$data/$f.jsonl" 2>&1); rc=$?
    check "every $f program passes the original tests" "[ $rc -eq 0 ] && grep -q '6 tasks, 6 passed' <<<\"\$out\""
done

out=$("$gb" compare "$data/orig.jsonl" "$data/honest.jsonl" -j 2 -o "$tmp/honest.json" 2>&1); rc=$?
echo "$out"
check "honest rewrites agree (exit 0)" "[ $rc -eq 0 ] && grep -q '5 with inputs.*5 agree, 0 disagree, 0 slower, 1 without inputs' <<<\"\$out\""
check "a task without literal calls has no inputs" "grep -q '^NOINPUT  equiv/noinput' <<<\"\$out\""

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 -o "$tmp/planted.json" 2>&1); rc=$?
echo "$out"
check "planted changes: exit 1" "[ $rc -eq 1 ]"
check "a changed branch on long lists is found, with the input" \
    "grep -q '^DISAGREE equiv/above: .*first disagreement on input [0-9]*: above(\[' <<<\"\$out\""
check "a changed branch on long strings is found" "grep -q '^DISAGREE equiv/initials' <<<\"\$out\""
# compare probes B apart (src/runner/README.md): the forged record goes into the program's own
# pipe to the judge, and the input on which it wrote it reads as the process's end
check "a program that forges the result record cannot agree" \
    "grep -q '^DISAGREE equiv/mean: ' <<<\"\$out\" && grep -qx '    B: exit' <<<\"\$out\""
check "a sleep in a loop is over the cost bound" "grep -q '^SLOWER   equiv/count' <<<\"\$out\""
check "a stdio program wrong on large numbers is found" "grep -q '^DISAGREE equiv/stdio_sum: .*stdin(' <<<\"\$out\""
check "the JSON report has every task's status" "$py - '$tmp/planted.json' <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
st = {t['id']: t['status'] for t in r['tasks']}
assert st == {'equiv/above': 'disagree', 'equiv/initials': 'disagree', 'equiv/mean': 'disagree',
              'equiv/count': 'slower', 'equiv/noinput': 'noinput', 'equiv/stdio_sum': 'disagree'}, st
above = [t for t in r['tasks'] if t['id'] == 'equiv/above'][0]
assert above['first']['input'].startswith('['), above
assert above['inputs'] >= 20 and above['large'] >= 1, above
assert r['summary']['disagree'] == 4 and r['summary']['slower'] == 1, r['summary']
PY"

out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 --no-cost 2>&1)
check "--no-cost compares results only" "grep -q '^AGREE    equiv/count' <<<\"\$out\""

# same seed, same inputs: the same first disagreements; another seed derives other inputs
"$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 1 -o "$tmp/again.json" >/dev/null 2>&1
"$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 --seed 9 -o "$tmp/seed9.json" >/dev/null 2>&1
firsts() { $py -c 'import json,sys; print([t.get("first", {}).get("input") for t in json.load(open(sys.argv[1]))["tasks"]])' "$1"; }
check "deterministic by seed (any -j)" '[ "$(firsts "$tmp/planted.json")" = "$(firsts "$tmp/again.json")" ]'
check "another seed, other inputs" '[ "$(firsts "$tmp/planted.json")" != "$(firsts "$tmp/seed9.json")" ]'

head -3 "$data/honest.jsonl" >"$tmp/part.jsonl"
out=$("$gb" compare "$data/orig.jsonl" "$tmp/part.jsonl" -j 2 2>&1); rc=$?
check "a task missing from B is reported, exit 1" "[ $rc -eq 1 ] && grep -q '^MISSING  equiv/count' <<<\"\$out\""
out=$("$gb" compare "$data/orig.jsonl" 2>&1); rc=$?
check "compare needs two files (exit 2)" "[ $rc -eq 2 ]"
out=$("$gb" compare "$data/orig.jsonl" "$data/honest.jsonl" -o "$data/orig.jsonl" 2>&1); rc=$?
check "compare refuses to overwrite an input" "[ $rc -eq 2 ]"

# evolve: the equiv gate is on by default and the record says how many inputs it compared
"$gb" evolve "$data/orig.jsonl" -o "$tmp/ev.jsonl" --seed 1 --generations 1 -j 2 --no-lint -q; rc=$?
check "evolve with the equiv gate" "[ $rc -eq 0 ]"
check "records: equiv inputs per task, equiv among the gates" "$py - '$tmp/ev.jsonl' <<'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    g = t['genebench']
    assert list(g['gates'])[:8] == ['offered', 'parse', 'readability', 'duplicate', 'dominated', 'tests', 'equiv', 'lint'], g['gates']
    e = g['equiv']
    if t['id'] == 'equiv/noinput':
        assert e['inputs'] == 0, e
    else:
        assert e['inputs'] >= 10 and e['derived'] >= e['inputs'], (t['id'], e)
PY"
"$gb" evolve "$data/orig.jsonl" -o "$tmp/ev-off.jsonl" --seed 1 --generations 1 -j 2 --no-lint -q --no-equiv
check "--no-equiv: no equiv record" "! grep -q '\"equiv\":{' '$tmp/ev-off.jsonl'"
# the hardened output agrees with its original, as compare sees it
out=$("$gb" compare "$data/orig.jsonl" "$tmp/ev.jsonl" -j 2 2>&1); rc=$?
echo "$out" | tail -1
check "evolve's output agrees with the original" "[ $rc -eq 0 ]"
exit $fail
