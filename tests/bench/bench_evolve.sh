#!/usr/bin/env bash
# Throughput of `genebench evolve` end to end: validated offspring per second (offspring whose
# tests were run), with all gates on (from the workers' start, and from the end of pylint's
# warm-up: all-gates-warm, the same run with a time budget far beyond the generations), without
# the equivalence gate, without the lint gate and without both, measured side by side in one run
# on the same benchmark and seed (the cost of the equivalence gate per offspring is the
# difference between no-lint and no-lint-no-equiv). The published tool manages about 0.05/s
# (22 s each).
# Then the benchmark's first task alone with -j 1 and with -j JOBS (parallel validation within a
# task), ONE_GENS generations (default 12): evolution time of each, the speed-up, and whether the
# outputs are identical; once from the workers' start and once after pylint's warm-up (see
# below), each ROUNDS times (default 5) alternating -j 1 and -j JOBS: medians, and the fastest
# run of each (a shared host varies by 10-40% from run to run when another guest takes CPU time:
# the fastest run is the one least disturbed). Then the ceiling of that speed-up on this host:
# JOBS independent -j 1 runs at once (below).
#   [ONE_GENS=12] [ROUNDS=5] tests/bench/bench_evolve.sh [BUILD_DIR] [BENCH.jsonl] [GENERATIONS] [JOBS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
bench=${2:-$root/examples/benchmark.jsonl}
gens=${3:-5}
jobs=${4:-$(nproc)}
gb="$build/genebench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fork_us=$(/usr/bin/python3 "$root/tests/bench/fork_cost.py")
echo "benchmark: $bench ($(wc -l < "$bench") tasks), generations $gens, -j $jobs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), fork+exit+wait of a python3 process ${fork_us} us"
for mode in all-gates all-gates-warm no-equiv no-lint no-lint-no-equiv; do
  extra=()
  case $mode in
    all-gates-warm) extra=(--time-budget 1000000) ;; # the clock starts once pylint has warmed up
    no-equiv) extra=(--no-equiv) ;;
    no-lint) extra=(--no-lint) ;;
    no-lint-no-equiv) extra=(--no-lint --no-equiv) ;;
  esac
  start=$(date +%s.%N)
  "$gb" evolve "$bench" -o "$tmp/$mode.jsonl" --seed 1 --generations "$gens" -j "$jobs" --quiet "${extra[@]}"
  end=$(date +%s.%N)
  /usr/bin/python3 - "$tmp/$mode.summary.json" "$mode" "$start" "$end" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall = float(sys.argv[4]) - float(sys.argv[3])
n = s["offspring_validated"]
g = s["gates"]
print(f"{sys.argv[2]:>16}: {n} offspring validated in {s['time_s']:.1f}s of evolution "
      f"({s['offspring_per_s']:.1f}/s; {n / wall:.1f}/s over the whole command, {wall:.1f}s incl. start-up); "
      f"accepted {g.get('accepted', 0)}, rejected parse {g.get('parse', 0)} readability {g.get('readability', 0)} "
      f"duplicate {g.get('duplicate', 0)} tests {g.get('tests', 0)} equiv {g.get('equiv', 0)} lint {g.get('lint', 0)}; "
      f"{s['offspring_per_s'] / 0.05:.0f}x the published tool's 0.05/s")
PY
done
head -n 1 "$bench" > "$tmp/one.jsonl"
one_gens=${ONE_GENS:-12}
rounds=${ROUNDS:-5}
# Each: as above (the clock starts with the workers, and the task's first lint comes once
# pylint is imported, while the rest of its warm-up goes on: the same at any -j), and with a
# time budget far beyond the generations (the clock starts once the lint worker has warmed
# up: the evolution proper, which parallel validation speeds up).
# The ceiling: JOBS independent -j 1 runs at once, each timed from the warm-up's end like the
# second kind. What they do together in the time of one run is what the host gives JOBS
# processes that share nothing (on a VM whose CPUs other guests share, less than JOBS times
# one), and so the most that -j JOBS can do on it.
for r in $(seq "$rounds"); do
  for j in 1 "$jobs"; do
    "$gb" evolve "$tmp/one.jsonl" -o "$tmp/one-j$j-$r.jsonl" --seed 1 --generations "$one_gens" -j "$j" --quiet
    "$gb" evolve "$tmp/one.jsonl" -o "$tmp/warm-j$j-$r.jsonl" --seed 1 --generations "$one_gens" -j "$j" --quiet \
      --time-budget 1000000
  done
  if [ "$jobs" -gt 1 ]; then
    for k in $(seq "$jobs"); do
      "$gb" evolve "$tmp/one.jsonl" -o "$tmp/pair-$k-$r.jsonl" --seed 1 --generations "$one_gens" -j 1 --quiet \
        --time-budget 1000000 &
    done
    wait
  fi
done
/usr/bin/python3 - "$tmp" "$jobs" "$rounds" "$one_gens" <<'PY'
import json, re, statistics, sys
tmp, jobs, rounds, gens = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def load(kind, j):
    times, outs = [], set()
    for r in range(1, rounds + 1):
        s = json.load(open(f"{tmp}/{kind}-j{j}-{r}.summary.json"))
        times.append(s["time_s"])
        outs.add(re.sub(r'"time_s":[0-9.eE+-]+,', "", open(f"{tmp}/{kind}-j{j}-{r}.jsonl").read()))
    return times, outs, s["offspring_validated"]
for kind, what in (("one", "from the workers' start"), ("warm", "after pylint's warm-up")):
    t1, o1, n = load(kind, 1)
    tj, oj, _ = load(kind, jobs)
    m1, mj = statistics.median(t1), statistics.median(tj)
    same = len(o1 | oj) == 1
    print(f"  one task, {gens} generations, {what}: -j 1 {m1:.2f}s, -j {jobs} {mj:.2f}s of evolution, "
          f"medians of {rounds} ({n} offspring validated): {m1 / mj:.2f}x; fastest of each: "
          f"{min(t1):.2f}s and {min(tj):.2f}s, {min(t1) / min(tj):.2f}x "
          f"[-j 1: {' '.join(f'{t:.2f}' for t in t1)}; -j {jobs}: {' '.join(f'{t:.2f}' for t in tj)}]; "
          f"outputs {'identical' if same else 'DIFFERENT'} over all {2 * rounds} runs (time_s stripped)")
    if kind == "warm" and int(jobs) > 1:
        k = int(jobs)
        # per round: the mean time of the JOBS runs at once, against that round's -j 1 run
        each = [statistics.mean(json.load(open(f"{tmp}/pair-{i}-{r}.summary.json"))["time_s"]
                                for i in range(1, k + 1)) for r in range(1, rounds + 1)]
        gains = [k * a / b for a, b in zip(t1, each)]
        print(f"  the ceiling: {k} independent -j 1 runs at once, after the warm-up, took {statistics.median(each):.2f}s "
              f"each (median of {rounds}): together {statistics.median(gains):.2f}x the work of one -j 1 run in "
              f"the same time (per round: {' '.join(f'{g:.2f}' for g in gains)}); -j {jobs} got "
              f"{m1 / mj:.2f}x (medians), {statistics.median([a / b for a, b in zip(t1, tj)]):.2f}x "
              f"(median of the rounds' ratios)")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
