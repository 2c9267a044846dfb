#!/usr/bin/env bash
# Quality per unit of time, two builds side by side on the same benchmark:
#   - BASE at --time-budget LONG (today's use: 60 s per task) against NEW at --time-budget SHORT
#     (15 s): mean RC and RR of the picks;
#   - `versions --seeds 1,2,3` of both builds at SHORT: seed-to-seed token Jaccard, cosine and
#     CodeBLEU (from DIR/similarity.json) and the mean RC of the versions;
#   - per-metric means before -> after and the share of tasks where each C_i rose.
# Every part prints nproc, the load average and the fork+exit cost of a warm /usr/bin/python3
# with numpy, scipy and sklearn imported, because time budgets make the results depend on the host.
#   tests/bench/bench_quality.sh BASE_GENEBENCH NEW_GENEBENCH OUTDIR [PART...]
# PARTs (default: all, in this order): prepare base-long base-versions new-versions report.
# prepare imports the shared dev sets (../shared/benchmarks: HumanEval.dev.jsonl and
# cruxeval.dev.jsonl) and keeps the first TASKS (20) of each in OUTDIR/dev.jsonl; BENCH=FILE uses
# FILE instead.
# Environment: SHORT (15), LONG (60), SEEDS (1,2,3), JOBS (nproc), TASKS (20).
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
base=$1 new=$2 out=$3
shift 3
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(prepare base-long base-versions new-versions report)
short=${SHORT:-15} long=${LONG:-60} seeds=${SEEDS:-1,2,3} jobs=${JOBS:-$(nproc)} n=${TASKS:-20}
py=/usr/bin/python3
mkdir -p "$out"

host() {
  local fork
  fork=$("$py" "$root/tests/bench/fork_cost.py" --libs --ms)
  echo "host: nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), fork+exit+wait of python3 with numpy/scipy/sklearn ${fork} ms"
}

run() { # label, command...
  local label=$1
  shift
  echo "== $label: $*"
  host
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  echo "== $label: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
  host
}

for part in "${parts[@]}"; do
  case $part in
    prepare)
      if [ -n "${BENCH:-}" ]; then
        cp "$BENCH" "$out/dev.jsonl"
      else
        shared=$root/../shared/benchmarks
        "$new" import --from humaneval "$shared/humaneval/HumanEval.dev.jsonl" -o "$out/he.jsonl"
        "$new" import --from cruxeval "$shared/cruxeval/cruxeval.dev.jsonl" -o "$out/cx.jsonl"
        { head -n "$n" "$out/he.jsonl"; head -n "$n" "$out/cx.jsonl"; } > "$out/dev.jsonl"
      fi
      echo "benchmark: $out/dev.jsonl ($(wc -l < "$out/dev.jsonl") tasks)"
      ;;
    base-long)
      run "base --time-budget $long" "$base" evolve "$out/dev.jsonl" -o "$out/base-long.jsonl" --seed 1 \
        --generations 0 --time-budget "$long" -j "$jobs" --quiet
      ;;
    base-versions)
      rm -rf "$out/base-versions"
      run "base versions --time-budget $short" "$base" versions "$out/dev.jsonl" --seeds "$seeds" \
        -o "$out/base-versions" --generations 0 --time-budget "$short" -j "$jobs" --quiet > "$out/base-versions.txt"
      ;;
    new-versions)
      rm -rf "$out/new-versions"
      run "new versions --time-budget $short" "$new" versions "$out/dev.jsonl" --seeds "$seeds" \
        -o "$out/new-versions" --generations 0 --time-budget "$short" -j "$jobs" --quiet > "$out/new-versions.txt"
      ;;
    report)
      "$py" - "$out" "$seeds" "$short" "$long" <<'PY'
import json, os, sys
out, seeds, short, long_ = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4]
C = ["C1", "C2", "C3", "C4", "C5", "C6", "C7"]

def records(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    return [r["genebench"] for r in rows if "after" in r.get("genebench", {})]

def rc_line(label, path):
    g = records(path)
    n = len(g)
    rb = sum(x["before"]["rc"] for x in g) / n
    ra = sum(x["after"]["rc"] for x in g) / n
    rr = sum(x["after"]["rr"] for x in g) / n
    val = sum(x.get("offspring_validated", 0) for x in g)
    gens = sorted(x["generations"] for x in g)
    print(f"  {label:<34} tasks {n:3d}  RC {rb:.4f} -> {ra:.4f}  RR after {rr:.4f}  "
          f"validated {val}  generations median {gens[n // 2]}")
    return g

def per_metric(label, g):
    n = len(g)
    cells = []
    for c in C:
        b = sum(x["before"]["metrics"][c] for x in g) / n
        a = sum(x["after"]["metrics"][c] for x in g) / n
        up = sum(1 for x in g if x["after"]["metrics"][c] > x["before"]["metrics"][c])
        cells.append(f"{c} {b:.1f}->{a:.1f} ({100 * up / n:.0f}%)")
    print(f"  {label:<34} " + "  ".join(cells))

def sim(dirname):
    path = os.path.join(out, dirname, "similarity.json")
    if not os.path.exists(path):
        return None
    s = json.load(open(path))
    acc = {"jaccard": [], "cosine": [], "codebleu": []}
    for p in s["pairs"]:
        if p["a"] == "original" or p["b"] == "original":
            continue
        for k in acc:
            acc[k].append(p["summary"][k]["mean"])
    return {k: sum(v) / len(v) for k, v in acc.items() if v}

print("== quality (mean over tasks; per-metric: mean before -> after, share of tasks where it rose)")
runs = []
if os.path.exists(f"{out}/base-long.jsonl"):
    runs.append((f"base, --time-budget {long_}", rc_line(f"base, --time-budget {long_}", f"{out}/base-long.jsonl")))
for d, name in (("base-versions", "base"), ("new-versions", "new")):
    for s in seeds:
        p = f"{out}/{d}/seed-{s}.jsonl"
        if os.path.exists(p):
            label = f"{name}, --time-budget {short}, seed {s}"
            runs.append((label, rc_line(label, p)))
print("== per metric")
for label, g in runs:
    per_metric(label, g)
print("== seed-to-seed similarity of the versions (mean of the per-pair means)")
for d, name in (("base-versions", "base"), ("new-versions", "new")):
    r = sim(d)
    if r:
        vs = [g for label, g in runs if label.startswith(f"{name}, --time-budget {short}")]
        rc = sum(sum(x["after"]["rc"] for x in g) / len(g) for g in vs) / len(vs)
        print(f"  {name:<5} Jaccard {r['jaccard']:.4f}  cosine {r['cosine']:.4f}  CodeBLEU {r['codebleu']:.4f}  "
              f"mean RC of the versions {rc:.4f}")
PY
      ;;
    *)
      echo "bench_quality.sh: unknown part '$part'" >&2
      exit 2
      ;;
  esac
done
