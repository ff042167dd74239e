#!/usr/bin/env bash
# jobs-local-test.sh HOPBENCH - CTest test (label slurm, no cluster needed): runs
# jobs/hopbench-mpirun.sh and jobs/run-local.sh for real with a small study and checks the
# command line they print and the records they write; bad input leaves no results behind.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=$(cd "$HERE/../../jobs" && pwd)
. "$HERE/expect.sh"
# shellcheck source=../../jobs/lib/launch.sh
. "$JOBS/lib/launch.sh"
HOPBENCH=$(realpath -- "${1:?usage: jobs-local-test.sh HOPBENCH}")
export HOPBENCH
WORK=${SLURM_TEST_WORK:-$PWD/jobs-local}
command -v jq >/dev/null || { echo "SKIP: no jq to read the records"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
record=$(hb_topo_record "$HOPBENCH")
nodes=$(hb_topo_cpu_nodes "$record")
small=(--size 16M --reps 2 --min-time 0.01)

rc=0
"$JOBS/hopbench-mpirun.sh" lat "${small[@]}" --format jsonl -o "$WORK/lat.jsonl" 2>"$WORK/mpirun.err" || rc=$?
cat "$WORK/mpirun.err"
printed=$(grep '^hopbench-mpirun: ' "$WORK/mpirun.err" || true)
expect "hopbench-mpirun.sh exits 0" [ "$rc" = 0 ]
expect "prints the OpenMP settings (no OMP_NUM_THREADS: hopbench sizes each team)" \
    grep -q "OMP_PLACES=cores OMP_PROC_BIND=close mpirun " <<<"$printed"
expect "prints the mpirun line of hopbench topo" \
    grep -qF -- "$(hb_topo_field "$record" mpirun | sed 's/^mpirun //; s/ hopbench \.\.\..*//')" <<<"$printed"
expect "passes the arguments through" grep -qF -- "$HOPBENCH lat --size 16M --reps 2 --min-time 0.01 --format jsonl -o" <<<"$printed"
if [ "$(id -u)" = 0 ]; then
    expect "as root: --allow-run-as-root" grep -qF -- "mpirun --allow-run-as-root" <<<"$printed"
fi
expect "run record: ranks == $nodes, no OMP_NUM_THREADS, places cores" jq_true "$WORK/lat.jsonl" \
    ".[] | select(.type == \"run\") | .ranks == $nodes and .omp.num_threads == null and .omp.places == \"cores\""
expect "lat measurement ok with a latency" jq_true "$WORK/lat.jsonl" \
    '[.[] | select(.type == "measurement")] | length >= 1 and all(.[]; .status == "ok" and .lat_ns_median > 0)'
rc=0
"$JOBS/hopbench-mpirun.sh" lat --bogus 2>"$WORK/bogus.err" || rc=$?
expect "a rejected option: exit 2 with hopbench's message" \
    [ "$rc:$(grep -c "^hopbench: unknown option '--bogus'" "$WORK/bogus.err")" = "2:1" ]

out=$WORK/run-local.out
rc=0
HOPBENCH_HISTORY=$WORK/history.sqlite RESULTS_ROOT=$WORK/results HOPBENCH_ARGS="matrix ${small[*]}" \
    "$JOBS/run-local.sh" >"$out" 2>&1 || rc=$?
cat "$out"
dir=$(dirname "$(sed -n 's/^results: //p' "$out")")
expect "run-local.sh exits 0" [ "$rc" = 0 ]
expect "says where: results/<timestamp>/ under RESULTS_ROOT" grep -Eqx "$WORK/results/[0-9]{8}T[0-9]{6}Z" <<<"$dir"
expect "results.jsonl: every measurement ok" jq_true "$dir/results.jsonl" \
    '[.[] | select(.type == "measurement")] | length >= 4 and all(.[]; .status == "ok")'
# table.txt is hopbench's own table (report -o table.txt): its columns, and a row per record
table_rows() {
    local e l
    while read -r e l; do
        grep -Eq "^$e +$l +" "$dir/table.txt" || { echo "no row for $e $l"; return 1; }
    done < <(jq -r 'select(.type == "measurement") | "\(.experiment) \(.label)"' "$dir/results.jsonl")
}
expect "table.txt has the columns of hopbench's table" \
    grep -Eq '^experiment +label +kernel +thr +size +value \[interval\] +unit +pages% status$' "$dir/table.txt"
expect "table.txt has a row per measurement record" table_rows
expect "table.txt ends with the summary" grep -q '^# matrix: .* 0 failed' "$dir/table.txt"
expect "prints the table: its summary line" grep -q '^# matrix: .* 0 failed' "$out"
expect "says where the table and the report are" \
    [ "$(sed -n 's/^table: *//p; s/^report: *//p' "$out")" = "$dir/table.txt"$'\n'"$dir/report.html" ]
expect "report.html beside the records, with the matrix heatmap" grep -q '<svg' "$dir/report.html"
expect "nothing else under results/" [ "$(ls -A "$WORK/results")" = "$(basename "$dir")" ]
# HOPBENCH_HISTORY: the finished run added to the history, its figures those of the records.
expect "HOPBENCH_HISTORY: run-local.sh added the run" grep -q "^$dir/results.jsonl: stored in $WORK/history.sqlite: 1 host" "$out"
expect "HOPBENCH_HISTORY: its points are the records' values" [ \
    "$(HOPBENCH_HISTORY=$WORK/history.sqlite "$HOPBENCH" history export --format csv | tail -n +2 | cut -d, -f15 | sort -g | tr '\n' ' ')" = \
    "$(jq -r 'select(.type == "measurement" and .role == "foreground" and .status == "ok") | .value' "$dir/results.jsonl" | sort -g | tr '\n' ' ')" ]
rc=0
RESULTS_ROOT=$WORK/bad "$JOBS/run-local.sh" nosuch >"$out" 2>&1 || rc=$?
expect "run-local.sh nosuch: exit 2, hopbench's message, no results" \
    [ "$rc:$(grep -c "^hopbench: unknown command 'nosuch'" "$out"):$(find "$WORK/bad" -mindepth 1 2>/dev/null | wc -l)" = "2:1:0" ]
expect_done
