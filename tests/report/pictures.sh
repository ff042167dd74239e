#!/usr/bin/env bash
# pictures.sh HOPBENCH FIXTURES OUT - CTest test (labels report, numa): the report of real runs
# of this machine (sweep, peak, c2c, policy, hops where it has two nodes with memory, matrix,
# lat --chains, comm under mpirun),
# the hand-made multi-node fixture, an 8-node hop study made from a dry run, a 4-node comm run drawn from
# the real one and a made fleet (its heatmap is the + 1 of want_heat), rendered in headless Chromium at 1280 px with
# pictures_check.js injected into a copy (the report itself stays script-free). Checks: colour
# scales on every heatmap, better one colour, no empty figure or panel, byte axes in KiB/MiB/GiB
# at powers of two, cache marks where the records' level changes, labels spelled out, no figure
# over 1000 px, myths with claim/verdict/figures, each figure on its own y scale (no figure
# squashed by another file's or a wild interval, which is drawn cut with its end written), a
# contents whose links all resolve, one Machine block per machine, c2c notes, the peak total,
# nothing clipped or overlapping, no temporary path, sysfs values as words. Screenshots of each
# section at 1280 px stay in OUT.
set -u
hb=$1 fx=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
mkdir -p "$out" && cd "$out" || exit 1
rm -f ./*.jsonl ./*.html ./*.png
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
quick=(--reps 1 --repeat 2 --min-time 0.005 --quiet)
"$hb" lat --size 16M "${quick[@]}" -o lat.jsonl || bad "lat run"
# The same again: the two runs of one experiment make the comparison section.
"$hb" lat --size 16M "${quick[@]}" -o lat-again.jsonl || bad "second lat run"
"$hb" bw --kernel read,copy --size 16M "${quick[@]}" -o bw.jsonl || bad "bw run"
"$hb" sweep --max-size 64M "${quick[@]}" -o sweep.jsonl || bad "sweep run"
"$hb" peak --size 16M "${quick[@]}" -o peak.jsonl || bad "peak run"
"$hb" c2c "${quick[@]}" -o c2c.jsonl || bad "c2c run"
"$hb" policy --kernel triad --size 4M "${quick[@]}" -o policy.jsonl || bad "policy run"
# hops needs two nodes with memory: refused on one (tests/cli/one-node.sh); there the hop
# study drawn is the 8-node one made from a dry run (hops8.jsonl) alone.
hops=()
if [ "$("$hb" topo --format jsonl | jq '[.nodes[] | select(.has_memory)] | length')" -ge 2 ]; then
    "$hb" hops --quick --size 16M "${quick[@]}" -o hops.jsonl || bad "hops run"
    hops=(hops.jsonl)
fi
"$hb" matrix --size 16M "${quick[@]}" -o matrix.jsonl || bad "matrix run"
"$hb" lat --chains 1,8 --size 16M "${quick[@]}" -o chains.jsonl || bad "lat --chains run"
"$here/hops_fixture.sh" "$hb" "$here/../topo/corpus/16amd64-8n2c-cpusets.xml" >hops8.jsonl ||
    bad "hop study fixture"
# comm: two ranks on node 0 under mpirun, and a 4-node run drawn from it (comm_fixture.sh).
command -v mpirun >/dev/null || { echo "SKIP: mpirun not installed (the comm pictures need it)"; exit 77; }
. "$here/../../jobs/lib/mpi.sh"
read -ra oversub <<<"$(hb_mpi_oversubscribe)"
timeout 180 mpirun "${oversub[@]}" -np 2 "$hb" comm --size 64K "${quick[@]}" -o comm.jsonl ||
    bad "comm run"
"$here/comm_fixture.sh" "$hb" "$here/../topo/fixtures/2s-4n-snc.xml" comm.jsonl >comm4.jsonl ||
    bad "comm fixture"
# Peak on two nodes: the multi-node fixture's machine with its per-node figures and total.
{
    jq -c 'select(.type=="run")' "$fx/multinode.jsonl"
    echo '{"type":"peak","suite":"peak","host":"epyc1","kernel":"read","policy":"bind","nodes":[0,1],"node_GBps":[61.4,58.3],"total_GBps":119.7,"unit":"GBps","note":""}'
    echo '{"type":"peak","suite":"peak","host":"epyc1","kernel":"mix1:1","policy":"interleave","nodes":[0,1],"node_GBps":[40.1,39.9],"total_GBps":80,"unit":"GBps","note":""}'
} >peak2.jsonl
# A matrix with the firmware's HMAT beside it (as hmat.sh): two more heatmaps, each with a scale.
{
    echo '{"type":"run","schema_version":1,"hosts":["h"]}'
    jq -nc '{type: "matrix", suite: "matrix", host: "h", metric: "latency", kernel: "chase",
        unit: "ns", rows: [0,1], cols: [0,1,2], values: [[120, 252, 326], [252, 120, 336]],
        relative: [[1, 2.1, 2.7], [2.1, 1, 2.8]], flags: [],
        hmat: {attribute: "ReadLatency", unit: "ns", values: [[100, 210, 170], [210, 100, null]],
               ratio: [[1.2, 1.2, 1.918], [1.2, 1.2, null]], threshold_pct: 5, flags: []}}'
} >hmat.jsonl
# A fleet of 200 hosts x 50 cells (fleet.sh): its summary, with one heatmap drawn as an image.
awk -v hosts=200 -v cells=50 -v slow=17 -v vague=42 -f "$here/fleet_gen.awk" "$fx/base.jsonl" \
    >fleet.jsonl || bad "fleet"
inputs=(lat.jsonl bw.jsonl sweep.jsonl peak.jsonl c2c.jsonl policy.jsonl "${hops[@]}" matrix.jsonl
    "$fx/multinode.jsonl" peak2.jsonl hops8.jsonl hmat.jsonl comm.jsonl comm4.jsonl chains.jsonl
    lat-again.jsonl fleet.jsonl)
"$hb" report "${inputs[@]}" -o report.html || { echo "FAIL: report"; exit 1; }

# The page itself: no script, no network, no temporary path, no raw sysfs list.
! grep -qi '<script' report.html || bad "report embeds a script"
! grep -Eqi '(src|href)="https?:' report.html || bad "report fetches from the network"
! grep -Eq '\.partial|XXXXXX' report.html || bad "report names a temporary path: $(grep -Eo '[^ <>"]*(\.partial|XXXXXX)[^ <>"]*' report.html | head -3)"
! grep -Eq '[a-z+]+ \[[a-z+]+\]' report.html || bad "raw sysfs list: $(grep -Eo '[a-z+ ]*\[[a-z+]+\][a-z+ ]*' report.html | head -2)"
want_thp=$(jq -r 'select(.type=="run") | .thp.enabled' sweep.jsonl | sed 's/.*\[\(.*\)\].*/\1/')
want_thp="THPenabled: $want_thp; defrag: $(jq -r 'select(.type=="run") | .thp.defrag' sweep.jsonl |
    sed 's/.*\[\(.*\)\].*/\1/')"
thp=$(grep -o '<th>THP</th>.*' report.html | sed 's|</tr>.*||; s/<[^>]*>//g')
grep -qxF "$want_thp" <<<"$thp" || bad "THP shown as '$thp', want '$want_thp'"
nb=$(jq -r 'select(.type=="run") | .numa_balancing' sweep.jsonl)
words=(off on "memory tiering" "on and memory tiering")
grep -qF "<th>NUMA balancing</th><td>${words[$nb]} ($nb)</td>" report.html ||
    bad "NUMA balancing $nb not shown as '${words[$nb]} ($nb)'"

# Layout and pictures, checked in Chromium at 1280 px on a copy with the checker.
. "$here/pictures-lib.sh"
pictures_check report.html "$out"
echo "checked: $count"
[ -z "$(echo "$found" | tr -d '[:space:]')" ] || { bad "layout and picture findings:"; echo "$found" | head -60; }
# The checker looked at real figures: heatmaps each with a scale, figures on their own scales,
# myths, the contents' links (one per section).
read -r svgs heat scales own myths links < <(echo "$count" |
    sed -E 's/([0-9]+) svgs, [0-9]+ texts, ([0-9]+) heatmaps, ([0-9]+) colour scales, ([0-9]+) own scales, ([0-9]+) myths, ([0-9]+) contents links/\1 \2 \3 \4 \5 \6/')
[ "${svgs:-0}" -ge 20 ] || bad "checker saw ${svgs:-no} svgs"
want_heat=$(jq -s '[.[] | (select(.type=="matrix") | 1 + (if .relative then 1 else 0 end) + (if .hmat then 2 else 0 end)),
    (select(.type=="comm_matrix" and any(.values[][]; . != null)) | 1)] | add + 1' "${inputs[@]}")
[ "${heat:-0}" = "$want_heat" ] && [ "${scales:-0}" = "$want_heat" ] ||
    bad "heatmaps ${heat:-?}, colour scales ${scales:-?}, want $want_heat of each"
[ "${own:-0}" -ge 20 ] || bad "bar and curve figures checked for their own scale: ${own:-0}, want >= 20"
[ "${links:-0}" = "$(grep -o '<section id="' report.html | wc -l)" ] ||
    bad "contents links: ${links:-0}, sections: $(grep -o '<section id="' report.html | wc -l)"
want_myths=$(jq -s '[.[] | select(.type=="verdict")] | length' "${inputs[@]}")
[ "${myths:-0}" = "$want_myths" ] || bad "myth sections ${myths:-0}, want $want_myths"

# The sweeps (two figures per file with sweep records) have byte axes with ticks, cache marks
# and captions, so the checker's byte-axis and cache-mark findings are not vacuous; so do the
# comm figures against message size (one per metric and file), without cache marks.
want_sweep=0 want_comm=0
for f in "${inputs[@]}"; do
    want_sweep=$((want_sweep + $(jq -s '[.[] | select(.suite=="sweep" and .type=="measurement") | .metric] | unique | length' "$f")))
    want_comm=$((want_comm + $(jq -s '[.[] | select(.suite=="comm" and .type=="measurement") | .metric] | unique | length' "$f")))
done
[ "$want_comm" = 6 ] || bad "comm figures in the inputs: $want_comm, want 6"
[ "$(grep -o '<svg [^>]*data-xunit="bytes"' dom.html | wc -l)" = "$((want_sweep + want_comm))" ] ||
    bad "byte-axis figures: $(grep -o '<svg [^>]*data-xunit="bytes"' dom.html | wc -l), want $((want_sweep + want_comm))"
[ "$(grep -o 'class="tick xtick"' dom.html | wc -l)" -ge $((want_sweep * 4)) ] || bad "too few x ticks"
[ "$(grep -o '<figcaption>x: the working set per thread' dom.html | wc -l)" = "$want_sweep" ] ||
    bad "sweep figures without the caption on cache marks"
[ "$(grep -o 'class="mark cache"' dom.html | wc -l)" -ge $((want_sweep * 3)) ] ||
    bad "cache marks: $(grep -o 'class="mark cache"' dom.html | wc -l), want >= $((want_sweep * 3))"

# One Machine block per distinct machine (hosts and nodes), naming its files.
want_mach=$(jq -sc '[.[] | select(.type=="run") | [.hosts, [(.topology.nodes // [])[] | [.os_index, .cpus]]]] | unique | length' "${inputs[@]}")
got_mach=$(grep -o '<div class="panel machine"' dom.html | wc -l)
[ "$got_mach" = "$want_mach" ] || bad "Machine blocks: $got_mach, want $want_mach"
grep -q "class=\"files\">lat.jsonl, bw.jsonl, sweep.jsonl, peak.jsonl, c2c.jsonl, policy.jsonl, ${hops[*]/%/, }matrix.jsonl, comm.jsonl, chains.jsonl, lat-again.jsonl<" dom.html ||
    bad "the machine of the real runs does not list their files"
# Memory-level parallelism: one figure, from the file with two chain counts (every chase
# record has a chain count: the others have one each), a point per count, under the checks.
[ "$(grep -o '<svg [^>]*data-metric="latency per load"' dom.html | wc -l)" = 1 ] ||
    bad "latency-per-load figures: $(grep -o '<svg [^>]*data-metric="latency per load"' dom.html | wc -l), want 1"
[ "$(sed -n '/<section id="mlp">/,/<\/section>/p' dom.html | grep -c 'class="pt"')" = 2 ] ||
    bad "the MLP figure does not have a point for each of chains 1 and 8"
# The comparison: lat-again.jsonl against lat.jsonl, a row per experiment compare matches
# (the checker above looked at its figure: legend, colours, overlaps, scale).
want_cmp=$("$hb" compare lat.jsonl lat-again.jsonl --format jsonl | jq -s '[.[] | select(.type == "comparison")] | length')
[ "${want_cmp:-0}" -ge 1 ] && [ "$(grep -o '<tr class="cmp"' dom.html | wc -l)" = "$want_cmp" ] ||
    bad "comparison rows: $(grep -o '<tr class="cmp"' dom.html | wc -l), compare's: ${want_cmp:-none}"
# c2c notes are shown.
while IFS= read -r note; do
    grep -qF "$note" dom.html || bad "c2c note not shown: $note"
done < <(jq -r 'select(.suite=="c2c") | (.note // empty), (.notes[]? // empty) | select(. != "")' c2c.jsonl | sort -u)
[ "$(jq -r 'select(.suite=="c2c") | (.note // empty), (.notes[]? // empty) | select(. != "")' c2c.jsonl | wc -l)" -gt 0 ] ||
    bad "the c2c run has no note to show"
# peak: every kernel's machine total (at the report's one rounding, hb_figure_text.h) and its
# per-node figures (equal to their records' with their intervals: figures.sh).
while IFS=$'\t' read -r kernel total; do
    grep -q "<tr><td>$kernel</td><td>[^<]*</td><td>[^<]*</td><td class=\"total\">$total\( \[[^<]*\]\)\?</td>" dom.html ||
        bad "peak $kernel: no row with total $total"
done < <(jq -r 'select(.type=="peak") | [.kernel, .total_GBps] | @tsv' peak.jsonl peak2.jsonl |
    awk -F'\t' '{ a = $2 < 0 ? -$2 : $2; d = 3 - int(log(a) / log(10) + (a < 1 ? -0.999999999 : 0))
        printf "%s\t%.*f\n", $1, (d < 0 ? 0 : d > 9 ? 9 : d), $2 }')
grep -q '<section id="peak"' dom.html || bad "no peak section"
# The policy run without --intensity draws no intensity figure.
! grep -q 'compute intensity (policy.jsonl)' dom.html || bad "empty compute-intensity figure"

# One screenshot per section at 1280 px.
for s in $(grep -o '<section id="[a-z0-9]*"' report.html | sed 's/.*id="//; s/"//'); do
    sed "s|</style>|section{display:none}#$s{display:block}</style>|" report.html >"sec-$s.html"
    chrome --screenshot="$out/screenshot-$s.png" --window-size=1280,2400 "file://$out/sec-$s.html" \
        >/dev/null 2>&1
    [ -s "screenshot-$s.png" ] || bad "no screenshot for $s"
    rm -f "sec-$s.html"
done
rm -rf "$profile"
[ $fail = 0 ] && echo "PASS: report pictures ($count)"
exit $fail
