#!/usr/bin/env bash
# coverage.sh HOPBENCH FIXTURES - CTest (label cli): wherever the table, its CSV and the HTML
# report show intervals they say their real coverage and repeats, never a fixed 95%: a file
# of 5 repeats says "93.75% interval, 5 repeats", one of 3 "75% interval, 3 repeats", and a
# file of both the range (docs/method.md#the-headline-and-its-interval).
HB=${1:?usage: coverage.sh HOPBENCH FIXTURES} FX=${2:?usage: coverage.sh HOPBENCH FIXTURES}
. "$(dirname "$0")/expect-lib.sh"
# base.jsonl's run record and its measurements of 5 repeats; the same as 3 repeats.
jq -c 'select(.type == "run" or (.type == "measurement" and .repeats == 5))' "$FX/base.jsonl" \
    >"$tmp/five.jsonl"
jq -c 'if .type == "measurement" then .repeats = 3 | .ci_coverage = 0.75 else . end' \
    "$tmp/five.jsonl" >"$tmp/three.jsonl"
jq -c 'select(.type == "run" or (.type == "measurement" and .ci95 != null))' "$FX/base.jsonl" \
    >"$tmp/mixed.jsonl"
for f in five three mixed; do
    "$HB" report "$tmp/$f.jsonl" -o "$tmp/$f.txt" 2>"$tmp/err" &&
        "$HB" report "$tmp/$f.jsonl" -o "$tmp/$f.csv" 2>>"$tmp/err" &&
        "$HB" report "$tmp/$f.jsonl" -o "$tmp/$f.html" 2>>"$tmp/err" || {
        echo "FAIL: report $f.jsonl: $(cat "$tmp/err")"
        fails=$((fails + 1))
    }
done
says() { grep -qF -- "$2" "$tmp/$1"; }
nowhere95() { ! grep -E '95 ?%' "$tmp/$1"; }
expect "table of 5 repeats: its intervals are 93.75%, 5 repeats" says five.txt '# [interval]: 93.75% interval, 5 repeats'
expect "table of 3 repeats: 75%, 3 repeats" says three.txt '# [interval]: 75% interval, 3 repeats'
expect "table of both: each stated where it starts" \
    eval 'says mixed.txt "# [interval]: 93.75% interval, 5 repeats" && says mixed.txt "# [interval]: 75% interval, 3 repeats"'
expect "CSV carries each row's coverage and repeats" \
    eval 'head -1 "$tmp/five.csv" | grep -q ",ci95_lo,ci95_hi,ci_coverage,noisy,repeats," &&
        [ "$(grep -c ",0.9375,[a-z]*,5," "$tmp/five.csv")" = "$(grep -c "^measurement," "$tmp/five.csv")" ]'
expect "report of 5 repeats: whiskers and interval column 93.75%, 5 repeats" \
    eval 'says five.html "Whiskers: 93.75% interval, 5 repeats." && says five.html "<th>93.75% interval, 5 repeats</th>"'
expect "report of 3 repeats: 75%, 3 repeats" \
    eval 'says three.html "Whiskers: 75% interval, 3 repeats." && says three.html "<th>75% interval, 3 repeats</th>"'
expect "report of both: the range" says mixed.html '<th>75-93.75% intervals, 3-5 repeats</th>'
for f in five.txt three.txt mixed.txt five.html three.html mixed.html; do
    expect "$f says no fixed 95%" nowhere95 "$f"
done
expect_done
