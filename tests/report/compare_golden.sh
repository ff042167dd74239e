#!/usr/bin/env bash
# Golden test of `hopbench compare` on hand-made files: a regression, an improvement, a
# change within the noise (unclear), an unchanged record (same), records whose repeats cannot
# decide (undetermined), one record on each side only.
set -u
hb=$1 fx=$2
cd "$fx" || exit 1
fail=0
for fmt in table csv jsonl; do
    out=$("$hb" compare base.jsonl new.jsonl --format "$fmt")
    rc=$?
    [ "$rc" = 1 ] || { echo "compare --format $fmt: exit $rc, want 1 (a regression)"; fail=1; }
    diff <(echo "$out") "compare.$fmt.expected" || { echo "compare --format $fmt differs"; fail=1; }
done
# A file against itself: nothing worse, but the noisy record cannot be shown the same and two
# have too few repeats: exit 5, rerun.
out=$("$hb" compare base.jsonl base.jsonl)
rc=$?
[ "$rc" = 5 ] || { echo "self compare: exit $rc, want 5 (unclear and undetermined rows)"; fail=1; }
diff <(echo "$out") compare.self.expected || fail=1
# Every change under the threshold: the regression is now the same (its interval inside
# +-31%), nothing is worse; the noisy record stays unclear: exit 5.
out=$("$hb" compare base.jsonl new.jsonl --threshold 31 --format jsonl)
rc=$?
sum=$(jq -r 'select(.type == "compare_summary") | "\(.worse) \(.same) \(.unclear)"' <<<"$out")
[ "$rc" = 5 ] && [ "$sum" = "0 3 1" ] ||
    { echo "--threshold 31: exit $rc, worse/same/unclear '$sum', want 5 and '0 3 1'"; fail=1; }
err=$("$hb" compare base.jsonl newer.jsonl 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && [[ $err == *"newer.jsonl:1: run record has schema_version 99"* ]] ||
    { echo "newer schema: exit $rc, '$err'"; fail=1; }
err=$("$hb" compare base.jsonl 2>&1)
rc=$?
[ "$rc" = 2 ] && [[ $err == *"compare needs two result files"* ]] || { echo "usage: $rc '$err'"; fail=1; }
# The usage line points to compare's help, which lists the formats the run knows (from the
# same table as --format).
[[ $err == *"(see hopbench compare --help)" ]] && "$hb" compare --help | grep -q -- '--format F  *table | csv | jsonl' ||
    { echo "usage formats: '$err'"; fail=1; }
# A result that cannot be written is an error of its own (exit 3), in every format.
if [ -w /dev/full ]; then
    for fmt in table csv jsonl; do
        err=$("$hb" compare base.jsonl new.jsonl --format "$fmt" 2>&1 >/dev/full)
        rc=$?
        [ "$rc" = 3 ] && [ "$(echo "$err" | wc -l)" = 1 ] && [[ $err == *"stdout"* ]] ||
            { echo "compare --format $fmt >/dev/full: exit $rc, '$err'"; fail=1; }
    done
fi
exit $fail
