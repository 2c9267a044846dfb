#!/usr/bin/env bash
# Installs what is missing, builds genebench, and hardens the bundled example benchmark.
# Output goes to ./demo-out/ (override with DEMO_OUT=...).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_OUT:-$PWD/demo-out}
cd "$root"
src/setup.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
gb="$root/build/genebench"
mkdir -p "$out"
echo "== checking that the originals pass their tests"
"$gb" check examples/benchmark.jsonl
echo "== hardening examples/benchmark.jsonl (seed 1, 5 generations)"
"$gb" evolve examples/benchmark.jsonl -o "$out/hardened.jsonl" --seed 1 --generations 5
echo "== the hardened programs pass the same tests"
"$gb" check "$out/hardened.jsonl"
echo "== how far they moved"
"$gb" similarity examples/benchmark.jsonl "$out/hardened.jsonl" | tail -n 8
"$gb" report "$out/hardened.jsonl" -o "$out/report.html"
echo "hardened benchmark: $out/hardened.jsonl"
echo "run summary:        $out/hardened.summary.json"
echo "report:             $out/report.html"
