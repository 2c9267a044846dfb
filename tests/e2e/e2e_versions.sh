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
# Seed 2 evolves away from seed 1 (default) or on its own (--independent).
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/away" --generations 4 --no-lint -q > "$tmp/away.txt"
check "versions evolving away succeeds" '[ $? -eq 0 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/ind" --generations 4 --no-lint -q --independent > "$tmp/ind.txt"
check "versions --independent succeeds" '[ $? -eq 0 ]'
check "seed 1 is the same either way" 'cmp -s <(sed -E "s/\"time_s\":[0-9.eE+-]+,//" "$tmp/away/seed-1.jsonl") <(sed -E "s/\"time_s\":[0-9.eE+-]+,//" "$tmp/ind/seed-1.jsonl")'
"$gb" similarity "$tmp/away/seed-1.jsonl" "$tmp/away/seed-2.jsonl" --json -o "$tmp/sim.json"
check "seed 2 records its distance from seed 1, and it is the Jaccard similarity measures" '/usr/bin/python3 -c "
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ind = [json.loads(l) for l in open(sys.argv[2])]
sim = {t[\"id\"]: t[\"token_jaccard\"] for t in json.load(open(sys.argv[3]))[\"tasks\"]}
assert all(\"away\" not in r[\"genebench\"] for r in ind), \"--independent has no away field\"
for r in recs:
    a = r[\"genebench\"][\"away\"]
    assert a[\"versions\"] == 1 and a[\"target\"] == 0.4, a
    assert abs(a[\"pick\"] - sim[r[\"id\"]]) < 1e-6, (r[\"id\"], a, sim[r[\"id\"]])
" "$tmp/away/seed-2.jsonl" "$tmp/ind/seed-2.jsonl" "$tmp/sim.json"'
check "evolving away leaves seed 2 less like seed 1 than evolving on its own" '/usr/bin/python3 -c "
import json, sys
def jac(d):
    s = json.load(open(d + \"/similarity.json\"))
    return [p for p in s[\"pairs\"] if p[\"a\"] == \"seed-1\" and p[\"b\"] == \"seed-2\"][0][\"summary\"][\"jaccard\"][\"mean\"]
a, i = jac(sys.argv[1]), jac(sys.argv[2])
print(\"seed-1 vs seed-2 Jaccard: away\", a, \"independent\", i)
assert a < i, (a, i)
" "$tmp/away" "$tmp/ind"'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/bad.jsonl" --away-from "$tmp/missing.jsonl" --generations 1 -q 2>"$tmp/err"; rc=$?
check "a missing --away-from file fails with its name" '[ $rc -eq 1 ] && grep -q "missing.jsonl" "$tmp/err"'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/away/seed-1.jsonl" --away-from "$tmp/away/seed-1.jsonl" --generations 1 -q 2>/dev/null; rc=$?
check "--away-from the output itself is refused" '[ $rc -ne 0 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1 -o "$tmp/w" >/dev/null 2>&1; rc=$?
check "one seed is a usage error" '[ $rc -eq 2 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --embed-url http://127.0.0.1:9 >/dev/null 2>"$tmp/err"; rc=$?
check "--embed-url without a model exits 2 before evolving" '[ $rc -eq 2 ] && grep -q "needs a model" "$tmp/err" && [ ! -e "$tmp/w/seed-1.jsonl" ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --embed-api bert --embed-model m >/dev/null 2>&1; rc=$?
check "an unknown --embed-api exits 2" '[ $rc -eq 2 ]'
"$gb" versions "$tmp/bench.jsonl" --seeds 1,2 -o "$tmp/w" --bogus >/dev/null 2>&1; rc=$?
check "unknown option exits 2" '[ $rc -eq 2 ]'
exit $fail
