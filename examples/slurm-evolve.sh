#!/usr/bin/env bash
# Harden a benchmark across nodes with a Slurm job array: each array task evolves one
# deterministic shard, and a dependent job merges the shards in input order.
#
#   sbatch --array=1-8 examples/slurm-evolve.sh BENCH.jsonl OUTDIR [SEED]
#   sbatch --dependency=afterok:<jobid> --wrap "build/genebench merge -o OUTDIR/hardened.jsonl OUTDIR/shard-*.jsonl"
#
# A shard that was cut off (time limit, preemption) continues where it stopped when the
# array task is re-queued, because every run uses --resume.
#SBATCH --job-name=genebench
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=04:00:00
#SBATCH --requeue
set -euo pipefail
bench=${1:?usage: sbatch --array=1-N examples/slurm-evolve.sh BENCH.jsonl OUTDIR [SEED]}
outdir=${2:?output directory}
seed=${3:-1}
k=${SLURM_ARRAY_TASK_ID:?run this under sbatch --array}
n=${SLURM_ARRAY_TASK_COUNT:?run this under sbatch --array}
root=${GENEBENCH_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$outdir"
exec "$root/build/genebench" evolve "$bench" -o "$outdir/shard-$k.jsonl" --seed "$seed" \
    --generations "${GENERATIONS:-5}" --shard "$k/$n" -j "${SLURM_CPUS_PER_TASK:-1}" --resume --quiet
