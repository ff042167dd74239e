#!/usr/bin/env bash
# table.sh HOPBENCH FIXTURES - CTest (label cli): report -o NAME.txt writes the table a run
# prints, and -o NAME.csv its CSV, from result files: a row per measurement record with its
# value and interval; several runs in one file or a line that is not a record are refused
# (exit 2) and leave nothing at the name.
HB=${1:?usage: table.sh HOPBENCH FIXTURES} FX=${2:?usage: table.sh HOPBENCH FIXTURES}
. "$(dirname "$0")/expect-lib.sh"
base=$FX/base.jsonl
"$HB" report "$base" -o "$tmp/t.txt" 2>"$tmp/err"
expect "report -o t.txt exits 0" [ "$?" = 0 ]
expect "the table's columns" \
    grep -Eq '^experiment +label +kernel +thr +size +value ± CI unit +pages% status$' "$tmp/t.txt"
rows() { # every measurement: a row with its experiment, label, value (2 decimals) and ± half-interval
    local e l v h
    while read -r e l v h; do
        grep -Eq "^$e +$l .* $v ±$h " "$tmp/t.txt" || { echo "no row '$e $l $v ±$h'"; return 1; }
    done < <(jq -r 'select(.type == "measurement" and .ci95 != null) |
        "\(.experiment) \(.label) \(.value * 100 | round / 100 | tostring | if test("\\.") then . else . + ".00" end |
          if test("\\.[0-9]$") then . + "0" else . end) \((.ci95[1] - .ci95[0]) / 2 * 100 | round / 100 |
          tostring | if test("\\.") then . else . + ".00" end | if test("\\.[0-9]$") then . + "0" else . end)"' "$base")
}
expect "a row per measurement with its value and interval" rows
expect "as many rows as measurement records" \
    [ "$(grep -Ec '^[a-z]+-[a-z]+ +0\.0\.r\.0 ' "$tmp/t.txt")" = "$(grep -c '"type":"measurement"' "$base")" ]
"$HB" report "$base" -o "$tmp/t.CSV" 2>"$tmp/err"
rc=$?
expect "report -o t.CSV exits 0 with the CSV names row first and a row per measurement" \
    eval '[ "$rc" = 0 ] && head -1 "$tmp/t.CSV" | grep -q "^type,suite,experiment,label," &&
        [ "$(grep -c "^measurement," "$tmp/t.CSV")" = "$(grep -c "\"type\":\"measurement\"" "$base")" ]'
cat "$base" "$base" >"$tmp/two.jsonl"
"$HB" report "$tmp/two.jsonl" -o "$tmp/two.txt" 2>"$tmp/err"
rc=$?
expect "two runs in one file: exit 2, the second run record's line named" \
    eval '[ "$rc" = 2 ] && grep -q "two.jsonl:$(($(wc -l <"$base") + 1)): a second run record" "$tmp/err"'
"$HB" report "$FX/notjson.jsonl" -o "$tmp/bad.txt" 2>"$tmp/err"
expect "a line that is not a record: exit 2" [ "$?" = 2 ]
expect "... and nothing left at either name, no temporary" \
    eval '[ -z "$(ls "$tmp" | grep -E "^(two|bad)\.txt")" ]'
expect_done
