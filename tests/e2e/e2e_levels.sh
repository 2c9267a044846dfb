#!/usr/bin/env bash
# Lineage, `genebench levels` and `genebench breaks` end to end on the examples:
#   - evolve records each pick's lineage, and every rung rebuilds exactly from "original"
#     (tests/e2e/levels_check.py, independently of genebench);
#   - the level files (by rungs, by RC, by size, and a size-matched one) are ordinary benchmarks:
#     validate and check pass on each, and the last level is the evolve output's programs;
#   - a simulated model that fails whenever a program uses functools (which only S8
#     IntroduceDecorator adds: its wrappers use functools.wraps) gets every figure of `breaks` as
#     recomputed from the level files, and S8 is the first breaking operator with rate 1;
#   - `report --breaks` shows the breaks page as a panel;
#   - one that fails on programs longer than N lines gets its curve, verdicts, operator table and
#     size-matched comparisons as recomputed; its curve breaks where sizes cross N, and the
#     complexity-vs-size analysis points at size (no pair of equal size splits on RC).
set -u
gb=${GENEBENCH:?}
src=${GB_SOURCE_ROOT:?}
py=/usr/bin/python3
tmp=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
K=8

check "evolve" '"$gb" evolve "$src/examples/benchmark.jsonl" -o "$tmp/ev.jsonl" --seed 1 --generations 8 --no-lint -q -j 2 >/dev/null 2>&1'
check "every lineage rebuilds exactly" '$py "$src/tests/e2e/levels_check.py" lineage "$tmp/ev.jsonl"'
check "levels by rungs" '"$gb" levels "$tmp/ev.jsonl" -o "$tmp/L" --by rungs -k $K --size-budget 1.5 >"$tmp/lv.out"'
cat "$tmp/lv.out"
for f in "$tmp"/L/level_*.jsonl; do
  check "validate $(basename "$f")" '"$gb" validate "$f" >/dev/null 2>&1'
done
for v in 0 4 $K size; do
  check "check level_$v passes its tests" '"$gb" check "$tmp/L/level_$v.jsonl" -j 2 >/dev/null 2>&1'
done
check "the last level is the evolve output's programs" \
  '$py -c "import json,sys; a=[json.loads(l)[\"source\"] for l in open(sys.argv[1])]; b=[json.loads(l)[\"source\"] for l in open(sys.argv[2])]; sys.exit(a!=b)" "$tmp/ev.jsonl" "$tmp/L/level_$K.jsonl"'
check "levels.json: mean rung grows with the level" \
  '$py -c "import json,sys; l=json.load(open(sys.argv[1]))[\"levels\"][:-1]; r=[x[\"mean_rung\"] for x in l]; sys.exit(r!=sorted(r) or r[0]!=0)" "$tmp/L/levels.json"'
check "size-matched level within 1.5x tokens" \
  '$py -c "
import json,sys
for l in open(sys.argv[1]):
    t=json.loads(l); g=t[\"genebench\"]
    assert g[\"after\"][\"metrics\"][\"num_tokens\"] <= 1.5*g[\"before\"][\"metrics\"][\"num_tokens\"]+1e-9, t[\"id\"]
" "$tmp/L/level_size.jsonl"'
check "levels by rc and by size" \
  '"$gb" levels "$tmp/ev.jsonl" -o "$tmp/R" --by rc -k 4 >/dev/null && "$gb" levels "$tmp/ev.jsonl" -o "$tmp/S" --by size -k 4 --size-budget 3 >/dev/null'

files=()
for v in $(seq 0 $K); do files+=("$tmp/L/level_$v.jsonl"); done
$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" --bench "${files[@]}" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
control() { $py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" "$1"; }

control '{"mode": "oracle", "breaks_on": "functools"}'
check "eval over the levels (construct model)" \
  'GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "${files[@]}" --url "$url" --model sim -j 2 -q -o "$tmp/r1.jsonl" >/dev/null 2>&1'
check "breaks (construct model)" '"$gb" breaks "$tmp/r1.jsonl" -o "$tmp/B1" >"$tmp/b1.out"'
cat "$tmp/b1.out"
check "every figure as the construct model implies; S8 first" '$py "$src/tests/e2e/levels_check.py" breaks "$tmp/L" "$tmp/B1" $K construct functools S8'
check "breaks wrote the table, the page and the charts" \
  '[ -s "$tmp/B1/items.csv" ] && [ -s "$tmp/B1/breaks.html" ] && grep -q "<svg" "$tmp/B1/curve_level.svg"'
check "report --breaks: the panel, its three charts with SVG and PNG export, the ladders" \
  '"$gb" report --breaks "$tmp/B1" -o "$tmp/rep.html" >/dev/null && grep -q "<section id=\"breaks\">" "$tmp/rep.html" &&
   [ "$(grep -o "<svg xmlns" "$tmp/rep.html" | wc -l)" -eq 3 ] && [ "$(grep -o "gbBreaksSave(this,.png.)" "$tmp/rep.html" | wc -l)" -eq 3 ] &&
   grep -q "<h2>Ladders</h2>" "$tmp/rep.html"'
check "report --breaks on a directory without breaks.html: exit 1" '! "$gb" report --breaks "$tmp/L" -o "$tmp/rep2.html" >/dev/null 2>&1'

# N: the median size of the hardened levels' programs, at least every original's.
N=$($py -c "
import json,sys
lines=lambda x: len(x[\"source\"].strip(chr(10)).split(chr(10)))
orig=max(lines(json.loads(l)) for l in open(sys.argv[1]))
hard=sorted(lines(json.loads(l)) for f in sys.argv[2:] for l in open(f))
print(max(orig, hard[len(hard) // 2]))" "$tmp/L/level_0.jsonl" "${files[@]:1}")
control "{\"mode\": \"oracle\", \"max_lines\": $N}"
check "eval over the levels (lines model, N = $N)" \
  'GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "${files[@]}" --url "$url" --model sim -j 2 -q -o "$tmp/r2.jsonl" >/dev/null 2>&1'
check "breaks (lines model)" '"$gb" breaks "$tmp/r2.jsonl" -o "$tmp/B2" >"$tmp/b2.out"'
cat "$tmp/b2.out"
check "every figure as the lines model implies" '$py "$src/tests/e2e/levels_check.py" breaks "$tmp/L" "$tmp/B2" $K lines $N'
exit $fail
