#!/usr/bin/env bash
# comm.sh OUT - CTest test report.comm (labels report, numa; HOPBENCH names the binary): the
# report's comm section on real comm runs of this machine (two ranks on node 0; two ranks as
# the emulated hosts hostA and hostB, so only pairs between hosts) and on a 4-node fixture for
# drawing only (comm_fixture.sh: the plan of 2s-4n-snc.xml with this machine's figures scaled
# by hop class). Checks: the heatmap cells are the comm_matrix values with their hop classes;
# one curve per pair class, its points the medians over the class's pairs with the medians of
# their intervals; byte axes; no empty figure; no heatmap without a comm_matrix; comm records
# not drawn again as bars. The files and reports stay in OUT.
out=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../mpi/mpi-lib.sh
. "$here/../mpi/mpi-lib.sh"
args=(comm --size 64K --reps 2 --min-time 0.002 --repeat 3 --quiet)
timeout 180 mpirun "${OVERSUB[@]}" -np 2 "$HB" "${args[@]}" -o c.jsonl
timeout 180 "${TWO_HOSTS[@]}" "${args[@]}" -o x.jsonl
"$here/comm_fixture.sh" "$HB" "$here/../topo/fixtures/2s-4n-snc.xml" c.jsonl >snc4.jsonl

# Numbers as text, the same on both sides.
norm() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) $i = sprintf("%.6g", $i); print }'; }
# The comm heatmaps' cells: kind, row, col, value, hop class, and the texts shown in the cell.
cells() {
    perl -0ne 'while (/<rect class="cell[^"]*"[^>]*data-kind="(comm-\w+)" data-row="(\d+)" data-col="(\d+)" data-value="([^"]+)" data-hops="(-?\d+)"[^>]*>\n<text[^>]*class="val"[^>]*>([^<]*)<\/text>\n<text[^>]*class="hop"[^>]*>([^<]*)<\/text>/g) { print "$1 $2 $3 $4 $5 [$7]\n" }' "$1" | norm | sort
}
want_cells() {
    jq -r 'select(.type == "comm_matrix") | . as $m | range(.rows | length) as $r |
        range(.cols | length) as $c | select($m.values[$r][$c] != null) |
        $m.hop_class[$r][$c] as $h |
        "comm-\($m.metric) \($m.rows[$r]) \($m.cols[$c]) \($m.values[$r][$c]) \($h) [\($h) hop\(if $h == 1 then "" else "s" end)]"' "$1" | norm | sort
}
# Per curve figure (data-metric), in order: its legend names, then each point "x y lo hi"
# (points and whiskers of a series are drawn in the same order).
curves() {
    perl -0ne 'while (/<svg class="fig lines"[^>]*data-metric="([^"]+)">(.*?)<\/svg>/sg) {
        my ($m, $s) = ($1, $2);
        my @names = $s =~ /<g class="legend">(.*?)<\/g>/s ? ($1 =~ /class="tick">([^<]*)</g) : ();
        print "$m legend: ", join(" | ", @names), "\n";
        for my $series (split /<polyline/, $s) {
            my @pt = $series =~ /class="pt"[^>]*data-x="([^"]+)" data-y="([^"]+)"/g;
            my @ci = $series =~ /class="ci(?: cut)?"[^>]*data-lo="([^"]+)" data-hi="([^"]+)"/g;
            print "$m $pt[2*$_] $pt[2*$_+1] $ci[2*$_] $ci[2*$_+1]\n" for 0 .. @pt / 2 - 1;
        } }' "$1" | norm
}
# The same from the records: per metric the pair classes in drawing order, named with the most
# pairs at a size, and per class and size the median value and the medians of the ci95 ends.
want_curves() {
    jq -r -s 'def median: sort | length as $n | if $n % 2 == 1 then .[($n - 1) / 2]
                  else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
        def cls: if .src_host != .dst_host then 1e9 elif (.hops | type) == "number" and .hops >= 0
                 then .hops else 2e9 end;
        def words: if . == 1e9 then "between hosts" elif . == 2e9 then "hop class unknown"
                   elif . == 0 then "same node (0 hops)" elif . == 1 then "1 hop" else "\(.) hops" end;
        [.[] | select(.type == "measurement" and .suite == "comm" and .status == "ok")] as $p |
        ("latency", "bandwidth", "bibandwidth") as $m | ($p | map(select(.metric == $m))) as $q |
        select($q | length > 0) | ("comm " + $m) as $name |
        ($q | group_by(cls)) as $classes |
        ("\($name) legend: " + ([$classes[] | (.[0] | cls | words) + ", " +
            (group_by(.message_bytes) | map(length) | max | tostring) + " pair" +
            (if (group_by(.message_bytes) | map(length) | max) == 1 then "" else "s" end)] | join(" | "))),
        ($classes[] | group_by(.message_bytes)[] |
            "\($name) \(.[0].message_bytes) \(map(.value) | median) \(map(.ci95[0]) | median) \(map(.ci95[1]) | median)")' "$1" | norm
}
svgs() { perl -0ne 'while (/(<svg class="fig[^"]*".*?<\/svg>)/sg) { my $s = $1; $s =~ s/\n/ /g; print "$s\n" }' "$1"; }

for f in c x snc4; do
    "$HB" report "$f.jsonl" -o "$f.html" || fail "$f: report exit $?"
    expect_eq "$f: heatmap cells, values and hop classes" "$(cells "$f.html")" "$(want_cells "$f.jsonl")"
    expect_eq "$f: curves (legend, then x y lo hi per point)" "$(curves "$f.html")" "$(want_curves "$f.jsonl")"
    expect_eq "$f: curve figures, one per metric" "$(grep -c '<svg class="fig lines"' "$f.html")" 3
    # Byte axes: ticks in B/KiB/MiB at powers of two.
    ticks=$(perl -0ne 'while (/<svg class="fig lines"[^>]*data-xunit="bytes"(.*?)<\/svg>/sg) { my $s = $1; print "$1 $2\n" while $s =~ /class="tick xtick"[^>]*data-x="([^"]+)">([^<]*)</g }' "$f.html")
    [ "$(wc -l <<<"$ticks")" -ge 12 ] || fail "$f: byte axes: $(wc -l <<<"$ticks") ticks in 3 figures"
    bad_ticks=$(awk '{ x = $1; while (x > 1 && x % 2 == 0) x /= 2 } x != 1 || $3 !~ /^(B|KiB|MiB)$/' <<<"$ticks")
    expect_eq "$f: byte ticks at powers of two in B/KiB/MiB" "$bad_ticks" ""
    expect_eq "$f: a figure without data" "$(svgs "$f.html" | grep -Ev -e 'class="cell[^"]*"[^>]*data-value=' -e 'class="(pt|bar)"' | head -c 300)" ""
    ! grep -q '<section id="basic"' "$f.html" || fail "$f: comm records drawn again as bars"
done
expect_eq "c: heatmaps" "$(grep -c '<svg class="fig heatmap"' c.html)" 2
expect_eq "snc4: heatmaps" "$(grep -c '<svg class="fig heatmap"' snc4.html)" 2
expect_eq "x: pairs between hosts only, no heatmap" "$(grep -c '<svg class="fig heatmap"' x.html || true)" 0
expect_has "x: the class between hosts" "$(curves x.html)" "comm latency legend: between hosts, 2 pairs"
expect_has "snc4: four pair classes" "$(curves snc4.html)" \
    "comm latency legend: same node (0 hops), 4 pairs | 1 hop, 4 pairs | 2 hops, 8 pairs | between hosts, 4 pairs"
# The three files in one report: each file's figures, each on its own y scale (issue 39: no
# file's figures flattened by another's): its top tick the decade just above its highest point
# and the interval ends within a decade of it (those further are drawn cut).
"$HB" report c.jsonl x.jsonl snc4.jsonl -o all.html || fail "all: report exit $?"
expect_eq "all: heatmaps" "$(grep -c '<svg class="fig heatmap"' all.html)" 4
expect_eq "all: curve figures" "$(grep -c '<svg class="fig lines"' all.html)" 9
for m in latency bandwidth bibandwidth; do
    far=$(perl -MPOSIX=ceil -MList::Util=max -0ne 'while (/<svg class="fig lines"[^>]*data-metric="comm '"$m"'">(.*?)<\/svg>/sg) {
        my $s = $1; my $top = max(map { s/,//gr } $s =~ /class="tick ytick"[^>]*>([^<]*)</g);
        my $hy = max($s =~ /class="pt"[^>]*data-y="([^"]*)"/g);
        my $h = max($hy, grep { $_ <= 10 * $hy } $s =~ /class="ci[^"]*"[^>]*data-hi="([^"]*)"/g);
        my $want = 10 ** ceil(log($h) / log(10) - 1e-9);
        print "top tick $top, its own data want $want\n" if abs($top - $want) > 1e-9 * $want }' all.html)
    expect_eq "all: $m figures each on its own y scale" "$far" ""
done
mkdir -p "$out" && cp ./*.jsonl ./*.html "$out/"
finish
