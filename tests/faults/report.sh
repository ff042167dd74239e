#!/usr/bin/env bash
# Hostile inputs to report and compare: statistics that cannot be computed (±1e308 samples,
# a zero median), markup and newlines in every string field, a 1000 x 1000 matrix of empty
# cells, 20k-record files under a time bound, 30000 records in 40 MB, and out of memory while
# reading.
. "$(dirname "$0")/faults-lib.sh"
FX=$TOP/tests/report/fixtures

# Samples no statistic can be computed from: verdict undetermined, never a crash or "same".
jq -c 'if .type == "measurement" then .samples_s = [1e308, -1e308, 1e308] else . end' \
    "$FX/base.jsonl" >nan.jsonl
for fmt in table csv jsonl; do
    run_hb compare "$FX/base.jsonl" nan.jsonl --format "$fmt"
    [ "$rc" -lt 2 ] || fail "compare NaN --format $fmt: exit $rc: $out"
    grep -q undetermined <<<"$out" || fail "compare NaN --format $fmt: no undetermined verdict"
    ! grep -qE '^(same|noise)|,(same|noise)$|"verdict":"(same|noise)"' <<<"$out" ||
        fail "compare NaN --format $fmt: a verdict from statistics that cannot be computed"
done
jq -e -s 'all(.[]; .type != "comparison" or (.p == null and .verdict == "undetermined"))' \
    <<<"$out" >/dev/null || fail "compare NaN jsonl: p not null: $out"
jq -c 'if .type == "measurement" then .lat_ns_median = 0 | .bw_GBps_median = 0 else . end' \
    "$FX/base.jsonl" >zero.jsonl
run_hb compare zero.jsonl zero.jsonl --format jsonl
expect "compare zero medians" 0 '"change_pct":null'
expect "compare zero medians" 0 '"verdict":"undetermined"'

# Markup, quotes and newlines in every string field (type, suite, metric and role stay, so
# the records are still drawn and compared).
payload=$'<script>alert(1)</script>"\'&<b>x\n,y'
for f in multinode base; do
    jq -c --arg p "$payload" \
        'to_entries | map(if (.key | IN("type","suite","metric","role")) then . else
            .value |= walk(if type == "string" then . + $p else . end) end) | from_entries' \
        "$FX/$f.jsonl" >"evil-$f.jsonl"
done
run_hb report evil-multinode.jsonl evil-base.jsonl -o evil.html
expect "report markup" 0 ""
! grep -qi '<script' evil.html || fail "report markup: a <script> tag got through"
! grep -qF '<b>x' evil.html || fail "report markup: the payload's <b> tag got through"
! grep -qF "</script>\"'" evil.html || fail "report markup: a raw quote in the output"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;' evil.html ||
    fail "report markup: the escaped payload is missing"
grep -qF "(ns&lt;script&gt;" evil.html || fail "report markup: the heatmap unit is not escaped"
# One line per row: a title, 5 rows and the summary; JSON Lines: 5 rows and the summary.
for fmt_lines in table:7 jsonl:6; do
    run_hb compare evil-base.jsonl evil-base.jsonl --format "${fmt_lines%:*}"
    expect "compare markup ${fmt_lines%:*}" 0 ""
    lines=$(grep -c '' <<<"$out")
    [ "$lines" = "${fmt_lines#*:}" ] ||
        fail "compare markup --format ${fmt_lines%:*}: $lines lines, expected ${fmt_lines#*:}"
done
jq -e -s --arg p "$payload" 'all(.[]; .type != "comparison" or (.record | contains($p)))' \
    <<<"$out" >/dev/null || fail "compare markup jsonl: the record names do not round-trip"
run_hb compare evil-base.jsonl evil-base.jsonl --format table
grep -qF 'x\n,y' <<<"$out" || fail "compare markup table: the newline is not escaped"
if command -v python3 >/dev/null; then
    run_hb compare evil-base.jsonl evil-base.jsonl --format csv
    python3 -c 'import csv, sys
rows = list(csv.reader(sys.stdin))
assert all(len(r) == 9 for r in rows), rows
assert all(sys.argv[1] in r[1] for r in rows[1:]), rows' "$payload" <<<"$out" ||
        fail "compare markup csv: fields do not parse back"
fi

# A 1000 x 1000 matrix of empty cells: summarised, not drawn cell by cell.
jq -nc '{type:"run",schema_version:1},
    {type:"matrix",metric:"latency",kernel:"chase",unit:"ns",host:"h",rows:[range(1000)],
     cols:[range(1000)],values:[range(1000) | [range(1000) | null]]}' >huge.jsonl
run_hb report huge.jsonl -o huge.html
expect "huge matrix" 0 ""
size=$(stat -c %s huge.html)
[ "$size" -lt 100000 ] || fail "huge matrix: $size bytes of HTML"
grep -qF "values: 1000 x 1000 cells, more than the 64 x 64 this report draws" huge.html ||
    fail "huge matrix: the report does not say it summarised the matrix"

# 20k records: report and compare in linear time (the old report took 270 s).
jq -nc '{type:"run",schema_version:1},
    (range(20000) | {type:"measurement",suite:"policy",workload:"w\(. % 2000)",mode:"rate",
     policy:"p\(. % 10)",host:"h",t_median_s:(1 + . % 7),bw_GBps_best:1,metric:"time",
     experiment:"e\(.)",label:"l",samples_s:[1,2,3]}),
    (range(200) | {type:"verdict",suite:"policy",myth:1,holds:true,
     evidence:[range(100) | "l"]})' >big.jsonl
for cmd in "report big.jsonl -o big.html" "compare big.jsonl big.jsonl"; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    timeout 60 "$HB" $cmd >/dev/null 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    [ "$rc" = 0 ] || fail "20k records: $cmd exit $rc"
    [ "$took" -le 15 ] || fail "20k records: $cmd took $took s (limit 15)"
done

# Memory follows what report and compare keep, not the file: 30000 records fit in 40 MB of
# address space (the whole JSON took more than that), every one of them drawn or compared.
jq -nc '{type:"run",schema_version:1}, (range(30000) | {type:"measurement",suite:"lat",
    metric:"latency",kernel:"chase",experiment:"e\(.)",label:"l",samples_s:[1,2,3]})' >m.jsonl
out=$(ulimit -v 40000 && "$HB" report m.jsonl -o m.html 2>&1)
rc=$?
expect "report in 40 MB" 0 ""
[ "$(grep -c '<td>e[0-9]*</td>' m.html)" = 30000 ] || fail "report in 40 MB: not 30000 rows"
out=$(ulimit -v 40000 && "$HB" compare m.jsonl m.jsonl 2>&1)
rc=$?
expect "compare in 40 MB" 0 "30000 undetermined, 0 only in base, 0 only in new"
rm -f m.jsonl m.html

# Out of memory while reading (one record of 2 million samples): exit 3 "out of memory",
# not a bad record; no output file.
{
    echo '{"type":"run","schema_version":1}'
    printf '{"type":"measurement","suite":"lat","metric":"latency","samples_s":['
    seq -s, 1 2000000
    echo ']}'
} >m.jsonl
out=$(ulimit -v 40000 && "$HB" report m.jsonl -o m.html 2>&1)
rc=$?
expect "report out of memory" 3 "m.jsonl:2: out of memory after 1 records"
[ ! -e m.html ] || fail "report out of memory: m.html written"
out=$(ulimit -v 40000 && "$HB" compare m.jsonl m.jsonl 2>&1)
rc=$?
expect "compare out of memory" 3 "out of memory after"
finish
