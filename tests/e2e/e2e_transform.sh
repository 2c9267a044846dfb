#!/usr/bin/env bash
# genebench transform: listing sites, applying at a random or chosen site with a diff,
# the --all-sites robustness run (every site applied and tested), output files, skipped
# originals, usage errors. Fixture: tests/data/transform_bench.jsonl (written for genebench).
set -u
gb=${GENEBENCH:?}
bench=${GB_SOURCE_ROOT:?}/tests/data/transform_bench.jsonl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }

"$gb" transform "$bench" --op S12 --list-sites >"$work/list" 2>&1; rc=$?
check "--list-sites exits 0" '[ $rc -eq 0 ]'
check "--list-sites lists keys with positions" 'grep -q "^  0 main.py@o[0-9]*:assignment main.py:[0-9]*:[0-9]*  total = 0" "$work/list"'
check "--list-sites summary" 'grep -q "^TransformPrimToCompound (S12): 4 tasks, 3 with sites, 5 sites$" "$work/list"'

"$gb" transform "$bench" --jobs 1 --op add_nested_for --seed 3 -o "$work/out.jsonl" >"$work/one" 2>&1; rc=$?
check "one site per task exits 0" '[ $rc -eq 0 ]'
check "one site per task: summary" 'grep -q "^AddNestedFor (S1): 4 tasks, 4 with sites, [0-9]* sites; applied 4, rejected 0; tests passing 4, failing 0$" "$work/one"'
check "a unified diff is printed" 'grep -q "^+++ b/main.py$" "$work/one" && grep -q "^@@ -[0-9]*,[0-9]* +[0-9]*,[0-9]* @@$" "$work/one" && grep -q "^+ *for _[a-z_]* in " "$work/one"'
check "output benchmark has every task" '[ "$(wc -l <"$work/out.jsonl")" -eq 4 ]'
"$gb" validate "$work/out.jsonl" >/dev/null 2>&1; rc=$?
check "output benchmark is valid" '[ $rc -eq 0 ]'
"$gb" transform "$bench" --jobs 1 --op S1 --seed 3 >"$work/again" 2>&1
check "same seed, same result" 'cmp -s "$work/one" "$work/again"'

"$gb" transform "$bench" --jobs 1 --op S5 --site 1 --task t/stdio >"$work/site" 2>&1; rc=$?
check "--site K applies at site K" '[ $rc -eq 0 ] && grep -q "^t/stdio: site 1/" "$work/site" && grep -q "^+ *try:$" "$work/site"'

# (every operator is also run at every site by the unit tests and the robustness runs; three
# here keep this test fast)
for op in S3 S5 S10; do
  "$gb" transform "$bench" --jobs 1 --op $op --all-sites --no-diff >"$work/all_$op" 2>&1; rc=$?
  check "--all-sites $op: every applied transformation passes" \
    '[ $rc -eq 0 ] && grep -Eq "applied ([0-9]+), rejected 0; tests passing \1, failing 0$" "$work/all_$op"'
done
check "--all-sites reports per task" 'grep -q "^t/assert: sites [0-9]*, applied [0-9]*, passing [0-9]*$" "$work/all_S3"'

"$gb" transform "$bench" --op S12 --all-sites --no-tests -o "$work/variants.jsonl" >/dev/null 2>&1; rc=$?
check "--all-sites -o writes every variant" '[ $rc -eq 0 ] && [ "$(wc -l <"$work/variants.jsonl")" -eq 5 ] && grep -q "\"id\":\"t/assert#1\"" "$work/variants.jsonl"'

printf '%s\n' '{"id": "t/broken", "source": "def f():\n    x = 1\n    return x\n", "entry_point": "f", "tests": {"kind": "assert", "code": "assert f() == 2\n"}, "extra_files": {}, "meta": {}}' >"$work/broken.jsonl"
"$gb" transform "$work/broken.jsonl" --jobs 1 --op S1 >"$work/broken" 2>&1; rc=$?
check "an original failing its tests is skipped, exit 1" '[ $rc -eq 1 ] && grep -q "^t/broken: skipped: the original fails its tests" "$work/broken"'

"$gb" transform "$bench" --op NoSuchOp >/dev/null 2>&1; rc=$?
check "unknown operator exits 2" '[ $rc -eq 2 ]'
"$gb" transform "$bench" >/dev/null 2>&1; rc=$?
check "missing --op exits 2" '[ $rc -eq 2 ]'
"$gb" transform "$bench" --op S1 --site 0 --all-sites >/dev/null 2>&1; rc=$?
check "--site with --all-sites exits 2" '[ $rc -eq 2 ]'
exit $fail
