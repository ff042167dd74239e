#!/usr/bin/env bash
# Hostile inputs to report and compare: statistics that cannot be computed (±1e308 samples,
# a zero median), markup and newlines in every string field, a 1000 x 1000 matrix of empty
# cells, 20k-record files under a time bound, 30000 records in 40 MB, output bounded in every
# section, and out of memory while reading.
. "$(dirname "$0")/faults-lib.sh"
FX=$TOP/tests/report/fixtures

# Figures no statistic can be computed from (±1e308 repeats, a zero or negative headline):
# named as unusable errors (exit 2), never a verdict, never a crash.
jq -c 'if .type == "measurement" then .repeat_values = [1e308, -1e308, 1e308] |
    .value = 1e308 else . end' "$FX/base.jsonl" >nan.jsonl
for fmt in table csv jsonl; do
    run_hb compare "$FX/base.jsonl" nan.jsonl --format "$fmt"
    [ "$rc" = 2 ] || fail "compare NaN --format $fmt: exit $rc: $out"
    grep -q unusable <<<"$out" || fail "compare NaN --format $fmt: no unusable error"
    ! grep -qE '^(same|noise|worse|better)|,(same|noise|worse|better),|"verdict":"(same|noise|worse|better)"' <<<"$out" ||
        fail "compare NaN --format $fmt: a verdict from figures that cannot be judged"
done
jq -c 'if .type == "measurement" then .value = 0 | .lat_ns_median = 0 | .bw_GBps_median = 0
    else . end' "$FX/base.jsonl" >zero.jsonl
run_hb compare zero.jsonl zero.jsonl --format jsonl
expect "compare zero medians" 2 '"kind":"unusable"'
expect "compare zero medians" 2 'is not a positive figure'
! grep -q '"type":"comparison"' <<<"$out" || fail "compare zero medians: a comparison was made"

# Markup, quotes and newlines in every string field (type, suite, metric and role stay, so
# the records are still drawn and compared).
payload=$'<script>alert(1)</script>"\'&<b>x\n,y'
for f in multinode base; do
    jq -c --arg p "$payload" \
        'to_entries | map(if (.key | IN("type","suite","metric","role","unit")) then . else
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
# Markup in the unit: escaped in the report's heatmap; compare knows no such unit and says
# so (unusable, exit 2), its text escaped too.
jq -c --arg p "$payload" 'if .unit then .unit += $p else . end' "$FX/multinode.jsonl" >evil-unit.jsonl
run_hb report evil-unit.jsonl -o evil-unit.html
expect "report markup unit" 0 ""
grep -qF "(ns&lt;script&gt;" evil-unit.html || fail "report markup: the heatmap unit is not escaped"
jq -c --arg p "$payload" 'if .unit then .unit += $p else . end' "$FX/base.jsonl" >evil-unit.jsonl
run_hb compare evil-unit.jsonl evil-unit.jsonl
expect "compare unknown unit" 2 "is none compare knows (ns, us, GBps, s)"
grep -qF 'x\n,y' <<<"$out" || fail "compare unknown unit: the newline is not escaped"
# One line per row: a title, 6 rows and the summary's three lines; JSON Lines: 6 rows and the
# summary. A noisy record against itself is unclear, the old ones undetermined: exit 5.
for fmt_lines in table:10 jsonl:7; do
    run_hb compare evil-base.jsonl evil-base.jsonl --format "${fmt_lines%:*}"
    expect "compare markup ${fmt_lines%:*}" 5 ""
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
assert all(len(r) == 26 for r in rows), rows
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
    # compare: records without repeats are undetermined, exit 5 (rerun).
    [ "$rc" = 0 ] || { [ "$rc" = 5 ] && [[ $cmd == compare* ]]; } || fail "20k records: $cmd exit $rc"
    [ "$took" -le 15 ] || fail "20k records: $cmd took $took s (limit 15)"
done

# Memory follows what report and compare keep, not the file: 30000 records fit in 40 MB of
# address space (the whole JSON took more than that), every one of them read and compared
# (the report draws the first 512 and says so).
jq -nc '{type:"run",schema_version:1}, (range(30000) | {type:"measurement",suite:"lat",
    metric:"latency",kernel:"chase",experiment:"e\(.)",label:"l",samples_s:[1,2,3],
    lat_ns_median:90})' >m.jsonl
out=$(ulimit -v 40000 && "$HB" report m.jsonl -o m.html 2>&1)
rc=$?
expect "report in 40 MB" 0 ""
[ "$(grep -c '<td>e[0-9]*</td>' m.html)" = 512 ] || fail "report in 40 MB: not 512 rows"
grep -qF "Drawn: the first 512 of 30000 bars and rows (29488 left out" m.html ||
    fail "report in 40 MB: no line saying 29488 records were left out"
out=$(ulimit -v 40000 && "$HB" compare m.jsonl m.jsonl 2>&1)
rc=$?
expect "compare in 40 MB" 5 "30000 undetermined, 0 only in base, 0 only in new"
rm -f m.jsonl m.html

# Output bounded in every section: more records of each kind than a figure or section draws
# (bars, curve points, table rows, matrices, c2c matrices, flags, HMAT flags, nodes, knees,
# verdicts and their evidence, fleets and their hosts, notes). The report stays under 5 MB
# (drawing every record took 9.5 MB), and each figure says in one line how many it drew of
# how many, with a jq command that lists them all: run here, it finds that many.
jq -nc 'def m: {type: "measurement", experiment: "e\(.)", label: "l\(. % 7)", samples_s: [1]};
    def mat($m; $h): {type: "matrix", metric: $m, kernel: "k", unit: "ns", host: $h, rows: [0, 1],
        cols: [0, 1], values: [[1, 2], [2, 1]]};
    {type: "run", schema_version: 1, topology: {nodes: [range(3000) | {os_index: ., cpus: [0]}]}},
    (range(3000) | m + {suite: "bw", metric: "bandwidth", threads: (. % 4 + 1), bw_GBps_best: 1}),
    (range(2000) | m + {suite: "lat", metric: "latency", cpu_node: (. % 2), lat_ns_median: 90}),
    (range(2000) | m + {suite: "hops", bg_level: "idle", pct_of_local_read: 120}),
    (range(6000) | m + {suite: "loaded", metric: "latency", mem_node: (. % 3), total_GBps: .,
        lat_ns_median: 1}),
    (range(6000) | m + {suite: "sweep", metric: "latency", ws_bytes: ., lat_ns_median: 5}),
    (range(6000) | m + {suite: "sweep", metric: "bandwidth", ws_bytes: ., bw_GBps_best: 5}),
    (range(6000) | {type: "throughput", suite: "policy", host: "h", mode: "single",
        workload: "w\(. % 50)", policy: "p\(.)", value: (1 + . % 3), unit: "GBps"}),
    (range(6000) | m + {suite: "policy", intensity: (1 + .), bw_GBps_best: 2}),
    (range(20) | {type: "knee", curve: "loaded", mem_node: ., value: .}),
    (range(20) | {type: "knee", curve: "intensity", against: "remote", value: (1 + .)}),
    mat("latency"; "flags") + {flags: [range(2100) | {cpu_node: 0, mem_node: 1}],
        hmat: {values: [[1, 2], [2, 1]], ratio: [[1, 1], [1, 1]], flags: [range(2050) | {}]}},
    (range(300) | mat("latency"; "h\(.)")), (range(200) | mat("c2c"; "c\(.)")),
    (range(70) | {type: "verdict", suite: "hops", myth: 1, bg_level: "idle",
        evidence: ["l0", "l1"]}),
    {type: "fleet", hosts: [range(600) | {host: "h\(.)", lat_ns_local: 90}]},
    (range(150) | {type: "fleet", hosts: [{host: "a", lat_ns_local: 90}]}),
    (range(80) | {type: "note", text: "note \(.)"})' >many.jsonl
run_hb report many.jsonl -o many.html
expect "report of many records" 0 ""
size=$(stat -c %s many.html)
[ "$size" -lt 5000000 ] || fail "report of many records: $size bytes of HTML"
# drawn, total, what; the evidence line is there once per verdict drawn.
want="121 151 fleet records|128 200 c2c matrices|128 301 matrices|16 20 knees marked
2048 2050 HMAT flags|2048 2100 flags|2048 3000 nodes|2048 6000 curve points and rows
512 6000 throughput and gain records|512 2000 bars and rows|512 3000 bars and rows|512 600 hosts
64 572 records of evidence|64 70 verdicts|64 80 notes"
got=$(grep -oE 'Drawn: the first [0-9]+ of [0-9]+ [a-zA-Z0-9 ]+ \([0-9]+ left out' many.html |
    sed -E 's/Drawn: the first ([0-9]+) of ([0-9]+) (.*) \(([0-9]+) left out/\1 \2 \3 \4/' |
    awk '$2 - $1 == $NF { $NF = ""; sub(/ $/, ""); print; next } { print "bad sum: " $0 }' |
    LC_ALL=C sort | uniq -c | awk '{ $1 = $1; print }' | LC_ALL=C sort -k2)
exp=$(tr '|' '\n' <<<"$want" | sed 's/^/1 /' | LC_ALL=C sort -k2 |
    sed -E 's/^1 (2048 6000 curve points and rows)$/4 \1/; s/^1 (512 2000 bars)/2 \1/;
        s/^1 (16 20 knees)/2 \1/; s/^1 (64 572 records)/64 \1/')
[ "$got" = "$exp" ] || fail "report of many records: left-out lines
$got
expected
$exp"
# Each line's command, unescaped and run here, lists as many records as it says (hosts and
# evidence: at least as many, the command lists every fleet's hosts, every suite record).
grep -oE 'Drawn: the first [0-9]+ of [0-9]+ [a-zA-Z0-9 ]+ \(.*</code>' many.html | LC_ALL=C sort -u |
    sed -e 's/&quot;/"/g' -e "s/&#39;/'/g" -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' \
        >commands.txt
[ "$(grep -c '' commands.txt)" = 20 ] || fail "report of many records: not 20 distinct lines"
while IFS= read -r line; do
    total=$(sed -E 's/^Drawn: the first [0-9]+ of ([0-9]+) .*/\1/' <<<"$line")
    cmd=$(sed -E 's/.*<code>(jq -c .*)<\/code>$/\1/' <<<"$line")
    n=$(eval "$cmd" | grep -c '')
    case $line in
    *hosts* | *evidence*) [ "$n" -ge "$total" ] ;;
    *) [ "$n" = "$total" ] ;;
    esac || fail "report of many records: '$cmd' lists $n, the report says $total: $line"
done <commands.txt

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
