#!/usr/bin/env bash
# pictures_selftest.sh FIXTURES OUT - CTest test (label report): every rule of pictures_check.js
# can fail. On fixtures/pictures_bad.html, one flaw per rule, each rule reports its flaw; the
# flawless figure of that page draws no finding. Without this, a rule that never fires would
# let report.pictures pass on anything.
set -u
fx=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
mkdir -p "$out" || exit 1
. "$here/pictures-lib.sh"
pictures_check "$fx/pictures_bad.html" "$out"
rm -rf "$profile"
fail=0
[ -n "$count" ] || { echo "FAIL: the checker did not run: $(head -c 400 "$out/console.log")"; exit 1; }
# Each rule: a part of the one line it writes for its flaw.
while IFS= read -r want; do
    [ -n "$want" ] || continue
    grep -qF -- "$want" <<<"$found" || { echo "FAIL: no finding: $want"; fail=1; }
done <<'RULES'
no viewBox: #bad
taller than 1000 px (1200): #bad
wider than the page (1520 > 1280): #bad
clipped text "cut off": #bad
unit GBps, not GB/s: "no viewBox, 148 GBps": #bad [geometry]
scientific notation "1e+06": #bad
texts overlap "first" / "second": #bad
interval 40..75 beyond the y range 0..60: #bad [intervals]
legend over data: #bad [legends]
legend over text "axis words": #bad [legends]
): table in #bad [geometry]
figure without legend: #bad [legends]
series "s1" in two colours: #bad [colours]
empty figure: #bad [empty figure]
empty panel: #bad [caption alone]
heatmap without colour scale: #bad [heatmaps]
colour scale without min/max/unit (low 1 | high 2): #bad [heatmaps]
best cell 1 not the better colour: #bad [heatmaps]
better is 2 colours: #d6604d #5b8fd6
byte tick "1000 bytes": #bad [bytes]
byte tick not a power of two 3072: #bad [bytes]
cache marks without a caption: #bad [bytes]
point 65536 (L1) on the wrong side of a cache mark: #bad [bytes]
label 0.1.r.2 not explained (CPU node 0 thread 1 memory 2): #bad
repeated myth heading: Myth 1
myth without claim: Myth 1
myth without verdict: Myth 1
myth without figures: Myth 1
squashed: the highest figure reaches 3% of the y scale 0..15000: #bad [intervals]
interval 10..50 cut but inside the y range 0..60: #bad [intervals]
interval 10..50 cut without its end written: #bad [intervals]
contents link "#nowhere" leads to no element
section #verdicts not in the contents
RULES
! grep -q '#good' <<<"$found" || { echo "FAIL: findings on the flawless figure: $(grep '#good' <<<"$found")"; fail=1; }
[ "$fail" = 0 ] || { echo "--- findings:"; echo "$found"; exit 1; }
echo "PASS: $(grep -c . <<<"$found") findings, every rule fired ($count)"
