# shellcheck shell=bash
# job-lib.sh: the body of the Slurm batch scripts (hopbench.sbatch, hopbench-fleet.sbatch),
# sourced from inside a job. hb_slurm_job checks the study with `hopbench --dry-run` before
# anything is created, takes the binding from `hopbench topo` of this node, runs
# `srun --mpi=pmix` with the allocation's task count, and moves the results into place only
# when hopbench finished; a failed job leaves no results directory. With HOPBENCH_HISTORY set,
# the finished run is added to that history (hopbench history add). hopbench's own one-line
# messages (bad study, bad option, wrong rank layout) go to the job's output file.
HB_JOBS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../lib/launch.sh
. "$HB_JOBS_DIR/lib/launch.sh"

# hb_slurm_job ARGS...: run one study in this job; exit status is hopbench's.
hb_slurm_job() {
    local hb record bind results parent rc=0 hrc
    hb=$(hb_find_hopbench "$HB_JOBS_DIR")
    echo "hopbench job ${SLURM_JOB_ID:-?}: ${SLURM_JOB_NUM_NODES:-?} node(s) x ${SLURM_NTASKS_PER_NODE:-?} task(s), ${SLURM_CPUS_PER_TASK:-?} CPU(s) per task; study: ${*:-default suite}"
    hb_launch_check "the job" "$hb" "$@" || return

    record=$(hb_topo_record "$hb")
    # Only the binding comes from topo: the task count stays the allocation's, so a wrong
    # --ntasks-per-node reaches hopbench, which stops with the layout message and the fix.
    bind=$(hb_topo_field "$record" srun | sed -n 's/.*--cpu-bind=\([^ ]*\).*/\1/p')
    hb_omp_env

    results=${RESULTS_DIR:-${SLURM_SUBMIT_DIR:-$PWD}/results/${SLURM_JOB_ID:?}}
    parent=$(dirname "$results")
    if [ -e "$results" ]; then
        echo "hopbench: results directory '$results' exists; set RESULTS_DIR to a new path" >&2
        return 2
    fi
    # Globals: the EXIT trap that settles them runs after this function has returned.
    HB_SLURM_TMP=$parent/.$(basename "$results").partial
    if ! mkdir -p "$parent" 2>/dev/null || ! mkdir "$HB_SLURM_TMP" 2>/dev/null; then
        echo "hopbench: cannot create results directory '$results'; set RESULTS_DIR to a writable path" >&2
        return 3
    fi
    HB_SLURM_RESULTS=$results
    trap 'hb_results_settle "$HB_SLURM_TMP" "$HB_SLURM_RESULTS"' EXIT
    trap 'exit 143' INT TERM

    local cmd=(srun --mpi=pmix -m block:block --cpu-bind="$bind")
    [ -n "${SLURM_CPUS_PER_TASK:-}" ] && cmd+=(--cpus-per-task="$SLURM_CPUS_PER_TASK")
    cmd+=("$hb" "$@" --format jsonl -o "$HB_SLURM_TMP/results.jsonl")
    hb_omp_words
    printf ' %q' "${cmd[@]}"
    printf '\n'
    "${cmd[@]}" || rc=$?
    # srun can exit 0 when a step never started: no output file means no results.
    [ -f "$HB_SLURM_TMP/results.jsonl" ] || [ "$rc" -ne 0 ] || rc=3
    # Status 1 (a measurement failed its checks) still leaves complete records, marked failed.
    if [ "$rc" -le 1 ]; then
        mv -T -- "$HB_SLURM_TMP" "$results"
        trap - EXIT
        echo "hopbench: results in $results"
        # With HOPBENCH_HISTORY set, the run goes into the history (a fleet's hosts apart).
        hrc=0
        hb_history_add "$hb" "$results/results.jsonl" || hrc=$?
        [ "$rc" != 0 ] || rc=$hrc
    fi
    return "$rc"
}
