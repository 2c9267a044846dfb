#!/usr/bin/env bash
# Operator speed, two genebench binaries side by side: `transform --all-sites --no-tests` for
# every operator in OPS over N functions taken from /usr/lib/python3/dist-packages (the same
# selection as robustness_parse.sh), alternating A and B for R rounds, reporting the CPU time
# (user + system) of each run, and whether A and B wrote the same variants.
#
# usage: tests/bench/bench_operators_ab.sh GENEBENCH_A GENEBENCH_B [N] [R]   (env: OPS)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
a=$1 b=$2 n=${3:-400} rounds=${4:-2}
ops=${OPS:-"S1 S2 S4 S5 S6 S7 S8 S9 S10 S11 S12 A1 N1 N2"}
work=$(mktemp -d /tmp/gb_bench_ops.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The function selection of robustness_parse.sh, reused as is.
sed -n '/^"\$py" - "\$work\/funcs.jsonl" "\$n" <<'"'"'PY'"'"'$/,/^PY$/p' "$root/tests/bench/robustness_parse.sh" |
  sed '1d;$d' > "$work/select.py"
/usr/bin/python3 "$work/select.py" "$work/funcs.jsonl" "$n"
echo "nproc: $(nproc)   load average: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A total=([A]=0 [B]=0)
for r in $(seq 1 "$rounds"); do
  for side in A B; do
    gb=$a; [ "$side" = B ] && gb=$b
    cpu=$( { /usr/bin/time -f '%U %S' bash -c '
      gb=$1 funcs=$2 out=$3; shift 3
      for op in "$@"; do
        "$gb" transform "$funcs" --op "$op" --all-sites --no-tests --no-diff -o "$out.$op.jsonl" >/dev/null 2>&1 || true
      done' _ "$gb" "$work/funcs.jsonl" "$work/$side" $ops; } 2>&1 | tail -1 | awk '{print $1 + $2}')
    printf 'round %d %s: cpu %6.2f s   load %s\n' "$r" "$side" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
    total[$side]=$(awk -v x="${total[$side]}" -v y="$cpu" 'BEGIN {print x + y}')
  done
done
echo "total cpu: A ${total[A]} s, B ${total[B]} s"
same=0 diff=0
for op in $ops; do
  if cmp -s "$work/A.$op.jsonl" "$work/B.$op.jsonl"; then same=$((same + 1)); else diff=$((diff + 1)); echo "$op: variants differ"; fi
done
echo "operators with the same variants: $same, different: $diff"
