#!/usr/bin/env bash
# agent.sh HOST COMMAND... - mpirun's remote launch agent for the hosts of hosts.sh (Open MPI
# 4.1's plm_rsh_agent, 5's plm_ssh_agent: jobs/lib/mpi.sh): where ssh would connect to HOST
# and hand COMMAND to its shell, this connects to HOST's address over the hosts' network (nothing
# listens: a refusal proves the host is there), then enters its namespaces and cpuset and
# does the same. Like ssh, it names the host it cannot reach or loses. The set of hosts is the
# one in $HOPBENCH_HOSTS_DIR (mpirun passes its environment on to the agent).
set -uo pipefail
host=${1:?usage: agent.sh HOST COMMAND...}
shift
hosts=$(dirname "$0")/hosts.sh
addr=$("$hosts" list | awk -v h="$host" '$1 == h { print $2 }')
[ -n "$addr" ] || { echo "agent.sh: Could not resolve hostname $host" >&2; exit 255; }
why=$(timeout 5 bash -c "exec 3<>/dev/tcp/$addr/22" 2>&1)
case $? in
0 | 1) grep -q 'refused' <<<"$why" || [ -z "$why" ] ||
    { echo "agent.sh: connect to host $host port 22: ${why##*: }" >&2; exit 255; } ;;
*) echo "agent.sh: connect to host $host port 22: Connection timed out" >&2; exit 255 ;;
esac
"$hosts" exec "$host" /bin/sh -c "$*"
rc=$?
[ "$rc" -le 128 ] || echo "agent.sh: Connection to $host closed: its command was killed by signal $((rc - 128))" >&2
exit "$rc"
