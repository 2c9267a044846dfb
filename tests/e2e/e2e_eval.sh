#!/usr/bin/env bash
# `genebench eval` end to end against a simulated model on 127.0.0.1 (tests/fakes/model_server.py) that
# knows the right answers of tests/data/eval: the pass rates it reports must be exactly those the
# simulated model should get, and every cheating answer must score as wrong.
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
d=$src/tests/data/eval
O=$d/orig.jsonl H=$d/hard.jsonl H2=$d/hard2.jsonl

$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" --bench "$O" "$H" "$H2" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
control() { $py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" "$1"; }
stat() { $py -c "import json, urllib.request; print(json.load(urllib.request.urlopen('$url/'))['$1'])"; }
# js FILE EXPR: evaluate a Python expression over the summary JSON `s`
js() { $py -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
ev() { GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$@" --url "$url" --model sim -j 2 -q; }
close() { $py -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9)" "$1" "$2"; }

# 1. right on everything, output prediction, three versions
control '{"mode": "oracle"}'
ev "$O" "$H" "$H2" --summary "$tmp/s1.json" -o "$tmp/r1.jsonl" >"$tmp/out1" 2>"$tmp/err1"; rc=$?
check "all right: exit 0" '[ $rc -eq 0 ]'
check "all right: 7 items (4 CRUXEval asserts, 3 of 5 HumanEval asserts), 1 task without items" \
  '[ "$(js "$tmp/s1.json" "(s[\"items\"], s[\"tasks_without_items\"])")" = "(7, 1)" ]'
check "all right: pass@1 1.0 on every version" \
  '[ "$(js "$tmp/s1.json" "[float(v[\"pass_at\"][\"1\"]) for v in s[\"versions\"]]")" = "[1.0, 1.0, 1.0]" ]'
check "all right: pass@5 undefined with one sample" '[ "$(js "$tmp/s1.json" "s[\"versions\"][0][\"pass_at\"][\"5\"]")" = None ]'
check "all right: drop 0, both pass 7, CI [0, 0]" \
  '[ "$(js "$tmp/s1.json" "[(float(c[\"relative_drop\"]), c[\"both_pass\"], [float(x) for x in c[\"drop_ci95\"]]) for c in s[\"comparisons\"]]")" = "[(0.0, 7, [0.0, 0.0]), (0.0, 7, [0.0, 0.0])]" ]'
check "all right: 21 result lines, all pass, with hashes and extracted answers" \
  '[ "$($py -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print(len(r), all(x[\"verdict\"]==\"pass\" and len(x[\"prompt_sha256\"])==64 and x[\"extracted\"] for x in r))" "$tmp/r1.jsonl")" = "21 True" ]'
check "the HumanEval keyword argument item is there" 'grep -q "\"extracted\":\"\\[2, 3\\]\"" "$tmp/r1.jsonl"'
check "the printed table shows 100%" 'grep -q "^0 original.*100.00%" "$tmp/out1"'

# 2. input prediction, right on originals, only crux/0 right on the hardened versions
control '{"mode": "oracle", "right_hard": ["crux/0"]}'
ev "$O" "$H" "$H2" --task input --summary "$tmp/s2.json" >/dev/null 2>&1
check "drop model: original 1.0, versions 1/7" \
  'close "$(js "$tmp/s2.json" "s[\"versions\"][1][\"pass_at\"][\"1\"]")" 0.14285714285714285 && close "$(js "$tmp/s2.json" "s[\"versions\"][0][\"pass_at\"][\"1\"]")" 1'
check "drop model: lost 6, both pass 1, drop 6/7" \
  '[ "$(js "$tmp/s2.json" "(s[\"comparisons\"][0][\"lost\"], s[\"comparisons\"][0][\"both_pass\"], s[\"comparisons\"][0][\"gained\"])")" = "(6, 1, 0)" ] && close "$(js "$tmp/s2.json" "s[\"comparisons\"][0][\"relative_drop\"]")" 0.8571428571428571'
check "drop model: across versions mean = min = max = 6/7" \
  'close "$(js "$tmp/s2.json" "s[\"across_versions\"][\"relative_drop\"][\"mean\"]")" 0.8571428571428571 && close "$(js "$tmp/s2.json" "s[\"across_versions\"][\"relative_drop\"][\"max\"]")" 0.8571428571428571'
check "drop model: the interval holds the drop and lies in [0, 1]" \
  '[ "$(js "$tmp/s2.json" "0 <= s[\"comparisons\"][0][\"drop_ci95\"][0] <= 6/7 <= s[\"comparisons\"][0][\"drop_ci95\"][1] <= 1")" = True ]'

# 3. right on two tasks only (4 of 7 items), answers in a code fence
control '{"mode": "oracle", "right": ["crux/0", "he/add"], "style": "fence"}'
ev "$O" "$H" --summary "$tmp/s3.json" >/dev/null 2>&1
check "subset model: 4/7 on both, both pass 4, both fail 3, drop 0" \
  'close "$(js "$tmp/s3.json" "s[\"versions\"][1][\"pass_at\"][\"1\"]")" 0.5714285714285714 && [ "$(js "$tmp/s3.json" "(s[\"comparisons\"][0][\"both_pass\"], s[\"comparisons\"][0][\"both_fail\"], float(s[\"comparisons\"][0][\"relative_drop\"]))")" = "(4, 3, 0.0)" ]'
check "subset model: wrong answers are fail, not invalid" '[ "$(js "$tmp/s3.json" "s[\"versions\"][0][\"verdicts\"][\"fail\"]")" = 3 ]'

# 4. sampling: right when seed % 2 == 0; seeds 0..3 -> c = 2 of n = 4 per item
control '{"mode": "oracle", "seed_mod": 2, "style": "bare"}'
ev "$O" --samples 4 --seed 0 --k 1,2,4 --temperature 0.8 --summary "$tmp/s4.json" >/dev/null 2>&1
check "pass@1 = 0.5, pass@2 = 1 - C(2,2)/C(4,2) = 5/6, pass@4 = 1" \
  'close "$(js "$tmp/s4.json" "s[\"versions\"][0][\"pass_at\"][\"1\"]")" 0.5 && close "$(js "$tmp/s4.json" "s[\"versions\"][0][\"pass_at\"][\"2\"]")" 0.8333333333333334 && close "$(js "$tmp/s4.json" "s[\"versions\"][0][\"pass_at\"][\"4\"]")" 1'

# 5. garbage
control '{"mode": "garbage"}'
ev "$O" "$H" --summary "$tmp/s5.json" >/dev/null 2>&1
check "garbage: pass@1 0, every sample invalid" \
  '[ "$(js "$tmp/s5.json" "(float(s[\"versions\"][0][\"pass_at\"][\"1\"]), s[\"versions\"][1][\"verdicts\"][\"invalid\"])")" = "(0.0, 7)" ]'

# 6. cheats: none may pass (the server sends each of its cheats at least once per mode)
for mode in output input; do
  control '{"mode": "cheat", "cheat": "all"}'
  ev "$O" "$H" --task $mode --samples 2 --summary "$tmp/c.json" -o "$tmp/c.jsonl" >/dev/null 2>&1
  sent=$($py -c "import json, urllib.request; print(len(json.load(urllib.request.urlopen('$url/'))['cheats']))")
  want=$($py -c "import sys; sys.path.insert(0, '$src/tests/fakes'); import model_server as m; print(len(m.CHEATS_OUTPUT if '$mode' == 'output' else m.CHEATS_INPUT))")
  check "every $mode cheat was sent ($sent of $want)" '[ "$sent" = "$want" ]'
  check "no $mode cheat scores as right (28 samples)" \
    '[ "$(js "$tmp/c.json" "sum(v[\"verdicts\"][\"pass\"] for v in s[\"versions\"]) == 0 and s[\"samples_scored\"] == 28")" = True ]'
  check "$mode cheats are refused before running, or run and fail" \
    '[ "$($py -c "import json,sys; print(sorted({json.loads(l)[\"verdict\"] for l in open(sys.argv[1])} - {\"invalid\", \"fail\"}))" "$tmp/c.jsonl")" = "[]" ]'
done

# 7. retries on 500, cache, resume
control '{"mode": "oracle", "fail_first": 3}'
ev "$O" "$H" --cache "$tmp/cache/deeper" -o "$tmp/r7.jsonl" --summary "$tmp/s7.json" >/dev/null 2>&1; rc=$?
check "three 500 replies are retried: exit 0, 14 passes, 17 requests" \
  '[ $rc -eq 0 ] && [ "$(stat chat)" = 17 ] && [ "$(js "$tmp/s7.json" "sum(v[\"verdicts\"][\"pass\"] for v in s[\"versions\"])")" = 14 ]'
control '{"mode": "garbage"}'
ev "$O" "$H" --cache "$tmp/cache/deeper" --summary "$tmp/s8.json" >/dev/null 2>&1
check "cached replies: no request, same pass rates" \
  '[ "$(stat chat)" = 0 ] && [ "$(js "$tmp/s8.json" "(s[\"samples_cached\"], float(s[\"versions\"][1][\"pass_at\"][\"1\"]))")" = "(14, 1.0)" ]'
head -n 10 "$tmp/r7.jsonl" >"$tmp/r9.jsonl"
printf '{"task":"crux/0","item":"cr' >>"$tmp/r9.jsonl" # a line cut short by a killed run
control '{"mode": "oracle", "models": ["sim", "other"]}'
ev "$O" "$H" -o "$tmp/r9.jsonl" --resume --summary "$tmp/s9.json" >/dev/null 2>&1
check "resume: 10 samples kept, 4 asked for, the cut line removed, 4 good lines added, all pass" \
  '[ "$(stat chat)" = 4 ] && [ "$(js "$tmp/s9.json" "(s[\"samples_resumed\"], s[\"complete\"], float(s[\"versions\"][1][\"pass_at\"][\"1\"]))")" = "(10, True, 1.0)" ] && [ "$(wc -l <"$tmp/r9.jsonl")" = 14 ] && [ "$(grep -c "\"verdict\":\"pass\"" "$tmp/r9.jsonl")" = 14 ] && ! grep -q "\"item\":\"cr\$" "$tmp/r9.jsonl"'
GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$O" "$H" --url "$url" --model other -q -j 2 --resume -o "$tmp/r9.jsonl" --summary "$tmp/s10.json" >/dev/null 2>&1
check "resume does not keep another model's samples" '[ "$(js "$tmp/s10.json" "s[\"samples_resumed\"]")" = 0 ]'

# 8. time budget, errors, usage
ev "$O" "$H" --time-budget 0.000001 --summary "$tmp/s11.json" >/dev/null 2>&1; rc=$?
check "time budget: stopped, incomplete, exit 0" \
  '[ $rc -eq 0 ] && [ "$(js "$tmp/s11.json" "(s[\"stopped_by\"], s[\"complete\"])")" = "('"'"'time budget'"'"', False)" ]'
"$gb" eval "$O" --model sim >/dev/null 2>&1; rc=$?
check "no --url: usage error" '[ $rc -eq 2 ]'
"$gb" eval "$O" "$H" --url http://127.0.0.1:1 --model sim -q --retries 0 -o "$tmp/e.jsonl" >/dev/null 2>"$tmp/err12"; rc=$?
check "no server: exit 1 at the pre-flight, named, no sample sent or recorded" \
  '[ $rc -eq 1 ] && grep -q "cannot connect.*is the server running?; no sample was sent" "$tmp/err12" && [ ! -s "$tmp/e.jsonl" ]'
"$gb" eval "$O" "$H" --url "$url" --model sim -o "$H" >/dev/null 2>&1; rc=$?
check "refuses to overwrite an input" '[ $rc -eq 2 ]'
touch "$tmp/not-a-dir"
ev "$O" --cache "$tmp/not-a-dir" --summary "$tmp/s13.json" >/dev/null 2>"$tmp/err13"; rc=$?
check "--cache FILE: refused, says it takes a directory" '[ $rc -ne 0 ] && grep -q "takes a directory" "$tmp/err13"'
ev "$O" "$src/tests/data/eval_tasks/stdio.jsonl" --summary "$tmp/s14.json" >/dev/null 2>"$tmp/err14"; rc=$?
check "a version sharing no task id with the original: refused" '[ $rc -ne 0 ] && grep -q "no task of it has an id" "$tmp/err14"'
exit $fail
