#!/usr/bin/env bash
# Two ranks on a one-node machine: exit 3 before measuring, with what was found and the
# line that works.
. "$(dirname "$0")/mpi-lib.sh"
set +e
err=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" lat --size 128M -o out.jsonl 2>&1)
rc=$?
set -e
expect_eq "exit code" "$rc" 3
expect_has "message" "$err" "2 ranks on host $(hostname) for 1 NUMA node with CPUs; ranks 0 and 1 both on node 0"
expect_has "suggested line" "$err" "mpirun -np 1 --map-by numa --bind-to numa hopbench lat --size 128M -o out.jsonl"
expect_eq "one hopbench line" "$(grep -c '^hopbench:' <<<"$err")" 1
if [ -e out.jsonl ] || [ -e out.jsonl.partial ]; then fail "an output file was created"; fi
finish
