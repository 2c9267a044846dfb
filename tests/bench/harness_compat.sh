#!/usr/bin/env bash
# What the harness rules cost: harden the shared dev sets (HumanEval 60, CRUXEval 60, ClassEval 15)
# with every gate (`evolve --generations 5`), export them, and run each upstream harness's own code
# (../shared/harnesses) with the ground-truth answers. One row per (build, rules, harness): passes /
# total, and mean RC/RR before -> after. Not a test: it takes CPU (three evolutions of 135 tasks).
#
#   tests/bench/harness_compat.sh NEW_GENEBENCH [OLD_GENEBENCH] [WORK_DIR]
#
# NEW_GENEBENCH runs twice: with the harness rules (default) and with --no-harness-rules.
# OLD_GENEBENCH (optional) is a build from before the harness rules (e.g. main at 86d16dd), run once for
# contrast. Evolutions whose output already exists in WORK_DIR (default /tmp/gb_harness_compat) are
# reused, so the exports and harness runs can be redone cheaply. Environment: JOBS (default 2);
# SHARD=K/N (HumanEval and CRUXEval) and SHARD_CLASSEVAL=K/N evolve only the tasks whose index i
# has i % N == K-1 (`evolve --shard`), for a machine too busy for the whole sets; CONFIGS (default
# "new-rules new-norules old") to run only some of the builds, e.g. one per process in parallel;
# FORMATS (default "humaneval cruxeval classeval").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
new=${1:?usage: harness_compat.sh NEW_GENEBENCH [OLD_GENEBENCH] [WORK_DIR]}
old=${2:-}
work=${3:-/tmp/gb_harness_compat}
jobs=${JOBS:-2}
shared=$(cd "$root/.." && pwd)/shared
[ -d "$shared/harnesses" ] || shared=/work/shared
harnesses=$shared/harnesses
benchmarks=$shared/benchmarks
py=/usr/bin/python3
mkdir -p "$work"

declare -A file=([humaneval]=humaneval/HumanEval.dev.jsonl [cruxeval]=cruxeval/cruxeval.dev.jsonl
                 [classeval]=classeval/ClassEval.dev.json)
configs="new-rules new-norules"
[ -n "$old" ] && configs="$configs old"
configs=${CONFIGS:-$configs}

for cfg in $configs; do
  case $cfg in
    new-rules) bin=$new; extra=() ;;
    new-norules) bin=$new; extra=(--no-harness-rules) ;;
    old) bin=$old; extra=() ;;
  esac
  for fmt in ${FORMATS:-humaneval cruxeval classeval}; do
    d=$work/$cfg/$fmt
    mkdir -p "$d"
    [ -s "$d/in.jsonl" ] || "$bin" import --from "$fmt" "$benchmarks/${file[$fmt]}" -o "$d/in.jsonl" 2>"$d/import.log"
    shard=${SHARD:-}; [ "$fmt" = classeval ] && shard=${SHARD_CLASSEVAL:-}
    sharding=(); [ -n "$shard" ] && sharding=(--shard "$shard")
    if [ ! -s "$d/ev.summary.json" ]; then
      "$bin" evolve "$d/in.jsonl" -o "$d/ev.jsonl" --seed 1 --generations 5 -j "$jobs" "${sharding[@]}" "${extra[@]}" \
        2>"$d/evolve.log" || true
    fi
    ext=jsonl; [ "$fmt" = classeval ] && ext=json
    rm -f "$d/out.$ext"
    "$bin" export --to "$fmt" "$d/ev.jsonl" -o "$d/out.$ext" 2>"$d/export.log" || true
  done
done

printf '\n%-12s %-16s %9s   %-22s %-22s\n' build harness passes "RC before->after" "RR before->after"
for cfg in $configs; do
  for h in humaneval cruxeval-output cruxeval-input classeval; do
    fmt=${h%%-*}; d=$work/$cfg/$fmt
    [ -s "$d/ev.jsonl" ] || continue
    ext=jsonl; [ "$fmt" = classeval ] && ext=json
    if [ -s "$d/out.$ext" ]; then
      line=$(cd "$d" && { "$py" "$root/tests/e2e/run_upstream.py" "$h" "out.$ext" "$harnesses" 2>"$d/$h.err" || true; } | tee "$d/$h.log" | tail -1)
    else
      line="$h: no export"
    fi
    passes=$(echo "$line" | sed -n 's/.*: \([0-9]*\/[0-9]*\) pass/\1/p')
    # exported tasks out of the evolved ones
    total=$("$py" -c 'import sys; print(sum(1 for l in open(sys.argv[1]) if l.strip()))' "$d/ev.jsonl")
    means=$("$py" - "$d/ev.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
g = [r.get("genebench", {}) for r in rows]
def mean(side, key):
    v = [x[side][key] for x in g if side in x and key in x[side]]
    return sum(v) / len(v) if v else float("nan")
print("%.3f -> %.3f        %.3f -> %.3f" % (mean("before", "rc"), mean("after", "rc"), mean("before", "rr"), mean("after", "rr")))
PY
)
    printf '%-12s %-16s %9s   %s   (%s tasks evolved)\n' "$cfg" "$h" "${passes:-?/?}" "$means" "$total"
  done
done
