#!/usr/bin/env bash
# coll.sh OUT - CTest test report.coll (labels report, numa; HOPBENCH names the binary): the
# report's coll section on a real coll run of this machine (two ranks on node 0, allreduce,
# bcast and barrier at three sizes, two repeats), laid out in headless Chromium at 1280 px with
# pictures_check.js injected into a copy (no empty figure, nothing clipped or overlapping, each
# figure on its own scale, the contents' links resolve). Checks: the section exists and is in
# the contents; one latency figure per op that moves messages (none for the barrier), on a
# byte axis, its points the records' sizes and p50s; the per-rank table a row per record, the
# barrier's included. The files, the report and the laid-out page stay in OUT.
out=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../mpi/mpi-lib.sh
. "$here/../mpi/mpi-lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
mkdir -p "$out" && cd "$out" || exit 1
rm -f ./*.jsonl ./*.html
timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" coll --op allreduce,bcast,barrier --size 8,1K,64K \
    --reps 1 --min-time 0.001 --repeat 2 --quiet -o c.jsonl || fail "coll run: exit $?"
"$HB" report c.jsonl -o c.html || fail "report: exit $?"

# Numbers as text, the same on both sides.
norm() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) $i = sprintf("%.6g", $i); print }'; }
section=$(sed -n '/<section id="coll">/,/<\/section>/p' c.html)
[ -n "$section" ] || fail "no coll section"
expect_has "contents: the coll section" "$(grep -o '<a href="#coll">[^<]*' c.html)" '<a href="#coll">'
# Per figure, in order: its points "x y" (one curve: the world of two ranks).
points=$(perl -0ne 'while (/<svg class="fig lines"[^>]*data-xunit="bytes"[^>]*data-metric="coll">(.*?)<\/svg>/sg) {
    my $s = $1; my @pt = $s =~ /class="pt"[^>]*data-x="([^"]+)" data-y="([^"]+)"/g;
    print join(" ", @pt), "\n" }' <<<"$section" | norm)
want=$(jq -r -s '[.[] | select(.type == "measurement" and .op != "barrier")] | group_by(.op) |
    sort_by(.[0].op | if . == "allreduce" then 0 else 1 end)[] |
    sort_by(.message_bytes) | map("\(.message_bytes) \(.p50_us)") | join(" ")' c.jsonl | norm)
expect_eq "figures: allreduce then bcast, each point a record's size and p50" "$points" "$want"
expect_eq "no figure for the barrier (no message size)" \
    "$(grep -c 'MPI barrier latency' <<<"$section" || true)" 0
expect_eq "per-rank table: a row per record, the barrier's too" \
    "$(perl -0ne '/<table class="numbers coll">(.*?)<\/table>/s && print scalar(() = $1 =~ /<tr>/g) - 1' <<<"$section")" \
    "$(jq -s '[.[] | select(.type == "measurement")] | length' c.jsonl)"

# Layout and pictures in Chromium at 1280 px.
# shellcheck source=pictures-lib.sh
. "$here/pictures-lib.sh"
pictures_check c.html "$out"
rm -rf "$profile"
expect_eq "layout and picture findings" "$(echo "$found" | tr -d '[:space:]')" ""
expect_has "the checker looked at the figures" "$count" " svgs"
expect_eq "laid out: the coll figures on byte axes" \
    "$(sed -n '/<section id="coll">/,/<\/section>/p' "$out/dom.html" | grep -o '<svg [^>]*data-xunit="bytes"' | wc -l)" 2
finish
