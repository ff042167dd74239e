#!/usr/bin/env bash
# verdicts_real.sh HOPBENCH [PAIRS] - a benchmark, not a test: compare's verdicts on real
# runs of this machine (docs/verdicts.md#proof). Prints, one line each:
#   - PAIRS identical default runs taken back to back (A/A): each pair's worse, better,
#     same, unclear counts and exit code, then how many pairs gave no worse;
#   - BUSY pairs whose NEW runs with a busy loop on every CPU: each pair's counts and exit
#     code (the gate must never pass: 1 or 5);
#   - the default suite with --repeat auto on the quiet machine: its time, its repeats and
#     how many of its figures stay noisy.
# Runs write into a temporary folder; a busy loop is killed by the PIDs this script started.
set -u
hb=${1:?usage: verdicts_real.sh HOPBENCH [PAIRS]} pairs=${2:-10} busy_pairs=${BUSY:-3}
command -v jq >/dev/null || { echo "jq is needed"; exit 2; }
work=$(mktemp -d)
loops=()
cleanup() {
    for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
run() { "$hb" --quiet -o "$1" 2>/dev/null; }
counts() { # counts BASE NEW: "worse better same unclear undetermined exit"
    local out rc
    out=$("$hb" compare "$1" "$2" --format jsonl)
    rc=$?
    jq -r --arg rc "$rc" 'select(.type == "compare_summary") |
        "\(.worse) \(.better) \(.same) \(.unclear) \(.undetermined) \($rc)"' <<<"$out"
}
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
clean=0
for i in $(seq 1 "$pairs"); do
    run "a$i.jsonl" && run "b$i.jsonl" || { echo "pair $i: a run failed"; continue; }
    read -r w b s u d rc <<<"$(counts "a$i.jsonl" "b$i.jsonl")"
    echo "A/A pair $i: $w worse, $b better, $s same, $u unclear, $d undetermined, exit $rc ($(load))"
    [ "$w" = 0 ] && clean=$((clean + 1))
done
echo "A/A: $clean of $pairs pairs gave no worse"
for i in $(seq 1 "$busy_pairs"); do
    run "q$i.jsonl" || continue
    for cpu in $(seq 0 $(($(nproc) - 1))); do
        taskset -c "$cpu" sh -c 'while :; do :; done' &
        loops+=($!)
    done
    run "n$i.jsonl"
    for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    loops=()
    read -r w b s u d rc <<<"$(counts "q$i.jsonl" "n$i.jsonl")"
    echo "busy loop on every CPU, pair $i: $w worse, $b better, $s same, $u unclear, exit $rc"
done
start=$(date +%s.%N)
"$hb" --repeat auto --quiet -o auto.jsonl 2>/dev/null
end=$(date +%s.%N)
jq -r --arg t "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -s '[.[] | select(.type == "measurement")] |
    "--repeat auto: \(length) figures, \([.[] | select(.noisy)] | length) noisy, repeats \([.[].repeats] | min)-\([.[].repeats] | max), stops \([.[].repeat_stop] | group_by(.) | map("\(.[0]) \(length)") | join(", ")), \($t | tonumber | floor) s"' auto.jsonl
