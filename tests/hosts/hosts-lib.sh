# shellcheck shell=bash disable=SC2034  # MPIRUN_ARGS and HB are for the scripts that source this
# Shared by the hosts tests: N hosts of hosts.sh in a scratch directory, torn down however the
# test ends; the mpirun settings that reach them; checks.
#
#   hosts_up N [CPULIST...]   make h1..hN (exit 77 with the reason where that is impossible)
#   on HOST CMD...            run CMD on HOST (head is the login node: mpirun, sbatch)
#   fleet ARGS...             jobs/hopbench-mpirun.sh ARGS... on head
#   knob_on HOST FILE PATH    from now on, HOST's hopbench runs with FILE over PATH
set -euo pipefail
HOSTS_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HOSTS_LIB/../.." && pwd)
HB=$(realpath -- "${HOPBENCH:?HOPBENCH must name the hopbench binary}")
export HOPBENCH=$HB
command -v mpirun >/dev/null || { echo "SKIP: mpirun not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
# shellcheck source=../../jobs/lib/mpi.sh
. "$TOP/jobs/lib/mpi.sh"
hb_mpi_detect
hb_mpi_root_env
work=$(mktemp -d)
export HOPBENCH_HOSTS_DIR=$work/hosts
# mpirun's remote launcher with the agent instead of ssh, TCP only, on the hosts' network only
# (the daemons' own parameters in this mpirun's words: jobs/lib/mpi.sh).
MPIRUN_ARGS="$(hb_mpi_agent_args "$HOSTS_LIB/agent.sh") --mca btl tcp,self"
MPIRUN_ARGS+=" --mca btl_tcp_if_include 10.117.0.0/24 $(hb_mpi_oob_args oob_tcp_if_include 10.117.0.0/24)"
export MPIRUN_ARGS
hosts_cleanup() {
    "$HOSTS_LIB/hosts.sh" down || echo "hosts-lib: teardown failed" >&2
    rm -rf "$work"
}
trap hosts_cleanup EXIT
trap 'exit 130' INT TERM
cd "$work"
failures=0

hosts_up() {
    local rc=0
    "$HOSTS_LIB/hosts.sh" up "$@" || rc=$?
    [ "$rc" = 0 ] || exit "$rc"
}

on() {
    "$HOSTS_LIB/hosts.sh" exec "$@"
}

fleet() {
    on head "$TOP/jobs/hopbench-mpirun.sh" "$@"
}

# knob_on HOST FILE PATH: a knob changed on one host, for real, without touching the machine:
# every host runs the wrapper made here as its hopbench; on HOST it runs hopbench inside a
# mount namespace of its own with FILE bind-mounted over PATH (HOST's processes see it, the
# machine and the other hosts do not).
knob_on() {
    cat >"$work/hopbench-$1" <<WRAP
#!/usr/bin/env bash
[ "\$(hostname)" = $1 ] || exec "$HB" "\$@"
exec unshare -m --propagation private bash -c 'mount --bind "\$1" "\$2" && shift 2 && exec "\$@"' \\
    _ "$2" "$3" "$HB" "\$@"
WRAP
    chmod +x "$work/hopbench-$1"
    export HOPBENCH=$work/hopbench-$1
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# expect_eq WHAT GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then echo "ok: $1"; else fail "$1: got '$2', expected '$3'"; fi
}

# expect_has WHAT TEXT PART
expect_has() {
    if grep -qF -- "$3" <<<"$2"; then echo "ok: $1"; else fail "$1: lacks '$3' in: $2"; fi
}

# jqs FILE [JQ OPTIONS] FILTER: the filter over all records of FILE, compact
jqs() {
    local f=$1
    shift
    jq -c -s "$@" "$f"
}

finish() {
    [ "$failures" = 0 ] && echo "PASS" && exit 0
    exit 1
}
