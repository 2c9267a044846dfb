#!/usr/bin/env bash
# genebench check on small benchmarks written for this test (all three test kinds): passing
# programs pass, broken ones fail with the failing assertion / test / case named, a hang
# times out, --stderr-fails and --json work, a bad interpreter is reported, and nothing is
# left behind (processes or temporary files). Runs from / to show no source tree is needed.
set -u
gb=${GENEBENCH:?}
data=${GB_SOURCE_ROOT:?}/tests/data/runner
tmp=$(mktemp -d)
chmod 755 "$tmp" # as root, the runs' dedicated uid must reach the pool directory
export TMPDIR=$tmp/tmp
mkdir -p "$TMPDIR"
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
cd /

out=$("$gb" check "$data/good.jsonl" 2>&1); rc=$?
echo "$out"
check "good benchmark exits 0" '[ $rc -eq 0 ]'
check "good benchmark: 4 of 4 pass" 'grep -q "4 tasks, 4 passed, 0 failed" <<<"$out"'
check "unittest tests counted" 'grep -q "PASS    mini/counter (2 tests)" <<<"$out"'
check "stdio cases counted" 'grep -q "PASS    mini/sum (2 cases)" <<<"$out"'

out=$("$gb" check -j 1 "$data/broken.jsonl" 2>&1); rc=$?
echo "$out"
check "broken benchmark exits 1" '[ $rc -eq 1 ]'
check "failing assertion named" 'grep -q "FAIL    mini/add .*tests line 2: assert candidate(1, 2) == 3 -- AssertionError" <<<"$out"'
check "failing unittest named" 'grep -q "FAIL    mini/counter .*CounterTest.test_tick.*AssertionError: 2 != 1" <<<"$out"'
check "failing stdio case named" "grep -q \"FAIL    mini/sum .*case 0 -- WrongOutput: expected '9\\\\\\\\n', got '15\\\\\\\\n'\" <<<\"\$out\""
check "untouched task still passes" 'grep -q "PASS    mini/helpers" <<<"$out"'

out=$("$gb" check --json -j 1 "$data/broken.jsonl" 2>&1); rc=$?
echo "$out"
check "--json exits 1" '[ $rc -eq 1 ]'
check "--json has one object per task and a summary" '[ $(grep -c "^{\"id\":" <<<"$out") -eq 4 ] && grep -q "\"summary\":{.*\"tasks\":4,\"passed\":1,\"failed\":3" <<<"$out"'
check "--json names the failing test" 'grep -q "\"id\":\"mini/counter\".*\"failed_tests\":\[\"CounterTest.test_tick\"\]" <<<"$out"'

# A program that prints bytes that are not UTF-8: --json stays valid UTF-8 (each such byte is
# U+FFFD) and every line is JSON.
printf '%s\n' '{"id": "mini/bytes", "source": "import sys\n\ndef f():\n    sys.stdout.buffer.write(b\"\\xff\\xfe ok \\xc3\\n\")\n    sys.stdout.flush()\n    return 1\n", "entry_point": "f", "tests": {"kind": "assert", "code": "assert f() == 2\n"}}' >"$tmp/bytes.jsonl"
"$gb" check --json -j 1 "$tmp/bytes.jsonl" >"$tmp/bytes.out" 2>/dev/null; rc=$?
cat "$tmp/bytes.out"
check "--json on non-UTF-8 output exits 1 (the test fails)" '[ $rc -eq 1 ]'
check "--json on non-UTF-8 output is valid UTF-8 JSON, bytes as U+FFFD" \
  '/usr/bin/python3 -c "import json,sys; ls=[json.loads(l) for l in open(sys.argv[1], encoding=\"utf-8\", errors=\"strict\")]; assert ls[0][\"stdout\"] == \"\\ufffd\\ufffd ok \\ufffd\\n\", ls[0]; assert ls[1][\"summary\"][\"tasks\"] == 1" "$tmp/bytes.out"'

# A gzip benchmark is read as such (detected by content, whatever its name).
gzip -c "$data/good.jsonl" >"$tmp/good.jsonl.gz"
out=$("$gb" check -j 1 "$tmp/good.jsonl.gz" 2>&1); rc=$?
check "check reads a .jsonl.gz benchmark" '[ $rc -eq 0 ] && grep -q "4 tasks, 4 passed, 0 failed" <<<"$out"'

out=$("$gb" check -j 1 --timeout 1 --stderr-fails "$data/hang.jsonl" 2>&1); rc=$?
echo "$out"
check "hang times out" 'grep -q "TIMEOUT mini/hang .*wall-clock limit of 1 s exceeded" <<<"$out"'
check "--stderr-fails fails on stderr output" 'grep -q "FAIL    mini/noisy .*StderrOutput" <<<"$out"'
check "timeouts exit 1" '[ $rc -eq 1 ]'

printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >"$tmp/bare-python"
chmod +x "$tmp/bare-python"
# check starts only the import sets its tasks need: standard-library tasks pass without numpy
out=$("$gb" check --python "$tmp/bare-python" "$data/good.jsonl" 2>&1); rc=$?
echo "$out"
check "standard-library tasks need no numpy" '[ $rc -eq 0 ] && grep -q "4 tasks, 4 passed" <<<"$out"'
printf '%s\n' '{"id": "mini/np", "source": "import numpy\n\ndef total(a):\n    return int(numpy.sum(a))\n", "entry_point": "total", "tests": {"kind": "assert", "code": "assert total([1, 2]) == 3\n"}}' >"$tmp/np.jsonl"
out=$("$gb" check --python "$tmp/bare-python" "$tmp/np.jsonl" 2>&1); rc=$?
echo "$out"
check "missing module names module and interpreter" 'grep -q "$tmp/bare-python cannot import module .numpy." <<<"$out"'
check "missing module exits 1" '[ $rc -eq 1 ]'
out=$("$gb" check --python relative/python3 "$data/good.jsonl" 2>&1); rc=$?
check "relative interpreter refused" '[ $rc -eq 1 ] && grep -q "absolute path" <<<"$out"'
"$gb" check --sandbox nope "$data/good.jsonl" >/dev/null 2>&1; rc=$?
check "bad --sandbox is a usage error" '[ $rc -eq 2 ]'
"$gb" check "$tmp/missing.jsonl" >/dev/null 2>&1; rc=$?
check "missing benchmark exits 1" '[ $rc -eq 1 ]'

# genebench killed with SIGKILL in the middle of a run: its workers notice and exit (with the
# run), and the next pool removes the directory the dead one could not.
"$gb" check -j 1 --timeout 60 "$data/hang.jsonl" >/dev/null 2>&1 &
pid=$!
# a run directory exists: on the host, or in a namespaced worker's runs tmpfs
run_started() {
  for d in "$TMPDIR"/genebench-pool-$pid-*/runs /proc/[0-9]*/root"$TMPDIR"/genebench-pool-$pid-*/runs; do
    [ -n "$(ls -A "$d" 2>/dev/null)" ] && return 0
  done
  return 1
}
for _ in $(seq 1 600); do
  run_started && break
  sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null
for _ in $(seq 1 100); do pgrep -f "$TMPDIR/genebench-pool" >/dev/null || break; sleep 0.1; done
check "workers of a killed genebench exit" '! pgrep -f "$TMPDIR/genebench-pool" >/dev/null'
check "a killed genebench leaves its pool directory" '[ -n "$(ls -d "$TMPDIR"/genebench-pool-$pid-* 2>/dev/null)" ]'
"$gb" check -j 1 "$data/good.jsonl" >/dev/null 2>&1
check "the next pool removes it" '[ -z "$(ls -d "$TMPDIR"/genebench-pool-$pid-* 2>/dev/null)" ]'

out=$("$gb" check -j 1 "$data/signals.jsonl" 2>&1); rc=$?
check "runs start with no signal blocked (the CLI's Ctrl-C thread blocks them in its own threads)" '[ $rc -eq 0 ]'

check "no temporary files left" '[ -z "$(ls -A "$TMPDIR")" ]'
check "no process left" '! pgrep -f "$TMPDIR/genebench-pool" >/dev/null'
rm -rf "$tmp"
exit $fail
