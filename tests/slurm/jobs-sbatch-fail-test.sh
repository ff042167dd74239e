#!/usr/bin/env bash
# jobs-sbatch-fail-test.sh HOPBENCH - CTest test (label slurm): hopbench.sbatch jobs that must
# fail early, each with hopbench's one-line message in the job's output file and no results
# directory left: twice the tasks this machine has CPU nodes for (the layout message), an
# unknown study, an option hopbench rejects, and a results directory that cannot be made.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=$(cd "$HERE/../../jobs" && pwd)
. "$HERE/slurm-lib.sh"
. "$HERE/expect.sh"
# shellcheck source=../../jobs/lib/launch.sh
. "$JOBS/lib/launch.sh"
HOPBENCH=$(realpath -- "${1:?usage: jobs-sbatch-fail-test.sh HOPBENCH}")
export HOPBENCH
WORK=${SLURM_TEST_WORK:-$PWD/slurm-jobs-sbatch-fail}

slurm_up_or_skip
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
record=$(hb_topo_record "$HOPBENCH")
nodes=$(hb_topo_cpu_nodes "$record")
ncpus=$(nproc)
if [ $((nodes * 2)) -gt "$ncpus" ]; then
    echo "SKIP: $ncpus CPUs cannot hold two tasks per CPU node ($nodes) to provoke the layout error"
    exit 77
fi
cpus=$(hb_topo_field "$record" srun | sed -n 's/.*--cpus-per-task=\([0-9]*\).*/\1/p')
fit=(--ntasks-per-node="$nodes" --cpus-per-task="$cpus")
small=(--size 16M --reps 2 --min-time 0.01)

# fail_job NAME EXIT MESSAGE SBATCH_ARGS...: the job fails with EXIT, MESSAGE is on one
# hopbench: line of its output, and nothing is left under results/.
fail_job() {
    local name=$1 code=$2 msg=$3 rc=0
    shift 3
    slurm_submit_wait -o "$WORK/$name-%j.out" "$@" || rc=$?
    cat "$HB_JOB_OUT" 2>/dev/null || true
    expect "$name: job FAILED with exit status $code" [ "$HB_JOB_STATE:$HB_JOB_EXITCODE" = "FAILED:$code:0" ]
    expect "$name: output has the message '$msg'" grep -qF -- "$msg" "$HB_JOB_OUT"
    expect "$name: the message is one hopbench: line" [ "$(grep -cF -- "$msg" "$HB_JOB_OUT")" = 1 ]
    expect "$name: no results directory left" [ -z "$(ls -A "$WORK/results" 2>/dev/null)" ]
}

fail_job layout 3 "ranks 0 and 1 both on node 0" --ntasks-per-node=$((nodes * 2)) --cpus-per-task=1 \
    "$JOBS/slurm/hopbench.sbatch" lat "${small[@]}"
fail_job study 2 "hopbench: unknown command 'nosuch'" "${fit[@]}" \
    "$JOBS/slurm/hopbench.sbatch" nosuch
fail_job option 2 "hopbench: unknown option '--bogus'" "${fit[@]}" \
    "$JOBS/slurm/hopbench.sbatch" lat --bogus
: >"$WORK/not-a-dir"
RESULTS_DIR=$WORK/not-a-dir/r fail_job results-dir 3 "hopbench: cannot create results directory" \
    "${fit[@]}" "$JOBS/slurm/hopbench.sbatch" lat "${small[@]}"
rc=0
STUDY=nosuch slurm_submit_wait -o "$WORK/study-var-%j.out" "${fit[@]}" \
    "$JOBS/slurm/hopbench.sbatch" || rc=$?
expect "STUDY=nosuch: job FAILED with hopbench's message" grep -qF "unknown command 'nosuch'" "$HB_JOB_OUT"
expect_done
