#!/usr/bin/env bash
# Hostile answers, one at a time, against the simulated model (tests/fakes/model_server.py): answers
# nested deeper than any recursion may go (output and input prediction), repairs that skip their
# tests or put a patched unittest back in sys.stdout.flush(), translations that print more than
# is kept, a NUL byte, or run the Python program through python3 or a shell (the Java runtime is
# all a translation may run), or that print the right output only when they see more of the
# system than the JDK (python3, /bin/sh, /etc/passwd, /home in the listing of /). Each must score as wrong and none may take genebench down; the honest answers still pass. The same deep literals in
# a benchmark's tests go through `check` and `compare`. With the `sanitize` build option this is
# the suite the sanitizers run over.
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
t=$src/tests/data/eval_tasks
B=$t/bugs.jsonl S=$t/stdio.jsonl SH=$t/stdio-hard.jsonl

$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" --bench "$O" "$H" "$S" "$SH" "$B" \
  --fixed "$t/fixed.jsonl" "$t/fixed-hard.jsonl" --java "$t/java_oracle.json" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
control() { $py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" "$1"; }
js() { $py -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
ev() { GENEBENCH_RETRY_BASE_MS=1 "$gb" eval "$@" --url "$url" --model sim -j 2 -q; }
passes() { js "$1" "sum(v['verdicts']['pass'] for v in s['versions'])"; }
scored() { js "$1" "s['samples_scored']"; }
# the verdicts of a results file, and the first error of a verdict
verdicts() { $py -c "import json,sys; print(sorted({json.loads(l)['verdict'] for l in open(sys.argv[1])}))" "$1"; }
errors() { $py -c "import json,sys; print('\n'.join(sorted({str(json.loads(l).get('error')) for l in open(sys.argv[1])})))" "$1"; }

# ---- output and input prediction: answers 20,000-30,000 levels deep
for cheat in deep_unary deep_parens deep_list; do
  control "{\"mode\": \"cheat\", \"cheat\": \"$cheat\"}"
  ev "$O" "$H" --task output --cache "$tmp/cache-$cheat" --summary "$tmp/o-$cheat.json" -o "$tmp/o-$cheat.jsonl" \
    >/dev/null 2>"$tmp/o-$cheat.err"; rc=$?
  check "output $cheat: exit 0, 14 samples scored, none passes ($(verdicts "$tmp/o-$cheat.jsonl"))" \
    '[ $rc -eq 0 ] && [ "$(scored "$tmp/o-$cheat.json")" = 14 ] && [ "$(passes "$tmp/o-$cheat.json")" = 0 ]'
  # the replies were cached once scored; a run from the cache scores them the same, without a crash
  control '{"mode": "oracle"}'
  ev "$O" "$H" --task output --cache "$tmp/cache-$cheat" --summary "$tmp/o2-$cheat.json" >/dev/null 2>&1; rc=$?
  check "output $cheat from the cache: exit 0, still no pass" \
    '[ $rc -eq 0 ] && [ "$(js "$tmp/o2-$cheat.json" "s[\"samples_cached\"]")" = 14 ] && [ "$(passes "$tmp/o2-$cheat.json")" = 0 ]'
done
check "a deep answer is refused as too deep" 'grep -q "nested deeper than" "$tmp/o-deep_list.jsonl"'
control '{"mode": "cheat", "cheat": "deep_unary"}'
ev "$O" "$H" --task input --summary "$tmp/i-deep.json" -o "$tmp/i-deep.jsonl" >/dev/null 2>&1; rc=$?
check "input deep_unary: exit 0, none passes ($(verdicts "$tmp/i-deep.jsonl"))" \
  '[ $rc -eq 0 ] && [ "$(scored "$tmp/i-deep.json")" = 14 ] && [ "$(passes "$tmp/i-deep.json")" = 0 ]'
control '{"mode": "oracle"}'
ev "$O" "$H" --task output --summary "$tmp/o-honest.json" >/dev/null 2>&1
ev "$O" "$H" --task input --summary "$tmp/i-honest.json" >/dev/null 2>&1
check "the honest output and input predictions still pass (14 + 14)" \
  '[ "$(passes "$tmp/o-honest.json")" = 14 ] && [ "$(passes "$tmp/i-honest.json")" = 14 ]'

# ---- repair: skipped tests, a patch put back in sys.stdout.flush()
for cheat in skiptest flush_restore; do
  control "{\"mode\": \"cheat\", \"cheat\": \"$cheat\"}"
  ev "$B" --task repair --summary "$tmp/r-$cheat.json" -o "$tmp/r-$cheat.jsonl" >/dev/null 2>&1; rc=$?
  check "repair $cheat: exit 0, 6 samples, none passes ($(verdicts "$tmp/r-$cheat.jsonl"))" \
    '[ $rc -eq 0 ] && [ "$(scored "$tmp/r-$cheat.json")" = 6 ] && [ "$(passes "$tmp/r-$cheat.json")" = 0 ]'
done
check "repair skiptest: the class task fails as skipped" 'grep -q "SkipTest" "$tmp/r-skiptest.jsonl"'
# split runs: the patch is in the program's unittest, the judge's runs the tests (a failed assertion);
# unsplit runs catch it as Tampering
check "repair flush_restore: the class task fails, by its assertion or as tampering" \
  'grep -qE "Tampering|AssertionError" "$tmp/r-flush_restore.jsonl"'
control '{"mode": "oracle"}'
ev "$B" --task repair --summary "$tmp/r-honest.json" >/dev/null 2>&1
check "the honest repairs still pass (6)" '[ "$(passes "$tmp/r-honest.json")" = 6 ]'

# ---- translate: more output than kept, a NUL byte, another interpreter, a shell
for cheat in trailing nul exec_python exec_sh peek; do
  control "{\"mode\": \"cheat\", \"cheat\": \"$cheat\"}"
  ev "$S" "$SH" --task translate --run-timeout 5 --summary "$tmp/t-$cheat.json" -o "$tmp/t-$cheat.jsonl" \
    >/dev/null 2>&1; rc=$?
  mode=$(js "$tmp/t-$cheat.json" "s['provenance']['sandbox']" 2>/dev/null)
  if [ "$cheat" = peek ] && [ "$mode" = plain ]; then
    echo "skip: translate peek (sandbox plain: a translation sees the worker's file system)"
    continue
  fi
  check "translate $cheat: exit 0, 6 samples, none passes ($(verdicts "$tmp/t-$cheat.jsonl"))" \
    '[ $rc -eq 0 ] && [ "$(scored "$tmp/t-$cheat.json")" = 6 ] && [ "$(passes "$tmp/t-$cheat.json")" = 0 ]'
done
check "translate trailing: failed for writing more than can match" 'grep -q "more than the" "$tmp/t-trailing.jsonl"'
check "translate nul: failed as wrong output" 'grep -q "WrongOutput" "$tmp/t-nul.jsonl"'
for cheat in exec_python exec_sh; do
  check "translate $cheat: the exec is refused" 'grep -q "Permission denied" "$tmp/t-$cheat.jsonl"'
done
control '{"mode": "oracle"}'
ev "$S" "$SH" --task translate --summary "$tmp/t-honest.json" >/dev/null 2>&1
check "the honest translations still pass (6)" '[ "$(passes "$tmp/t-honest.json")" = 6 ]'

# ---- the same deep literals in a benchmark's tests: check, compare (the equivalence probes)
$py - "$O" "$tmp/deep.jsonl" <<'EOF'
import json, sys
first = json.loads(open(sys.argv[1]).readline())
deep = [
    "assert f('ab') == " + "- " * 30000 + "1\n",
    "assert f(" + "[" * 20000 + "]" * 20000 + ") == 1\n",
    "assert f('ab') == " + "(" * 20000 + "'abba'" + ")" * 20000 + "\n",
]
with open(sys.argv[2], "w") as out:
    for i, line in enumerate(deep):
        t = dict(first, id="deep/%d" % i)
        t["tests"] = {"kind": "assert", "code": "assert f('ab') == 'abba'\n" + line}
        out.write(json.dumps(t) + "\n")
EOF
"$gb" check -j 2 "$tmp/deep.jsonl" >"$tmp/check.out" 2>&1; rc=$?
check "check over deep literals in the tests: no crash (exit $rc)" '[ $rc -le 1 ] && grep -q "3 tasks" "$tmp/check.out"'
"$gb" compare "$tmp/deep.jsonl" "$tmp/deep.jsonl" -o "$tmp/compare.json" >"$tmp/compare.out" 2>&1; rc=$?
check "compare over deep literals in the tests: no crash (exit $rc)" '[ $rc -le 1 ]'
exit $fail
