#!/bin/bash
# mpi-hello-job.sh HELLO_BINARY - batch script of the slurm_mpi_hello test.
#SBATCH -J hb-mpi-hello
#SBATCH -N 1
#SBATCH -n 2
#SBATCH -t 00:02:00
set -euo pipefail
srun --mpi=pmix "${1:?usage: mpi-hello-job.sh HELLO_BINARY}"
