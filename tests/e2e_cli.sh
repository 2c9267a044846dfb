#!/usr/bin/env bash
# The CLI contract: --version, --help, unknown commands and options exit 2 with usage.
set -u
gb=${GENEBENCH:?}
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
done
exit $fail
