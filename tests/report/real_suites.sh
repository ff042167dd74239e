#!/usr/bin/env bash
# The report of real runs of every one-node suite (no browser): each section appears, the
# sweep has a curve per page size, the intensity study a curve per placement and mode, the
# c2c core matrix its cells, a knee never reached draws no mark, and the loaded curve's
# numbers table has heads in words and each point's injection delay.
# Usage: real_suites.sh HOPBENCH
set -euo pipefail
hb=$1
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
tiny=(--reps 2 --min-time 0.002 --format jsonl --quiet)
"$hb" sweep --max-size 64K "${tiny[@]}" -o sweep.jsonl
"$hb" policy --intensity --mode single --size 4M "${tiny[@]}" -o intensity.jsonl
"$hb" loaded --quick --size 4M "${tiny[@]}" -o loaded.jsonl
"$hb" c2c --cores "${tiny[@]}" -o c2c.jsonl
# hops needs two nodes with memory: refused on one (tests/cli/one-node.sh), so drawn only
# where it runs; on one node the intensity study is local placement's alone.
hops=() hops_section=
if [ "$(jq -s '[.[] | select(.type == "run") | .topology.nodes[] | select(.has_memory)] | length' sweep.jsonl)" -ge 2 ]; then
    "$hb" hops --quick --size 4M "${tiny[@]}" -o hops.jsonl
    hops=(hops.jsonl) hops_section="hops "
fi
"$hb" report sweep.jsonl intensity.jsonl loaded.jsonl c2c.jsonl "${hops[@]}" -o report.html

fails=0
expect() { # expect WHAT GOT WANT
    [ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', want '$3'"; fails=$((fails + 1)); }
}
sections=$(grep -o '<section id="[a-z0-9]*"' report.html | cut -d'"' -f2 | tr '\n' ' ')
expect "sections" "$sections" "summary machine ${hops_section}loaded sweep policy c2c "
host=$(jq -r -s '.[0].hosts[0]' sweep.jsonl)
to="CPU node 0 \xe2\x86\x92 memory node 0"
expect "sweep curves" "$(grep -o "$host: [a-z]*, $(printf "$to"), \(4k\|thp\) pages" report.html | sort -u | tr '\n' ',')" \
    "$(printf "$host: chase, $to, 4k pages,$host: chase, $to, thp pages,$host: memcpy, $to, 4k pages,$host: memcpy, $to, thp pages,")"
expect "intensity curves: one per placement measured" \
    "$(grep -o "$host \(local\|remote\|interleave\) single" report.html | sort -u | wc -l)" \
    "$(jq -s '[.[] | select(.type == "measurement") | .policy] | unique | length' intensity.jsonl)"
cells=$(jq -s '[.[] | select(.type == "matrix" and .metric == "c2c") | .values[][] | select(. != null)] | length' c2c.jsonl)
expect "c2c core cells" "$(grep -o 'data-kind="c2c"' report.html | wc -l)" "$cells"
knees=$(jq -s '[.[] | select(.type == "knee" and .value != null)] | length' loaded.jsonl intensity.jsonl)
expect "knee marks only where a knee was reached" "$(grep -o 'class="marklabel"[^>]*>knee' report.html | wc -l)" "$knees"
# The loaded numbers table: heads in words (the intervals' real coverage: 5 repeats) and a row
# per point with its injection delay
loaded_table=$(sed -n '/<section id="loaded"/,/<\/section>/p' report.html | grep -o '<table class="numbers">.*' | head -1)
expect "loaded table heads" "$(grep -o '<th>[^<]*</th>' <<<"$loaded_table" | sed 's/<[^>]*>//g' | tr '\n' ',')" \
    "series,total bandwidth of load (GB/s),latency (ns),93.75% interval, 5 repeats,injection delay,"
delays=$(jq -r 'select(.type == "measurement" and .role == "foreground") |
    if .delay == null then "idle" else "\(.delay) ns" end' loaded.jsonl | sort | tr '\n' ',')
expect "loaded table: a row per foreground measurement with its delay" \
    "$(sed -n '/<section id="loaded"/,/<\/section>/p' report.html | grep -o '<td>\(idle\|[0-9]* ns\)</td></tr>' |
        sed 's/<[^>]*>//g' | sort | tr '\n' ',')" "$delays"
[ "$fails" = 0 ] && echo PASS
exit "$fails"
