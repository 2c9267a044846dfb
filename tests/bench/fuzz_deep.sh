#!/usr/bin/env bash
# Deep and wide untrusted input against any build of genebench (a development aid; run it on a
# build with -Db_sanitize=address,undefined to have the sanitizers watch):
#
#   tests/bench/fuzz_deep.sh [BUILD_DIR]        (default: build)
#
# - output and input prediction answers (`eval --answers`) 20,000-100,000 levels deep (unary
#   chains, parentheses, lists, dicts, sets, nested calls, subscripts, attribute chains, string
#   concatenations) and 1,000,000 elements wide (lists, dicts, tuples, strings of escapes);
# - the same literals in a benchmark's tests, through `check` and `compare`;
# - a gzip benchmark that inflates to just under the cap (512 MiB), and one just over;
# - a program that leaves a run directory 30,000 levels deep (and one 3,000 wide).
# Every command must end by itself with an exit status (no signal), and nothing may be reported
# by a sanitizer; the scores must say "wrong". Prints one line per case; exit 1 when any failed.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$here/$build ;; esac
gb=$build/genebench
[ -x "$gb" ] || { echo "no genebench in $build" >&2; exit 2; }
py=/usr/bin/python3
tmp=$(mktemp -d)
chmod 755 "$tmp"
export TMPDIR=$tmp/tmp
mkdir -p "$TMPDIR"
trap 'rm -rf "$tmp"' EXIT
# the sanitizers report and stop at the first error (meson test sets the same)
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1:print_stacktrace=1}
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
# the command's status was its own exit (not a signal) and its stderr holds no sanitizer report
clean() { # $1: status, $2: stderr file
  [ "$1" -lt 128 ] && ! grep -qE "AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer" "$2"
}
E=$here/tests/data/eval
O=$E/orig.jsonl H=$E/hard.jsonl

# ---- the payloads: name -> Python literal text (written by a generator, one file each)
$py - "$tmp/payloads" "$tmp/small" <<'EOF'
import os, sys
big, small = sys.argv[1], sys.argv[2]
os.makedirs(big)
os.makedirs(small)
D, W = 100000, 1000000
# as test literals (no size cap): 20,000-100,000 levels deep and 1,000,000 elements wide
p = {
    "unary_100k": "-" * D + "1",
    "not_50k": "not " * (D // 2) + "1",
    "parens_100k": "(" * D + "1" + ")" * D,
    "list_100k": "[" * D + "]" * D,
    "dict_50k": "{1: " * (D // 2) + "1" + "}" * (D // 2),
    "set_tuple_50k": "{(" * (D // 2) + "1" + ",)}" * (D // 2),
    "calls_50k": "f(" * (D // 2) + "1" + ")" * (D // 2),
    "subscript_50k": "x" + "[0]" * (D // 2),
    "attr_50k": "x" + ".a" * (D // 2),
    "concat_100k": "+".join(["'a'"] * D),
    "binop_20k": "(" * 20000 + "1" + "+1)" * 20000,
    "lambda_20k": "lambda: " * 20000 + "1",
    "list_1m": "[" + "1," * W + "]",
    "tuple_1m": "(" + "0," * W + ")",
    "dict_1m": "{" + ",".join("%d:0" % i for i in range(W)) + "}",
    "string_escapes_1m": "'" + "\\n\\x41\\u00e9\\\\\\'" * (W // 4) + "'",
    "bytes_escapes_1m": "b'" + "\\x00\\n\\\\" * (W // 3) + "'",
}
# as answers, which are refused past 64 KiB: as deep as fits (8,000-60,000 levels)
q = {
    "unary_60k": "-" * 60000 + "1",
    "not_15k": "not " * 15000 + "1",
    "parens_30k": "(" * 30000 + "1" + ")" * 30000,
    "list_30k": "[" * 30000 + "]" * 30000,
    "dict_15k": "{1:" * 15000 + "1" + "}" * 15000,
    "set_tuple_12k": "{(" * 12000 + "1" + ",)}" * 12000,
    "calls_20k": "f(" * 20000 + "1" + ")" * 20000,
    "subscript_20k": "x" + "[0]" * 20000,
    "attr_30k": "x" + ".a" * 30000,
    "concat_15k": "+".join(["'a'"] * 15000),
    "binop_15k": "(" * 15000 + "1" + "+1)" * 15000,
    "lambda_8k": "lambda:" * 8000 + "1",
    "list_30k_wide": "[" + "1," * 30000 + "]",
    "dict_8k_wide": "{" + ",".join("%d:0" % i for i in range(8000)) + "}",
    "string_escapes_10k": "'" + "\\n\\x41\\u00e9\\\\\\'" * 3000 + "'",
}
for where, table in ((big, p), (small, q)):
    for name, text in table.items():
        with open(os.path.join(where, name), "w") as f:
            f.write(text)
EOF
payloads=$(ls "$tmp/payloads")
np=$(wc -w <<<"$payloads")
ns=$(ls "$tmp/small" | wc -l)

# ---- eval: one sample per payload, output and input prediction
for task in output input; do
  "$gb" eval "$O" "$H" --task $task -n "$ns" --write-prompts "$tmp/p-$task.jsonl" 2>"$tmp/wp.err"; rc=$?
  check "eval --task $task --write-prompts" 'clean $rc "$tmp/wp.err" && [ $rc -eq 0 ]'
  # the simulated model's right answers, their value (output) or arguments (input) replaced by a
  # payload: sample k of the first item gets payload k, every other sample keeps its right answer
  $py "$here/tests/fakes/model_server.py" --answer "$tmp/p-$task.jsonl" --out "$tmp/right-$task.jsonl" \
    --bench "$O" "$H" >/dev/null 2>&1
  $py - "$tmp/right-$task.jsonl" "$tmp/small" "$task" >"$tmp/a-$task.jsonl" <<'EOF'
import json, os, re, sys
names = sorted(os.listdir(sys.argv[2]))
text = {n: open(os.path.join(sys.argv[2], n)).read() for n in names}
first = None
for line in open(sys.argv[1]):
    a = json.loads(line)
    first = first or a["item"]
    m = re.search(r"assert (\w+)\((.*)\) == (.*)", a["answer"])
    if a["item"] == first and m:
        payload = text[names[a["sample"] % len(names)]]
        body = ("assert %s(%s) == %s" % (m.group(1), payload, m.group(3)) if sys.argv[3] == "input"
                else "assert %s(%s) == %s" % (m.group(1), m.group(2), payload))
        a["answer"] = a["answer"][:m.start()] + body + a["answer"][m.end():]
    print(json.dumps(a))
EOF
  "$gb" eval "$O" "$H" --task $task -n "$ns" --k 1 --answers "$tmp/a-$task.jsonl" --model fuzz -j 2 -q \
    -o "$tmp/r-$task.jsonl" --summary "$tmp/s-$task.json" >/dev/null 2>"$tmp/e-$task.err"; rc=$?
  # passes among the first item's samples, and among the others'
  got=$($py -c "
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
first = rows[0]['item']
print(sum(r['verdict'] == 'pass' for r in rows if r['item'] == first), sum(r['verdict'] == 'pass' for r in rows if r['item'] != first))" \
    "$tmp/r-$task.jsonl" 2>/dev/null)
  check "eval $task: $ns deep and wide answers to the first item, exit 0; none passes, the right ones do ($got)" \
    'clean $rc "$tmp/e-$task.err" && [ $rc -eq 0 ] && [ "${got%% *}" = 0 ] && [ "${got##* }" -gt 0 ]'
  check "eval $task: every payload was parsed (none refused for its length)" '! grep -q "longer than" "$tmp/r-$task.jsonl"'
done

# ---- the same literals in a benchmark's tests: check and compare
$py - "$O" "$tmp/payloads" "$tmp/deep.jsonl" <<'EOF'
import json, os, sys
first = json.loads(open(sys.argv[1]).readline())
with open(sys.argv[3], "w") as out:
    for name in sorted(os.listdir(sys.argv[2])):
        text = open(os.path.join(sys.argv[2], name)).read()
        t = dict(first, id="deep/" + name)
        code = first["tests"]["code"]
        t["tests"] = {"kind": "assert", "code": code + "assert f('ab') == " + text + "\n"
                      + "assert f(" + text + ") is not None\n"}
        out.write(json.dumps(t) + "\n")
EOF
"$gb" check -j 2 "$tmp/deep.jsonl" >"$tmp/check.out" 2>"$tmp/check.err"; rc=$?
# a literal the parser refuses makes its line a bad line (FILE:LINE: task ID: ...), not a task
bad=$(grep -c "deep.jsonl:[0-9]*: task deep/" "$tmp/check.err")
check "check over deep and wide literals in the tests: exit 1, every task scored or its line refused ($bad)" \
  'clean $rc "$tmp/check.err" && [ $rc -eq 1 ] && grep -q "$((np - bad)) tasks, 0 passed.*, $bad bad lines" "$tmp/check.out"'
"$gb" compare "$tmp/deep.jsonl" "$tmp/deep.jsonl" -j 2 -o "$tmp/compare.json" >"$tmp/compare.out" 2>"$tmp/compare.err"; rc=$?
check "compare over deep and wide literals: no crash (exit $rc)" 'clean $rc "$tmp/compare.err" && [ $rc -le 1 ]'

# ---- gzip: just under and just over the inflated-size cap (512 MiB)
$py - "$O" "$tmp" <<'EOF'
import gzip, json, sys
first = open(sys.argv[1]).readline()
pad = " " * ((1 << 20) - 1) + "\n"
for name, mib in (("under", 510), ("over", 514)):
    with gzip.open("%s/%s.jsonl.gz" % (sys.argv[2], name), "wb", compresslevel=1) as f:
        f.write(first.encode())
        for _ in range(mib):
            f.write(pad.encode())
EOF
"$gb" check -j 1 "$tmp/under.jsonl.gz" >"$tmp/gz.out" 2>"$tmp/gz.err"; rc=$?
check "a gzip benchmark inflating to 510 MiB: read and checked (exit $rc)" 'clean $rc "$tmp/gz.err" && [ $rc -le 1 ]'
"$gb" check -j 1 "$tmp/over.jsonl.gz" >"$tmp/gz2.out" 2>"$tmp/gz2.err"; rc=$?
check "a gzip benchmark inflating past the cap: refused (exit $rc)" \
  'clean $rc "$tmp/gz2.err" && [ $rc -ne 0 ] && grep -q "decompresses to more than" "$tmp/gz2.err"'

# ---- run directories left deep and wide
$py - "$O" "$tmp/trees.jsonl" <<'EOF'
import json, sys
first = json.loads(open(sys.argv[1]).readline())
deep = ("import os\nfor _ in range(30000):\n    os.mkdir('d')\n    os.chdir('d')\n")
wide = ("import os\nfor i in range(3000):\n    os.mkdir('w%d' % i)\n    open('w%d/f' % i, 'w').close()\n")
with open(sys.argv[2], "w") as out:
    for name, prelude in (("deep", deep), ("wide", wide)):
        t = dict(first, id="tree/" + name, source=prelude + first["source"])
        out.write(json.dumps(t) + "\n")
EOF
"$gb" check -j 1 "$tmp/trees.jsonl" >"$tmp/trees.out" 2>"$tmp/trees.err"; rc=$?
check "programs leaving a 30,000-deep and a 3,000-wide run directory: checked (exit $rc)" \
  'clean $rc "$tmp/trees.err" && [ $rc -le 1 ] && grep -q "2 tasks" "$tmp/trees.out"'
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)
check "nothing left in TMPDIR ($left)" '[ "$left" = 0 ]'
exit $fail
