#!/usr/bin/env bash
# c2c bad input: exit 2 and one line naming the value and what is valid.
# usage: c2c-cli.sh HOPBENCH
set -uo pipefail
hb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # CODE TEXT ARGS...
  local code=$1 text=$2; shift 2
  out=$(env -u OMPI_COMM_WORLD_SIZE "$@" 2>&1); rc=$?
  [ "$rc" = "$code" ] || fail "$* -> exit $rc, expected $code: $out"
  grep -qF -- "$text" <<<"$out" || fail "$* -> '$out' lacks '$text'"
}
expect 2 "--home 5: no such NUMA node; nodes with memory: " "$hb" c2c --home 5
expect 2 "invalid --home 'x': expected writer, reader or a node number" "$hb" c2c --home x
expect 2 "invalid --home '-1'" "$hb" c2c --home -1
expect 2 "c2c --format csv" "$hb" c2c --format csv
expect 2 "c2c --dry-run" "$hb" c2c --dry-run
expect 2 "run it without mpirun/srun" env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$hb" c2c
echo ok
