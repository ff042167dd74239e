#!/usr/bin/env bash
# What the report says equals what the records say (issue 39), over real runs (peak, lat,
# bw, c2c), the policy fixture (a real single-mode run on this VM's one node, when policy
# still ran every placement there) and a made hop study: every derived figure (policy gains
# with their verdicts, hop ratios, peak totals) is the records' own, every interval printed
# is the record's ci95 at the one rounding (hb_figure_text.h) as "value [lo, hi]", peak's
# chart has whiskers, the summary comes before the machine's details and flags an impossible
# figure, no errno text is on the page; the report of compare's JSON Lines is refused in one
# line, exit 2, no file.
# Usage: figures.sh HOPBENCH FIXTURES
set -euo pipefail
hb=$1 fx=$2
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
tiny=(--min-time 0.005 --reps 1 --repeat 2 --quiet --format jsonl --size 4M)
"$hb" peak "${tiny[@]}" -o peak.jsonl
"$hb" lat --chains 1,8 "${tiny[@]}" -o lat.jsonl
"$hb" bw "${tiny[@]}" -o bw.jsonl
# Two hops records as hb_suite_hops_derive.c writes them: the reference and a remote write.
jq -c 'select(.type == "run")' bw.jsonl >hops.jsonl
cat >>hops.jsonl <<'EOF'
{"type":"measurement","suite":"hops","experiment":"hops-idle-r-0-0","label":"0.0.r.0","case":"single","bg_level":"idle","kernel":"read","metric":"bandwidth","unit":"GBps","role":"foreground","status":"ok","cpu_node":0,"mem_node":0,"threads":1,"value":14.23,"ci95":[14.01,14.52],"reference_label":"0.0.r.0","reference_value":14.23,"ratio_to_reference":1,"ratio_to_reference_ci95":[0.9845,1.02],"pct_of_local_read":100,"pct_of_local_read_ci95":[98,101.6]}
{"type":"measurement","suite":"hops","experiment":"hops-idle-w-0-1","label":"0.0.w.1","case":"single","bg_level":"idle","kernel":"write","metric":"bandwidth","unit":"GBps","role":"foreground","status":"ok","cpu_node":0,"mem_node":1,"threads":1,"value":13.97,"ci95":[13.5,14.3],"reference_label":"0.0.r.0","reference_value":14.23,"ratio_to_reference":0.9817,"ratio_to_reference_ci95":[0.9487,1.005],"pct_of_local_read":101.9,"pct_of_local_read_ci95":[99.5,105.4]}
EOF
inputs=(peak.jsonl lat.jsonl bw.jsonl "$fx/policy.jsonl" hops.jsonl)
"$hb" report "${inputs[@]}" -o report.html

fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# has WHAT TEXT: the page holds TEXT
has() { grep -qF -- "$2" report.html || bad "$1: '$2' not on the page"; }
section() { sed -n "/<section id=\"$1\"/,/<\/section>/p" report.html; }
# Lines "v lo hi" (lo, hi may be null) as the report writes them: v at 4 significant
# digits, its ends at v's decimals, "v [lo, hi]" (hb_figure_text.h).
fig() {
    awk '{ v = $1 + 0; a = (v < 0 ? -v : v); d = 2
           if (a > 0) { d = 3 - int(log(a) / log(10) + (a < 1 ? -0.999999999 : 0)); if (d < 0) d = 0; if (d > 9) d = 9 }
           if ($2 == "null" || $3 == "null" || $2 == "") printf "%.*f\n", d, $1
           else printf "%.*f [%.*f, %.*f]\n", d, $1, d, $2, d, $3 }'
}

# Policy: a row per gain record, each gain as the record has it (two decimals) with its
# direction and verdict in words; nothing from sample times.
while IFS=$'\t' read -r workload gain words other noise; do
    case $noise in
    clear) verdict="clear: beyond the noise" ;;
    inconclusive) verdict="inconclusive: within the noise" ;;
    *) verdict="unknown noise: one repeat" ;;
    esac
    has "policy $workload vs $other" \
        "<strong>${gain}x</strong> the $words of $other; <span class=\"verdict\">$verdict</span>"
done < <(jq -r 'select(.type == "gain") | . as $g | ["interleave", "one-node", "remote", "os"][] as $o |
    ("gain_vs_" + ($o | gsub("-"; "_"))) as $k | select($g[$k] != null) |
    [$g.workload, ($g[$k] * 100 | round | tostring | if length < 3 then ("00" + .)[-3:] else . end |
        .[:-2] + "." + .[-2:]),
     (if $g.speed_unit == "GBps" then "bandwidth (GB/s)" else "speed (loads/ns)" end), $o,
     $g.gain_noise[$k]] | @tsv' "$fx/policy.jsonl")
[ "$(grep -o 'class="kv gain"' report.html | wc -l)" = "$(jq -s '[.[] | select(.type == "gain") |
    .gain_vs_interleave, .gain_vs_one_node, .gain_vs_remote, .gain_vs_os | numbers] | length' "$fx/policy.jsonl")" ] ||
    bad "policy: not one cell per gain of the records"
! section policy | grep -q 'NUMA gain %\|t_median_s\|median sample' || bad "policy: a figure from sample times"
# Each throughput with its interval: the gain record's speed_ci95 (a chase's loads/ns inverted
# to ns a load).
while IFS=$'\t' read -r workload mode host policy line unit; do
    has "policy throughput $workload $policy" \
        "<td>$workload</td><td>$mode</td><td>$host</td><td>$policy</td><td class=\"figure\">$(fig <<<"$line") $unit</td>"
done < <(jq -r -s '(map(select(.type == "gain")) | INDEX(.workload)) as $g | .[] |
    select(.type == "throughput") | $g[.workload].speed_ci95[.policy] as $ci |
    [.workload, .mode, .host, .policy,
     (if .unit == "ns" then "\(.value) \(1 / $ci[1]) \(1 / $ci[0])" else "\(.value) \($ci[0]) \($ci[1])" end),
     (if .unit == "GBps" then "GB/s" else .unit end)] | @tsv' "$fx/policy.jsonl")
[ "$(section policy | grep -o 'class="ci' | wc -l)" -ge 15 ] || bad "policy: bars without whiskers"

# Peak: each node's figure with its measurement's interval, the total with the record's
# interval (over the sums of the nodes' repeats), and a whisker per node bar.
while IFS=$'\t' read -r kernel nodes total; do
    has "peak $kernel" "<td>$kernel</td><td>bind</td><td>$nodes</td><td class=\"total\">$(fig <<<"$total")</td>"
done < <(jq -r -s '(map(select(.type == "measurement")) | INDEX(.experiment)) as $m | .[] |
    select(.type == "peak") | [.kernel, ($m[.experiment] | "\(.value) \(.ci95[0]) \(.ci95[1])"),
    "\(.total_GBps) \(.total_GBps_ci95[0]) \(.total_GBps_ci95[1])"] | @tsv' peak.jsonl |
    while IFS=$'\t' read -r k n t; do
    printf '%s\t%s\t%s\n' "$k" "$(fig <<<"$n")" "$t"; done)
whiskers=$(section peak | grep -o 'class="ci' | wc -l)
[ "$whiskers" -ge "$(jq -s '[.[] | select(.type == "measurement")] | length' peak.jsonl)" ] ||
    bad "peak: $whiskers whiskers for $(jq -s '[.[] | select(.type == "measurement")] | length' peak.jsonl) node bars"

# Every interval of the bars' numbers tables (lat, bw): the figure and its record's ci95.
while IFS=$'\t' read -r exp line; do
    row=$(grep -o "<td>$exp</td>.*" report.html | head -1)
    f=$(fig <<<"$line")
    grep -qF "<td>${f%% \[*}</td><td>[${f#*\[}</td>" <<<"$row" || bad "interval of $exp: want $f"
done < <(jq -r 'select(.type == "measurement") | [.experiment, "\(.value) \(.ci95[0]) \(.ci95[1])"] | @tsv' \
    lat.jsonl bw.jsonl)

# Hops: the ratio to the local read, in the figure's terms and with its direction.
has "hop ratio" "<td class=\"kv ratio\">0.98x the bandwidth of CPU node 0 $(printf '\xe2\x86\x92') memory node 0, read</td>"
has "hop figure" "<td>13.97</td><td>[13.50, 14.30]</td>"
has "hop % interval" "<td>101.9</td><td>[99.5, 105.4]</td>"

# The summary first: each file's first figures with their intervals; then the machine's
# details, folded; no errno text anywhere.
order=$(grep -o '<section id="[a-z0-9]*"' report.html | sed 's/.*id="//; s/"//' | tr '\n' ' ')
[[ $order == *summary*machine* ]] || bad "sections in order: $order (the summary before the machine)"
while IFS=$'\t' read -r exp line unit; do
    has "summary $exp" "$exp: $(fig <<<"$line") $unit"
done < <(jq -r 'select(.type == "measurement") | [.experiment, "\(.value) \(.ci95[0]) \(.ci95[1])",
    (if .unit == "GBps" then "GB/s" else .unit end)] | @tsv' lat.jsonl bw.jsonl)
has "machine details folded" '<details><summary>settings, configuration, nodes and distances</summary>'
for errno in 'No such file' 'errno' '[Errno' 'Permission denied'; do
    ! grep -qF "$errno" report.html || bad "errno text on the page: $errno"
done
grep -qF 'not available (this kernel or machine does not provide it)' report.html ||
    bad "an unreadable knob not said in words"
! grep -q 'GBps\|&#177;\|±' <(sed 's/<[^>]*>//g' report.html) || bad "GBps or a ± interval in the page's text"

# An impossible figure is flagged in the summary: 8 chains of one thread cannot keep 22 loads
# in flight (hb_bounds.h).
jq -c 'if .type == "measurement" and .chains == 8 then .concurrency = 22 | del(.out_of_bounds) else . end' \
    lat.jsonl >lat22.jsonl
"$hb" report lat22.jsonl -o lat22.html
grep -q '<strong class="warn impossible">impossible: lat-[0-9]*-[0-9]*-chains8: concurrency 22.00, which must be at most 8 (' lat22.html ||
    bad "the impossible concurrency is not flagged"

# compare's JSON Lines: refused in one line naming the file, exit 2, no report.
set +e
"$hb" compare bw.jsonl bw.jsonl --format jsonl >cmp.jsonl
"$hb" report cmp.jsonl -o cmp.html 2>err.txt
rc=$?
set -e
[ "$rc" = 2 ] || bad "report of compare's output: exit $rc, want 2"
[ ! -e cmp.html ] || bad "report of compare's output wrote cmp.html"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "cmp.jsonl:.*compare's output" err.txt ||
    bad "report of compare's output: $(cat err.txt)"

[ "$fails" = 0 ] && echo PASS
exit "$fails"
