#!/usr/bin/env bash
# genebench inject-bugs on examples/benchmark.jsonl plus the HumanEval-format fixture, hardened
# by the real operators (gb_test_harden, a stand-in for `genebench evolve` that writes evolve's
# format):
#   - every kept mutant fails in BOTH versions with the same failing-test set, re-checked
#     independently with `genebench check --json` on the buggy originals and on the buggy
#     hardened programs, and that set is the recorded "failing_tests";
#   - every task was processed, so its unmutated programs passed (the failures come from the bugs);
#   - most tasks get at least one valid mutant of order 1, and some of orders 2 and 3;
#   - the output is canonical JSONL, the same for another thread count and task subset;
#   - the mutants of an imported HumanEval-format benchmark export as upstream records;
#   - bad usage and a hardened file that does not belong to the original are reported.
set -u
gb=${GENEBENCH:?}
harden=${GB_TEST_HARDEN:?}
bench=${GB_SOURCE_ROOT:?}/examples/benchmark.jsonl
up=${GB_SOURCE_ROOT:?}/tests/data/upstream
tmp=$(mktemp -d /tmp/gb_e2e_inject.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
opts=(--seed 5 --max-per-task 2 --max-attempts 5 --timeout 1.5)

# One original benchmark: the examples and an imported HumanEval-format fixture (ids differ).
check "import humaneval fixture" '"$gb" import --from humaneval "$up/humaneval.jsonl" -o "$tmp/he.jsonl" >/dev/null 2>&1'
cat "$bench" "$tmp/he.jsonl" >"$tmp/orig.jsonl"
check "harden it" '"$harden" "$tmp/orig.jsonl" "$tmp/hard.jsonl" --steps 5 --seed 3 -j 2 >/dev/null'
check "inject-bugs runs (exit 0)" \
    '"$gb" inject-bugs "$tmp/orig.jsonl" "$tmp/hard.jsonl" -o "$tmp/bugs.jsonl" --hardened-output "$tmp/bugs_h.jsonl" "${opts[@]}" -j 2 >"$tmp/stdout" 2>"$tmp/stderr"'
cat "$tmp/stdout"
check "nothing on stderr" '[ ! -s "$tmp/stderr" ]'
check "summary file written" '[ -s "$tmp/bugs.jsonl.summary.json" ]'
check "mutants are canonical JSONL" '"$gb" validate "$tmp/bugs.jsonl" >/dev/null && "$gb" validate "$tmp/bugs_h.jsonl" >/dev/null'
# Both views in one benchmark for `genebench check` (hardened ids get a suffix).
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
with open(tmp + "/both.jsonl", "w") as out:
    for line in open(tmp + "/bugs.jsonl"):
        out.write(line)
    for line in open(tmp + "/bugs_h.jsonl"):
        t = json.loads(line)
        t["id"] += "/hardened"
        out.write(json.dumps(t) + "\n")
PY
"$gb" check --json -j 2 "$tmp/both.jsonl" >"$tmp/check.json"

/usr/bin/python3 - "$tmp" <<'PY'
import json, sys

tmp = sys.argv[1]
def lines(path):
    return [json.loads(l) for l in open(path, encoding="utf-8")]

def ids(r):
    """The failing-test set as inject-bugs defines it (src/inject/inject.h)."""
    if r["status"] == "pass":
        return []
    if r["failed_tests"]:
        return sorted(set(r["failed_tests"]))
    ft = r["failed_test"] or ""
    return [ft] if ft.startswith("tests line ") else ["(program)"]

bugs, bugs_h = lines(tmp + "/bugs.jsonl"), lines(tmp + "/bugs_h.jsonl")
res = {r["id"]: r for r in lines(tmp + "/check.json") if "id" in r}
summary = json.load(open(tmp + "/bugs.jsonl.summary.json"))
bad = 0
def expect(cond, what):
    global bad
    if not cond:
        print("FAIL:", what)
        bad += 1

expect(len(bugs) == len(bugs_h) and len(bugs) > 0, "both views list the same mutants")
for m, h in zip(bugs, bugs_h):
    i = m["id"]
    expect(i == h["id"], "%s: same id in both views" % i)
    expect(m["hardened_buggy"]["source"] == h["source"], "%s: hardened view is hardened_buggy" % i)
    expect(h["original_buggy"]["source"] == m["source"], "%s: original view is original_buggy" % i)
    expect(len(m["mutations"]) == m["order"], "%s: order mutations" % i)
    for mu in m["mutations"]:
        expect(mu["before"] != mu["after"], "%s: a mutation changes text" % i)
        expect(mu["op"] in ("arith", "compare", "condition", "return", "constant"), "%s: op name" % i)
    o, hh = res[i], res[i + "/hardened"]
    expect(o["status"] == "fail" and hh["status"] == "fail",
           "%s: fails in both versions (%s, %s)" % (i, o["status"], hh["status"]))
    expect(ids(o) == ids(hh), "%s: same failing tests %s vs %s" % (i, ids(o), ids(hh)))
    expect(ids(o) == m["failing_tests"], "%s: recorded failing tests %s vs %s" % (i, m["failing_tests"], ids(o)))

orders = summary["by_order"]
tasks = summary["processed"]
print("tasks %d; order 1: %d tasks, order 2: %d, order 3: %d; mutants %d" % (
    tasks, orders["1"]["tasks_with_mutant"], orders["2"]["tasks_with_mutant"], orders["3"]["tasks_with_mutant"],
    len(bugs)))
expect(tasks == summary["tasks"] == 19, "all 19 tasks processed")
expect(orders["1"]["tasks_with_mutant"] >= 15, "most tasks have an order-1 mutant")
expect(orders["2"]["tasks_with_mutant"] >= 10 and orders["3"]["tasks_with_mutant"] >= 10, "orders 2 and 3 occur")
expect(sum(1 for m in bugs if m["order"] == 1) == orders["1"]["kept"], "summary counts the written mutants")
for k in ("1", "2", "3"):
    expect(orders[k]["kept"] <= 2 * tasks, "order %s: at most --max-per-task per task" % k)
sys.exit(1 if bad else 0)
PY
rc=$?
check "every kept mutant fails the same tests in both versions" '[ $rc -eq 0 ]'

# Upstream-shaped repair tasks: the HumanEval mutants export, each record holding the buggy program.
grep '"id":"Sample/' "$tmp/bugs.jsonl" >"$tmp/he_bugs.jsonl"
grep '"id":"Sample/' "$tmp/bugs_h.jsonl" >"$tmp/he_bugs_h.jsonl"
check "export buggy originals as humaneval" '"$gb" export --to humaneval "$tmp/he_bugs.jsonl" -o "$tmp/he_bugs.out.jsonl" 2>/dev/null'
check "export buggy hardened programs as humaneval" '"$gb" export --to humaneval "$tmp/he_bugs_h.jsonl" -o "$tmp/he_bugs_h.out.jsonl" 2>/dev/null'
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
bugs = [json.loads(l) for l in open(tmp + "/he_bugs.jsonl")]
bugs_h = [json.loads(l) for l in open(tmp + "/he_bugs_h.jsonl")]
out = [json.loads(l) for l in open(tmp + "/he_bugs.out.jsonl")]
out_h = [json.loads(l) for l in open(tmp + "/he_bugs_h.out.jsonl")]
ok = len(bugs) > 0 and len(out) == len(bugs) and len(out_h) == len(bugs)
for b, h, o, oh in zip(bugs, bugs_h, out, out_h):
    ok = ok and o["task_id"] == b["id"] and o["prompt"] + o["canonical_solution"] == b["source"]
    ok = ok and oh["prompt"] + oh["canonical_solution"] == h["source"] and "def check" in o["test"]
print("%d exported repair tasks" % len(out))
sys.exit(0 if ok else 1)
PY
rc=$?
check "exported records hold the buggy programs" '[ $rc -eq 0 ]'

# Usage errors (no pool is started for these).
"$gb" inject-bugs "$bench" "$tmp/hard.jsonl" --order 0..2 -o "$tmp/x.jsonl" >/dev/null 2>"$tmp/err"; rc=$?
check "--order 0..2 is a usage error" '[ $rc -eq 2 ] && grep -q -- "--order" "$tmp/err"'
"$gb" inject-bugs "$bench" -o "$tmp/x.jsonl" >/dev/null 2>&1; rc=$?
check "one input is a usage error" '[ $rc -eq 2 ]'
"$gb" inject-bugs "$bench" "$tmp/hard.jsonl" -o "$bench" >/dev/null 2>&1; rc=$?
check "refuses to overwrite an input" '[ $rc -eq 2 ]'
check "--help" '"$gb" inject-bugs --help | grep -q "usage: genebench inject-bugs"'

# Bad hardening records and unmatched ids, one thread: the good tasks are still processed,
# with exactly the mutants of the full run (same seed and options, other -j, other task set).
head -n 4 "$bench" >"$tmp/orig4.jsonl"
/usr/bin/python3 - "$tmp/hard.jsonl" "$tmp/wrong.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows[0]["original"]["source"] += "\n# another program\n"
del rows[1]["genebench"]
open(sys.argv[2], "w").write("".join(json.dumps(r) + "\n" for r in rows[:3] + rows[4:5]))
PY
"$gb" inject-bugs "$tmp/orig4.jsonl" "$tmp/wrong.jsonl" -o "$tmp/x.jsonl" "${opts[@]}" -j 1 >/dev/null 2>"$tmp/err"; rc=$?
check "bad records: exit 1" '[ $rc -eq 1 ]'
check "a hardening of another program is named (file:line: task: message)" \
    'grep -q "wrong.jsonl:1: task example/summarize: the hardened task was made from a different program" "$tmp/err"'
check "a missing record is named" 'grep -q "wrong.jsonl:2: task example/top_words: no \"genebench\" field" "$tmp/err"'
check "unmatched ids are named, both ways" \
    'grep -q "orig4.jsonl:4: task example/collatz: no task with this id" "$tmp/err" && grep -q "wrong.jsonl:4: task example/flatten: no task with this id" "$tmp/err"'
check "the good task gets the same mutants as in the full run" \
    'grep "\"id\":\"example/balanced#" "$tmp/bugs.jsonl" >"$tmp/balanced.full" && [ -s "$tmp/balanced.full" ] && cmp -s "$tmp/x.jsonl" "$tmp/balanced.full"'
exit $fail
