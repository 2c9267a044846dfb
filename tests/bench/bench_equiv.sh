#!/usr/bin/env bash
# The equivalence check on the dev sets, two genebench binaries (A before, B after): per set, the
# branch coverage of the originals reached by the inputs (`compare X X`, both binaries at once, -j 2
# each): mean over the tasks with branches, and the tasks below 90%; then B's `compare` of every
# original against its hardened version (agreement, coverage reached, and whether any task
# disagrees: a false alarm, since the hardened versions passed the gate). The host facts come first.
# Offspring/s with all gates, side by side: tests/bench/bench_gates_ab.sh.
#
# usage: tests/bench/bench_equiv.sh GENEBENCH_A GENEBENCH_B OUT_DIR SET.jsonl:HARDENED.jsonl ...
#   (HARDENED may be empty: coverage only)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
a=$1 b=$2 out=$3
shift 3
py=/usr/bin/python3
mkdir -p "$out"
echo "nproc: $(nproc)   load average: $(cut -d' ' -f1-3 /proc/loadavg)   fork+exit: $($py "$root/tests/bench/fork_cost.py" --ms) ms"
cover() { # JSON -> "mean X%, N tasks with branches, below 90%: ..."
    $py - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = [(t['id'], t['coverage']['covered'] / t['coverage']['branches']) for t in r['tasks']
        if t.get('coverage', {}).get('branches')]
noinput = [t['id'] for t in r['tasks'] if t['status'] == 'noinput']
mean = 100 * sum(c for _, c in rows) / len(rows) if rows else 0
low = ', '.join('%s %.0f%%' % (i, 100 * c) for i, c in rows if c < 0.9)
print('mean %.1f%% over %d tasks with branches; below 90%%: %s; no inputs: %s' % (mean, len(rows), low or 'none', ', '.join(noinput) or 'none'))
PY
}
for pair in "$@"; do
    set_file=${pair%%:*} hard=${pair#*:}
    name=$(basename "$set_file" .jsonl)
    t0=$(date +%s)
    "$a" compare "$set_file" "$set_file" -j 2 -o "$out/$name.A.json" >"$out/$name.A.log" 2>&1 &
    pa=$!
    "$b" compare "$set_file" "$set_file" -j 2 -o "$out/$name.B.json" >"$out/$name.B.log" 2>&1 &
    pb=$!
    wait $pa
    wait $pb
    echo "$name coverage ($(($(date +%s) - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "  A: $(cover "$out/$name.A.json")"
    echo "  B: $(cover "$out/$name.B.json")"
    if [ -n "$hard" ] && [ "$hard" != "$set_file" ]; then
        t0=$(date +%s)
        "$b" compare "$set_file" "$hard" -j 2 -o "$out/$name.hard.json" >"$out/$name.hard.log" 2>&1
        echo "  B, original vs hardened ($(($(date +%s) - t0)) s): $(tail -1 "$out/$name.hard.log" | sed 's/^.*: //')"
        echo "    coverage: $(cover "$out/$name.hard.json")"
        grep -E '^(DISAGREE|SLOWER|ERROR)' "$out/$name.hard.log" | sed 's/^/    /'
    fi
done
