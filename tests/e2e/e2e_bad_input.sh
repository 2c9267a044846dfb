#!/usr/bin/env bash
# Bad input: each kind of bad line gets exactly one clear message naming file, line and task
# id; the good tasks around it are still processed; the exit status is 1; the input file is
# never modified; the output is written atomically (whole or not at all, no temporary files).
set -u
gb=${GENEBENCH:?}
bench=${GB_SOURCE_ROOT:?}/examples/benchmark.jsonl
tmp=$(mktemp -d /tmp/gb_e2e_bad.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

good1=$(sed -n 1p "$bench")   # example/summarize
good2=$(sed -n 2p "$bench")   # example/top_words
tests='"tests":{"kind":"assert","code":"assert f(1) == 1\n"}'

# name | bad line (@FF@ stands for a raw 0xff byte) | expected message after "FILE:2: "
cases=(
  "malformed-json|{\"id\": \"bad/json\", \"source\": \"x = 1\\n\", |task bad/json: malformed JSON"
  "missing-field|{\"id\":\"bad/missing\",\"source\":\"def f(x):\\n    return x\\n\",\"entry_point\":\"f\"}|task bad/missing: missing field \"tests\""
  "wrong-type|{\"id\":\"bad/type\",\"source\":42,\"entry_point\":\"f\",$tests}|task bad/type: field \"source\" must be a string, got an integer"
  "non-utf8|{\"id\":\"bad/utf8\",\"source\":\"s = '@FF@'\\n\",\"entry_point\":\"f\",$tests}|task bad/utf8: invalid UTF-8: byte 0xff"
  "syntax-error|{\"id\":\"bad/syntax\",\"source\":\"def f(x:\\n    return x\\n\",\"entry_point\":\"f\",$tests}|task bad/syntax: Python syntax error in source (main.py) at line 1, column"
  "duplicate-id|$good1|task example/summarize: duplicate id (first on line 1)"
)
for entry in "${cases[@]}"; do
  IFS='|' read -r name bad want <<<"$entry"
  in="$tmp/$name.jsonl"
  { printf '%s\n' "$good1"; printf '%s\n' "$bad" | sed 's/@FF@/\xff/'; printf '%s\n' "$good2"; } >"$in"
  sum_before=$(sha256sum <"$in")
  out="$tmp/out-$name.jsonl"
  "$gb" validate "$in" -o "$out" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"; rc=$?
  check "$name: exit status 1" '[ $rc -eq 1 ]'
  check "$name: exactly one message" '[ "$(wc -l <"$tmp/$name.stderr")" -eq 1 ]'
  check "$name: it names file, line 2 and the task: $want" 'grep -qF "$in:2: $want" "$tmp/$name.stderr"'
  check "$name: the other two tasks are still processed" 'grep -q "2 tasks ok" "$tmp/$name.stdout" && [ "$(wc -l <"$out")" -eq 2 ]'
  check "$name: the output is valid" '"$gb" validate "$out" >/dev/null 2>&1'
  check "$name: input unchanged" '[ "$(sha256sum <"$in")" = "$sum_before" ]'
done
[ "$fail" -eq 0 ] || cat "$tmp"/*.stderr

# an empty file: one message, nothing written
: >"$tmp/empty.jsonl"
"$gb" validate "$tmp/empty.jsonl" -o "$tmp/out-empty.jsonl" >/dev/null 2>"$tmp/empty.stderr"; rc=$?
check "empty file: exit status 1" '[ $rc -eq 1 ]'
check "empty file: one message naming it" '[ "$(wc -l <"$tmp/empty.stderr")" -eq 1 ] && grep -qF "$tmp/empty.jsonl: empty file: no tasks" "$tmp/empty.stderr"'
check "empty file: no output written" '[ ! -e "$tmp/out-empty.jsonl" ]'

# a file that does not exist: one message; an existing output is left alone
echo "previous content" >"$tmp/out-missing.jsonl"
"$gb" validate "$tmp/no-such.jsonl" -o "$tmp/out-missing.jsonl" >/dev/null 2>"$tmp/missing.stderr"; rc=$?
check "nonexistent file: exit status 1" '[ $rc -eq 1 ]'
check "nonexistent file: one message naming it" '[ "$(wc -l <"$tmp/missing.stderr")" -eq 1 ] && grep -qF "$tmp/no-such.jsonl: cannot open: No such file" "$tmp/missing.stderr"'
check "nonexistent file: the existing output is untouched" '[ "$(cat "$tmp/out-missing.jsonl")" = "previous content" ]'

# every bad line in one file: each reported once, in order, and the good tasks all kept
all="$tmp/all.jsonl"
{
  printf '%s\n' "$good1"
  for entry in "${cases[@]}"; do IFS='|' read -r name bad want <<<"$entry"; printf '%s\n' "$bad" | sed 's/@FF@/\xff/'; done
  printf '%s\n' "$good2"
} >"$all"
"$gb" validate "$all" -o "$tmp/out-all.jsonl" >"$tmp/all.stdout" 2>"$tmp/all.stderr"; rc=$?
check "all bad lines together: exit 1, six messages" '[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/all.stderr")" -eq 6 ]'
check "all bad lines together: lines 2..7 reported in order" '[ "$(grep -o "^$all:[0-9]*" "$tmp/all.stderr" | sed "s|.*:||" | tr "\n" " ")" = "2 3 4 5 6 7 " ]'
check "all bad lines together: both good tasks written" '[ "$(wc -l <"$tmp/out-all.jsonl")" -eq 2 ]'

# the output replaces an older file whole, and no temporary file is left behind
echo "old" >"$tmp/replace.jsonl"
"$gb" validate "$bench" -o "$tmp/replace.jsonl" >/dev/null 2>&1
check "output replaced whole by the new benchmark" 'cmp -s "$tmp/replace.jsonl" "$bench"'
check "no temporary files left" '[ -z "$(find "$tmp" -name "*.tmp.*")" ]'

# the output may not be the input itself
cp "$bench" "$tmp/self.jsonl"
sum_self=$(sha256sum <"$tmp/self.jsonl")
"$gb" validate "$tmp/self.jsonl" -o "$tmp/self.jsonl" >/dev/null 2>"$tmp/self.stderr"; rc=$?
check "output = input: refused (exit 2), input unchanged" '[ $rc -eq 2 ] && grep -q "refusing to overwrite the input" "$tmp/self.stderr" && [ "$(sha256sum <"$tmp/self.jsonl")" = "$sum_self" ]'

# the importers report bad upstream records the same way
he="$tmp/he.jsonl"
{
  echo '{"task_id": "U/0", "prompt": "def f(x):\n", "entry_point": "f", "canonical_solution": "    return x\n", "test": "def check(c):\n    assert c(1) == 1\n"}'
  echo '{"task_id": "U/1", "prompt": "def f(x):\n", "entry_point": "f", "test": ""}'
  echo '{"task_id": "U/2", "prompt": "def f(x):\n", "entry_point": "f", "canonical_solution": "    return x +\n", "test": "def check(c):\n    pass\n"}'
} >"$he"
"$gb" import --from humaneval "$he" -o "$tmp/he-out.jsonl" 2>"$tmp/he.stderr"; rc=$?
check "import: exit 1 on bad records" '[ $rc -eq 1 ]'
check "import: missing field named with file, line and id" 'grep -qF "$he:2: task U/1: missing field \"canonical_solution\"" "$tmp/he.stderr"'
check "import: syntax error named with file, line and id" 'grep -qF "$he:3: task U/2: Python syntax error in source (main.py) at line 2" "$tmp/he.stderr"'
check "import: the good record is written" '[ "$(wc -l <"$tmp/he-out.jsonl")" -eq 1 ]'
"$gb" import --from classeval "$tmp/no-such.json" -o "$tmp/ce-out.jsonl" 2>/dev/null; rc=$?
check "import: nonexistent input exits 1 and writes nothing" '[ $rc -eq 1 ] && [ ! -e "$tmp/ce-out.jsonl" ]'
exit $fail
