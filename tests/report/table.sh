#!/usr/bin/env bash
# table.sh HOPBENCH FIXTURES - CTest (label cli): report -o NAME.txt writes the table a run
# prints, and -o NAME.csv its CSV, from result files: a row per measurement record with its
# value and interval as [lo, hi] (never +-), in CSV as columns ci95_lo and ci95_hi; several runs in one file or a line that is not a record are refused
# (exit 2) and leave nothing at the name.
HB=${1:?usage: table.sh HOPBENCH FIXTURES} FX=${2:?usage: table.sh HOPBENCH FIXTURES}
. "$(dirname "$0")/expect-lib.sh"
base=$FX/base.jsonl
"$HB" report "$base" -o "$tmp/t.txt" 2>"$tmp/err"
expect "report -o t.txt exits 0" [ "$?" = 0 ]
. "$(dirname "$0")/figure-lib.sh"
expect "the table's columns" \
    grep -Eq '^experiment +label +kernel +thr +size +value \[interval\] +unit +pages% status$' "$tmp/t.txt"
rows() { # every measurement: a row with its experiment, label, value [lo, hi] as the record's
    local e l u fig
    while IFS=$'\t' read -r e l u fig; do
        grep -Eq "^$e +$l .* ${fig//[/\\[} +$u " "$tmp/t.txt" || { echo "no row '$e $l $fig $u'"; return 1; }
    done < <(paste <(jq -r 'select(.type == "measurement" and .ci95 != null) |
                 "\(.experiment)\t\(.label)\t\(if .unit == "GBps" then "GB/s" else .unit end)"' "$base") \
        <(jq -r 'select(.type == "measurement" and .ci95 != null) | "\(.value) \(.ci95[0]) \(.ci95[1])"' "$base" |
            figures))
}
expect "a row per measurement with its value and interval" rows
expect "no interval written as +-" eval '! grep -q "±" "$tmp/t.txt"'
expect "as many rows as measurement records" \
    [ "$(grep -Ec '^[a-z]+-[a-z]+ +0\.0\.r\.0 ' "$tmp/t.txt")" = "$(grep -c '"type":"measurement"' "$base")" ]
"$HB" report "$base" -o "$tmp/t.CSV" 2>"$tmp/err"
rc=$?
expect "report -o t.CSV exits 0 with the CSV names row first and a row per measurement" \
    eval '[ "$rc" = 0 ] && head -1 "$tmp/t.CSV" | grep -q "^type,suite,experiment,label," &&
        [ "$(grep -c "^measurement," "$tmp/t.CSV")" = "$(grep -c "\"type\":\"measurement\"" "$base")" ]'
csv_ends() { # each row's ci95_lo and ci95_hi are its record's ci95 ends, nothing else holds +-
    ! grep -q "±" "$tmp/t.CSV" &&
        diff <(python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
lo = rows[0].index("ci95_lo")
assert rows[0][lo + 1] == "ci95_hi" and "ci95" not in rows[0]
for r in rows[1:]:
    if r[0] == "measurement": print(r[lo] and float(r[lo]), r[lo + 1] and float(r[lo + 1]))' "$tmp/t.CSV") \
            <(jq -r 'select(.type == "measurement") | "\(.ci95[0] // "") \(.ci95[1] // "")"' "$base" |
                python3 -c 'import sys
for line in sys.stdin:
    a = (line.rstrip("\n") + " ").split(" ")[:2]
    print(*[x and float(x) for x in a])')
}
expect "CSV: the interval as two columns, ci95_lo and ci95_hi, equal to the record's ends" csv_ends
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
