# shellcheck shell=bash disable=SC2034  # HB and QUICK are for the scripts that source this
# Shared by the mpi tests: the binary, Open MPI's root flags, a scratch directory, checks.
set -euo pipefail
HB=${HOPBENCH:?HOPBENCH must name the hopbench binary}
command -v mpirun >/dev/null || { echo "SKIP: mpirun not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
QUICK=(--size 16M --reps 2 --min-time 0.01)
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# expect_eq WHAT GOT WANT
expect_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# expect_has WHAT TEXT PART
expect_has() {
    grep -qF -- "$3" <<<"$2" || fail "$1: lacks '$3' in: $2"
}

finish() {
    [ "$failures" = 0 ] && echo "PASS" && exit 0
    exit 1
}
