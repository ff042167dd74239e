#!/usr/bin/env bash
# Renders the report of a real run and of the hand-made multi-node fixture in headless
# Chromium and checks what it drew: no scripts, no console errors, the expected figures and
# heatmap cells, cell values equal to the records. Screenshots stay in the build dir.
set -u
hb=$1 fx=$2 out=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "skip: chromium not installed (apt-get install chromium)"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
mkdir -p "$out" && cd "$out" || exit 1
fail=0
"$hb" lat --size 16M --reps 2 --format jsonl -o real.jsonl || { echo "real run failed"; exit 1; }
"$hb" report "$fx/multinode.jsonl" real.jsonl -o report.html || { echo "report failed"; exit 1; }
[ ! -e report.html.partial ] || { echo "partial file left behind"; fail=1; }
! grep -qi '<script' report.html || { echo "report embeds a script"; fail=1; }
! grep -Eqi '(src|href)="https?:' report.html || { echo "report fetches from the network"; fail=1; }
profile=$(mktemp -d)
run() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@"
}
run --dump-dom "file://$out/report.html" >dom.html 2>console.log
grep -E 'Uncaught|CONSOLE|console' console.log && { echo "console errors"; fail=1; }
svgs=$(grep -o '<svg' dom.html | wc -l)
[ "$svgs" = 12 ] || { echo "figures: $svgs, want 12"; fail=1; }
for kind in value:8 relative:8 c2c:4; do
    n=$(grep -o "data-kind=\"${kind%%:*}\"" dom.html | wc -l)
    [ "$n" = "${kind##*:}" ] || { echo "${kind%%:*} cells: $n, want ${kind##*:}"; fail=1; }
done
# `+ 0` prints a number as a number (jq 1.7 would keep a record's 23.0 as written; 1.6 and
# the report print 23).
want=$(jq -r 'select(.type=="matrix") | .values[][] + 0' "$fx/multinode.jsonl" | sort -g | tr '\n' ' ')
got=$(grep -o 'data-kind="\(value\|c2c\)" data-row="[0-9]*" data-col="[0-9]*" data-value="[^"]*"' dom.html |
    sed 's/.*data-value="//; s/"//' | sort -g | tr '\n' ' ')
[ "$want" = "$got" ] || { echo "cell values: '$got', want '$want'"; fail=1; }
cell=$(grep -o 'data-kind="value" data-row="1" data-col="0" data-value="[^"]*"' dom.html | head -1)
[[ $cell == *'data-value="141"'* ]] || { echo "latency cell 1,0: $cell"; fail=1; }
grep -q 'class="cell flagged"[^>]*data-row="1" data-col="0"' dom.html || { echo "flag not marked"; fail=1; }
grep -q '<tr class="outlier"><td>epyc3' dom.html || { echo "outlier host not highlighted"; fail=1; }
bars=$(grep -o 'class="bar"' dom.html | wc -l)
[ "$bars" = 9 ] || { echo "bars: $bars, want 9 (5 hop + 3 fleet + 1 latency)"; fail=1; }
for s in machine basic matrices hops verdicts loaded sweep policy c2c fleet; do
    grep -q "<section id=\"$s\"" dom.html || { echo "section $s missing"; fail=1; }
    sed "s|</style>|section{display:none}#$s{display:block}</style>|" report.html >"sec-$s.html"
    run --screenshot="$out/screenshot-$s.png" --window-size=1400,4000 "file://$out/sec-$s.html" \
        >/dev/null 2>&1
    [ -s "screenshot-$s.png" ] || { echo "no screenshot for $s"; fail=1; }
done
"$hb" report "$fx/truncated.jsonl" -o trunc.html 2>trunc.err
rc=$?
[ "$rc" = 0 ] && grep -q 'truncated.jsonl:4: truncated last line skipped' trunc.err ||
    { echo "truncated: exit $rc, $(cat trunc.err)"; fail=1; }
"$hb" report "$fx/notjson.jsonl" -o bad.html 2>bad.err
rc=$?
[ "$rc" = 2 ] && [ ! -e bad.html ] && [ ! -e bad.html.partial ] &&
    grep -q 'notjson.jsonl:3: not a hopbench JSON Lines record' bad.err ||
    { echo "bad input: exit $rc, $(cat bad.err)"; fail=1; }
rm -rf "$profile"
exit $fail
