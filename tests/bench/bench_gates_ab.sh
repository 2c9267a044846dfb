#!/usr/bin/env bash
# Gate rejections per operator, two genebench binaries side by side: both evolve the same
# benchmark at once (-j 1 each, so they share the machine alike), then the parse and tests
# rejections of every operator, offspring/s, accepted/s and seconds per task of each are printed.
# The host facts (nproc, load, fork cost) are printed first: a rate means little without them.
#
# usage: tests/bench/bench_gates_ab.sh GENEBENCH_A GENEBENCH_B BENCH.jsonl [GENERATIONS] [SEED]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
a=$1 b=$2 bench=$3 gens=${4:-2} seed=${5:-1}
py=/usr/bin/python3
work=$(mktemp -d /tmp/gb_bench_gates.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "nproc: $(nproc)   load average: $(cut -d' ' -f1-3 /proc/loadavg)   fork+exit: $($py "$root/tests/bench/fork_cost.py" --ms) ms, with libraries $($py "$root/tests/bench/fork_cost.py" --ms --libs) ms"
"$a" evolve "$bench" -o "$work/A.jsonl" --seed "$seed" --generations "$gens" -j 1 --workers 1 -q >/dev/null 2>&1 &
pa=$!
"$b" evolve "$bench" -o "$work/B.jsonl" --seed "$seed" --generations "$gens" -j 1 --workers 1 -q >/dev/null 2>&1 &
pb=$!
wait $pa || echo "A exited $?"
wait $pb || echo "B exited $?"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$py" - "$work/A.summary.json" "$work/B.summary.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for name, d in (("A", a), ("B", b)):
    g = d["gates"]
    print(f"{name}: {d['tasks']} tasks, {d['time_s']:.1f} s ({d['time_s'] / max(1, d['tasks']):.2f} s/task), "
          f"{d['offspring_validated']} validated ({d['offspring_per_s']:.2f}/s), "
          f"{g['accepted']} accepted ({g['accepted'] / max(1e-9, d['time_s']):.3f}/s); "
          f"rejected: parse {g['parse']}, tests {g['tests']}, equiv {g['equiv']}, lint {g['lint']}")
print("op    offered A/B   parse A/B   tests A/B   accepted A/B")
for op in a["operators"]:
    x, y = a["operators"][op], b["operators"].get(op, {})
    rx, ry = x.get("rejected", {}), y.get("rejected", {})
    if x.get("offered") or y.get("offered"):
        print(f"{op:4} {x.get('offered', 0):6}/{y.get('offered', 0):<6} {rx.get('parse', 0):5}/{ry.get('parse', 0):<5} "
              f"{rx.get('tests', 0):5}/{ry.get('tests', 0):<5} {x.get('accepted', 0):6}/{y.get('accepted', 0):<6}")
PY
