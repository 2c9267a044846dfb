#!/usr/bin/env bash
# The judge (src/runner/harness_judge.py): a split run's tests run in a process the program cannot
# reach. tests/data/judge/make_tasks.py writes the benchmarks: wrong answers in the HumanEval,
# CRUXEval and ClassEval formats, each attacking tests that would run in its own process (forged
# record with the token from the harness's frames, the seal's lists cleared, frame locals changed
# through ctypes, always-true __eq__, a lookup table from the tests' source, a shadowed builtin, a
# patched unittest, SkipTest, an early exit, killing the judge) all FAIL, and right answers that
# print, hand objects back, raise the expected exceptions and change their arguments PASS, in
# every sandbox mode this machine allows.
set -u
gb=${GENEBENCH:?}
data=${GB_SOURCE_ROOT:?}/tests/data/judge
tmp=$(mktemp -d)
chmod 755 "$tmp" # as root, the runs' dedicated uid must reach the pool directory
export TMPDIR=$tmp/tmp
mkdir -p "$TMPDIR"
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
cd /

# The codec itself: exact types only, handles for the rest, malformed messages refused.
codec=$(/usr/bin/python3 - "$GB_SOURCE_ROOT/src/runner" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from harness_codec import Broken, decode, encode
handles = []
def handle_of(v):
    handles.append(v)
    return len(handles), "o", type(v).__name__
def rebuild(i, k, n):
    return ("handle", i, n)
class S(str):
    def __eq__(self, o):
        return True
    __hash__ = str.__hash__
plain = [None, True, 3, -2 ** 200, 2.5, 1j, "é\ud800", b"\0", [1, (2, {3: frozenset({4})})], {"a": {5}}]
assert decode(encode(plain, handle_of), rebuild) == plain and not handles
assert decode(encode(S("x"), handle_of), rebuild) == ("handle", 1, "S")
deep = []
for _ in range(200):
    deep = [deep]
out = decode(encode(deep, handle_of), rebuild)
while isinstance(out, list):
    out = out[0]
assert out[0] == "handle"
for bad in (b"l\xff\xff\xff\x7f", b"s\x05\x00\x00\x00ab", b"N!", b"?", b"h\x01\x00\x00\x00o\x03"):
    try:
        decode(bad, rebuild)
    except Broken:
        continue
    raise SystemExit("accepted %r" % bad)
print("codec ok")
PY
)
check "the codec keeps plain data, makes handles of the rest, refuses malformed input" '[ "$codec" = "codec ok" ]'

nhostile=$(wc -l <"$data/hostile.jsonl")
nlegit=$(wc -l <"$data/legit.jsonl")
ran=0
for mode in namespaces userns plain; do
    out=$("$gb" check -j 2 --judge apart --sandbox "$mode" "$data/legit.jsonl" 2>&1); rc=$?
    if grep -q "cannot start a worker\|worker set-up failed\|cannot map ids" <<<"$out"; then
        echo "skip: sandbox $mode is not available here"
        continue
    fi
    ran=$((ran + 1))
    echo "$out"
    check "$mode: every honest answer passes" "[ $rc -eq 0 ] && grep -q '$nlegit tasks, $nlegit passed, 0 failed' <<<\"\$out\""
    out=$("$gb" check -j 2 --judge apart --sandbox "$mode" "$data/hostile.jsonl" 2>&1); rc=$?
    echo "$out"
    check "$mode: hostile benchmark exits 1" '[ $rc -eq 1 ]'
    check "$mode: all $nhostile hostile answers were scored" "grep -q '$nhostile tasks, 0 passed' <<<\"\$out\""
    passed=$(grep '^PASS' <<<"$out" || true)
    check "$mode: no hostile answer passes${passed:+ ($passed)}" '[ -z "$passed" ]'
    for attack in forge_token clear_seal ctypes_frame_locals always_true_eq int_subclass_eq str_subclass_eq \
        linecache_lookup shadowed_builtin sys_exit \
        patched_unittest skiptest early_exit kill_judge; do
        for fmt in humaneval cruxeval classeval; do
            check "$mode: $fmt/$attack is scored wrong" "grep -Eq '^(FAIL|ERROR|TIMEOUT|CRASH)[A-Z]* +hostile/$fmt/$attack( |\$)' <<<\"\$out\""
        done
    done
    check "$mode: SkipTest from the program is an error, not a skip" \
        'grep -q "hostile/classeval/skiptest .*SkipTest" <<<"$out"'
done
check "at least one sandbox mode ran" '[ $ran -gt 0 ]'

# Tests that do not split (tests/data/judge/together.jsonl): a test that hands the program a type,
# one that changes an object's state through an attribute it read. Judged apart their right
# programs fail; check's default (auto) runs them again with the tests in the program's process
# and says so; --judge apart keeps the judged failure; a program wrong both ways still fails.
out=$("$gb" check -j 2 "$data/together.jsonl" 2>&1); rc=$?
echo "$out"
check "auto: the two honest tasks pass, the wrong one fails (exit $rc)" \
    "[ $rc -eq 1 ] && grep -q '3 tasks, 2 passed, 1 failed' <<<\"\$out\""
check "auto: says which passed only with their tests in the program's process" \
    "grep -q '2 passed only with their tests in the program' <<<\"\$out\" &&
     grep -q '^PASS *together/passes_a_type .*judged apart: Refused' <<<\"\$out\""
check "auto: the wrong program still fails" "grep -q '^FAIL *together/still_wrong' <<<\"\$out\""
out=$("$gb" check -j 2 --json "$data/together.jsonl" 2>&1)
check "auto --json: apart_failure on the two, together 2 in the summary" \
    "[ \$(grep -c '\"apart_failure\"' <<<\"\$out\") -eq 2 ] && grep -q '\"together\":2}}' <<<\"\$out\""
out=$("$gb" check -j 2 --judge apart "$data/together.jsonl" 2>&1)
check "--judge apart: no task passes" "grep -q '3 tasks, 0 passed' <<<\"\$out\""
out=$("$gb" check -j 2 --judge together "$data/together.jsonl" 2>&1)
check "--judge together: the two pass, no fallback noted" \
    "grep -q '3 tasks, 2 passed, 1 failed' <<<\"\$out\" && ! grep -q 'judged apart' <<<\"\$out\""

# ClassEval imports program and tests as one module: neither sees __name__ == "__main__", so the
# `unittest.main()` at the end of its tests and a demo after the class do not run (either would
# end the run), in every judge mode; a wrong program still fails.
/usr/bin/python3 - "$tmp/main.jsonl" <<'PY'
import json, sys
tests = ("import unittest\n\n\nclass GreeterTest(unittest.TestCase):\n    def test_hi(self):\n"
         "        self.assertEqual(Greeter().hi(), 'hi')\n        self.assertNotEqual(__name__, '__main__')\n\n\n"
         "if __name__ == '__main__':\n    unittest.main()\n")
meta = {"format": "classeval", "upstream": {"import_statement": ["import sys"]}}
with open(sys.argv[1], "w") as f:
    for name, ret in (("right", "'hi'"), ("wrong", "'ho'")):
        src = ("import sys\n\n\nclass Greeter:\n    def hi(self):\n        return %s\n\n\n"
               "if __name__ == '__main__':\n    sys.exit(3)\n" % ret)
        f.write(json.dumps({"id": "main_guard/" + name, "source": src, "entry_point": "Greeter", "meta": meta,
                            "tests": {"kind": "unittest", "code": tests, "classes": ["GreeterTest"]}}) + "\n")
PY
for judge in apart together; do
    out=$("$gb" check -j 2 --judge $judge "$tmp/main.jsonl" 2>&1)
    check "ClassEval's rules, --judge $judge: no __main__ for program or tests" \
        "grep -q '2 tasks, 1 passed, 1 failed' <<<\"\$out\" && grep -q '^PASS *main_guard/right' <<<\"\$out\""
done

# eval's repair judges the answers of such tasks the same way: a right repair of a bug in
# tests/data/judge/box.jsonl (whose tests read an attribute and change the object through it)
# passes, in the original and the hardened version; the buggy program itself still fails.
"$gb" evolve "$data/box.jsonl" --seed 1 --generations 1 -j 2 -o "$tmp/box-h.jsonl" >/dev/null 2>&1
"$gb" inject-bugs "$data/box.jsonl" "$tmp/box-h.jsonl" -o "$tmp/box-b.jsonl" -j 2 >/dev/null 2>&1
"$gb" eval "$tmp/box-b.jsonl" --task repair --write-prompts "$tmp/box-p.jsonl" 2>"$tmp/box-p.err"; rc=$?
check "repair prompts of a task whose tests do not split: written, the items said (exit $rc)" \
    "[ $rc -eq 0 ] && [ -s '$tmp/box-p.jsonl' ] && grep -q 'have tests that do not split' '$tmp/box-p.err'"
/usr/bin/python3 - "$data/box.jsonl" "$tmp/box-p.jsonl" "$tmp/box-b.jsonl" "$tmp/box-a.jsonl" "$tmp/box-w.jsonl" <<'PY'
import json, sys
right = json.loads(open(sys.argv[1]).readline())["source"]
buggy = {}
for line in open(sys.argv[3]):
    bug = json.loads(line)
    buggy[(bug["id"], 0)] = bug["source"]
    buggy[(bug["id"], 1)] = bug["hardened_buggy"]["source"]
with open(sys.argv[4], "w") as good, open(sys.argv[5], "w") as bad:
    for line in open(sys.argv[2]):
        p = json.loads(line)
        key = {"item": p["item"], "version": p["version"], "sample": p["sample"]}
        good.write(json.dumps(dict(key, answer="```python\n" + right + "```\n")) + "\n")
        bad.write(json.dumps(dict(key, answer="```python\n" + buggy[(p["item"], p["version"])] + "```\n")) + "\n")
PY
"$gb" eval "$tmp/box-b.jsonl" --task repair --answers "$tmp/box-a.jsonl" --model offline -j 2 \
    -o "$tmp/box-r.jsonl" >/dev/null 2>&1; rc=$?
n=$(wc -l <"$tmp/box-a.jsonl")
check "right repairs pass, every version ($(grep -c '"verdict":"pass"' "$tmp/box-r.jsonl" 2>/dev/null) of $n)" \
    "[ $rc -eq 0 ] && [ $n -gt 1 ] && [ \$(grep -c '\"verdict\":\"pass\"' '$tmp/box-r.jsonl') -eq $n ]"
"$gb" eval "$tmp/box-b.jsonl" --task repair --answers "$tmp/box-w.jsonl" --model offline -j 2 \
    -o "$tmp/box-rw.jsonl" >/dev/null 2>&1
check "the buggy programs given back fail" "! grep -q '\"verdict\":\"pass\"' '$tmp/box-rw.jsonl'"
rm -rf "$tmp"
exit $fail
