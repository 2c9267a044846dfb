#!/usr/bin/env bash
# `compare` probes the second benchmark's programs the way the judge runs tests (src/runner/README.md,
# "What a test run can trust"): tests/data/equiv_probe/recognise.jsonl holds programs that pass the
# original tests and behave as the original only when they recognise a probe (the per-call timer, the
# SIGALRM handler, a StringIO stdout, the caller's code, a harness file name on the stack, the
# locals of the frames that call it, the stdin file of a stdio probe). Each must disagree, and the
# originals must agree with themselves.
set -u
. "${GB_SOURCE_ROOT:?}/tests/e2e/equiv_env.sh" equiv_probe
n=$(wc -l <"$data/orig.jsonl")

out=$("$gb" check -j 2 "$data/recognise.jsonl" 2>&1); rc=$?
check "every recognising program passes the original tests" "[ $rc -eq 0 ] && grep -q '$n tasks, $n passed' <<<\"\$out\""
out=$("$gb" compare "$data/orig.jsonl" "$data/recognise.jsonl" -j 2 2>&1); rc=$?
echo "$out"
check "compare: exit 1, all $n disagree" "[ $rc -eq 1 ] && grep -q '$n with inputs.*0 agree, $n disagree' <<<\"\$out\""
for name in timer alarm_handler stringio caller_frame file_name caller_locals stdin_file; do
    check "probe/$name disagrees" "grep -q '^DISAGREE probe/$name:' <<<\"\$out\""
done
out=$("$gb" compare "$data/orig.jsonl" "$data/orig.jsonl" -j 2 2>&1); rc=$?
check "the originals agree with themselves (exit 0)" "[ $rc -eq 0 ] && grep -q '$n agree, 0 disagree' <<<\"\$out\""
exit $fail
