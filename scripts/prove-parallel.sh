#!/bin/bash
# Checks `boggle prove`'s shard, resume and merge contract with GNU parallel,
# the way a batch system would run it:
#
#   1. every shard starts under parallel, and each is killed with SIGKILL
#      after KILL_AFTER seconds (so a line may be left half-written);
#   2. the same parallel command again with --resume finishes them;
#   3. `boggle prove merge` must call the proof complete, and its result
#      (the `proved:` line and every board) must equal one process's.
#
# usage: scripts/prove-parallel.sh DICT [SIZE] [ABOVE]
#   e.g. scripts/prove-parallel.sh enable2k.txt 3x3 500
# Environment: BOGGLE (default target/release/boggle), SHARDS (default 4),
# JOBS (parallel's -j, default 2), KILL_AFTER (seconds, default 5).
# Needs GNU parallel on PATH; CI does not run this script.
set -euo pipefail

dict=${1:?usage: scripts/prove-parallel.sh DICT [SIZE] [ABOVE]}
size=${2:-3x3}
above=${3:-500}
boggle=${BOGGLE:-target/release/boggle}
shards=${SHARDS:-4}
jobs=${JOBS:-2}
kill_after=${KILL_AFTER:-5}
boggle=$(realpath "$boggle")
dict=$(realpath "$dict")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prove=("$boggle" prove --rules classic --dict "$dict" --size "$size" --above "$above" --threads 1)
mapfile -t indices < <(seq 0 $((shards - 1)))
# -q: parallel quotes each word, so paths with spaces survive; {} is the index.
shard=("${prove[@]}" --shard "{}/$shards" --out "$work/out" --resume)

echo "1. $shards shards, each killed (SIGKILL) after ${kill_after}s"
# The killed shards make parallel fail: expected here.
parallel -q -j "$jobs" timeout -s KILL "$kill_after" "${shard[@]}" ::: "${indices[@]}" >/dev/null 2>&1 || true
for done in "$work/out"/*.done; do
    if [ -e "$done" ]; then echo "   done before the resume: $done"; fi
done
wc -l "$work/out"/*.ndjson | sed 's/^/   /'

echo "2. the same shards again with --resume"
parallel -q -j "$jobs" "${shard[@]}" ::: "${indices[@]}" >"$work/resume.log" 2>&1 || {
    cat "$work/resume.log" >&2
    exit 1
}

echo "3. merge, and one process for comparison"
"$boggle" prove merge "$work/out" >"$work/merged.txt"
"${prove[@]}" 2>/dev/null >"$work/single.txt"
# The result: the proved line and the boards (the lines of classes and time differ).
result() { grep -E '^(proved:|[0-9]+ [A-Z]+$)' "$1"; }
if diff <(result "$work/single.txt") <(result "$work/merged.txt") >"$work/diff.txt"; then
    echo "   $(head -1 "$work/merged.txt")"
    echo "   the merged result equals one process's: $(grep '^proved:' "$work/merged.txt")"
else
    echo "   the merged result differs from one process's:" >&2
    cat "$work/diff.txt" >&2
    exit 1
fi
