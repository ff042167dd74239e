#!/usr/bin/env bash
# Golden test of `hopbench compare` on hand-made files: a regression, an improvement, noise
# that is not significant, an unchanged record, one record on each side only.
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
out=$("$hb" compare base.jsonl base.jsonl)
rc=$?
[ "$rc" = 0 ] || { echo "self compare: exit $rc, want 0"; fail=1; }
diff <(echo "$out") compare.self.expected || fail=1
"$hb" compare base.jsonl new.jsonl --threshold 31 >/dev/null
rc=$?
[ "$rc" = 0 ] || { echo "--threshold 31: exit $rc, want 0 (every change is under it)"; fail=1; }
err=$("$hb" compare base.jsonl newer.jsonl 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && [[ $err == *"newer.jsonl:1: run record has schema_version 99"* ]] ||
    { echo "newer schema: exit $rc, '$err'"; fail=1; }
err=$("$hb" compare base.jsonl 2>&1)
rc=$?
[ "$rc" = 2 ] && [[ $err == *"compare needs two result files"* ]] || { echo "usage: $rc '$err'"; fail=1; }
# The usage line lists the formats the run knows (from the same table as --format).
[[ $err == *"[--format table|csv|jsonl]"* ]] || { echo "usage formats: '$err'"; fail=1; }
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
