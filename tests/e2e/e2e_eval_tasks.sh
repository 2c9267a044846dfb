#!/usr/bin/env bash
# `genebench eval --task repair` and `--task translate` end to end against the simulated model
# (tests/fakes/model_server.py) on tests/data/eval_tasks (make_data.py): the pass rates must be exactly
# those the simulated model's answers imply, and no cheating, wrong, uncompilable, endless or
# memory-hungry answer may score as right.
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
d=$src/tests/data/eval_tasks
B=$d/bugs.jsonl S=$d/stdio.jsonl SH=$d/stdio-hard.jsonl

$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" --bench "$S" "$SH" "$B" \
  --fixed "$d/fixed.jsonl" "$d/fixed-hard.jsonl" --java "$d/java_oracle.json" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
control() { $py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" "$1"; }
stat() { $py -c "import json, urllib.request; print(json.load(urllib.request.urlopen('$url/'))['$1'])"; }
js() { $py -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
ev() { GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$@" --url "$url" --model sim -j 2 -q; }
p1() { js "$1" "[float(v['pass_at']['1']) for v in s['versions']]"; }
verdicts() { $py -c "import json,sys; print(sorted({json.loads(l)['verdict'] for l in open(sys.argv[1])}))" "$1"; }

# ---- repair
control '{"mode": "oracle"}'
ev "$B" --task repair --summary "$tmp/r1.json" -o "$tmp/r1.jsonl" >"$tmp/r1.out" 2>&1; rc=$?
check "repair oracle: exit 0, 3 bugs, versions original and hardened, pass@1 1 on both" \
  '[ $rc -eq 0 ] && [ "$(js "$tmp/r1.json" "(s[\"task\"], s[\"items\"], len(s[\"versions\"]))")" = "('"'"'repair'"'"', 3, 2)" ] && [ "$(p1 "$tmp/r1.json")" = "[1.0, 1.0]" ]'
check "repair oracle: the printed summary names the task" 'grep -q "program repair, 3 items" "$tmp/r1.out"'
check "repair prompts show the failing test and the specification" \
  '[ "$(stat unknown)" = 0 ] && grep -q "\"extracted\":\"# file: main.py" "$tmp/r1.jsonl"'
control '{"mode": "oracle", "right_hard": ["rep/add_all"]}'
ev "$B" "$B" --task repair --summary "$tmp/r2.json" -o "$tmp/r2.jsonl" >/dev/null 2>&1
check "repair, right on 1 of 3 hardened bugs: 1, 1/3, 1/3; lost 2; drop 2/3" \
  '[ "$(js "$tmp/r2.json" "[round(float(v[\"pass_at\"][\"1\"]), 6) for v in s[\"versions\"]] + [s[\"comparisons\"][0][\"lost\"], round(s[\"comparisons\"][0][\"relative_drop\"], 6)]")" = "[1.0, 0.333333, 0.333333, 2, 0.666667]" ]'
control '{"mode": "wrong"}'
ev "$B" --task repair --summary "$tmp/r3.json" -o "$tmp/r3.jsonl" >/dev/null 2>&1
check "repair, the buggy program sent back: pass@1 0, verdicts fail" \
  '[ "$(p1 "$tmp/r3.json")" = "[0.0, 0.0]" ] && [ "$(verdicts "$tmp/r3.jsonl")" = "['"'"'fail'"'"']" ]'
control '{"mode": "cheat", "cheat": "all"}'
ev "$B" --task repair --samples 2 --summary "$tmp/r4.json" -o "$tmp/r4.jsonl" >/dev/null 2>&1
want=$($py -c "import sys; sys.path.insert(0, '$src/tests/fakes'); import model_server as m; print(len(m.CHEATS_REPAIR))")
check "every repair cheat was sent ($(stat cheats))" \
  '[ "$($py -c "import json, urllib.request; print(len(json.load(urllib.request.urlopen(\"$url/\"))[\"cheats\"]))")" = "$want" ]'
check "no repair cheat passes (12 samples scored)" \
  '[ "$(js "$tmp/r4.json" "(sum(v[\"verdicts\"][\"pass\"] for v in s[\"versions\"]), s[\"samples_scored\"])")" = "(0, 12)" ]'
control '{"mode": "garbage"}'
ev "$B" --task repair --summary "$tmp/r5.json" >/dev/null 2>&1
check "repair, prose without code: fail or invalid, never pass" \
  '[ "$(js "$tmp/r5.json" "sum(v[\"verdicts\"][\"pass\"] for v in s[\"versions\"])")" = 0 ]'
# cache and resume
control '{"mode": "oracle"}'
ev "$B" --task repair --cache "$tmp/cache" -o "$tmp/r6.jsonl" --summary "$tmp/r6.json" >/dev/null 2>&1
control '{"mode": "wrong"}'
ev "$B" --task repair --cache "$tmp/cache" --summary "$tmp/r7.json" >/dev/null 2>&1
check "repair cache: no request, the cached (right) replies score 1" \
  '[ "$(stat chat)" = 0 ] && [ "$(js "$tmp/r7.json" "s[\"samples_cached\"]")" = 6 ] && [ "$(p1 "$tmp/r7.json")" = "[1.0, 1.0]" ]'
head -n 4 "$tmp/r6.jsonl" >"$tmp/r8.jsonl"
control '{"mode": "oracle"}'
ev "$B" --task repair -o "$tmp/r8.jsonl" --resume --summary "$tmp/r8.json" >/dev/null 2>&1
check "repair resume: 4 kept, 2 asked for, complete, 6 lines" \
  '[ "$(stat chat)" = 2 ] && [ "$(js "$tmp/r8.json" "(s[\"samples_resumed\"], s[\"complete\"])")" = "(4, True)" ] && [ "$(wc -l <"$tmp/r8.jsonl")" = 6 ]'
"$gb" eval "$S" --task repair --url "$url" --model sim -q >/dev/null 2>"$tmp/r9.err"; rc=$?
check "repair on a file that is not inject-bugs output: exit 1, says why" '[ $rc -eq 1 ] && grep -q "hardened_buggy" "$tmp/r9.err"'

# ---- translate
control '{"mode": "oracle"}'
ev "$S" "$SH" --task translate --summary "$tmp/t1.json" -o "$tmp/t1.jsonl" >"$tmp/t1.out" 2>&1; rc=$?
check "translate oracle: exit 0, 3 items, pass@1 1 on both versions" \
  '[ $rc -eq 0 ] && [ "$(js "$tmp/t1.json" "(s[\"task\"], s[\"items\"])")" = "('"'"'translate'"'"', 3)" ] && [ "$(p1 "$tmp/t1.json")" = "[1.0, 1.0]" ]'
check "translate prompts were all placed" '[ "$(stat unknown)" = 0 ]'
control '{"mode": "oracle", "right_hard": ["example/stdio_rle"]}'
ev "$S" "$SH" --task translate --summary "$tmp/t2.json" >/dev/null 2>&1
check "translate, right on 1 of 3 hardened: lost 2, drop 2/3" \
  '[ "$(js "$tmp/t2.json" "(s[\"comparisons\"][0][\"lost\"], round(s[\"comparisons\"][0][\"relative_drop\"], 6))")" = "(2, 0.666667)" ]'
control '{"mode": "rename"}'
ev "$S" --task translate --summary "$tmp/t3.json" -o "$tmp/t3.jsonl" >/dev/null 2>&1
check "translate, class Solution in package sim.answer, unlabelled fence: still runs, pass@1 1" '[ "$(p1 "$tmp/t3.json")" = "[1.0]" ]'
for m in wrong nocompile loop alloc; do
  control "{\"mode\": \"$m\"}"
  ev "$S" --task translate --run-timeout 3 --summary "$tmp/t-$m.json" -o "$tmp/t-$m.jsonl" >/dev/null 2>&1
  check "translate $m: pass@1 0 ($(verdicts "$tmp/t-$m.jsonl"))" \
    '[ "$(p1 "$tmp/t-$m.json")" = "[0.0]" ] && [ "$(js "$tmp/t-$m.json" "s[\"samples_scored\"]")" = 3 ]'
done
check "translate: a compile error is reported as such" 'grep -q "CompileError" "$tmp/t-nocompile.jsonl"'
check "translate: the endless program times out" '[ "$(verdicts "$tmp/t-loop.jsonl")" = "['"'"'timeout'"'"']" ]'
control '{"mode": "oracle"}'
ev "$S" --task translate --cache "$tmp/tcache" -o "$tmp/t4.jsonl" >/dev/null 2>&1
head -n 1 "$tmp/t4.jsonl" >"$tmp/t5.jsonl"
control '{"mode": "wrong"}'
ev "$S" --task translate --cache "$tmp/tcache" -o "$tmp/t5.jsonl" --resume --summary "$tmp/t5.json" >/dev/null 2>&1
check "translate resume + cache: 1 kept, 2 from the cache, no request, pass@1 1" \
  '[ "$(stat chat)" = 0 ] && [ "$(js "$tmp/t5.json" "(s[\"samples_resumed\"], s[\"samples_cached\"])")" = "(1, 2)" ] && [ "$(p1 "$tmp/t5.json")" = "[1.0]" ]'
"$gb" eval "$src/tests/data/eval/orig.jsonl" --task translate --url "$url" --model sim -q >/dev/null 2>"$tmp/t6.err"; rc=$?
check "translate without stdio tasks: exit 1, says why" '[ $rc -eq 1 ] && grep -q "stdio" "$tmp/t6.err"'
"$gb" eval "$B" --task translate --url "$url" --model sim -q >/dev/null 2>"$tmp/t7.err"; rc=$?
check "translate on inject-bugs output: refused (exit 2), says why" '[ $rc -eq 2 ] && grep -q "inject-bugs" "$tmp/t7.err"'
exit $fail
