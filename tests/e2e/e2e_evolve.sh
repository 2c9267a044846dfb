#!/usr/bin/env bash
# evolve end to end on the bundled examples: outputs pass their tests, byte-identical output
# (each task's wall time "time_s" aside) for -j 1 and -j 2 and across runs, different seeds differ, interrupt + --resume gives the
# same bytes as an uninterrupted run with no processes left behind, shards + merge equal a
# whole run, a spent time budget still runs one generation, bad arguments exit 2.
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
# Outputs compared without each task's wall time ("time_s"), the one field that varies by design.
untimed() { sed -E 's/"time_s":[0-9.eE+-]+,//' "$1"; }
same() { cmp -s <(untimed "$1") <(untimed "$2"); }

# A 6-task slice with all three test kinds keeps the test quick.
awk 'NR<=3 || NR==11 || NR==14 || NR==15' "$root/examples/benchmark.jsonl" > "$tmp/bench.jsonl"
common=(--generations 2 --no-lint --quiet --thresholds builtin:paper)

"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/a.jsonl" --seed 7 -j 1 "${common[@]}"
check "evolve -j 1 succeeds" '[ $? -eq 0 ]'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/b.jsonl" --seed 7 -j 2 "${common[@]}"
check "-j 1 and -j 2 give byte-identical output (but time_s)" 'same "$tmp/a.jsonl" "$tmp/b.jsonl"'
check "every task records its time_s" '[ "$(grep -c "\"time_s\":[0-9]" "$tmp/a.jsonl")" -eq 6 ]'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/c.jsonl" --seed 7 -j 2 "${common[@]}"
check "a second run gives byte-identical output (but time_s)" 'same "$tmp/b.jsonl" "$tmp/c.jsonl"'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/d.jsonl" --seed 8 -j 2 "${common[@]}"
check "another seed gives another version" '! same "$tmp/a.jsonl" "$tmp/d.jsonl"'
check "every task is in the output" '[ $(wc -l < "$tmp/a.jsonl") -eq 6 ]'
# One task, lint on: with -j 2 its parents are bred and its children validated on two threads
# (runs and lints as separate items), each thread with its own lint
# session (a lone task once waited forever for a second lint worker). Without the equivalence
# gate: its cost bound reads the CPU time a child takes, which the second thread's runs move (an
# AddSklearn child's first scikit-learn call was over it in one run of four, the same build).
head -n 1 "$root/examples/benchmark.jsonl" > "$tmp/one.jsonl"
timeout 600 "$gb" evolve "$tmp/one.jsonl" -o "$tmp/one1.jsonl" --seed 7 -j 1 --generations 4 --no-equiv --quiet
timeout 600 "$gb" evolve "$tmp/one.jsonl" -o "$tmp/one2.jsonl" --seed 7 -j 2 --generations 4 --no-equiv --quiet
check "one task with lint: -j 2 finishes and equals -j 1 (but time_s)" '[ $? -eq 0 ] && same "$tmp/one1.jsonl" "$tmp/one2.jsonl"'
check "the summary is written" 'grep -q "\"offspring_per_s\"" "$tmp/a.summary.json"'
# The summary's "metrics", recomputed here from the output records: per metric, over the
# tasks that evolved (hardened or unchanged), the means before/after and how many rose or fell.
summary_metrics_ok() { # summary_metrics_ok OUT.jsonl OUT.summary.json [STDERR]
  /usr/bin/python3 - "$@" <<'EOF'
import json, re, sys
keys = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "num_tokens", "lines_of_code", "num_conditions", "num_loops",
        "num_assignments", "num_max_nested_loop", "num_max_nested_if", "num_max_conditions_in_if",
        "max_line_tokens", "num_of_variables", "num_of_arrays", "num_of_operators", "num_of_nested_casting", "entropy"]
recs = [json.loads(l)["genebench"] for l in open(sys.argv[1])]
ev = [g for g in recs if g["status"] in ("hardened", "unchanged")]
got = json.load(open(sys.argv[2]))["metrics"]
assert list(got) == keys, list(got)
for k in keys:
    pairs = [(g["before"]["metrics"][k], g["after"]["metrics"][k]) for g in ev]
    n = len(pairs)
    want = {"before_mean": sum(b for b, _ in pairs) / n, "after_mean": sum(a for _, a in pairs) / n,
            "raised": sum(a > b for b, a in pairs), "lowered": sum(a < b for b, a in pairs), "tasks": n}
    e = got[k]
    assert list(e) == ["before_mean", "after_mean", "raised", "lowered", "tasks"], (k, e)
    for f in ("raised", "lowered", "tasks"):
        assert e[f] == want[f], (k, f, e, want)
    for f in ("before_mean", "after_mean"):
        assert abs(e[f] - want[f]) <= 5.0001e-5, (k, f, e, want)
    if len(sys.argv) > 3 and k.startswith("C"):
        line = "  %-3s %6.2f -> %6.2f (raised in %d/%d)  " % (k, want["before_mean"], want["after_mean"],
                                                           want["raised"], n)
        assert line in open(sys.argv[3]).read(), ("stderr lacks", line)
print("summary metrics match %d evolved task(s) of %d" % (len(ev), len(recs)))
EOF
}
summary_metrics_ok "$tmp/a.jsonl" "$tmp/a.summary.json"
check "summary \"metrics\" = recomputed from the records" '[ $? -eq 0 ]'
# Not a terminal (a log file, Slurm): whole progress lines, the first and the last task always.
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/p.jsonl" --seed 7 -j 2 --generations 2 --no-lint --thresholds builtin:paper \
  --progress-every 86400 2> "$tmp/progress.txt"
check "progress lines in a log: first and last task, with rate, rejections and ETA" \
  '[ "$(grep -c "tasks done (0 failed), [0-9]* offspring validated, [0-9.]* offspring/s, rejected parse [0-9]* .*, ETA [0-9]*s$" "$tmp/progress.txt")" -eq 2 ] && grep -q " 1/6 tasks done" "$tmp/progress.txt" && grep -q " 6/6 tasks done" "$tmp/progress.txt"'
check "start-up lines come first: tasks to do, then workers started, then the first finished task" \
  '[ "$(grep -n -m1 "tasks to do" "$tmp/progress.txt" | cut -d: -f1)" = 1 ] && [ "$(grep -n -m1 "workers started in [0-9.]*s, evolving$" "$tmp/progress.txt" | cut -d: -f1)" = 2 ] && [ "$(grep -n -m1 " 1/6 tasks done" "$tmp/progress.txt" | cut -d: -f1)" = 3 ]'
check "no terminal escapes in a log" '! grep -q $'"'"'\033'"'"' "$tmp/progress.txt"'
check "progress lines change nothing in the output" 'same "$tmp/b.jsonl" "$tmp/p.jsonl"'
summary_metrics_ok "$tmp/p.jsonl" "$tmp/p.summary.json" "$tmp/progress.txt"
check "the end of evolve prints C1..C7 before -> after (raised in n/N) as the summary has them" '[ $? -eq 0 ]'
"$gb" check "$tmp/a.jsonl" > "$tmp/check.txt" 2>&1
check "every hardened program passes its tests" '[ $? -eq 0 ]'
check "programs changed" '[ "$(grep -c "\"status\":\"hardened\"" "$tmp/a.jsonl")" -ge 5 ]'

# Interrupt after the first results, then resume: same bytes as the uninterrupted run.
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/r.jsonl" --seed 7 -j 1 "${common[@]}" &
pid=$!
# up to 2 minutes for the first result: a loaded machine starts the workers slowly (and the equiv
# gate adds a probe per child)
for _ in $(seq 1 2400); do [ -s "$tmp/r.jsonl" ] && break; sleep 0.05; done
kill -INT $pid
t0=$(date +%s)
wait $pid
rc=$?
t1=$(date +%s)
check "SIGINT stops evolve with status 130" '[ $rc -eq 130 ]'
check "SIGINT stops within a few seconds" '[ $((t1 - t0)) -le 5 ]'
check "no genebench or worker processes left" '! pgrep -f "$tmp/bench.jsonl" >/dev/null'
partial=$(wc -l < "$tmp/r.jsonl")
check "finished results kept after the interrupt ($partial)" '[ "$partial" -ge 1 ] && [ "$partial" -lt 6 ]'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/r.jsonl" --seed 7 -j 2 --resume "${common[@]}"
check "--resume completes the run" '[ $? -eq 0 ]'
check "interrupted + resumed output equals the uninterrupted one" 'same "$tmp/a.jsonl" "$tmp/r.jsonl"'

# Shards and merge.
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/s1.jsonl" --seed 7 --shard 1/2 "${common[@]}"
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/s2.jsonl" --seed 7 --shard 2/2 "${common[@]}"
check "shards split the tasks" '[ $(wc -l < "$tmp/s1.jsonl") -eq 3 ] && [ $(wc -l < "$tmp/s2.jsonl") -eq 3 ]'
"$gb" merge -o "$tmp/m.jsonl" "$tmp/s2.jsonl" "$tmp/s1.jsonl" 2>/dev/null
check "merged shards equal the whole run" 'same "$tmp/a.jsonl" "$tmp/m.jsonl"'
check "merged shards give the same summary \"metrics\" as the whole run" \
  '/usr/bin/python3 -c "import json,sys; a,b=(json.load(open(f))[\"metrics\"] for f in sys.argv[1:]); sys.exit(a!=b)" "$tmp/a.summary.json" "$tmp/m.summary.json"'

# A budget spent before the first generation (here by the set-up) still gives every task one.
head -n 2 "$tmp/bench.jsonl" > "$tmp/two.jsonl"
"$gb" evolve "$tmp/two.jsonl" -o "$tmp/tb.jsonl" --seed 7 -j 1 --generations 0 --time-budget 0.001 --no-lint --quiet
check "a spent time budget still runs one generation per task" \
  '[ "$(grep -c "\"stop_reason\":\"time_budget\",\"generations\":1," "$tmp/tb.jsonl")" -eq 2 ]'

# Stdio tasks run their cases in one probe in the tests gate, and apart (one process per case) on
# what is written: both stdio tasks say so, and every written program passes its cases apart. A
# script that writes to file descriptor 1 itself passes apart but not in a probe: it keeps its
# cases apart (no "together").
check "stdio tasks ran their cases together, nothing refuted" \
  '[ "$(grep -c "\"together\":{\"refuted\":0}" "$tmp/a.jsonl")" -eq 2 ]'
/usr/bin/python3 - "$tmp/raw.jsonl" <<'EOF2'
import json, sys
src = "import os\nn = int(input())\ntotal = 0\nfor i in range(n):\n    total += i * i\nos.write(1, (str(total) + '\\n').encode())\n"
cases = [{"stdin": "3\n", "stdout": "5\n"}, {"stdin": "10\n", "stdout": "285\n"}]
open(sys.argv[1], "w").write(json.dumps({"id": "raw/1", "source": src, "entry_point": None,
                                          "tests": {"kind": "stdio", "cases": cases}}) + "\n")
EOF2
"$gb" evolve "$tmp/raw.jsonl" -o "$tmp/raw.out.jsonl" --seed 7 -j 1 "${common[@]}"
check "a script writing to fd 1 keeps its cases apart" \
  '[ $? -eq 0 ] && grep -q "\"status\":\"hardened\"" "$tmp/raw.out.jsonl" && ! grep -q "\"together\"" "$tmp/raw.out.jsonl"'
"$gb" check "$tmp/raw.out.jsonl" >/dev/null 2>&1
check "its pick passes its cases" '[ $? -eq 0 ]'

"$gb" evolve "$tmp/bench.jsonl" >/dev/null 2>&1; rc=$?
check "missing -o exits 2" '[ $rc -eq 2 ]'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/bench.jsonl" >/dev/null 2>&1; rc=$?
check "refuses to overwrite its input" '[ $rc -eq 2 ]'
"$gb" evolve "$tmp/bench.jsonl" -o "$tmp/x.jsonl" --shard 3/2 >/dev/null 2>&1; rc=$?
check "bad --shard exits 2" '[ $rc -eq 2 ]'
exit $fail
