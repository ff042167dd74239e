#!/usr/bin/env bash
# Study: the matrix on every node of a Slurm partition at once, to find hosts that differ
# (fleet record). jobs/studies/slurm-matrix-fleet.sh NODES NUMA_NODES CPUS_PER_NODE [OPTIONS...]
# (NUMA_NODES and CPUS_PER_NODE as `hopbench topo` prints them for one such node).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nodes=${1:?usage: slurm-matrix-fleet.sh NODES NUMA_NODES CPUS_PER_NODE [OPTIONS...]}
ranks=${2:?NUMA nodes with CPUs per host}
cpus=${3:?CPUs per NUMA node}
shift 3
exec sbatch -N "$nodes" --ntasks-per-node="$ranks" --cpus-per-task="$cpus" \
    "$here/../slurm/hopbench-fleet.sbatch" matrix "$@"
