#!/usr/bin/env bash
# Unstable results (nsga2/README.md, "Equivalence beyond the tests"): the methods of
# tests/data/equiv_unstable/orig.jsonl return the clock, random numbers and object ids beside
# stable results, and every call sequence of its tests takes one of them. The steps whose results
# differ between the original's two recording probes are not compared, the others are: the
# original agrees with itself every time and with a copy whose random state and heap are moved,
# and a wrong count in a stable step after an unstable one is found.
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv_unstable

for f in orig shifted planted; do
    out=$("$gb" check -j 2 "$data/$f.jsonl" 2>&1); rc=$?
    check "$f passes the tests" "[ $rc -eq 0 ] && grep -q '1 tasks, 1 passed' <<<\"\$out\""
done
for seed in 1 7 7; do
    out=$("$gb" compare "$data/orig.jsonl" "$data/orig.jsonl" -j 2 --seed $seed 2>&1); rc=$?
    echo "$out" | head -1
    check "the original agrees with itself (seed $seed), its sequences compared" \
        "[ $rc -eq 0 ] && grep -q '^AGREE    unstable/ticket: [1-9][0-9]/' <<<\"\$out\""
done
out=$("$gb" compare "$data/orig.jsonl" "$data/shifted.jsonl" -j 2 2>&1); rc=$?
echo "$out" | head -1
check "random state and heap moved: agree" "[ $rc -eq 0 ] && grep -q '^AGREE    unstable/ticket' <<<\"\$out\""
out=$("$gb" compare "$data/orig.jsonl" "$data/planted.jsonl" -j 2 2>&1); rc=$?
echo "$out" | head -3
check "a wrong stable step after unstable ones is found" \
    "[ $rc -eq 1 ] && grep -q '^    A: step [0-9]* .add(' <<<\"\$out\""
exit $fail
