# shellcheck shell=bash disable=SC2034  # work and fail are for the scripts that source this
# Shared by the scripts of this folder: strict variables, jq, a scratch directory that goes
# away at exit (the script enters it when its paths are set), and the verdict.
set -u
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# cli_finish: PASS and status 0 when no check failed, else status 1.
cli_finish() {
    [ "$fail" = 0 ] && echo PASS
    exit "$fail"
}

. "$(dirname "${BASH_SOURCE[0]}")/help-lib.sh"
