#!/usr/bin/env bash
# layout.sh HOPBENCH OUT - CTest test (label report): the layout of a combined report of a
# quiet and a busy run of `lat` (the busy one runs beside a spinning loop on every core, and
# its interval is then planted at 80 times its figure, so that the test never depends on how
# busy the machine got). Checks, in headless Chromium at 1280 px with pictures_check.js
# injected into a copy (the report stays script-free): no layout finding; each chart is
# scaled to its own data (every bar of both files' charts is taller than a fifth of its plot),
# the wild interval is drawn cut with its end written and its true end in data-hi; the
# comparison section has one row per experiment compare matches, each figure, interval,
# change and verdict equal to compare's rows and the figures equal to the records'; every
# link of the contents resolves to an element and every section is listed.
set -u
hb=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
mkdir -p "$out" && cd "$out" || exit 1
rm -f ./*.jsonl ./*.html
fail=0
bad() { echo "FAIL: $*"; fail=1; }
quick=(--size 16M --reps 1 --repeat 5 --min-time 0.005 --quiet)
"$hb" lat "${quick[@]}" -o quiet.jsonl || bad "quiet lat run"
spin=()
for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    spin+=($!)
done
"$hb" lat "${quick[@]}" -o busy-run.jsonl || bad "busy lat run"
kill "${spin[@]}"
wait "${spin[@]}" 2>/dev/null
jq -c 'if .type == "measurement" then .ci95[1] = .value * 80 else . end' busy-run.jsonl >busy.jsonl
"$hb" report quiet.jsonl busy.jsonl -o report.html || { echo "FAIL: report"; exit 1; }
! grep -qi '<script' report.html || bad "report embeds a script"

. "$here/pictures-lib.sh"
pictures_check report.html "$out"
rm -rf "$profile"
echo "checked: $count"
[ -n "$count" ] || bad "the checker did not run: $(head -c 300 "$out/console.log")"
[ -z "$(echo "$found" | tr -d '[:space:]')" ] || { bad "layout findings:"; echo "$found" | head -30; }

# Each chart on its own scale: every bar of the bandwidth-and-latency figures reaches a
# fifth of its plot (from the lowest to the highest y tick).
sed -n '/<section id="basic">/,/<\/section>/p' report.html >basic.html
read -r figs short < <(perl -0ne '
    my ($n, $s) = (0, 0);
    while (/<svg class="fig bars".*?<\/svg>/gs) {
        my $svg = $&; $n++;
        my @t = ($svg =~ /<text x="[^"]*" y="([0-9.]+)" class="tick ytick"/g);
        my ($lo, $hi) = (sort { $a <=> $b } @t)[0, -1];
        while ($svg =~ /<rect class="bar" x="[^"]*" y="[^"]*" width="[^"]*" height="([0-9.]+)"/g) {
            $s++ if $1 < 0.2 * ($hi - $lo);
        }
    }
    print "$n $s\n";' basic.html)
[ "${figs:-0}" -ge 2 ] || bad "bar figures in #basic: ${figs:-0}, want one per file"
[ "${short:-1}" = 0 ] || bad "$short bar(s) shorter than a fifth of their plot: a chart not on its own scale"

# The planted interval is cut at the plot's edge, its true end in data-hi and written.
# A busy machine can make the quiet run's own interval wide enough to be cut too: every cut
# end must be a true end (some record's ci95), and one of them the planted one.
want_hi=$(jq -r 'select(.type == "measurement") | .ci95[1]' busy.jsonl | head -1)
ends=$(jq -r 'select(.type == "measurement") | .ci95[1]' quiet.jsonl busy.jsonl)
cuts=$(grep -o '<path class="ci cut"[^>]*data-hi="[^"]*"' report.html | sed 's/.*data-hi="//; s/"//')
[ -n "$cuts" ] || bad "no interval drawn cut"
same() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a - b <= 1e-6 * b && b - a <= 1e-6 * b) }'; }
planted=0
for hi in $cuts; do
    same "$hi" "$want_hi" && planted=1
    true_end=0
    for e in $ends; do same "$hi" "$e" && true_end=1; done
    [ "$true_end" = 1 ] || bad "a cut interval ends at $hi, which is no record's interval end ($(echo $ends))"
done
[ "$planted" = 1 ] || bad "no cut interval ends at the planted end $want_hi (cut: $(echo $cuts))"
perl -0ne 'exit !/<g class="cut"><path class="ci cut"[^>]*\/>\s*<path class="cutmark"[^>]*\/><text class="tick cutval"[^>]*>to [0-9]/' report.html ||
    bad "the cut interval's end is not written"
for s in basic compare; do
    sed -n "/<section id=\"$s\">/,/<\/section>/p" report.html | grep -q 'class="ci cut"' ||
        bad "no cut interval in #$s"
done

# The comparison: one row per experiment compare matched, equal to compare's rows (which
# carry 6 significant digits).
"$hb" compare quiet.jsonl busy.jsonl --format jsonl >compare.jsonl
jq -r 'select(.type == "comparison") | [.record, .base, .base_ci95[0], .base_ci95[1],
    .change_pct, .new, .new_ci95[0], .new_ci95[1], .verdict] | @tsv' compare.jsonl | sort >want.tsv
grep -q '<section id="compare">' report.html || bad "no comparison section"
perl -ne 'next unless /<tr class="cmp" data-record="([^"]*)">/;
    my $rec = $1;
    my @v = ($rec, /data-value="([^"]*)"(?: data-lo="([^"]*)" data-hi="([^"]*)")?/g);
    my ($verdict) = /<td class="cmpverdict [^"]*"[^>]*>([^<]*)</;
    # base value lo hi, change (no interval), new value lo hi
    print join("\t", @v[0 .. 3], $v[4], @v[7 .. 9], $verdict), "\n";' report.html | sort >got.tsv
[ -s want.tsv ] || bad "compare matched no experiment of the two runs"
[ "$(wc -l <got.tsv)" = "$(wc -l <want.tsv)" ] ||
    bad "comparison rows: $(wc -l <got.tsv), compare's: $(wc -l <want.tsv)"
paste want.tsv got.tsv | awk -F'\t' '{
    if ($1 != $10 || $9 != $18) { print "row " $1 ": " $9 " against " $10 " " $18; bad = 1 }
    for (i = 2; i <= 8; i++) {
        d = $i - $(i + 9); if (d < 0) d = -d; m = $i < 0 ? -$i : $i
        if (d > 1e-5 * m + 1e-12) { print "row " $1 " column " i ": report " $(i + 9) ", compare " $i; bad = 1 }
    }
} END { exit bad }' || bad "comparison cells differ from compare's rows"
# ... and its figures are the records' own.
for f in quiet busy; do
    col=$([ $f = quiet ] && echo 2 || echo 6)
    while IFS=$'\t' read -r rec v; do
        read -r _ exp label _ <<<"$rec"
        r=$(jq -r --arg e "$exp" --arg l "$label" \
            'select(.type == "measurement" and .experiment == $e and .label == $l) | .value' $f.jsonl)
        awk -v a="$v" -v b="$r" 'BEGIN { exit !(a - b < 1e-9 * b && b - a < 1e-9 * b) }' ||
            bad "$f's figure of $rec: report $v, record $r"
    done < <(cut -f1,$col got.tsv)
done

# The contents: every link resolves to an element, every section is listed.
links=$(sed -n '/<nav class="toc"/,/<\/nav>/p' report.html | grep -o 'href="#[^"]*"' | sed 's/href="#//; s/"//')
[ -n "$links" ] || bad "no table of contents"
for id in $links; do
    grep -q " id=\"$id\"" report.html || bad "contents link #$id leads to no element"
done
for id in $(grep -o '<section id="[^"]*"' report.html | sed 's/.*id="//; s/"//'); do
    grep -qx "$id" <<<"$links" || bad "section #$id not in the contents"
done
[ $fail = 0 ] && echo "PASS: report layout ($count; $figs own-scale bar figures, $(wc -l <got.tsv) experiment(s) compared)"
exit $fail
