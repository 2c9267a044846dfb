#!/usr/bin/env bash
# What a test run can trust (src/runner/README.md): wrong programs that attack the harness (forged result
# records, replaced exec/compile, patched harness or unittest, trace hooks, reading the
# benchmark) all FAIL, and honest programs that do unusual things still PASS, in every
# sandbox mode this machine allows. tests/data/trust/make_tasks.py writes the benchmarks.
set -u
gb=${GENEBENCH:?}
data=${GB_SOURCE_ROOT:?}/tests/data/trust
tmp=$(mktemp -d)
chmod 755 "$tmp" # as root, the runs' dedicated uid must reach the pool directory
export TMPDIR=$tmp/tmp
mkdir -p "$TMPDIR"
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
cd /

nhostile=$(wc -l <"$data/hostile.jsonl")
nlegit=$(wc -l <"$data/legit.jsonl")
nsandbox=$(wc -l <"$data/sandbox.jsonl")
for mode in namespaces userns plain; do
    out=$("$gb" check -j 2 --sandbox "$mode" "$data/legit.jsonl" 2>&1); rc=$?
    if grep -q "cannot start a worker\|worker set-up failed\|cannot map ids" <<<"$out"; then
        echo "skip: sandbox $mode is not available here"
        continue
    fi
    echo "$out"
    check "$mode: every honest program passes" "[ $rc -eq 0 ] && grep -q '$nlegit tasks, $nlegit passed, 0 failed' <<<\"\$out\""
    out=$("$gb" check -j 2 --judge apart --sandbox "$mode" "$data/hostile.jsonl" 2>&1); rc=$?
    echo "$out"
    check "$mode: hostile benchmark exits 1" '[ $rc -eq 1 ]'
    # Plain mode has no mount or pid namespace: the benchmark file and /proc stay visible
    # (src/runner/README.md: the fallback), so a stdio program can still find its expected output there.
    passed=$(grep '^PASS' <<<"$out" | grep -v 'hostile/stdio_reads_benchmark' || true)
    check "$mode: no hostile program passes${passed:+ ($passed)}" '[ -z "$passed" ]'
    if [ "$mode" != plain ]; then
        check "$mode: the benchmark file and host /proc are out of reach" \
            '! grep -q "^PASS    hostile/stdio_reads_benchmark" <<<"$out"'
    fi
    # The program runs apart from its tests (src/runner/harness_judge.py): the result pipe it
    # looks for is not in its process, so the wrong answer fails as wrong.
    check "$mode: forged records reach nothing" \
        'grep -q "FAIL    hostile/stack_result_fd_exit1 .*Bad file descriptor" <<<"$out"'
    check "$mode: exec replaced" 'grep -q "FAIL    hostile/replace_exec .*Tampering: the program replaced builtins.exec" <<<"$out"'
    check "$mode: compile replaced" 'grep -q "FAIL    hostile/replace_compile .*Tampering: the program replaced builtins.compile" <<<"$out"'
    check "$mode: trace hook" 'grep -q "FAIL    hostile/trace_swaps_candidate .*Tampering: the program left a trace" <<<"$out"'
    check "$mode: assertEqual patched" 'grep -q "FAIL    hostile/patch_assertEqual .*Tampering: the program replaced unittest" <<<"$out"'
    check "$mode: fake unittest module" 'grep -q "FAIL    hostile/fake_unittest_module .*Tampering: the program replaced the module unittest" <<<"$out"'
    check "$mode: a skipped test is not a pass" 'grep -q "FAIL    hostile/skip_test .*SkipTest" <<<"$out"'
    # judged apart, the patch never reaches the judge's unittest and the wrong answer fails its
    # assertion; under the seal (tests in the program's process) it is caught as tampering
    check "$mode: a patch put back in sys.stdout.flush() is caught" \
        'grep -qE "FAIL    hostile/flush_restores_patch .*(Tampering: the program replaced unittest|AssertionError)" <<<"$out"'
    check "$mode: output beyond what is kept fails" 'grep -q "FAIL    hostile/stdio_trailing_garbage .*WrongOutput" <<<"$out"'
    check "$mode: a NUL byte in the output fails" 'grep -q "FAIL    hostile/stdio_nul_garbage .*WrongOutput" <<<"$out"'
    check "$mode: all $nhostile hostile tasks ran" "grep -q '$nhostile tasks' <<<\"\$out\""

    # The sandbox probes: private /dev/shm and /proc, hidden files, no user namespaces, no
    # ptrace. Plain mode keeps only the last (its seccomp filter).
    rm -f /dev/shm/genebench-trust-leak 2>/dev/null
    out=$("$gb" check -j 2 --sandbox "$mode" "$data/sandbox.jsonl" 2>&1); rc=$?
    echo "$out"
    check "$mode: no user namespace, no ptrace of the worker" 'grep -q "^PASS    sandbox/no_user_namespace_no_ptrace" <<<"$out"'
    check "$mode: no io_uring, netlink socket or memfd" 'grep -q "^PASS    sandbox/no_io_uring_netlink_memfd" <<<"$out"'
    check "$mode: a 20,000-deep run directory takes nothing down" 'grep -q "^PASS    sandbox/deep_tree" <<<"$out"'
    check "$mode: and it is removed (nothing left in TMPDIR)" '[ -z "$(ls -A "$TMPDIR")" ]'
    if [ "$mode" != plain ]; then
        check "$mode: every sandbox probe passes" '[ $rc -eq 0 ] && grep -q "$nsandbox tasks, $nsandbox passed" <<<"$out"'
        check "$mode: nothing reached the host's /dev/shm" '[ ! -e /dev/shm/genebench-trust-leak ]'
    fi
    rm -f /dev/shm/genebench-trust-leak 2>/dev/null
done

rm -rf "$tmp"
exit $fail
