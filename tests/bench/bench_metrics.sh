#!/usr/bin/env bash
# Speed of the metrics: all 21 metrics for every non-test file of the calibration corpus (the
# 12 SWE-bench projects' installed sources) on one core, reported as files per second.
# It runs `genebench calibrate` with one thread (file reading and the per-file measurement; the
# Debian package look-ups are done once per directory and take a few milliseconds).
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
start=$(date +%s.%N)
OMP_NUM_THREADS=1 "$gb" calibrate "${dirs[@]}" -o "$tmp/bench.json" -j 1 > "$tmp/out.txt" 2> "$tmp/err.txt"
end=$(date +%s.%N)
files=$(sed -n 's/^\([0-9]*\) files measured.*/\1/p' "$tmp/out.txt")
bytes=$(cat $(find "${dirs[@]}" -name "*.py") | wc -c)
/usr/bin/python3 - "$files" "$start" "$end" "$bytes" <<'PY'
import sys
files, start, end, total_bytes = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
secs = end - start
print("files measured: %d in %.2f s on one core: %.1f files/s" % (files, secs, files / secs))
print("(all .py bytes under the directories, tests included: %.1f MB)" % (total_bytes / 1e6))
PY
