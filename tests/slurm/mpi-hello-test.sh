#!/usr/bin/env bash
# mpi-hello-test.sh HELLO_BINARY - CTest test (label slurm): an sbatch job
# runs the MPI hello with `srun --mpi=pmix -n 2`; every rank's line must be in
# the job output (srun can exit 0 when a PMIx step failed), and the job must
# be COMPLETED. Exit 77 (skip) when no local Slurm can run here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/slurm-lib.sh"
HELLO=$(realpath -- "${1:?usage: mpi-hello-test.sh HELLO_BINARY}")
WORK=${SLURM_TEST_WORK:-$PWD/slurm-mpi-hello}

slurm_up_or_skip
rm -rf "$WORK"; mkdir -p "$WORK"
start=$SECONDS
rc=0
slurm_submit_wait -D "$WORK" -o "$WORK/hello-%j.out" "$HERE/mpi-hello-job.sh" "$HELLO" || rc=$?
echo "job $HB_JOB_ID: $HB_JOB_STATE ExitCode=$HB_JOB_EXITCODE status $rc, $((SECONDS - start)) s"
[[ -f $HB_JOB_OUT ]] && { echo "----- $HB_JOB_OUT"; cat "$HB_JOB_OUT"; echo "-----"; }

fails=0
expect() {   # expect DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
expect "job COMPLETED with status 0" [ "$HB_JOB_STATE/$rc" = COMPLETED/0 ]
expect "output file exists" [ -f "$HB_JOB_OUT" ]
for r in 0 1; do
  expect "rank $r of 2 reported, Allreduce sum 2" grep -Eq "^HELLO rank $r of 2 sum 2 " "$HB_JOB_OUT"
done
expect "exactly 2 rank lines" [ "$(grep -c '^HELLO rank ' "$HB_JOB_OUT" 2>/dev/null || true)" = 2 ]
[[ $fails -eq 0 ]]
