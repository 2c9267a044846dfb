#!/usr/bin/env bash
# genebench metrics and genebench calibrate end to end, on programs written for this test:
# JSON lines and table output, a task with a syntax error, thresholds options, the calibration
# of a small package (test files skipped, a syntax error reported, thread-count independence),
# and the refusal to write a calibration from zero files.
set -u
gb=${GENEBENCH:?}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

# --- metrics -------------------------------------------------------------------------------
$py - "$tmp/bench.jsonl" <<'EOF'
import json, sys
tasks = [
    {"id": "loop", "source": "def f(xs):\n    total = 0\n    for x in xs:\n        if x > 0:\n            total += x\n    return total\n",
     "tests": {"kind": "assert", "code": "assert f([1, -2, 3]) == 4\n"}},
    {"id": "mods", "source": "from helper import g\n\ndef f(x):\n    return g(x) + 1\n",
     "tests": {"kind": "assert", "code": "assert f(1) == 3\n"},
     "extra_files": {"helper.py": "def g(x):\n    return x + 1\n"}},
    {"id": "broken", "source": "def f(x):\n    return x\n",
     "tests": {"kind": "assert", "code": "assert f(1) == 1\n"},
     "extra_files": {"helper.py": "def g(:\n    pass\n"}},
]
with open(sys.argv[1], "w") as f:
    for t in tasks:
        f.write(json.dumps(t) + "\n")
EOF
"$gb" metrics "$tmp/bench.jsonl" --thresholds paper > "$tmp/out.jsonl" 2> "$tmp/err.txt"
rc=$?
check "a task that does not parse makes the exit status 1" '[ $rc -eq 1 ]'
check "the bad task is named with file, line, module and position" \
  'grep -q "bench.jsonl:3: task broken: .*helper.py.*line 1" "$tmp/err.txt"'
check "two task lines and one summary line" '[ $(wc -l < "$tmp/out.jsonl") -eq 3 ]'
check "metrics and summary are valid JSON with the expected values" "$py - \"$tmp/out.jsonl\" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
loop, mods, summary = rows[0], rows[1], rows[2]['summary']
m = loop['metrics']
assert loop['id'] == 'loop' and len(m) == 21, m
# for + if: C1 3; C2 'x > 0'; C3 for(0) + if(1); 2 assignments; 1 loop; variables total, x
assert (m['C1'], m['C2'], m['C3'], m['num_assignments'], m['num_loops'], m['num_of_variables']) == (3, 1, 1, 2, 1, 2), m
assert mods['metrics']['C6'] == 1 and mods['metrics']['C7'] == 0, mods
assert summary['tasks'] == 2 and summary['measured'] == 2 and summary['thresholds'] == 'builtin:paper', summary
for k in m:
    assert abs(summary['mean'][k] - (m[k] + mods['metrics'][k]) / 2) < 1e-3, k
assert abs(summary['mean']['rc'] - (loop['rc'] + mods['rc']) / 2) < 1e-3
assert 0 <= loop['rr'] <= 1 and loop['exceeds'] is None
EOF"
"$gb" metrics "$tmp/bench.jsonl" --table -t paper > "$tmp/table.txt" 2>/dev/null
check "--table prints a row per task, a mean row and the key legend" \
  'grep -q "^loop " "$tmp/table.txt" && grep -q "^mean " "$tmp/table.txt" && grep -q "tok=num_tokens" "$tmp/table.txt"'
"$gb" metrics "$tmp/bench.jsonl" > "$tmp/default.jsonl" 2>/dev/null
check "the default thresholds are the built-in calibrated ones" \
  'tail -1 "$tmp/default.jsonl" | grep -q "\"thresholds\": \"builtin:calibrated\""'
"$gb" metrics "$tmp/bench.jsonl" -t "$tmp/none.json" > /dev/null 2> "$tmp/err2.txt"
rc=$?
check "a missing thresholds file is an error naming it" '[ $rc -eq 1 ] && grep -q "none.json" "$tmp/err2.txt"'

# --- calibrate -----------------------------------------------------------------------------
mkdir -p "$tmp/corpus/pkg/tests" "$tmp/corpus/pkg/sub"
printf 'from .sub import mod\n\ndef top(x):\n    return mod.helper(x)\n' > "$tmp/corpus/pkg/__init__.py"
printf 'def helper(x):\n    if x:\n        return 1\n    return 0\n' > "$tmp/corpus/pkg/sub/mod.py"
printf '' > "$tmp/corpus/pkg/sub/__init__.py"
printf 'def test_a():\n    assert True\n' > "$tmp/corpus/pkg/tests/test_a.py"
printf 'x = 1\n' > "$tmp/corpus/pkg/tests/helpers.py"
printf 'def test_b():\n    pass\n' > "$tmp/corpus/pkg/test_b.py"
printf 'def c():\n    pass\n' > "$tmp/corpus/pkg/c_test.py"
printf 'import pytest\n' > "$tmp/corpus/pkg/conftest.py"
printf 'def broken(:\n    pass\n' > "$tmp/corpus/pkg/broken.py"
mkdir -p "$tmp/j1" "$tmp/j2"
(cd "$tmp/j1" && "$gb" calibrate ../corpus -o cal.json -j 1 --per-file per.jsonl > ../cal.out 2> ../cal.err)
rc=$?
check "calibrate succeeds" '[ $rc -eq 0 ]'
check "the broken file is reported with its position and skipped" 'grep -q "broken.py:1:[0-9]*: syntax error" "$tmp/cal.err"'
check "three files measured, five test files skipped" 'grep -q "3 files measured, 5 test files skipped, 1 not parsed" "$tmp/cal.out"'
(cd "$tmp/j2" && "$gb" calibrate ../corpus -o cal.json -j 2 > /dev/null 2>&1)
check "the result does not depend on the thread count" 'cmp -s "$tmp/j1/cal.json" "$tmp/j2/cal.json"'
check "the thresholds file has the manifest and the rounding rule" "$py - \"$tmp/j1/cal.json\" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
man = d['manifest']
assert d['schema'] == 'genebench-thresholds/1' and man['files'] == 3 and man['tests_skipped'] == 5, man
assert len(man['parse_failures']) == 1 and 'broken.py' in man['parse_failures'][0]
assert man['files_digest'].startswith('fnv1a64:') and 'calibrate' in man['command']
for k, v in d['readability'].items():
    assert v == math.ceil(d['means'][k]), k
for k, v in d['complexity'].items():
    assert abs(v - d['means'][k]) < 1e-9, k
# C1: top 1 + helper 2 = 3 over 3 files (the empty __init__ of sub has no code)
assert abs(d['means']['C1'] - 1.0) < 1e-3, d['means']
# C6: mod.helper() goes through a relative import
assert abs(d['means']['C6'] - 1 / 3) < 1e-3, d['means']
EOF"
check "the written file is usable as thresholds" '"$gb" metrics "$tmp/bench.jsonl" -t "$tmp/j1/cal.json" > /dev/null 2>&1; [ $? -eq 1 ]'
(cd "$tmp/j2" && "$gb" calibrate ../corpus -o ex.json --exclude 'corpus/pkg/sub/*' > ../ex.out 2>/dev/null)
check "--exclude leaves files out and says so" 'grep -q "1 files measured, 5 test files skipped, 1 not parsed, 2 excluded by pattern" "$tmp/ex.out"'
mkdir -p "$tmp/onlytests/tests"
printf 'def test_x():\n    pass\n' > "$tmp/onlytests/tests/test_x.py"
"$gb" calibrate "$tmp/onlytests" -o "$tmp/none.json" > /dev/null 2> "$tmp/none.err"
rc=$?
check "zero measured files: refused, nothing written" '[ $rc -eq 1 ] && [ ! -e "$tmp/none.json" ] && grep -q "no file could be measured" "$tmp/none.err"'
"$gb" calibrate "$tmp/no-such-dir" -o "$tmp/x.json" > /dev/null 2>&1
rc=$?
check "a missing directory is an error" '[ $rc -eq 1 ] && [ ! -e "$tmp/x.json" ]'
exit $fail
