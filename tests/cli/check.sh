#!/usr/bin/env bash
# One CLI case: check.sh HOPBENCH EXPECTED_EXIT EXPECTED_TEXT [ARGS...]
# Runs hopbench in a fresh directory; passes when the exit code matches, the combined output
# contains EXPECTED_TEXT, and a failing case created no output file (-o out.jsonl is
# relative to that directory). @FIX@ in ARGS is replaced by the fixtures directory.
set -uo pipefail
hb=$1 want_rc=$2 want_text=${3//@SEMI@/;}
shift 3
fix=$(cd "$(dirname "${BASH_SOURCE[0]}")/../topo/fixtures" && pwd)
args=()
for a in "$@"; do
    a=${a//@SEMI@/;}
    args+=("${a//@FIX@/$fix}")
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
out=$("$hb" "${args[@]}" 2>&1)
rc=$?
fail=0
if [ "$rc" != "$want_rc" ]; then
    echo "FAIL: exit code $rc, expected $want_rc"
    fail=1
fi
if ! grep -qF -- "$want_text" <<<"$out"; then
    echo "FAIL: output lacks: $want_text"
    fail=1
fi
if [ "$want_rc" != 0 ]; then
    if [ -n "$(ls -A "$dir")" ]; then
        echo "FAIL: a failing run left files: $(ls -A "$dir")"
        fail=1
    fi
    if [ "$(grep -c . <<<"$out")" != 1 ]; then
        echo "FAIL: expected one line of error output"
        fail=1
    fi
fi
[ "$fail" = 0 ] || { echo "--- output:"; echo "$out"; }
exit "$fail"
