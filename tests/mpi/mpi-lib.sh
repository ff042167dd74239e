# shellcheck shell=bash disable=SC2034  # HB and QUICK are for the scripts that source this
# Shared by the mpi tests: the binary, Open MPI's root and oversubscribe words (jobs/lib/mpi.sh),
# two emulated hosts, a scratch directory, checks.
set -euo pipefail
HB=${HOPBENCH:?HOPBENCH must name the hopbench binary}
command -v mpirun >/dev/null || { echo "SKIP: mpirun not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
# shellcheck source=../../jobs/lib/mpi.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../jobs/lib/mpi.sh"
hb_mpi_detect
hb_mpi_root_env
# Most launches here are refused before measuring: no 2 s grace after each (a test that stops a
# run mid-way sets MPI_GRACE=1 before sourcing this).
[ "${MPI_GRACE:-0}" = 1 ] || hb_mpi_no_grace_env
# More ranks than this machine has cores, in the words of this mpirun.
read -ra OVERSUB <<<"$(hb_mpi_oversubscribe)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
QUICK=(--size 16M --reps 2 --min-time 0.01)
failures=0

# TWO_HOSTS ARGS...: hopbench ARGS as two ranks acting as hosts hostA and hostB
# (HOPBENCH_HOST). One app context whose ranks name themselves: Open MPI 5.0.7's prterun (as
# Debian 13 packages it) segfaults on any launch with two app contexts (`-np 1 A : -np 1 B`),
# open-mpi/ompi#13303.
# shellcheck disable=SC2016  # expanded by each rank's shell
TWO_HOSTS=(mpirun "${OVERSUB[@]}" -np 2 bash -c
    'h=(hostA hostB); HOPBENCH_HOST=${h[OMPI_COMM_WORLD_RANK]} exec "$0" "$@"' "$HB")

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
