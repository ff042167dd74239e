#!/usr/bin/env bash
# Rank 0's peak memory as ranks grow (a benchmark, not a test): N oversubscribed ranks, each
# acting as its own host (HOPBENCH_HOST), run `sweep` (many records per rank, repeats round
# the whole plan) and rank 0 writes them all. Rank 0's peak RSS must stay nearly flat in N
# beyond what the MPI library itself costs per peer, measured by a trivial MPI program (a
# broadcast and two gathers of 4 KiB from every rank) under the same mpirun. Prints one row per N and binary.
#
#   tests/bench/gather_rss.sh [N...]          (default: 4 16 64)
# Environment: HOPBENCH (default build/hopbench), BEFORE (another binary to compare, e.g. an
# older build), SUITE (the suite to run, default sweep; e.g. matrix, for which rank 0
# keeps the part of every record its derive reads), SWEEP (its arguments), WORK (scratch directory, default a new one
# under /tmp; removed). Columns: records written, rank 0's peak RSS, the trivial program's,
# the difference, and the most records rank 0 held at once (HOPBENCH_DEBUG_HELD; '-' for a
# binary without it).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../jobs/lib/mpi.sh
. "$top/jobs/lib/mpi.sh"
hb_mpi_detect
hb_mpi_root_env
# The tests' check keeps whole records beside the kept part: not what a user runs.
unset HOPBENCH_DEBUG_KEEP
read -ra oversub <<<"$(hb_mpi_oversubscribe)"
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(4 16 64)
bins=("${HOPBENCH:-$top/build/hopbench}")
[ -z "${BEFORE:-}" ] || bins=("$BEFORE" "${bins[@]}")
read -ra sweep <<<"${SWEEP:---max-size 1M --reps 1 --min-time 0.0005 --repeat 3}"
work=${WORK:-$(mktemp -d)}
trap 'rm -rf "$work"' EXIT
cd "$work"
# The trivial program talks as hopbench does: a broadcast, and every rank's bytes gathered on
# rank 0 and on all ranks, so the library makes its buffers for every peer.
printf '%s\n' '#include <mpi.h>' '#include <stdlib.h>' 'int main(int argc, char **argv)' '{' \
    '    int n, mine = 1, *all, *at;' '    char one[4096] = {0}, *got;' \
    '    MPI_Init(&argc, &argv);' '    MPI_Comm_size(MPI_COMM_WORLD, &n);' \
    '    all = calloc(n, sizeof(int)), at = calloc(n, sizeof(int)), got = malloc(4096 * n);' \
    '    for (int r = 0; r < n; r++) all[r] = 4096, at[r] = 4096 * r;' \
    '    MPI_Bcast(&mine, 1, MPI_INT, 0, MPI_COMM_WORLD);' \
    '    MPI_Gatherv(one, 4096, MPI_BYTE, got, all, at, MPI_BYTE, 0, MPI_COMM_WORLD);' \
    '    MPI_Allgather(one, 4096, MPI_BYTE, got, 4096, MPI_BYTE, MPI_COMM_WORLD);' \
    '    MPI_Finalize();' '    return 0;' '}' >mpi_base.c
mpicc -O2 -o mpi_base mpi_base.c

# launch N BIN ARGS...: BIN ARGS on N ranks, each its own host; rank r's peak RSS (KiB) in
# rss.r, and the most records rank 0 held at once in held.txt.
# shellcheck disable=SC2016  # expanded by each rank's shell
launch() {
    local n=$1
    shift
    rm -f rss.* held.txt
    timeout 900 mpirun "${oversub[@]}" -np "$n" bash -c \
        'r=$OMPI_COMM_WORLD_RANK; export HOPBENCH_HOST=h$r;
         [ "$r" = 0 ] && export HOPBENCH_DEBUG_HELD=held.txt;
         exec /usr/bin/time -f "%M" -o rss.$r "$0" "$@"' "$@" >/dev/null
}

mib() { echo "$1 / 1024" | bc -l; }

printf '%-6s %-7s %9s %10s %10s %10s %9s %8s %8s\n' ranks binary records rank0_MiB \
    mpi_MiB beyond_MiB held_max wall_s cpu_s
for n in "${ranks[@]}"; do
    launch "$n" ./mpi_base
    base=$(cat rss.0)
    for b in "${bins[@]}"; do
        tag=after
        [ "$b" != "${BEFORE:-}" ] || tag=before
        t0=$(date +%s.%N)
        c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
        launch "$n" "$b" "${SUITE:-sweep}" "${sweep[@]}" --quiet --format jsonl -o out.jsonl
        wall=$(echo "$(date +%s.%N) - $t0" | bc)
        cpu=$(echo "($(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat) - $c0) / $(getconf CLK_TCK)" | bc -l)
        recs=$(grep -c '"type":"measurement"' out.jsonl || true)
        printf '%-6s %-7s %9s %10.1f %10.1f %10.1f %9s %8.1f %8.1f\n' "$n" "$tag" "$recs" \
            "$(mib "$(cat rss.0)")" "$(mib "$base")" "$(mib "$(($(cat rss.0) - base))")" \
            "$(cat held.txt 2>/dev/null || echo -)" "$wall" "$cpu"
    done
done
