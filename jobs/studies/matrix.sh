#!/usr/bin/env bash
# Study: latency and bandwidth for every CPU node x memory node, one rank per node, with the
# firmware's hop classes beside the measured ones. Here: jobs/studies/matrix.sh [OPTIONS...];
# under Slurm: STUDY=matrix sbatch --ntasks-per-node=N --cpus-per-task=C jobs/slurm/hopbench.sbatch
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../hopbench-mpirun.sh" matrix --format jsonl -o "matrix-$(date -u +%Y%m%dT%H%M%SZ).jsonl" "$@"
