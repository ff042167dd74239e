#!/usr/bin/env bash
# compare_runs.sh HOPBENCH - CTest test (label report): compare on real runs of this machine.
# Identical conditions must not be told apart: one run of 10 independent repeats, split into
# its odd and even repeats (interleaved in time, so a drift of the host between two runs,
# which is real and which compare rightly reports, touches both halves alike), gives two
# files of 5 repeats that must show at most one worse or better record (a verdict needs the
# repeats to separate and a change over --threshold: at alpha 0.05 one of 8 by chance is
# possible); the same command while a memory-streaming load runs on every CPU must show most
# records worse, exit 1. (A busy loop was not enough: each record keeps its best sample, and a
# sample that had its CPU alone for a moment is as fast as before. A load on the memory is
# there in every sample.)
set -u
hb=$1
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
busy=()
cleanup() {
    for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
fail=0
# Every bandwidth kernel on one thread, 64 MiB (memory here), the default samples and
# repeats: the default suite's 8 kernels, 8 records a run, about 15 s.
run() { # run OUT
    "$hb" bw --kernel read,write,write-nt,copy,copy-nt,triad,triad-nt,memcpy --threads 1 \
        --size 64M --quiet --format jsonl -o "$1.jsonl"
}
verdicts() { # verdicts BASE NEW: "worse better same unclear undetermined rc"
    local out rc
    out=$("$hb" compare "$1" "$2" --format jsonl)
    rc=$?
    jq -r -s --arg rc "$rc" '[.[] | select(.type == "compare_summary")][0] |
        "\(.worse) \(.better) \(.same) \(.unclear) \(.undetermined) \($rc)"' <<<"$out"
}
# half FILE PARITY: FILE with each measurement's odd (1) or even (0) repeats only, its value,
# ci95 ([min, max]: the order-statistic interval of 5), coverage and count recomputed.
half() {
    jq -c --argjson p "$2" 'if .type == "measurement" then
        ([.repeat_values | to_entries[] | select(.key % 2 == $p) | .value] | sort) as $v |
        .repeat_values = $v | .repeats = ($v | length) | .value = $v[($v | length - 1) / 2 | floor] |
        .ci95 = [$v[0], $v[-1]] | .ci_coverage = 0.9375 else . end' "$1"
}
"$hb" bw --kernel read,write,write-nt,copy,copy-nt,triad,triad-nt,memcpy --threads 1 \
    --size 64M --repeat 10 --quiet --format jsonl -o ab.jsonl || { echo "FAIL: the run did not complete"; exit 1; }
half ab.jsonl 0 >a.jsonl && half ab.jsonl 1 >b.jsonl || { echo "FAIL: cannot split the repeats"; exit 1; }
[ "$(jq -s '[.[] | select(.type == "measurement") | .repeats] | unique' a.jsonl b.jsonl | jq -c .)" = "[5]" ] ||
    { echo "FAIL: the halves do not hold 5 repeats each"; exit 1; }
read -r worse better same unclear undet rc <<<"$(verdicts a.jsonl b.jsonl)"
echo "identical conditions (odd against even repeats): $worse worse, $better better, $same same, $unclear unclear, $undet undetermined, exit $rc"
# At most one record by chance (alpha 0.05 over 8 records), none undetermined.
if [ $((worse + better)) -gt 1 ] || [ "$undet" != 0 ]; then
    echo "FAIL: identical conditions were told apart"
    "$hb" compare a.jsonl b.jsonl
    fail=1
fi
# Every CPU streams memory (copy over 512 MiB, pinned to it): the measured thread shares its CPU
# and the memory with them.
for cpu in $(seq 0 $(($(nproc) - 1))); do
    taskset -c "$cpu" "$hb" bw --kernel copy --threads 1 --size 512M --reps 1000 --min-time 0.1 \
        --quiet -o /dev/null >/dev/null 2>&1 &
    busy+=($!)
done
sleep 2
run c || { echo "FAIL: the busy run did not complete"; exit 1; }
for p in "${busy[@]}"; do kill "$p"; done
busy=()
read -r worse better same unclear undet rc <<<"$(verdicts a.jsonl c.jsonl)"
echo "memory load on every CPU: $worse worse, $better better, $same same, $unclear unclear, exit $rc"
# Most records moved beyond the threshold (worse, or too spread to tell: unclear), none
# better, and the gate never passes: exit 1, or 5 (rerun) when nothing could be proven.
if { [ "$rc" != 1 ] && [ "$rc" != 5 ]; } || [ $((worse + unclear)) -lt 5 ] || [ "$better" != 0 ]; then
    echo "FAIL: a run competing with a memory load per CPU should be worse (or unclear) in most records, exit 1 or 5"
    "$hb" compare a.jsonl c.jsonl
    fail=1
fi
[ "$fail" = 0 ] && echo PASS
exit "$fail"
