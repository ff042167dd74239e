# shellcheck shell=bash
# expect.sh - the PASS/FAIL lines of the jobs/ tests. expect DESCRIPTION COMMAND... runs the
# command, prints PASS or FAIL with the description and counts failures in $fails; a test
# ends with `expect_done`, which fails when any expectation did.
fails=0
expect() {
    local what=$1
    shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
# jq_true FILE FILTER: FILTER (over all records, slurped) is true.
jq_true() {
    [ "$(jq -s "$2" "$1" 2>/dev/null)" = true ]
}
expect_done() {
    echo "$fails failed expectation(s)"
    [ "$fails" -eq 0 ]
}
