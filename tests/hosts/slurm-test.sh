#!/usr/bin/env bash
# Slurm across real hosts: the local Slurm of tests/slurm with one slurmd per host (h1, h2)
# and slurmctld on the head. `sbatch -N 2` of hopbench-fleet.sbatch and of hopbench.sbatch run
# hopbench on both hosts with srun --mpi=pmix; results land in results/JOBID/, and the fleet
# job adds its run to $HOPBENCH_HISTORY, which `history check` reports per host. Then a host is
# lost mid-job (every process of h2 killed, its slurmd with them): the job ends within 30 s,
# its output names h2 on one line, and what was measured is kept in results/JOBID.incomplete.
# Between them, the health check of every host while h2 runs a memory hog: h2 drained, h1 healthy.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
SLURM_SH=$TOP/tests/slurm/slurm-cluster.sh
export HOPBENCH_SLURM_DIR=$work/slurm HOPBENCH_SLURM_HOSTS_SH=$HOSTS_LIB/hosts.sh
# Slurm ends the jobs of a node that stopped answering after SlurmdTimeout (a site's choice,
# often 300 s); 6 s here so a lost host is seen within the test.
export HOPBENCH_SLURM_SLURMD_TIMEOUT=6
export SLURM_CONF=$HOPBENCH_SLURM_DIR/etc/slurm.conf
chmod 755 "$work" # munged wants every directory above its socket open to all
hosts_up 2
slurm_down() {
    on head "$SLURM_SH" down >/dev/null 2>&1 || echo "slurm-test: stopping the cluster failed" >&2
    hosts_cleanup
}
trap slurm_down EXIT
rc=0
on head "$SLURM_SH" up 2>slurm-up.log || rc=$?
[ "$rc" != 77 ] || { echo "SKIP: no local Slurm here ($(tail -n 1 slurm-up.log))"; exit 77; }
[ "$rc" = 0 ] || { cat slurm-up.log; fail "slurm-cluster.sh up: exit $rc"; finish; }
expect_eq "sinfo: two idle nodes, one per host" "$(on head sinfo -h -N -o '%N %t %c' | sort | tr '\n' ' ')" "h1 idle 1 h2 idle 1 "

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

# Health checks (docs/running.md#health-checks): each host's baseline (two checks pooled), then
# jobs/slurm/hopbench-healthcheck.sh --drain on every host at once while h2 runs a memory hog on
# its only CPU (three read loops over 8 MiB): h2 is degraded and drained with hopbench's reason in
# `sinfo -R`, h1 is healthy (on a second check where the first could not tell) and stays idle.
# --threshold 50: the hosts share this machine's memory and its other load, which moves an
# undisturbed host by more than a quiet node's 10%.
CHK=(--size 64M --max-time 6 --threshold 50)
mkdir -p "$work/check"
checked=$(date +%s)
# Baselines as the checks will run: both hosts at once (they share this machine's L3 and memory),
# two checks each pooled by the wrapper's --make-baseline.
for h in h1 h2; do
    on "$h" env HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/check" SLURMD_NODENAME="$h" \
        "$TOP/jobs/slurm/hopbench-healthcheck.sh" --make-baseline 2 --size 64M --max-time 4 >/dev/null 2>&1 &
    eval "base_$h=\$!"
done
rc1=0 rc2=0
wait "$base_h1" || rc1=$?
wait "$base_h2" || rc2=$?
expect_eq "check: the wrapper's baselines of two checks each" "$rc1 $rc2" "0 0"
# The hog: three read loops on h2's one CPU, so its check gets a quarter of it.
for k in 1 2 3; do
    on h2 bash -c 'echo $$ >"$1"; exec timeout 60 "$2" bw --kernel read --threads 1 --size 8M --reps 1000 \
        --min-time 0.05 --repeat 1 --quiet --format jsonl -o "$3"' _ "$work/check/hog$k.pid" "$HB" "$work/check/hog$k.jsonl" 2>/dev/null &
done
sleep 1
for h in h1 h2; do
    on "$h" env HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/check" SLURMD_NODENAME="$h" SLURM_CONF="$SLURM_CONF" \
        "$TOP/jobs/slurm/hopbench-healthcheck.sh" --drain "${CHK[@]}" >"$work/check/$h.out" 2>&1 &
    eval "check_$h=\$!"
done
rc1=0 rc2=0
wait "$check_h1" || rc1=$?
wait "$check_h2" || rc2=$?
# h1 could not tell (its figures too noisy to show them within the threshold): the next health
# check, as HealthCheckInterval would run it, while the hog still runs on h2.
tries=1
if [ "$rc1" = 5 ]; then
    cat "$work/check/h1.out"
    tries=2 rc1=0
    on h1 env HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/check" SLURMD_NODENAME=h1 SLURM_CONF="$SLURM_CONF" \
        "$TOP/jobs/slurm/hopbench-healthcheck.sh" --drain "${CHK[@]}" >"$work/check/h1.out" 2>&1 || rc1=$?
fi
for k in 1 2 3; do kill "$(cat "$work/check/hog$k.pid")" 2>/dev/null || true; done
wait
echo "health checks ($(($(date +%s) - checked)) s):"
cat "$work/check/h1.out" "$work/check/h2.out"
expect_eq "check: h2 degraded (exit 1)" "$rc2" 1
# h1 shares this machine's memory and caches with h2's hog and with whatever else runs here,
# yet is healthy (at the first check, or the second where the first could not tell).
expect_eq "check: h1 healthy beside the hog (exit 0, check $tries of 2)" "$rc1" 0
expect_eq "check: h1's verdict line" "$(grep -cE '^hopbench check: h1: healthy \(' "$work/check/h1.out")" 1
expect_eq "check: h2 names a worse cell against its baseline" \
    "$(grep -cE '^hopbench check: h2: (latency|local read) 0 .*% (above|below) baseline ' "$work/check/h2.out" | sed 's/^[1-9][0-9]*$/some/')" some
expect_eq "check: sinfo -R lists h2 alone, drained with hopbench's reason" \
    "$(on head sinfo -R -h -o '%n|%E' | sed 's/|hopbench: .*/|hopbench: .../')" "h2|hopbench: ..."
# Every node back for the jobs below, whatever was drained.
for h in $(on head sinfo -R -h -o '%n'); do on head scontrol update nodename="$h" state=resume; done

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
