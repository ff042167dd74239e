#!/usr/bin/env bash
# Slurm across real hosts: the local Slurm of tests/slurm with one slurmd per host (h1, h2)
# and slurmctld on the head. `sbatch -N 2` of hopbench-fleet.sbatch and of hopbench.sbatch run
# hopbench on both hosts with srun --mpi=pmix; results land in results/JOBID/, and the fleet
# job adds its run to $HOPBENCH_HISTORY, which `history check` reports per host. Then a host is
# lost mid-job (every process of h2 killed, its slurmd with them): the job ends within 30 s,
# its output names h2 on one line, and what was measured is kept in results/JOBID.incomplete.
# (The health checks on these hosts: slurm-check-test.sh.)
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
# shellcheck source=slurm-lib.sh
. "$(dirname "$0")/slurm-lib.sh"

# submit ARGS...: sbatch on the head, wait (at most 150 s); sets JOB, JOB_OUT, JOB_RC.
submit() {
    JOB=$(on head sbatch --parsable -o "$work/job-%j.out" "$@")
    JOB_RC=0
    on head "$SLURM_SH" wait "$JOB" 150 || JOB_RC=$?
    JOB_OUT=$work/job-$JOB.out
}

# check_job SCRIPT: the job's records: both hosts, one rank each, every measurement ok.
check_job() {
    local f=$work/results/$JOB/results.jsonl
    expect_eq "$1: job $JOB completed" "$JOB_RC" 0
    expect_eq "$1: results/$JOB/results.jsonl, nothing partial" \
        "$(cd "$work/results" && ls -A | tr '\n' ' ')" "$JOB "
    expect_eq "$1: ranks on h1 and h2 with their CPUs" \
        "$(jqs "$f" '[.[] | select(.type=="run")][0].rank_layout | map([.host, .cpus])')" '[["h1","0"],["h2","1"]]'
    expect_eq "$1: both hosts measured, all ok" \
        "$(jqs "$f" '[.[] | select(.type=="measurement") | [.host, .status]] | unique')" '[["h1","ok"],["h2","ok"]]'
    expect_has "$1: srun --mpi=pmix" "$(cat "$JOB_OUT")" "srun --mpi=pmix"
}

small=(--size 16M --reps 2 --min-time 0.01)
# The fleet job adds its run to the history HOPBENCH_HISTORY names (sbatch passes the
# environment on), each host's records under their host; check then reports per host.
export HOPBENCH_HISTORY=$work/history.sqlite
submit -N 2 --ntasks-per-node=1 --cpus-per-task=1 "$TOP/jobs/slurm/hopbench-fleet.sbatch" "${small[@]}"
unset HOPBENCH_HISTORY
check_job hopbench-fleet.sbatch
expect_eq "hopbench-fleet.sbatch: fleet record lists both hosts" \
    "$(jqs "$work/results/$JOB/results.jsonl" '[.[] | select(.type=="fleet")][0].hosts | map(.host)')" '["h1","h2"]'
expect_eq "hopbench-fleet.sbatch: its run in HOPBENCH_HISTORY, a run per host" \
    "$(sqlite3 "$work/history.sqlite" 'SELECT host FROM runs ORDER BY host' | tr '\n' ' ')" "h1 h2 "
"$HB" history check --db "$work/history.sqlite" --format jsonl >check.jsonl
expect_eq "history check: exit 0, both hosts" "$?/$(jq -c 'select(.type == "history_summary") | .hosts' check.jsonl)" "0/2"
for h in h1 h2; do
    expect_eq "history check --host $h: that host's series, a point each" \
        "$("$HB" history check --db "$work/history.sqlite" --host "$h" --format jsonl |
            jq -c 'select(.type == "history_summary") | [.hosts, .series > 0, .points == .series]')" '[1,true,true]'
done
rm -rf "$work/results"
submit -N 2 --ntasks-per-node=1 --cpus-per-task=1 "$TOP/jobs/slurm/hopbench.sbatch" bw --kernel read "${small[@]}"
check_job hopbench.sbatch
rm -rf "$work/results"

# A host lost mid-job.
JOB=$(on head sbatch --parsable -o "$work/lost-%j.out" -N 2 --ntasks-per-node=1 --cpus-per-task=1 \
    "$TOP/jobs/slurm/hopbench.sbatch" bw --kernel read,write,copy,triad,write-nt,copy-nt,triad-nt,memcpy \
    --size 16M --reps 200 --min-time 0.02 --repeat 1 --threads 1)
for _ in $(seq 900); do
    n=$(cat "$work/results/.$JOB.partial"/results.jsonl.partial* 2>/dev/null | grep -c '"type":"measurement"') || true
    [ "${n:-0}" -lt 2 ] || break
    sleep 0.1
done
killed=$(date +%s)
"$HOSTS_LIB/hosts.sh" kill h2
# Ended: the batch script is over (COMPLETING while Slurm notices that h2's slurmd is gone).
state=RUNNING
for _ in $(seq 120); do
    state=$(on head scontrol -o show job "$JOB" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $state in RUNNING | PENDING | CONFIGURING) sleep 0.5 ;; *) break ;; esac
done
took=$(($(date +%s) - killed))
echo "lost: job $JOB was $state $took s after h2 was killed; its output:"
cat "$work/lost-$JOB.out"
case $state in RUNNING | PENDING | CONFIGURING | COMPLETED) fail "lost: job $JOB $state" ;; esac
[ "$took" -le 30 ] || fail "lost: ended $took s after the host was lost (limit 30)"
# Slurm's own line (docs/running.md#many-hosts-a-fleet); Open MPI may add its peer-hangup box
# naming h2 too, by timing.
expect_eq "lost: srun's line names h2, once" "$(grep -c '^srun: error: Node failure on h2$' "$work/lost-$JOB.out")" 1
expect_eq "lost: records kept in results/$JOB.incomplete" \
    "$(jq -s '.[0].type == "run" and ([.[] | select(.type=="measurement")] | length >= 2)' "$work/results/$JOB.incomplete"/results.jsonl.partial*)" true
expect_eq "lost: no results/$JOB" "$(ls -d "$work/results/$JOB" 2>/dev/null)" ""
finish
