# shellcheck shell=bash disable=SC2034  # QUICK and FIX are for the scripts that source this
# Shared by the faults tests: the binary, a scratch directory, checks on exit code, message
# and the exact files left behind.
set -uo pipefail
HB=${HOPBENCH:?HOPBENCH must name the hopbench binary}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FIX=$TOP/tests/topo/fixtures
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'cleanup' EXIT
cleanup() { cd / && rm -rf "$work"; }
cd "$work" || exit 1
QUICK=(--size 1M --reps 2 --min-time 0.01 --quiet)
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run_hb ARGS...: run hopbench, keeping its status in $rc and stderr+stdout in $out
run_hb() {
    out=$("$HB" "$@" 2>&1)
    rc=$?
}

# expect CASE WANT_RC TEXT: the last run_hb exited WANT_RC and said TEXT
expect() {
    [ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2; output: $out"
    grep -qF -- "$3" <<<"$out" || fail "$1: output lacks '$3': $out"
}

# expect_files CASE DIR NAMES...: DIR holds exactly these names (sorted), nothing else
expect_files() {
    local what=$1 dir=$2
    shift 2
    local got want
    got=$(cd "$dir" && LC_ALL=C ls -A | LC_ALL=C sort | tr '\n' ' ')
    want=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
    [ -z "$*" ] && want=""
    [ "$got" = "$want" ] || fail "$what: files left '$got', expected '$want'"
}

# expect_jsonl CASE FILE: every line of FILE is a JSON object and the first is the run record
expect_jsonl() {
    jq -e -s 'length >= 1 and .[0].type == "run" and all(.[]; type == "object")' "$2" \
        >/dev/null 2>&1 || fail "$1: $2 is not complete JSON Lines starting with the run record"
}

finish() {
    [ "$failures" = 0 ] && echo "PASS" && exit 0
    exit 1
}
