#!/usr/bin/env bash
# compare-output.sh HOPBENCH FIXTURES - CTest test (label cli): compare -o FILE as every
# command's -o. The file holds what standard output would, in the format its name says (or
# --format), with compare's exit code; -o twice, -o naming an input, a missing directory and a
# directory in place of a file are refused in one line with no file; a comparison that fails
# leaves an earlier FILE as it was and nothing beside it.
hb=$1 fix=$2
. "$(dirname "$0")/cli-lib.sh"
cd "$work" || exit 1
base=$fix/base.jsonl new=$fix/new.jsonl
# same OUT FORMAT: -o OUT holds what --format FORMAT prints, and both exit alike.
same() {
    "$hb" compare "$base" "$new" --format "$2" >stdout.txt 2>/dev/null
    local want=$?
    "$hb" compare "$base" "$new" -o "$1" 2>/dev/null
    local rc=$?
    [ "$rc" = "$want" ] || { echo "FAIL: -o $1: exit $rc, stdout's $want"; fail=1; }
    cmp -s stdout.txt "$1" || { echo "FAIL: -o $1 differs from --format $2 on stdout"; fail=1; }
    [ -s "$1" ] || { echo "FAIL: -o $1 is empty"; fail=1; }
}
same out.jsonl jsonl
same out.csv csv
same out.txt table
"$hb" compare "$base" "$new" -o forced.txt --format jsonl 2>/dev/null
cmp -s forced.txt out.jsonl || { echo "FAIL: -o forced.txt --format jsonl is not the JSON Lines"; fail=1; }
jq -e -s 'map(select(.type == "comparison")) | length > 0' out.jsonl >/dev/null ||
    { echo "FAIL: out.jsonl holds no comparison row"; fail=1; }
# refused CASE RC TEXT ARGS...: one line with TEXT, exit RC, and no file but the inputs' copies.
refused() {
    local name=$1 want=$2 text=$3
    shift 3
    rm -rf d && mkdir d && cd d || exit 1
    cp "$base" b.jsonl
    cp "$new" n.jsonl
    out=$("$hb" compare b.jsonl n.jsonl "$@" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = "$want" ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"$text"* ]] ||
        { echo "FAIL: $name: exit $rc: $out"; fail=1; }
    left=$(ls -A | grep -vxE 'b.jsonl|n.jsonl|x' | tr '\n' ' ')
    [ -z "$left" ] || { echo "FAIL: $name left $left"; fail=1; }
    cd .. || exit 1
}
refused twice 2 "--output given twice ('a.jsonl', then 'b.jsonl')" -o a.jsonl -o b.jsonl
refused twice-long 2 "given twice" --output=a.jsonl -o a.jsonl
refused input 2 "n.jsonl" -o n.jsonl
refused no-dir 3 "'nosuch' does not exist" -o nosuch/c.jsonl
refused a-dir 2 "directory" -o .
refused under-a-file 3 "b.jsonl" -o b.jsonl/c.jsonl
# A comparison that fails (NEW is not JSON) keeps the FILE of an earlier one, alone.
echo "an earlier comparison" >kept.jsonl
"$hb" compare "$base" "$fix/notjson.jsonl" -o kept.jsonl 2>/dev/null
rc=$?
[ "$rc" = 2 ] || { echo "FAIL: a NEW that is not JSON: exit $rc"; fail=1; }
[ "$(cat kept.jsonl)" = "an earlier comparison" ] || { echo "FAIL: the earlier kept.jsonl was changed"; fail=1; }
left=$(ls -A | grep -v '^out\.\|^stdout.txt$\|^forced.txt$\|^kept.jsonl$\|^d$' | tr '\n' ' ')
[ -z "$left" ] || { echo "FAIL: files left beside: $left"; fail=1; }
cli_finish
