#!/usr/bin/env bash
# Natural names from the CLI: `genebench transform --op RenameVariable` without an endpoint
# (--names: built-in vocabulary) and against tests/fakes/model_server.py started here on 127.0.0.1
# (--llm-url), then with the server failing (HTTP 500) and with nothing listening. Every run
# must produce a valid benchmark whose programs pass their tests (transform runs them on every
# program it keeps; the first two outputs are checked again with `genebench check`).
# Fixture: tests/data/naming_bench.jsonl (written for genebench: assert, unittest, stdio).
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
bench=$root/tests/data/naming_bench.jsonl
work=$(mktemp -d)
server=0
cleanup() {
  if [ "$server" -gt 0 ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
valid_and_passing() { # $1: benchmark
  "$gb" validate "$1" >/dev/null 2>&1 && "$gb" check "$1" --jobs 2 >"$1.check" 2>&1
}

# 1. Without an endpoint: built-in names.
"$gb" transform "$bench" --op RenameVariable --names --seed 3 --jobs 2 -o "$work/builtin.jsonl" >"$work/builtin.log" 2>&1
rc=$?
check "built-in: exit 0, every renamed program passes" \
  '[ $rc -eq 0 ] && grep -q "^RenameVariable (N1): 3 tasks, 3 with sites, [0-9]* sites; applied 3, rejected 0; tests passing 3, failing 0$" "$work/builtin.log"'
check "built-in: the output is a valid benchmark that passes its tests" 'valid_and_passing "$work/builtin.jsonl"'
check "built-in: programs were renamed" '! cmp -s "$bench" "$work/builtin.jsonl"'
check "built-in: no numbered synthetic names" '! grep -Eq "[a-z]_[0-9]+\b" "$work/builtin.jsonl"'

# 2. Against a local OpenAI-compatible server.
/usr/bin/python3 "$root/tests/fakes/model_server.py" --port-file "$work/port" --mode names &
server=$!
for _ in $(seq 1 500); do [ -s "$work/port" ] && break; sleep 0.02; done
port=$(cat "$work/port")
url=http://127.0.0.1:$port
GENEBENCH_API_KEY=sk-e2e "$gb" transform "$bench" --op RenameVariable --llm-url "$url" --llm-model e2e-model \
  --seed 3 --jobs 2 -o "$work/llm.jsonl" >"$work/llm.log" 2>&1
rc=$?
check "llm: exit 0, every renamed program passes" \
  '[ $rc -eq 0 ] && grep -q "tests passing 3, failing 0$" "$work/llm.log"'
check "llm: names came from the model" 'grep -q "names (llm): {\"[a-z_]*\":\"chosen_" "$work/llm.log" && grep -q "chosen_" "$work/llm.jsonl"'
check "llm: the output is a valid benchmark that passes its tests" 'valid_and_passing "$work/llm.jsonl"'
stats=$(curl -s "$url/stats")
check "llm: the server saw the requests, model and key" \
  'echo "$stats" | grep -q "\"chat\": 3" && echo "$stats" | grep -q "\"last_model\": \"e2e-model\"" && echo "$stats" | grep -q "\"last_auth\": \"Bearer sk-e2e\""'

# 3. The server fails every request: built-in names, programs kept.
curl -s -X POST -d '{"mode": "fail_then_ok", "count": 1000}' "$url/control" >/dev/null
"$gb" transform "$bench" --op RenameVariable --llm-url "$url" --seed 3 --jobs 2 -o "$work/500.jsonl" >"$work/500.log" 2>&1
rc=$?
check "HTTP 500: exit 0, built-in names used" \
  '[ $rc -eq 0 ] && grep -q "naming endpoint: .*500.*(built-in names used)" "$work/500.log" && grep -q "tests passing 3, failing 0$" "$work/500.log"'
check "HTTP 500: the output is a valid benchmark" '"$gb" validate "$work/500.jsonl" >/dev/null 2>&1'

# 4. Nothing listening.
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
server=0
"$gb" transform "$bench" --op RenameVariable --llm-url "$url" --seed 3 --jobs 2 -o "$work/refused.jsonl" \
  >"$work/refused.log" 2>&1
rc=$?
check "connection refused: exit 0, built-in names used" \
  '[ $rc -eq 0 ] && grep -q "cannot connect" "$work/refused.log" && grep -q "tests passing 3, failing 0$" "$work/refused.log"'
check "connection refused: the output is a valid benchmark" '"$gb" validate "$work/refused.jsonl" >/dev/null 2>&1'
exit $fail
