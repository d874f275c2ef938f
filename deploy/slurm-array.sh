#!/bin/bash
# One shard of a `boggle prove` run per Slurm array task.
#
#   sbatch --array=0-999%200 deploy/slurm-array.sh
#
# Every task runs shard $SLURM_ARRAY_TASK_ID of $SHARDS into $OUT (a shared
# directory), resuming from its own file if the task ran before (preempted,
# requeued, timed out). When every task is done:
#
#   boggle prove merge "$OUT"
#
# says whether every class is accounted for exactly once, and the result.
#SBATCH --job-name=boggle-prove
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=boggle-prove-%A_%a.log
set -euo pipefail

BOGGLE=${BOGGLE:-boggle}              # the release binary, on every node
DICT=${DICT:-enable2k.txt}            # the word list, on every node
SIZE=${SIZE:-4x4}
ABOVE=${ABOVE:-3500}
OUT=${OUT:-prove-out}                 # shared by every task
SHARDS=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?set SHARDS or run as an array}}
INDEX=${SLURM_ARRAY_TASK_ID:?run as an array job}

exec "$BOGGLE" prove --rules classic --dict "$DICT" --size "$SIZE" \
    --above "$ABOVE" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$INDEX/$SHARDS" --out "$OUT" --resume
