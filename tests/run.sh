#!/usr/bin/env bash
# Runs test jobs, each a make target, JOBS at a time, and prints one line
# per job as it ends (its result, wall and CPU seconds); a failed job's
# whole output follows its line. Every job's output is kept in LOGDIR.
# Jobs named with a leading '!' run alone (they time threads or want every
# core): the runner waits for the others to end, runs it, then goes on.
# Exits non-zero if any job failed, after running them all.
#   usage: tests/run.sh MAKE JOBS LOGDIR [!]TARGET...
#   TEST_VERBOSE=1 prints every job's output, not only a failed one's.
set -u
make=$1 jobs=$2 logdir=$3
shift 3
mkdir -p "$logdir"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1

declare -A name_of=() start_of=()
failed=() njobs=$# t0=$(date +%s.%N) cpu_sum=0

# One job: its output to its log, then the shell's children's CPU time
# (user and system, from `times`) as the log's last line.
run_job() {
    local target=$1 log=$2
    {
        # the packages were checked when the binaries were built
        DINGHY_NO_DEPS=1 $make -s --no-print-directory "$target" </dev/null
        rc=$?
        times >"$log.times" # in this shell: a pipe's subshell has no children
        awk -v rc=$rc 'NR == 2 {
            split($1, u, /[ms]/); split($2, s, /[ms]/)
            printf "@@run.sh %d %.1f\n", rc, u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$log.times"
        rm -f "$log.times"
        exit $rc
    } >"$log" 2>&1
}

report() {
    local pid=$1 target=${name_of[$1]} log="$logdir/${name_of[$1]}.log"
    local wall cpu rc
    wall=$(awk -v a="${start_of[$1]}" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    read -r rc cpu < <(sed -n 's/^@@run.sh //p' "$log")
    rc=${rc:-1} cpu=${cpu:-?}
    [[ $cpu == '?' ]] || cpu_sum=$(awk -v a="$cpu_sum" -v b="$cpu" 'BEGIN { printf "%.1f", a + b }')
    sed -i '/^@@run.sh /d' "$log"
    if [[ $rc -eq 0 ]]; then
        printf '== %-34s ok    %7s s wall %7s s CPU\n' "$target" "$wall" "$cpu"
        [[ -n ${TEST_VERBOSE:-} ]] && sed 's/^/   | /' "$log"
    else
        printf '== %-34s FAIL  %7s s wall %7s s CPU  (exit %s; output below, also in %s)\n' \
            "$target" "$wall" "$cpu" "$rc" "$log"
        sed 's/^/   | /' "$log"
        failed+=("$target")
    fi
}

# Waits for one running job to end and reports it.
reap() {
    local pid
    wait -n -p pid "${!name_of[@]}"
    report "$pid"
    unset "name_of[$pid]" "start_of[$pid]"
}

start() {
    local target=$1
    run_job "$target" "$logdir/$target.log" &
    name_of[$!]=$target
    start_of[$!]=$(date +%s.%N)
}

for spec in "$@"; do
    if [[ $spec == '!'* ]]; then
        while ((${#name_of[@]} > 0)); do reap; done
        start "${spec#!}"
        reap
    else
        while ((${#name_of[@]} >= jobs)); do reap; done
        start "$spec"
    fi
done
while ((${#name_of[@]} > 0)); do reap; done

wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
# The CPU seconds of all jobs: on a machine others share, the wall time
# says little, and this sum over the cores is about the wall time idle.
cpu_total=$(awk -v c="$cpu_sum" 'BEGIN { printf "%.0f", c }')
if ((${#failed[@]})); then
    echo "tests: ${#failed[@]} of $njobs jobs FAILED (${wall} s, ${cpu_total} s CPU): ${failed[*]}"
    exit 1
fi
echo "tests: $njobs jobs passed (${wall} s wall, ${cpu_total} s CPU, $jobs at a time; logs in $logdir)"
