#!/usr/bin/env bash
# Benchmark: `genebench similarity` (and `genebench nnmr` with the built-in embedding) on two
# generated 1,000-task benchmarks, on one core. Prints the seconds each run took.
#   tests/bench/bench_similarity.sh [GENEBENCH] [N]
# GENEBENCH defaults to $GENEBENCH or build/genebench; N to 1000. Not part of `meson test`
# (tests are never timed).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
gb=${1:-${GENEBENCH:-$here/build/genebench}}
n=${2:-1000}
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) cores"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 "$here/tests/bench/gen_programs.py" "$n" "$tmp/a.jsonl" "$tmp/b.jsonl" 1
echo "generated $n + $n tasks ($(wc -c <"$tmp/a.jsonl") + $(wc -c <"$tmp/b.jsonl") bytes)"

# Wall seconds, and CPU seconds (user + system), which stay meaningful on a busy machine.
run() {
  local label=$1; shift
  OMP_NUM_THREADS=1 /usr/bin/time -f "$label: %e s wall, %U s user + %S s system CPU, one core, %M KB max RSS" \
    taskset -c 0 "$@"
}
run "similarity" "$gb" similarity "$tmp/a.jsonl" "$tmp/b.jsonl" --threads 1 --summary -o "$tmp/sim.txt"
cat "$tmp/sim.txt" | sed -n '/^summary/,$p'
run "nnmr (built-in embedding)" "$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" -o "$tmp/nnmr.txt"
grep '^NNMR' "$tmp/nnmr.txt"
