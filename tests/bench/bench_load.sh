#!/usr/bin/env bash
# Benchmark: loading N tasks (`genebench validate`, which reads, checks and de-duplicates every
# task) for several N, so that the growth is visible: linear per task since the id index
# (src/model/task.c), quadratic before (a scan of every earlier task per task). Prints the
# seconds of each run.
#   tests/bench/bench_load.sh [GENEBENCH] [N ...]
# GENEBENCH defaults to $GENEBENCH or build/genebench; N to 10000 40000 100000. Not part of
# `meson test` (tests are never timed).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
gb=${1:-${GENEBENCH:-$here/build/genebench}}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 40000 100000)
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) cores"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in "${sizes[@]}"; do
  /usr/bin/python3 - "$n" "$tmp/b.jsonl" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    for i in range(n):
        f.write(json.dumps({"id": "load/%06d" % i, "source": "def f(x):\n    return x + %d\n" % i,
                            "entry_point": "f", "tests": {"kind": "assert", "code": "assert f(0) == %d\n" % i}}) + "\n")
PY
  /usr/bin/time -f "$n tasks: %e s wall, %U s user + %S s system CPU, %M KB max RSS" "$gb" validate "$tmp/b.jsonl" >/dev/null
done
