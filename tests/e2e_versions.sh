#!/usr/bin/env bash
# versions: one hardened benchmark per seed plus the pairwise similarity of all versions.
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
head -n 3 "$root/examples/benchmark.jsonl" > "$tmp/bench.jsonl"
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/v" --generations 1 --no-lint -q --thresholds builtin:paper > "$tmp/out.txt"
check "versions succeeds" '[ $? -eq 0 ]'
check "one output per seed" '[ -s "$tmp/v/seed-1.jsonl" ] && [ -s "$tmp/v/seed-2.jsonl" ]'
check "similarity.json has the three pairs" '[ "$(grep -o "\"a\":" "$tmp/v/similarity.json" | wc -l)" -eq 3 ]'
check "NNMR in both directions" 'grep -q "original_to_seed-1" "$tmp/v/similarity.json" && grep -q "seed-2_to_original" "$tmp/v/similarity.json"'
check "the table names every pair" 'grep -q "seed-1 vs seed-2" "$tmp/out.txt"'
check "similarity.json records the embedding and the graded measures" '/usr/bin/python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))[\"nnmr\"]
assert n[\"embedding_source\"][\"kind\"] == \"builtin\" and n[\"embedding_source\"][\"name\"] == \"structure\", n
for s in (\"seed-1\", \"seed-2\"):
    g = n[\"graded_\" + s]
    assert 1 <= g[\"mean_rank_orig_to_hard\"] <= 3 and g[\"displacement_median\"] >= 0, g
" "$tmp/v/similarity.json"'
"$gb" versions "$tmp/bench.jsonl" --seeds 1 -o "$tmp/w" >/dev/null 2>&1; rc=$?
check "one seed is a usage error" '[ $rc -eq 2 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --embed-url http://127.0.0.1:9 >/dev/null 2>"$tmp/err"; rc=$?
check "--embed-url without a model exits 2 before evolving" '[ $rc -eq 2 ] && grep -q "needs a model" "$tmp/err" && [ ! -e "$tmp/w/seed-1.jsonl" ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --embed-api bert --embed-model m >/dev/null 2>&1; rc=$?
check "an unknown --embed-api exits 2" '[ $rc -eq 2 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --bogus >/dev/null 2>&1; rc=$?
check "unknown option exits 2" '[ $rc -eq 2 ]'
exit $fail
