#!/usr/bin/env bash
# Speed of the metrics: all 21 metrics for every non-test file of the calibration corpus (the
# 12 SWE-bench projects' installed sources) on one core, reported as files per second.
# It runs `genebench calibrate` with one thread and reports CPU time (user + system) and wall time
# (file reading included; the Debian package look-ups are a few milliseconds per directory).
#   tests/bench/bench_metrics.sh [DIR...]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
gb=${GENEBENCH:-$here/build/genebench}
dp=/usr/lib/python3/dist-packages
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=($dp/django $dp/sympy $dp/sklearn $dp/matplotlib $dp/mpl_toolkits $dp/astropy
                               $dp/requests $dp/_pytest $dp/pytest $dp/sphinx $dp/xarray $dp/pylint $dp/seaborn
                               $dp/flask)
for d in "${dirs[@]}"; do [ -d "$d" ] || { echo "missing $d (run src/setup.sh --calibration)" >&2; exit 1; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Warm the page cache so the timing measures the metrics, not the disk.
cat $(find "${dirs[@]}" -name '*.py') > /dev/null
/usr/bin/python3 - "$gb" "$tmp" "${dirs[@]}" <<'PY'
import os, resource, subprocess, sys, time
gb, tmp, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
env = dict(os.environ, OMP_NUM_THREADS="1")
t0 = time.monotonic()
out = subprocess.run([gb, "calibrate", *dirs, "-o", os.path.join(tmp, "bench.json"), "-j", "1"],
                     env=env, capture_output=True, text=True, check=True).stdout
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ru.ru_utime + ru.ru_stime
files = int(next(l for l in out.splitlines() if "files measured" in l).split()[0])
size = sum(os.path.getsize(os.path.join(d, f)) for r in dirs for d, _, fs in os.walk(r) for f in fs if f.endswith(".py"))
print("files measured: %d (all 21 metrics each), one thread" % files)
print("CPU time: %.2f s -> %.1f files/s per core" % (cpu, files / cpu))
print("wall time: %.2f s -> %.1f files/s (depends on the machine's load)" % (wall, files / wall))
print("(.py bytes under the directories, tests included: %.1f MB)" % (size / 1e6))
PY
