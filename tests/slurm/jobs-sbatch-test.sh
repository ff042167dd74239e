#!/usr/bin/env bash
# jobs-sbatch-test.sh HOPBENCH - CTest test (label slurm): submits jobs/slurm/hopbench.sbatch
# for real with the layout of this machine (read from `hopbench topo`), waits, and checks the
# JSON Lines records it wrote to results/$JOBID/ under the submit directory: one run record
# with one rank per CPU node on its own node, every measurement ok with its SIMD path, and
# no partial directory left. Then the fleet script on one node: its matrix study by default.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=$(cd "$HERE/../../jobs" && pwd)
. "$HERE/slurm-lib.sh"
. "$HERE/expect.sh"
# shellcheck source=../../jobs/lib/launch.sh
. "$JOBS/lib/launch.sh"
HOPBENCH=$(realpath -- "${1:?usage: jobs-sbatch-test.sh HOPBENCH}")
export HOPBENCH
WORK=${SLURM_TEST_WORK:-$PWD/slurm-jobs-sbatch}
command -v jq >/dev/null || { echo "SKIP: no jq to read the records"; exit 77; }

slurm_up_or_skip
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
record=$(hb_topo_record "$HOPBENCH")
nodes=$(hb_topo_cpu_nodes "$record")
cpus=$(hb_topo_field "$record" srun | sed -n 's/.*--cpus-per-task=\([0-9]*\).*/\1/p')
study=(matrix --size 16M --reps 2 --min-time 0.01)

rc=0
slurm_submit_wait -o "$WORK/job-%j.out" --ntasks-per-node="$nodes" --cpus-per-task="$cpus" \
    "$JOBS/slurm/hopbench.sbatch" "${study[@]}" || rc=$?
cat "$HB_JOB_OUT" 2>/dev/null || true
res=$WORK/results/$HB_JOB_ID/results.jsonl
expect "job COMPLETED with status 0" [ "$HB_JOB_STATE/$rc" = COMPLETED/0 ]
expect "output names srun --mpi=pmix with -m block:block" grep -q 'srun --mpi=pmix -m block:block --cpu-bind=' "$HB_JOB_OUT"
expect "output names OMP_PLACES=cores OMP_PROC_BIND=close" grep -q 'OMP_PLACES=cores OMP_PROC_BIND=close' "$HB_JOB_OUT"
expect "results/$HB_JOB_ID/results.jsonl exists" [ -s "$res" ]
expect "no partial directory or file left" [ -z "$(find "$WORK/results" -name '*.partial')" ]
expect "one run record" jq_true "$res" '[.[] | select(.type == "run")] | length == 1'
expect "run record: ranks == $nodes" jq_true "$res" ".[] | select(.type == \"run\") | .ranks == $nodes"
expect "rank_layout: rank r on CPU node r, one per node" jq_true "$res" \
    '.[] | select(.type == "run") | .rank_layout | (length > 0) and ([.[].node] | unique | length) == length and all(.[]; .rank >= 0 and .node >= 0)'
expect "run record: OpenMP places cores, bind close" jq_true "$res" \
    '.[] | select(.type == "run") | .omp.places == "cores" and .omp.proc_bind == "close"'
expect "measurements present" jq_true "$res" '[.[] | select(.type == "measurement")] | length >= 4'
expect "every measurement status ok" jq_true "$res" 'all(.[] | select(.type == "measurement"); .status == "ok")'
expect "every measurement names its simd path" jq_true "$res" \
    'all(.[] | select(.type == "measurement"); .simd | IN("avx512", "avx2", "sse2", "c"))'
expect "summary: none failed" jq_true "$res" '.[] | select(.type == "summary") | .failed == 0 and .ok > 0'

# The fleet script with only options: its default study (matrix) runs with them.
fleet=$WORK/fleet
rc=0
HOPBENCH_HISTORY=$WORK/history.sqlite RESULTS_DIR=$fleet slurm_submit_wait -o "$WORK/fleet-%j.out" -N 1 --ntasks-per-node="$nodes" \
    --cpus-per-task="$cpus" "$JOBS/slurm/hopbench-fleet.sbatch" --size 16M --reps 2 --min-time 0.01 || rc=$?
cat "$HB_JOB_OUT" 2>/dev/null || true
expect "fleet job COMPLETED with status 0" [ "$HB_JOB_STATE/$rc" = COMPLETED/0 ]
expect "fleet job ran the matrix study" jq_true "$fleet/results.jsonl" \
    '.[] | select(.type == "run") | .command == "matrix"'
expect "fleet job wrote matrix records" jq_true "$fleet/results.jsonl" '[.[] | select(.type == "matrix")] | length > 0'
# HOPBENCH_HISTORY: the job added its run, under its host; check reports per host.
expect "fleet job added its run to the history" grep -q "results.jsonl: stored in $WORK/history.sqlite" "$HB_JOB_OUT"
expect "check: the run's hosts and its series" [ "$("$HOPBENCH" history check --db "$WORK/history.sqlite" --format jsonl |
    jq -c 'select(.type == "history_summary") | [.hosts, .series > 0, .points == .series]')" = \
    "[$(jq -s '[.[] | select(.type == "run") | .hosts[]] | length' "$fleet/results.jsonl"),true,true]" ]
expect_done
