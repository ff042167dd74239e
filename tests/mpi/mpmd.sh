#!/usr/bin/env bash
# Ranks started with different command lines (an MPMD launch, or other options per rank):
# refused at start-up on every rank, naming the rank, within a bound, never a hang and never
# a rank's options silently ignored. Each rank picks its words itself (one app context: Open
# MPI 5's prterun fails on `-np 1 A : -np 1 B`, mpi-lib.sh).
. "$(dirname "$0")/mpi-lib.sh"
# per_rank A B: rank 0 runs hopbench A, rank 1 hopbench B (each a word list).
per_rank() {
    # shellcheck disable=SC2016  # expanded by each rank's shell
    timeout 120 mpirun "${OVERSUB[@]}" -np 2 bash -c \
        'if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then exec "$0" $1; else exec "$0" $2; fi' \
        "$HB" "$1" "$2" 2>&1
}
set +e
out=$(per_rank "lat --size 1M --reps 2 --min-time 0.01 -o a.jsonl" "comm --size 8 -o a.jsonl")
rc=$?
set -e
[ "$rc" = 3 ] || [ "$rc" = 2 ] || fail "comm : lat: exit $rc (124 is a hang): $out"
expect_has "comm : lat" "$out" "rank 1 was started with another command line than rank 0"
set +e
out=$(per_rank "lat --size 1M --reps 2 --min-time 0.01 -o b.jsonl" "lat --size 2M --reps 2 --min-time 0.01 -o b.jsonl")
rc=$?
set -e
[ "$rc" = 3 ] || [ "$rc" = 2 ] || fail "options per rank: exit $rc: $out"
expect_has "options per rank" "$out" "rank 1 was started with another command line"
[ ! -e a.jsonl ] && [ ! -e b.jsonl ] || fail "a result file was left"
finish
