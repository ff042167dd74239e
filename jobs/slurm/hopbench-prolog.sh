#!/usr/bin/env bash
# hopbench-prolog.sh: an example Slurm Prolog (slurm.conf: Prolog=/path/hopbench-prolog.sh):
# a short node health check before each job (hopbench-healthcheck.sh with --max-time
# ${HOPBENCH_PROLOG_MAX_TIME:-20}). A degraded node is drained with hopbench's reason and the
# prolog fails, so Slurm requeues the job elsewhere; a node that cannot tell (noisy, no
# baseline) or a bad setup lets the job run and says why in slurmd's log.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$here/hopbench-healthcheck.sh" --drain --max-time "${HOPBENCH_PROLOG_MAX_TIME:-20}" "$@"
rc=$?
[ "$rc" = 1 ] && exit 1
[ "$rc" = 0 ] || echo "hopbench-prolog: check exit $rc: the job runs; see the lines above" >&2
exit 0
