#!/usr/bin/env bash
# The CLI contract: --version, --help, unknown commands and options exit 2 with usage; every
# command's --help documents its exit codes; bad numbers (nan, inf) are refused; no command
# writes its output over one of its inputs (also through a symbolic or hard link); two evolve
# runs on one output do not both go ahead.
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
check "--version prints a version" '"$gb" --version | grep -q "^genebench [0-9]"'
check "--help lists commands" '"$gb" --help | grep -q "commands:"'
"$gb" no-such-command >/dev/null 2>&1; rc=$?
check "unknown command exits 2" '[ $rc -eq 2 ]'
"$gb" >/dev/null 2>&1; rc=$?
check "no command exits 2" '[ $rc -eq 2 ]'
for cmd in $("$gb" --help | awk '/^commands:/{f=1;next} f&&NF{print $1}'); do
  check "$cmd --help exits 0" '"$gb" $cmd --help >/dev/null'
  "$gb" $cmd --no-such-option >/dev/null 2>&1; rc=$?
  check "$cmd with unknown option exits 2" '[ $rc -eq 2 ]'
  check "$cmd --help documents exit codes 0 and 2" \
    '"$gb" $cmd --help | awk "/^exit status:/{f=1} f&&/^  0 /{z=1} f&&/^  2 /{u=1} END{exit !(z&&u)}"'
done

# Numbers: nan and inf pass every range comparison, so they must be refused by name.
head -n 3 "$root/examples/benchmark.jsonl" > "$tmp/bench.jsonl"
for v in nan inf -inf 1e999; do
  "$gb" evolve "$tmp/bench.jsonl" -o "$tmp/nan.jsonl" --breed "$v" > /dev/null 2> "$tmp/err"; rc=$?
  check "evolve --breed $v exits 2, names the option, writes nothing" \
    '[ $rc -eq 2 ] && grep -q -- "--breed expects a number" "$tmp/err" && [ ! -e "$tmp/nan.jsonl" ]'
done
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/nan.jsonl" --timeout nan > /dev/null 2>&1; rc=$?
check "evolve --timeout nan exits 2" '[ $rc -eq 2 ]'
"$gb" check "$tmp/bench.jsonl" --timeout inf > /dev/null 2>&1; rc=$?
check "check --timeout inf exits 2" '[ $rc -eq 2 ]'

# -o IN: refused with exit 2 and a message, the input unchanged -- also through links.
cp "$tmp/bench.jsonl" "$tmp/other.jsonl"
ln -s "$tmp/bench.jsonl" "$tmp/sym.jsonl"
ln "$tmp/bench.jsonl" "$tmp/hard.jsonl"
sum=$(sha256sum < "$tmp/bench.jsonl")
refused() { # name, then the command
  local name=$1; shift
  "$@" > /dev/null 2> "$tmp/err"; local rc=$?
  check "$name: refused with exit 2, input unchanged" \
    '[ $rc -eq 2 ] && grep -q "refusing to overwrite the input" "$tmp/err" && [ "$(sha256sum < "$tmp/bench.jsonl")" = "$sum" ]'
}
for out in bench sym hard; do
  refused "transform -o $out" "$gb" transform "$tmp/bench.jsonl" --op S1 --no-tests -o "$tmp/$out.jsonl"
  refused "similarity -o $out" "$gb" similarity "$tmp/other.jsonl" "$tmp/bench.jsonl" -o "$tmp/$out.jsonl"
  refused "nnmr -o $out" "$gb" nnmr "$tmp/bench.jsonl" "$tmp/other.jsonl" -o "$tmp/$out.jsonl"
done
refused "evolve -o IN" "$gb" evolve "$tmp/bench.jsonl" -o "$tmp/sym.jsonl"
refused "validate -o IN" "$gb" validate "$tmp/bench.jsonl" -o "$tmp/hard.jsonl"
refused "merge -o IN" "$gb" merge -o "$tmp/bench.jsonl" "$tmp/other.jsonl" "$tmp/hard.jsonl"
refused "inject-bugs -o IN" "$gb" inject-bugs "$tmp/other.jsonl" "$tmp/bench.jsonl" -o "$tmp/sym.jsonl"
"$gb" similarity "$tmp/other.jsonl" "$tmp/bench.jsonl" -o "$tmp/sim.txt" > /dev/null 2>&1; rc=$?
check "similarity -o a new file still works" '[ $rc -eq 0 ] && [ -s "$tmp/sim.txt" ]'

# Two evolve runs on one output: the second refuses at once, naming the output; the first
# finishes with every task (before, the second moved the first one's journal aside).
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/ev.jsonl" --generations 2 --no-lint -q -j 1 --thresholds builtin:paper \
  2> "$tmp/first.err" &
first=$!
for _ in $(seq 100); do [ -e "$tmp/ev.jsonl.lock" ] && break; sleep 0.1; done
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/ev.jsonl" --generations 2 --no-lint -q -j 1 --thresholds builtin:paper \
  2> "$tmp/second.err"; rc2=$?
wait $first; rc1=$?
check "a second evolve on the same -o exits 1 and names the output" \
  '[ $rc2 -eq 1 ] && grep -q "another run .* is writing $tmp/ev.jsonl" "$tmp/second.err"'
check "the first evolve finishes with every task" \
  '[ $rc1 -eq 0 ] && [ "$(wc -l < "$tmp/ev.jsonl")" -eq 3 ] && ! ls "$tmp"/ev.jsonl.bak-* > /dev/null 2>&1'
check "the lock file is gone after the run" '[ ! -e "$tmp/ev.jsonl.lock" ]'
exit $fail
