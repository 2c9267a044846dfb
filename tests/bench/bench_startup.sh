#!/usr/bin/env bash
# Start-up latency: how long until `genebench evolve` says something (its first line, the
# "workers started" line, the first finished task), with stderr a pipe (a log, Slurm) and a
# terminal (a pseudo-terminal), and how long `genebench check` takes on 3 tasks against the
# time its tests take. Prints nproc, the load average and the fork cost beside the figures.
#   tests/bench/bench_startup.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
rounds=${2:-3}
gb="$build/genebench"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'NR<=2 || NR==11' "$root/examples/benchmark.jsonl" >"$tmp/three.jsonl"
fork_us=$("$py" "$root/tests/bench/fork_cost.py")
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), fork+exit+wait of a python3 process ${fork_us} us"
echo "benchmark: 3 tasks of examples/benchmark.jsonl, --generations 1, -j $(nproc), $rounds rounds each"

# Runs a command with stderr on a pipe or a pseudo-terminal; prints the seconds from the start to
# the first output, to the "workers started" line, to the first finished task, and to the end.
cat >"$tmp/stamp.py" <<'PY'
import os, pty, re, subprocess, sys, time
mode, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
if mode == "tty":
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stderr=slave, stdout=subprocess.DEVNULL)
    os.close(slave)
    fd = master
else:
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    fd = p.stderr.fileno()
first = workers = task = None
buf = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the terminal's other side closed
        chunk = b""
    if not chunk:
        break
    now = time.monotonic() - t0
    first = first if first is not None else now
    buf += chunk
    if workers is None and b"workers started" in buf:
        workers = now
    if task is None and (re.search(rb"\[1/\d+\]", buf) or re.search(rb" 1/\d+ tasks done", buf)):
        task = now
rc = p.wait()
end = time.monotonic() - t0
f = lambda x: "%.2f" % x if x is not None else "-"
print("%s %s %s %s %d" % (f(first), f(workers), f(task), f(end), rc))
PY
for mode in pipe tty; do
  for r in $(seq "$rounds"); do
    read -r first workers task end rc < <("$py" "$tmp/stamp.py" "$mode" "$gb" evolve "$tmp/three.jsonl" \
      -o "$tmp/e-$mode-$r.jsonl" --seed 1 --generations 1 -j "$(nproc)")
    echo "evolve, stderr a $mode, round $r: first line ${first}s, workers started ${workers}s, first task done ${task}s, all done ${end}s (exit $rc)"
  done
done
for r in $(seq "$rounds"); do
  start=$(date +%s.%N)
  "$gb" check "$tmp/three.jsonl" --json >"$tmp/check.json" || true
  end=$(date +%s.%N)
  "$py" - "$tmp/check.json" "$start" "$end" "$r" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]["summary"]
wall = float(sys.argv[3]) - float(sys.argv[2])
print("check, 3 tasks, round %s: %.2fs in all: workers started in %.2fs, tests ran in %.2fs, %.2fs else (%d passed)"
      % (sys.argv[4], wall, s["start_s"], s["run_s"], wall - s["start_s"] - s["run_s"], s["passed"]))
PY
done
