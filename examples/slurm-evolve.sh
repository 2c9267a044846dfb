#!/usr/bin/env bash
# Harden a benchmark across nodes with a Slurm job array: each array task evolves one
# deterministic shard, and a dependent job merges the shards in input order. Submit from the
# repository root (or set GENEBENCH_ROOT, or GENEBENCH to the binary):
#
#   jid=$(sbatch --parsable --array=1-8 examples/slurm-evolve.sh BENCH.jsonl OUTDIR [SEED])
#   sbatch --dependency=afterok:$jid --kill-on-invalid-dep=yes \
#          --wrap "build/genebench merge -o OUTDIR/hardened.jsonl OUTDIR/shard-*.jsonl"
#
# The array must be one contiguous range (1-8, 0-7); shard K/N is its K-th task. The result is
# byte-identical (but each task's time_s) to one `genebench evolve` with the same seed and
# --generations on one machine (tests/e2e/e2e_slurm.sh checks this on a real Slurm).
# A shard that was cut off (time limit, preemption) continues where it stopped when the
# array task is re-queued, because every run uses --resume.
# GENERATIONS (default 5) sets --generations; sbatch passes the environment on to the job.
#SBATCH --job-name=genebench
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=04:00:00
#SBATCH --requeue
set -euo pipefail
bench=${1:?usage: sbatch --array=1-N examples/slurm-evolve.sh BENCH.jsonl OUTDIR [SEED]}
outdir=${2:?output directory}
seed=${3:-1}
id=${SLURM_ARRAY_TASK_ID:?run this under sbatch --array}
n=${SLURM_ARRAY_TASK_COUNT:?run this under sbatch --array}
k=$((id - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
# sbatch runs a copy of this file from its spool directory, so $0 does not lead to the
# repository: the directory sbatch was called from does.
root=${GENEBENCH_ROOT:-${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}}
gb=${GENEBENCH:-$root/build/genebench}
[ -x "$gb" ] || { echo "slurm-evolve.sh: $gb not found: submit from the repository root or set GENEBENCH_ROOT" >&2; exit 2; }
mkdir -p "$outdir"
exec "$gb" evolve "$bench" -o "$outdir/shard-$k.jsonl" --seed "$seed" \
    --generations "${GENERATIONS:-5}" --shard "$k/$n" -j "${SLURM_CPUS_PER_TASK:-1}" --resume --quiet
