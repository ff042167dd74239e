# shellcheck shell=bash
# Shared by the hand-made-record tests (report: hmat.sh, mlp.sh, table.sh; topo: export.sh): $tmp,
# expect DESCRIPTION COMMAND... counting failures, and expect_done for the exit status.
set -uo pipefail
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # expect DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
expect_done() {
    echo "$fails failed check(s)"
    [ "$fails" -eq 0 ]
}
