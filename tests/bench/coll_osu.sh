#!/usr/bin/env bash
# hopbench coll side by side with OSU Micro-Benchmarks' osu_allreduce and osu_bcast (a
# benchmark, not a test): two ranks on this machine under the same mpirun line, runs
# alternating so that drifting machine state hits both alike, the best of ROUNDS counting for
# each, at 8 B and 1 MiB. hopbench runs with --clean-buffers (OSU reuses its buffers) and its
# figure is `mean_us`, the ranks' mean call times averaged: what OSU prints as "Avg
# Latency(us)" (each call timed alone, a barrier between calls, on both sides). OSU is built
# under /tmp from a copy of its sources in OSU_DIR (mpi/collective/osu_*.c of OSU 5.x; none of
# it enters hopbench); its default iterations (1000 small, 100 large, 200 skipped) stand.
#
#   OSU_DIR=/path/to/osu-micro-benchmarks tests/bench/coll_osu.sh [BUILD_DIR]
# Environment: HOPBENCH (default BUILD_DIR/hopbench), ROUNDS (default 5), MPIRUN_ARGS (added
# to `mpirun -np 2`), COLL_MIN_TIME (hopbench's --min-time, default 0.001: a sample about as
# long as OSU's loop of 1000 8 B calls on shared memory; a mean over a longer loop holds more
# preemptions on a busy machine, milliseconds each). hopbench's p50 (the slowest rank's median
# call) is printed beside: on a busy machine the means of both tools swing by several times
# from run to run, the p50 far less.
set -euo pipefail
build=${1:-build}
HOPBENCH=${HOPBENCH:-$build/hopbench}
rounds=${ROUNDS:-5}
min_time=${COLL_MIN_TIME:-0.001}
src=${OSU_DIR:?coll_osu.sh needs OSU_DIR, a copy of OSU Micro-Benchmarks sources}
[[ -f $src/mpi/collective/osu_allreduce.c ]] ||
    { echo "coll_osu.sh: OSU_DIR=$src has no mpi/collective/osu_allreduce.c" >&2; exit 3; }
# shellcheck source=jobs/lib/mpi.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../jobs/lib/mpi.sh"
hb_mpi_detect
hb_mpi_root_env
read -ra oversub <<<"$(hb_mpi_oversubscribe)"
read -ra extra <<<"${MPIRUN_ARGS:-}"
mpi=(mpirun "${oversub[@]}" "${extra[@]}" -np 2)
out=/tmp/hopbench-coll-osu3
mkdir -p "$out"
for b in osu_allreduce osu_bcast; do
    [[ -x $out/$b ]] || mpicc -O2 -I"$src/mpi/collective" -DPACKAGE_VERSION='"peer"' \
        -DFIELD_WIDTH=18 -DFLOAT_PRECISION=3 -o "$out/$b" "$src/mpi/collective/$b.c" \
        "$src/mpi/collective/osu_coll.c" >&2 || exit 3
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == 0 || b < a ? b : a) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

declare -A hb osu
declare -A p50
for op in allreduce bcast; do for s in 8 1048576; do hb[$op.$s]=0; osu[$op.$s]=0; p50[$op.$s]=0; done; done
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= rounds; r++)); do
    for op in allreduce bcast; do
        for s in 8 1048576; do
            v=$("${mpi[@]}" "$out/osu_$op" -m "$s:$s" | awk -v s="$s" '$1 == s { print $2 }')
            osu[$op.$s]=$(min "${osu[$op.$s]}" "$v")
        done
        "${mpi[@]}" "$HOPBENCH" coll --op "$op" --size 8,1M --clean-buffers --repeat 1 --reps 1 \
            --min-time "$min_time" --quiet -o "$work/c.jsonl"
        for s in 8 1048576; do
            v=$(jq -r -s --argjson s "$s" '.[] | select(.type == "measurement" and .message_bytes == $s) | .mean_us' "$work/c.jsonl")
            hb[$op.$s]=$(min "${hb[$op.$s]}" "$v")
            v=$(jq -r -s --argjson s "$s" '.[] | select(.type == "measurement" and .message_bytes == $s) | .p50_us' "$work/c.jsonl")
            p50[$op.$s]=$(min "${p50[$op.$s]}" "$v")
        done
    done
done
echo "# two ranks on one node ($(hb_mpi_flavor), ${mpi[*]}), best of $rounds alternating runs;"
echo "# hopbench coll --clean-buffers mean_us vs OSU Avg Latency(us); load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
printf '%-24s %12s %12s %8s %12s\n' measure hopbench osu ratio hopbench_p50
for op in allreduce bcast; do
    for s in 8 1048576; do
        printf '%-24s %12.3f %12.3f %8s %12.3f\n' "$op $s B (us)" "${hb[$op.$s]}" "${osu[$op.$s]}" \
            "$(ratio "${hb[$op.$s]}" "${osu[$op.$s]}")" "${p50[$op.$s]}"
    done
done
