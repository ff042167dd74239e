#!/usr/bin/env bash
# fleet.sh HOPBENCH FIXTURES - CTest (labels report, cli): the fleet summary of the report
# (docs/report.md) on made fleets (fleet_gen.awk from the base fixture's measurements): 200
# hosts x 50 cells with one host twice as costly with tight intervals (the one outlier) and one
# 1.6 times with wide ones (inconclusive); the page states what it summarised, lists no
# record, and its heatmap is one PNG that decodes to one pixel per host and cell, the outlier's
# row the worst; 1000 hosts and 1200 cells share rows and columns; 15 hosts are no fleet, 16
# are; repeated and failed records are counted.
HB=${1:?usage: fleet.sh HOPBENCH FIXTURES} FX=${2:?usage: fleet.sh HOPBENCH FIXTURES}
. "$(dirname "$0")/expect-lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
gen() { # gen HOSTS CELLS SLOW VAGUE
    awk -v hosts="$1" -v cells="$2" -v slow="$3" -v vague="$4" \
        -f "$(dirname "$0")/fleet_gen.awk" "$FX/base.jsonl"
}
# png PAGE: the heatmap's image decoded (signature, chunk CRCs, zlib): "W H MEAN0 MEAN1 REST",
# the mean palette index of its first row, second row and the rest (0 the lowest cost).
png() {
    python3 - "$1" <<'EOF'
import base64, re, struct, sys, zlib
page = open(sys.argv[1]).read()
imgs = re.findall(r'href="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
assert len(imgs) == 1, "%d images" % len(imgs)
b = base64.b64decode(imgs[0])
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
at, idat, w = 8, b"", None
while at < len(b):
    n, kind = struct.unpack(">I4s", b[at:at + 8])
    data = b[at + 8:at + 8 + n]
    assert struct.unpack(">I", b[at + 8 + n:at + 12 + n])[0] == zlib.crc32(kind + data), kind
    if kind == b"IHDR":
        w, h, depth, colour = struct.unpack(">IIBB", data[:10])
        assert (depth, colour) == (8, 3), (depth, colour)
    idat += data if kind == b"IDAT" else b""
    at += 12 + n
raw = zlib.decompress(idat)
assert len(raw) == h * (w + 1), (len(raw), w, h)
rows = [raw[r * (w + 1):(r + 1) * (w + 1)] for r in range(h)]
assert all(r[0] == 0 for r in rows), "a row filter is not 0"
mean = lambda rs: sum(sum(r[1:]) for r in rs) / (len(rs) * w)
print(w, h, round(mean(rows[:1])), round(mean(rows[1:2])), round(mean(rows[2:])))
EOF
}
verdicts() { grep -o '<td class="verdict">[a-z]*</td>' "$1" | sed 's/<[^>]*>//g' | sort | uniq -c | tr -s ' ' | xargs; }
host_of() { grep -o "<tr class=\"[a-z]*\"><td>[0-9]*</td><td class=\"kv\">[^<]*</td>.\{0,220\}>$2</td></tr>" "$1" |
    sed 's/.*<td class="kv">\([^<]*\)<.*/\1/' | xargs; }

gen 200 50 17 42 >"$tmp/f.jsonl"
"$HB" report "$tmp/f.jsonl" -o "$tmp/f.html" 2>"$tmp/err"
expect "report of 200 hosts x 50 cells exits 0" [ "$?" = 0 ]
expect "it states the records, hosts and cells it summarised" \
    grep -q 'data-records="10000" data-hosts="200" data-cells="50">Summarised, not listed: 10000 measurement records of 200 hosts and 50 cells' "$tmp/f.html"
expect "exactly one outlier, the slow host h17" [ "$(host_of "$tmp/f.html" outlier)" = h17 ]
expect "exactly one inconclusive host, the vague h42" [ "$(host_of "$tmp/f.html" inconclusive)" = h42 ]
expect "20 hosts listed: 18 ok, 1 inconclusive, 1 outlier" \
    [ "$(verdicts "$tmp/f.html")" = "1 inconclusive 18 ok 1 outlier" ]
expect "the outlier is flagged in all its 50 cells" \
    grep -q '<td class="kv">h17</td><td>2</td><td>\[[0-9.]*, [0-9.]*\]</td><td>50</td><td>50</td>' "$tmp/f.html"
read -r w h r0 r1 rest < <(png "$tmp/f.html")
expect "the heatmap is one PNG of 50 x 200 pixels ($w x $h)" [ "$w x $h" = "50 x 200" ]
expect "its first row (h17) is the costly end, the others near the cheap end ($r0 $r1 $rest)" \
    [ "$r0" -ge 240 ] && [ "$r1" -ge 60 ] && [ "$r1" -lt 240 ] && [ "$rest" -lt 30 ]
expect "no record drawn as bars, the heatmap not as SVG cells" \
    eval '! grep -q "<svg class=\"fig bars\|class=\"cell\"" "$tmp/f.html"'
expect "a box per cell (40 in ns, 10 in GB/s)" \
    [ "$(grep -o '<g class="box"' "$tmp/f.html" | wc -l)" = 50 ]
expect "the page stays small ($(stat -c %s "$tmp/f.html") bytes)" [ "$(stat -c %s "$tmp/f.html")" -lt 300000 ]

gen 1000 10 3 -1 >"$tmp/tall.jsonl"
"$HB" report "$tmp/tall.jsonl" -o "$tmp/tall.html" 2>"$tmp/err"
read -r w h r0 r1 rest < <(png "$tmp/tall.html")
expect "1000 hosts: two a row, 10 x 500 pixels ($w x $h), the slow host's row first" \
    [ "$w x $h" = "10 x 500" ] && [ "$r0" -ge 240 ] && [ "$rest" -lt 30 ]
expect "the caption says so" grep -q 'a row is the costliest of 2 hosts' "$tmp/tall.html"
gen 16 1200 -1 -1 >"$tmp/wide.jsonl"
"$HB" report "$tmp/wide.jsonl" -o "$tmp/wide.html" 2>"$tmp/err"
read -r w h _ < <(png "$tmp/wide.html")
expect "1200 cells: two a column, 600 x 16 pixels ($w x $h)" [ "$w x $h" = "600 x 16" ]
expect "16 hosts are a fleet, no outlier" grep -q '0 outlier host(s), 0 inconclusive' "$tmp/wide.html"
expect "at most 40 boxes a unit, the widest spread: 40 of 960 in ns, 40 of 240 in GB/s" \
    eval '[ "$(grep -o "<g class=\"box\"" "$tmp/wide.html" | wc -l)" = 80 ] &&
        grep -q "The 40 of 960 cells in ns whose costliest host is furthest" "$tmp/wide.html"'
expect "the cells table: every cell (1200 rows)" grep -q 'numbers (1200 rows)' "$tmp/wide.html"

gen 16 20 -1 -1 | awk 'NR > 1 { sub(/"unit":"[^"]*"/, "\"unit\":\"u" NR % 20 "\"") } 1' >"$tmp/units.jsonl"
"$HB" report "$tmp/units.jsonl" -o "$tmp/units.html" 2>"$tmp/err"
expect "20 units: box plots of the first 8, and a line saying so" \
    eval '[ "$(grep -c "<svg class=\"boxplot" "$tmp/units.html")" = 8 ] &&
        grep -q "Box plots of the first 8 of 20 units drawn" "$tmp/units.html"'

gen 15 4 -1 -1 >"$tmp/few.jsonl"
"$HB" report "$tmp/few.jsonl" -o "$tmp/few.html" 2>"$tmp/err"
expect "15 hosts are no fleet: no summary, their bars drawn" \
    eval '! grep -q fleetsummary "$tmp/few.html" && grep -q "<svg class=\"fig bars" "$tmp/few.html"'

{ cat "$tmp/f.jsonl"; grep -v '"type":"run"' "$tmp/f.jsonl" | head -500 |
    sed '0,/"host":"h5"/s//"host":"h5","status":"failed"/'; } >"$tmp/dup.jsonl"
"$HB" report "$tmp/dup.jsonl" -o "$tmp/dup.html" 2>"$tmp/err"
expect "repeated records are counted, the first kept; a failed one counted" \
    grep -q '10000 (host, cell) figures, 0 background records, 1 failed, 0 without a positive headline, 499 repeated' "$tmp/dup.html"
expect "the same verdicts" [ "$(verdicts "$tmp/dup.html")" = "1 inconclusive 19 ok 1 outlier" ]
expect_done
