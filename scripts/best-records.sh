#!/bin/bash
# Time-to-record of `boggle best` on the 4x4 records of danvk's word lists:
# for each list and seed, one thread, classic rules, 3+ letters, stopping at
# the record. Prints one line per run:
#   list seed reached(0/1) seconds boards [best score of a run that missed]
# and, per list, the median seconds and boards over the seeds.
#
#   scripts/best-records.sh [BOGGLE] [SEEDS] [LISTS] [LIMIT]
#
# BOGGLE: the binary (default target/release/boggle); SEEDS: "1 2 ... 10";
# LISTS: names of /work/wordlists/NAME.txt (or $WORDLISTS); LIMIT: seconds
# per run (a run that hits it counts as not reached, at LIMIT seconds).
# SIZE=5x5 takes the 5x5 records; THREADS (default 1) sets --threads.
set -euo pipefail
BOGGLE=${1:-target/release/boggle}
SEEDS=${2:-"1 2 3 4 5 6 7 8 9 10"}
LISTS=${3:-"enable2k naspa2023 ospd5 twl06 yawl sowpods"}
LIMIT=${4:-60}
# EXTRA: more options for `boggle best`, split at spaces.
read -ra extra <<<"${EXTRA:-}"
WORDLISTS=${WORDLISTS:-/work/wordlists}
SIZE=${SIZE:-4x4}
declare -A RECORD=([enable2k]=3625 [naspa2023]=3923 [ospd5]=3827 [twl06]=3701 [yawl]=4540 [sowpods]=4808)
if [ "$SIZE" = 5x5 ]; then
    RECORD=([enable2k]=10406 [naspa2023]=11371 [ospd5]=10473 [twl06]=10769 [yawl]=13625 [sowpods]=14488)
fi
# The stop flag: --stop-at where the binary has it, else the older --target.
STOP=--stop-at
"$BOGGLE" best --help | grep -q -- --stop-at || STOP=--target
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
for list in $LISTS; do
    secs=(); boards=()
    for seed in $SEEDS; do
        best=
        line=$(nice -n 10 "$BOGGLE" best --rules classic --size "$SIZE" --min-len 3 \
            --dict "$WORDLISTS/$list.txt" --threads "${THREADS:-1}" --seed "$seed" --time "$LIMIT" \
            "$STOP" "${RECORD[$list]}" --top 1 "${extra[@]}" 2>&1 >/dev/null | tail -1)
        if [[ $line == "target reached"* || $line == "stopped at"* || $line == *"reached "*" at "* ]]; then
            s=$(sed -E 's/.*first at ([0-9.]+) s, ([0-9]+) boards.*/\1/' <<<"$line")
            b=$(sed -E 's/.*first at ([0-9.]+) s, ([0-9]+) boards.*/\2/' <<<"$line")
            ok=1
        else
            s=$LIMIT; b=$(sed -E 's/.* ([0-9]+) boards, seed.*/\1/' <<<"$line"); ok=0
            best=$(sed -nE 's/.* best ([0-9]+ [A-Z]+) .*/\1/p' <<<"$line")
        fi
        echo "$list $seed $ok $s $b${best:+ $best}"
        secs+=("$s"); boards+=("$b")
    done
    echo "MEDIAN $list seconds $(printf '%s\n' "${secs[@]}" | median) boards $(printf '%s\n' "${boards[@]}" | median)"
done
