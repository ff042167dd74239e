# shellcheck shell=bash
# slurm-lib.sh - helpers for tests that submit real jobs to the local Slurm of
# slurm-cluster.sh (next to this file). Source it from a bash test script:
#
#   . "$SRC/tests/slurm/slurm-lib.sh"
#   slurm_up_or_skip                  # exit 77 (CTest skip) with the reason
#   slurm_submit_wait -n 2 -o "$PWD/%j.out" job.sh ARG || rc=$?
#   grep -q 'expected line' "$HB_JOB_OUT"
#
# slurm_up_or_skip
#   Uses the cluster when it already runs (the CTest fixture test
#   slurm_cluster_up started it; slurm_cluster_down stops it). Otherwise it
#   starts it and registers an EXIT trap that stops it again (by the daemons'
#   PID files) however the test ends. A test that needs its own EXIT trap
#   must call slurm_down_if_started from it. Exports SLURM_CONF.
#   Exit 77 when the cluster cannot run here (not root, no apt-get, packages
#   not installable); any other failure to start ends the test with status 1.
# slurm_submit_wait SBATCH_ARGS...
#   sbatch --parsable, then waits (polling every 0.5 s, at most
#   $HB_JOB_TIMEOUT s, default 300; a job still running then is cancelled).
#   Sets HB_JOB_ID, HB_JOB_STATE (COMPLETED, FAILED, ..., or WAIT_TIMEOUT,
#   NEVER_STARTS, UNKNOWN), HB_JOB_EXITCODE ("0:0"), HB_JOB_OUT (the job's
#   stdout file) and prints "STATE EXITCODE OUTFILE". Returns 0 only when
#   the job COMPLETED; else the job's exit status or 128+signal (see
#   slurm-cluster.sh wait). Check the output file too: srun can exit 0 when a
#   PMIx step failed to launch.
#
# Environment: HOPBENCH_SLURM_DIR and the other HOPBENCH_SLURM_* settings of
# slurm-cluster.sh; HB_JOB_TIMEOUT.

SLURM_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SLURM_CLUSTER_SH=$SLURM_LIB_DIR/slurm-cluster.sh
SLURM_LIB_STARTED=0

slurm_down_if_started() {
  if [[ $SLURM_LIB_STARTED == 1 ]]; then
    SLURM_LIB_STARTED=0
    "$SLURM_CLUSTER_SH" down || echo "slurm-lib: stopping the cluster failed" >&2
  fi
}

slurm_up_or_skip() {
  local rc=0
  if ! "$SLURM_CLUSTER_SH" status >/dev/null 2>&1; then
    trap slurm_down_if_started EXIT
    trap 'exit 130' INT TERM
    SLURM_LIB_STARTED=1
    "$SLURM_CLUSTER_SH" up || rc=$?
    if [[ $rc -eq 77 ]]; then
      SLURM_LIB_STARTED=0
      echo "SKIP: no local Slurm cluster here (reason above)"
      exit 77
    elif [[ $rc -ne 0 ]]; then
      echo "slurm_up_or_skip: slurm-cluster.sh up failed with status $rc" >&2
      exit 1
    fi
  fi
  eval "$("$SLURM_CLUSTER_SH" env)"
}

slurm_submit_wait() {
  local id line rc=0
  HB_JOB_ID='' HB_JOB_STATE='' HB_JOB_EXITCODE='' HB_JOB_OUT=''
  id=$(sbatch --parsable "$@") || { echo "slurm_submit_wait: sbatch $* failed" >&2; return 1; }
  HB_JOB_ID=${id%%;*}
  line=$("$SLURM_CLUSTER_SH" wait "$HB_JOB_ID" "${HB_JOB_TIMEOUT:-300}") || rc=$?
  case $rc in
    124) HB_JOB_STATE=WAIT_TIMEOUT; scancel "$HB_JOB_ID" 2>/dev/null || true ;;
    123) HB_JOB_STATE=NEVER_STARTS ;;
    122) HB_JOB_STATE=UNKNOWN ;;
    *)   HB_JOB_STATE=$(sed -n 's/^job [0-9]* \([A-Z_]*\) .*/\1/p' <<<"$line")
         HB_JOB_EXITCODE=$(sed -n 's/.* ExitCode=\([0-9:]*\)$/\1/p' <<<"$line") ;;
  esac
  HB_JOB_OUT=$(scontrol -o show job "$HB_JOB_ID" 2>/dev/null | sed -n 's/.* StdOut=\([^ ]*\).*/\1/p')
  echo "${HB_JOB_STATE:-?} ${HB_JOB_EXITCODE:-?} ${HB_JOB_OUT:-?}"
  return "$rc"
}
