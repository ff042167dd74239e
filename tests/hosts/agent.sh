#!/usr/bin/env bash
# agent.sh HOST COMMAND... - Open MPI's rsh launcher agent for the hosts of hosts.sh
# (mpirun --mca plm_rsh_agent tests/hosts/agent.sh): where ssh would log in to HOST and hand
# COMMAND to its shell, this enters HOST's namespaces and cpuset and does the same. The set of
# hosts is the one in $HOPBENCH_HOSTS_DIR (mpirun passes its environment on to the agent).
set -euo pipefail
host=${1:?usage: agent.sh HOST COMMAND...}
shift
exec "$(dirname "$0")/hosts.sh" exec "$host" /bin/sh -c "$*"
