#!/bin/bash
# One task of a `boggle best --hunt` per Slurm array task: a search for
# high-scoring boards that runs until Slurm stops it.
#
#   sbatch --array=0-99%100 deploy/slurm-hunt.sh
#
# Every task searches its own seed stream (task $SLURM_ARRAY_TASK_ID) and
# appends each distinct board scoring more than $ABOVE to
# $OUT/hunt-INDEX.results as it finds it. At the time limit Slurm sends
# SIGTERM and the task stops; submitting the same array again (or a requeue
# after preemption or a lost node) resumes every task where it was, losing
# no board. At any time:
#
#   boggle best --rules classic --dict "$DICT" --size "$SIZE" --min-len 3 \
#       --merge "$OUT" --top 20
#
# prints the best boards of all tasks (every line scored again, under the
# settings the tasks were hunted with).
#SBATCH --job-name=boggle-hunt
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=boggle-hunt-%A_%a.log
set -euo pipefail

BOGGLE=${BOGGLE:-boggle}              # the release binary, on every node
DICT=${DICT:-yawl.txt}                # the word list, on every node
SIZE=${SIZE:-5x5}
ABOVE=${ABOVE:-13400}
OUT=${OUT:-hunt-out}                  # shared by every task
INDEX=${SLURM_ARRAY_TASK_ID:?run as an array job}

exec "$BOGGLE" best --rules classic --dict "$DICT" --size "$SIZE" --min-len 3 \
    --above "$ABOVE" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --task "$INDEX" --hunt "$OUT"
