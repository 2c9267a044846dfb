#!/usr/bin/env bash
# The whole evaluation flow on the bundled example benchmark, against a SIMULATED model
# (tests/fakes/model_server.py on 127.0.0.1: it knows the right answers and is told to be right on every
# original and on the hardened programs of every other task). It shows what a run against a real
# server prints and writes; with a real model, replace --url/--model (src/eval/README.md).
#   examples/eval-demo.sh [OUTDIR]      (default demo-out/eval; needs build/genebench)
# evolve -> inject-bugs -> eval output, input, translate (Java), repair -> report.html
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gb=${GENEBENCH:-$root/build/genebench}
py=/usr/bin/python3
out=${1:-$root/demo-out/eval}
mkdir -p "$out"
cd "$out"
B=$root/examples/benchmark.jsonl
rm -f hard.jsonl hard.summary.json bugs.jsonl bugs.jsonl.summary.json {output,input,translate,repair}.json{,l} report.html port
echo "== evolve (seed 1, 3 generations), then the same bug injected into original and hardened programs"
"$gb" evolve "$B" -o hard.jsonl --seed 1 --generations 3 --quiet
"$gb" inject-bugs "$B" hard.jsonl --order 1 --seed 1 -o bugs.jsonl
rm -f port
$py "$root/tests/fakes/model_server.py" --port-file port --bench "$B" hard.jsonl bugs.jsonl \
  --fixed "$B" hard.jsonl --java "$root/tests/data/eval_tasks/java_oracle.json" &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
for _ in $(seq 500); do [ -s port ] && break; sleep 0.02; done
url=http://127.0.0.1:$(cat port)
half=$($py -c "import json; print(json.dumps([json.loads(l)['id'] for l in open('$B')][::2]))")
$py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1] + '/control', data=sys.argv[2].encode(), headers={'Content-Type': 'application/json'}))" \
  "$url" "{\"mode\": \"oracle\", \"right_hard\": $half}"
for t in output input translate repair; do
  echo "== eval --task $t"
  files=("$B" hard.jsonl)
  [ $t = repair ] && files=(bugs.jsonl)
  "$gb" eval "${files[@]}" --url "$url" --model simulated --task $t --samples 2 --temperature 0.8 -q \
    --summary $t.json -o $t.jsonl
done
"$gb" report hard.jsonl --eval output.json,output.jsonl --eval input.json,input.jsonl \
  --eval translate.json,translate.jsonl --eval repair.json,repair.jsonl -o report.html
echo "== open $out/report.html"
