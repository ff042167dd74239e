#!/usr/bin/env bash
# A host mpirun cannot reach (its launch agent fails as ssh does) stops a fleet before anything
# starts, with one line naming it: Open MPI 4.1 (the agent's own words) and Open MPI 5 (PRRTE's
# "lost communication ... on node H") alike; the agent is set in this mpirun's words
# (jobs/lib/mpi.sh: plm_rsh_agent or plm_ssh_agent).
jobs=$(cd "$(dirname "$0")/../../jobs" && pwd)
. "$(dirname "$0")/mpi-lib.sh"
printf '#!/bin/sh\necho "ssh: connect to host $1 port 22: No route to host" >&2\nexit 255\n' >agent.sh
chmod +x agent.sh
rc=0
out=$(MPIRUN_ARGS="$(hb_mpi_agent_args "$PWD/agent.sh")" timeout 90 "$jobs/hopbench-mpirun.sh" \
    --host nohost7 matrix "${QUICK[@]}" -o f.jsonl 2>&1) || rc=$?
echo "$out"
expect_eq "exit" "$rc" 3
expect_has "message" "$out" "hopbench: host(s) nohost7 could not be reached (ssh: connect to host nohost7 port 22: No route to host)"
expect_has "nothing started" "$out" "); nothing was started"
[ ! -e f.jsonl ] || fail "an output was created"
finish
