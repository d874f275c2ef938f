#!/usr/bin/env bash
# Checks that deploy/slurm-array.sh proves through a real Slurm, end to end:
#
#   1. installs Debian's slurm-wlm and munge with apt-get where they are
#      missing (as root: CI and the developers' machines run as root);
#   2. starts a throwaway one-node cluster, every file of it in one temporary
#      directory: a munge key, munged, slurmctld and slurmd with a slurm.conf
#      of its own (free ports, its own state, spool, log and PID files);
#   3. submits `sbatch --array=0-(SHARDS-1) deploy/slurm-array.sh`, the script
#      unchanged, with BOGGLE, DICT, SIZE, ABOVE, OUT and SHARDS in the job's
#      environment;
#   4. requeues one task (`scontrol requeue JOB_TASK`) once its shard file has
#      a finished class, so the task runs again with --resume; checks that it
#      did ("resuming: N of M classes already done" in its log, Restarts=1);
#   5. waits for the array with a deadline, runs `boggle prove merge`, which
#      must call the proof complete, and compares its result (the `proved:`
#      line, the highest bound and every board) with one process's run of the
#      same proof;
#   6. runs deploy/slurm-hunt.sh, unchanged, as an array of two tasks of
#      `boggle best --hunt` (the same word list and size): requeues task 1
#      once it has finished a round, then stops both with scancel; the
#      requeued task must have resumed at the round it had reached, no
#      results file may hold a board twice, and `boggle best --merge` must
#      rank the boards of both tasks;
#   7. stops what it started, on success and on failure (a trap on EXIT, INT
#      and TERM): cancels the job, then each daemon by the PID it was started
#      with (the PID its PID file names: checked at start), then checks that
#      no process carrying the temporary directory in its command line or
#      environment is left (and stops any, a step or a shard, by its PID).
#
# usage: scripts/slurm-check.sh                  (make slurm-check builds first)
# Environment:
#   BOGGLE  the release binary (default target/release/boggle)
#   DICT    the word list (default words.txt, which is in the repository;
#           e.g. DICT=../shared/reference-dicts/enable2k.txt ABOVE=500)
#   SIZE    default 3x3
#   ABOVE   default 320 (with words.txt: 10 boards, every shard has work)
#   HUNT_ABOVE  the hunt's threshold (default ABOVE - 40)
#   SHARDS  array tasks (default 4)
#   REQUEUE_TASK          the task to requeue (default 1; -1: none)
#   SLURM_CHECK_TIMEOUT   seconds for the array to finish (default 900)
#   SLURM_CHECK_KEEP=1    keep the temporary directory (logs, shard files)
#
# What a one-node Slurm 22.05 (Debian 12) needed here, and why:
#   - the temporary directory is under /tmp (not $TMPDIR) and mode 755:
#     munged refuses a socket whose directories are not searchable by all;
#   - munged gets its own key (mungekey), socket, PID, log and seed files; the
#     Slurm side finds that socket through AuthInfo=socket=... (auth and
#     cred/munge both read it);
#   - SlurmUser=root: the daemons run as root and nothing here needs a slurm user;
#   - ProctrackType=proctrack/linuxproc, TaskPlugin=task/none,
#     JobAcctGatherType=jobacct_gather/none: no cgroup plugin (the machine's
#     cgroups are not ours to delegate), so no cgroup.conf is read;
#   - AccountingStorageType=accounting_storage/none: no slurmdbd (so no
#     sacct; the tasks' states come from `scontrol show job` while MinJobAge
#     keeps finished jobs);
#   - SelectType=select/cons_tres with CR_Core, and the node line that
#     `slurmd -C` prints (CPUs, cores, RealMemory): without RealMemory the
#     node has 1 MB and the script's --mem=4G is refused with "Requested node
#     configuration is not available";
#   - NodeAddr and the controller address 127.0.0.1: nothing leaves the machine;
#   - ReturnToService=2: the node is usable as soon as slurmd registers;
#   - the partition's MaxTime=INFINITE: the script asks for 24 hours;
#   - AuthInfo's cred_expire=30: a requeued task waits that long before it may
#     start again (120 s by default, the credential's lifetime);
#   - KillWait=10: a requeued or cancelled task gets SIGTERM, and SIGKILL 10 s
#     later (boggle stops after the classes in hand, well within that).
# The daemons' logs say "mpi/pmix...: can not load PMIx library": Debian's
# Slurm loads every MPI plugin at start; MpiDefault=none means none is used.
# Every daemon runs in the foreground (-F, -D) as a child of this script, so
# its PID is known when it starts and nothing is left a zombie.
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$(pwd)
boggle=$(realpath "${BOGGLE:-target/release/boggle}")
dict=$(realpath "${DICT:-words.txt}")
size=${SIZE:-3x3}
above=${ABOVE:-320}
shards=${SHARDS:-4}
requeue_task=${REQUEUE_TASK:-1}
timeout=${SLURM_CHECK_TIMEOUT:-900}
started_at=$SECONDS

say() { echo "slurm-check: $*"; }
die() {
    echo "slurm-check: $*" >&2
    exit 1
}
# Shows the file $1 on stderr, then dies with the rest as the message.
die_showing() {
    cat "$1" >&2
    shift
    die "$@"
}

[ -x "$boggle" ] || die "no binary at $boggle (run 'cargo build --release' or 'make slurm-check')"
[ -r "$dict" ] || die "no word list at $dict"
[ "$shards" -ge 2 ] || die "SHARDS must be at least 2"
[ "$requeue_task" -lt "$shards" ] || die "REQUEUE_TASK must be below SHARDS"

# 1. The packages.
need=(munged mungekey munge unmunge slurmctld slurmd sbatch scontrol squeue sinfo scancel)
missing=()
for cmd in "${need[@]}"; do
    PATH=$PATH:/usr/sbin command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}; install slurm-wlm and munge (as root)"
    say "installing slurm-wlm and munge (missing: ${missing[*]})"
    export DEBIAN_FRONTEND=noninteractive
    apt_log=$(mktemp)
    # (Debian's container images deny service starts in policy-rc.d, so the
    # packages' own munge and slurm services do not start here.)
    if ! { apt-get update -q && apt-get install -y -q --no-install-recommends slurm-wlm munge; } \
        </dev/null >"$apt_log" 2>&1; then
        tail -n 30 "$apt_log" >&2
        rm -f "$apt_log"
        die "apt-get could not install slurm-wlm and munge"
    fi
    rm -f "$apt_log"
fi
export PATH=$PATH:/usr/sbin
[ "$(id -u)" -eq 0 ] || die "must run as root (SlurmUser=root; the jobs run as the submitter)"

# 2. The cluster's files.
work=$(mktemp -d /tmp/boggle-slurm-check.XXXXXX)
chmod 755 "$work"
mkdir -p "$work"/{munge,state,spool,log,run,jobs}
conf=$work/slurm.conf
sock=$work/munge/munge.socket
pids=()      # every daemon started, newest last
jobid=

# Slurm's commands, pointed at this cluster only.
sl() { SLURM_CONF=$conf "$@"; }

tails() {
    local f
    for f in "$work"/log/* "$work"/jobs/*.log; do
        [ -s "$f" ] || continue
        echo "--- $f (last 20 lines)" >&2
        tail -n 20 "$f" >&2
    done
    if [ -n "$jobid" ]; then
        echo "--- scontrol show job $jobid" >&2
        sl scontrol -o show job "$jobid" >&2 2>&1 || true
    fi
}

# Every process whose command line or environment names $work: ours, and
# nobody else's (the directory is new). Builtins only, so the scan itself
# starts nothing that could match.
is_ours() {
    local p=/proc/$1 args=() env=()
    mapfile -d '' -t args 2>/dev/null <"$p/cmdline" || return 1
    mapfile -d '' -t env 2>/dev/null <"$p/environ" || true
    [[ "${args[*]} ${env[*]}" == *"$work"* ]]
}
ours() {
    local p pid
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        if [ "$pid" != "$$" ] && [ "$pid" != "$BASHPID" ] && is_ours "$pid"; then
            echo "$pid"
        fi
    done
}

alive() { kill -0 "$1" 2>/dev/null; }
daemons_alive() {
    local pid
    [ ${#pids[@]} -gt 0 ] || return 1
    for pid in "${pids[@]}"; do
        alive "$pid" || return 1
    done
}

# Sends TERM to a PID, waits up to $2 seconds, then KILL.
stop_pid() {
    local pid=$1 grace=${2:-20} i
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < grace * 5; i++)); do
        alive "$pid" || break
        sleep 0.2
    done
    if alive "$pid"; then
        say "PID $pid did not stop on TERM; KILL"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$? i pid left
    trap - EXIT INT TERM
    set +e
    if [ "$status" -ne 0 ]; then
        echo "slurm-check: FAILED (status $status); the cluster's logs:" >&2
        tails
    fi
    # Jobs first: a step outlives slurmd by design. (With a daemon dead, the
    # sweep below stops the steps instead.)
    if [ -n "$jobid" ] && daemons_alive; then
        sl scancel "$jobid" 2>/dev/null
        for ((i = 0; i < 60; i++)); do
            [ -z "$(sl squeue -h -j "$jobid" 2>/dev/null)" ] && break
            sleep 1
        done
    fi
    # The daemons, newest first: slurmd, slurmctld, munged.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        stop_pid "${pids[i]}"
    done
    # The PID files name the same processes (a PID there that is alive and
    # carries $work is one that forked after all); anything else that carries
    # $work, a step or a shard the cancel missed, is ours too.
    for pid in $(cat "$work"/run/*.pid 2>/dev/null) $(ours); do
        if is_ours "$pid"; then
            stop_pid "$pid" 5
        fi
    done
    left=$(ours)
    if [ -n "$left" ]; then
        echo "slurm-check: processes left running: $left" >&2
        status=1
    fi
    if [ "${SLURM_CHECK_KEEP:-0}" = 1 ]; then
        say "kept $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "slurm-check: line $LINENO failed: $BASH_COMMAND" >&2' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits until "$@" succeeds, up to $1 seconds; the rest is the command.
wait_for() {
    local limit=$1 what=$2 deadline
    shift 2
    deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        daemons_alive || die "a daemon exited while waiting for $what"
        [ "$SECONDS" -lt "$deadline" ] || die "no $what after ${limit}s"
        sleep 0.5
    done
}

# A TCP port nobody uses (nothing listens, no connection names it).
free_port() {
    local port hex i
    for ((i = 0; i < 100; i++)); do
        port=$((20000 + RANDOM % 40000))
        hex=$(printf '%04X' "$port")
        if ! grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    die "no free port found"
}

host=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
# CPUs, sockets, cores, threads and RealMemory as slurmd sees this machine.
node_line=$(slurmd -C)
node_line=${node_line%%$'\n'*}
[[ $node_line == NodeName=* ]] || die "slurmd -C printed: $node_line"
node_hw=${node_line#NodeName=* }
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")
[ "${memory:-0}" -ge 4096 ] || die "the node has ${memory:-?} MB; deploy/slurm-array.sh asks for 4G"

cat >"$conf" <<EOF
# Written by scripts/slurm-check.sh for one throwaway run.
ClusterName=bogglecheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock,cred_expire=30
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
KillWait=10
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 $node_hw State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# 3. The daemons, each a child of this script (-F/-D: in the foreground).
mungekey --create --keyfile="$work/munge/munge.key"
# (In the foreground munged logs to stderr, here log/munged.out.)
munged -F --key-file="$work/munge/munge.key" --socket="$sock" \
    --pid-file="$work/run/munged.pid" --seed-file="$work/munge/munged.seed" \
    </dev/null >>"$work/log/munged.out" 2>&1 &
pids+=($!)
munge_works() { munge -n -S "$sock" | unmunge -S "$sock"; }
wait_for 30 "munged" munge_works

SLURM_CONF=$conf slurmctld -D -f "$conf" </dev/null >>"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
ctld_up() { sl scontrol ping | grep -q UP; }
wait_for 60 "slurmctld" ctld_up

SLURM_CONF=$conf slurmd -D -f "$conf" -N "$host" </dev/null >>"$work/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(sl sinfo -h -n "$host" -o %t)" = idle ]; }
wait_for 60 "idle node" node_idle
# Each PID file must name the process started: a daemon that forked anyway
# would leave a PID this script does not hold.
names=(munged slurmctld slurmd)
for i in 0 1 2; do
    written=$(cat "$work/run/${names[i]}.pid" 2>/dev/null || true)
    [ "$written" = "${pids[i]}" ] ||
        die "${names[i]}: PID file says '${written}', started as ${pids[i]}"
done
say "cluster up in $work (controller port $ctld_port, slurmd port $slurmd_port; PIDs ${pids[*]})"

# Submits the script $1 unchanged as the array $2 from the jobs directory
# (where its logs go), with the rest (NAME=VALUE) in the job's environment;
# sets jobid, and the deadline for what follows.
submit() {
    local script=$1 array=$2 submitted
    shift 2
    submitted=$(cd "$work/jobs" && env "$@" SLURM_CONF="$conf" \
        sbatch --parsable --export=ALL --array="$array" "$repo/deploy/$script")
    jobid=${submitted%%;*}
    deadline=$((SECONDS + timeout))
}
# What `wait_for` may still spend before the deadline.
left() { echo $((deadline > SECONDS ? deadline - SECONDS : 0)); }
state_of() { sl squeue -h -j "$1" -o %T 2>/dev/null | sed -n 1p; }
restarts_of() { sl scontrol -o show job "$1" 2>/dev/null | sed -n 's/.* Restarts=\([0-9]*\) .*/\1/p' | sed -n 1p; }
# squeue lists pending and running tasks; a failed squeue (the controller
# busy) is asked again, not taken for an empty queue.
queued() {
    local listed
    listed=$(sl squeue -h -j "$jobid" 2>/dev/null) || return 0
    [ -n "$listed" ]
}
gone() { ! queued; }

# 4. The array, with deploy/slurm-array.sh as it is.
out=$work/out
submit slurm-array.sh "0-$((shards - 1))" \
    BOGGLE="$boggle" DICT="$dict" SIZE="$size" ABOVE="$above" OUT="$out" SHARDS="$shards"
say "submitted job $jobid: $shards shards of $size above $above, $(basename "$dict")"

if [ "$requeue_task" -ge 0 ]; then
    task=${jobid}_$requeue_task
    file=$out/shard-$requeue_task-of-$shards.ndjson
    # Requeue once the shard has a finished class on file, while it runs.
    class_done() { [ "$(state_of "$task")" = RUNNING ] && [ "$(wc -l <"$file")" -ge 1 ]; }
    wait_for "$(left)" "finished class from task $task" class_done
    before=$(wc -l <"$file")
    sl scontrol requeue "$task"
    say "requeued $task (running, $before classes on file)"
fi

wait_for "$(left)" "end of the array" gone
say "array done after $((SECONDS - started_at))s"

# Every task completed with status 0.
sl scontrol -o show job "$jobid" >"$work/jobs.txt"
completed=$(grep -c 'JobState=COMPLETED .*ExitCode=0:0' "$work/jobs.txt" || true)
[ "$completed" -eq "$shards" ] ||
    die_showing "$work/jobs.txt" "$completed of $shards tasks completed with status 0"
if [ "$requeue_task" -ge 0 ]; then
    restarts=$(restarts_of "$task")
    [ "${restarts:-0}" -ge 1 ] || die "task $task was not restarted (Restarts=${restarts:-?})"
    log=$work/jobs/boggle-prove-${task}.log
    resumed=$(grep -m1 '^resuming: ' "$log" || true)
    [ -n "$resumed" ] || die_showing "$log" "task $task ran again without resuming"
    read -r _ had _ of _ <<<"$resumed"
    if [ "$had" = "$of" ]; then
        say "(task $task had finished its shard before the requeue took effect)"
    fi
    say "task $task ran $((restarts + 1)) times; its last run: $resumed"
fi

# 5. The merge, and one process for comparison.
"$boggle" prove merge "$out" >"$work/merged.txt" ||
    die_showing "$work/merged.txt" "boggle prove merge says the proof is incomplete"
"$boggle" prove --rules classic --dict "$dict" --size "$size" --above "$above" \
    2>/dev/null >"$work/single.txt"
# The result: the proved line and the boards (the lines of classes and time differ).
result() { grep -E '^(proved:|[0-9]+ [A-Z]+$)' "$1"; }
classes=$(sed -n 's/^classes: \([0-9]*\) .*/\1/p' "$work/single.txt")
bound() { sed -n 's/.*highest bound \([0-9]*\).*/\1/p' "$1"; }
if ! grep -q " $classes of $classes classes accounted for" "$work/merged.txt" ||
    [ "$(bound "$work/merged.txt")" != "$(bound "$work/single.txt")" ] ||
    ! diff <(result "$work/single.txt") <(result "$work/merged.txt") >&2; then
    echo "--- merged" >&2
    cat "$work/merged.txt" >&2
    echo "--- one process" >&2
    cat "$work/single.txt" >&2
    die "the merged result differs from one process's"
fi
sed -n '1,2s/^/  /p' "$work/merged.txt"
say "the merged result equals one process's ($(result "$work/merged.txt" | grep -c '^[0-9]') boards); $((SECONDS - started_at))s in all"

# 6. The hunt, with deploy/slurm-hunt.sh as it is: two tasks, task 1
#    requeued after a finished round, both stopped by scancel.
hunt_out=$work/hunt
hunt_above=${HUNT_ABOVE:-$((above - 40))}
# The rounds task $1 has finished (0 before its state file is written).
rounds_of() {
    local rounds
    rounds=$(sed -n 's/.*"rounds": *\([0-9]*\).*/\1/p' "$hunt_out/hunt-$1.state.json" 2>/dev/null) || true
    echo "${rounds:-0}"
}
submit slurm-hunt.sh 0-1 \
    BOGGLE="$boggle" DICT="$dict" SIZE="$size" ABOVE="$hunt_above" OUT="$hunt_out"
say "submitted hunt $jobid: two tasks of $size above $hunt_above"
task=${jobid}_1
running_past() { [ "$(state_of "$task")" = RUNNING ] && [ "$(rounds_of 1)" -gt "$1" ]; }
requeued_past() { [ "$(restarts_of "$task")" -ge 1 ] && running_past "$1"; }
wait_for "$(left)" "finished round from hunt task $task" running_past 0
had=$(rounds_of 1)
sl scontrol requeue "$task"
say "requeued $task after $had rounds"
# Back, and past a round more than it had when requeued.
wait_for "$(left)" "round past $had from hunt task $task after its requeue" requeued_past "$had"
sl scancel "$jobid"
wait_for "$(left)" "end of the hunt after scancel" gone
# The requeued task's last run began where the first had got to (its log
# is rewritten by the run after the requeue).
log=$work/jobs/boggle-hunt-${task}.log
stopped=$(grep '^stopped: ' "$log" || true)
stopped=${stopped##*$'\n'}
[ -n "$stopped" ] || die_showing "$log" "hunt task $task did not say where it stopped"
from=$(sed -n 's/.* rounds \([0-9]*\) to \([0-9]*\) .*/\1/p' <<<"$stopped")
[ "${from:-0}" -ge "$had" ] || die "hunt task $task began again at round ${from:-?}, not $had: $stopped"
shopt -s nullglob
results_files=("$hunt_out"/hunt-*.results)
shopt -u nullglob
if [ ${#results_files[@]} -ne 2 ]; then
    ls -l "$hunt_out" >&2 || true
    die "the hunt left ${#results_files[@]} results files, not 2"
fi
for results in "${results_files[@]}"; do
    twice=$(cut -d' ' -f2 "$results" | sort | uniq -d)
    [ -z "$twice" ] || die "$(basename "$results") holds boards twice: ${twice//$'\n'/ }"
done
"$boggle" best --rules classic --dict "$dict" --size "$size" --min-len 3 \
    --merge "$hunt_out" --top 5 >"$work/hunt-merged.txt"
[ -s "$work/hunt-merged.txt" ] || die "the hunt's merge found no boards"
sed 's/^/  /' "$work/hunt-merged.txt"
say "the hunt's task 1 resumed at round $from (it had finished $had before the requeue), and the merge ranks both tasks' boards; $((SECONDS - started_at))s in all"
