#!/usr/bin/env bash
# history-real.sh HOPBENCH [WORKDIR] [SUITE] - a benchmark proof, not a CTest test (minutes):
# real runs on this machine (SUITE: lat, the default; "default" for the default suite's
# latency and bandwidth), one after another, each added to an SQLite history as it ends: 6
# quiet, 6 with two busy loops on the CPUs, 6 quiet again, then 3 with THP "never".
# THP is the kernel's, shared with everyone on the machine, so those runs see "never" through a
# bind mount over /sys/kernel/mm/transparent_hugepage/enabled in a mount namespace of their own
# (unshare -m): the captured config says never, and the runs ask for 4 KiB pages (--pages 4k),
# which is what a run asking for THP (--pages thp, every other run) gets under never. Then
# `history check` and `report --history`: the steps found, the knobs named, and THP's change
# a config row of its own at the first THP run (exit 1 when it is not).
set -u
hb=$(realpath "$1")
work=${2:-$(mktemp -d)}
suite=${3:-lat}
mkdir -p "$work" && cd "$work" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
db=$work/history.sqlite
rm -f "$db"
opts=(--size 64M --reps 2 --min-time 0.01 --repeat 5 --quiet --format jsonl)
[ "$suite" = default ] || opts=("$suite" "${opts[@]}")
n=0

# night HOW: one run (quiet, busy or thp), added to the history.
night() {
    local how=$1 pids=() out
    n=$((n + 1))
    out=$(printf 'run-%02d-%s.jsonl' "$n" "$how")
    if [ "$how" = busy ]; then
        for _ in 1 2; do
            (while :; do :; done) &
            pids+=($!)
        done
    fi
    if [ "$how" = thp ]; then
        sed 's/\[\(.*\)\]/\1/; s/never/[never]/' /sys/kernel/mm/transparent_hugepage/enabled >thp-never
        unshare -m sh -c 'mount --bind "$1" /sys/kernel/mm/transparent_hugepage/enabled && shift &&
                          exec "$@"' sh "$work/thp-never" "$hb" "${opts[@]}" --pages 4k -o "$out"
    else
        "$hb" "${opts[@]}" --pages thp -o "$out"
    fi
    local rc=$?
    for p in "${pids[@]}"; do kill "$p"; wait "$p" 2>/dev/null; done
    [ $rc = 0 ] || [ $rc = 1 ] || { echo "FAIL: run $n ($how) exit $rc"; exit 1; }
    "$hb" history add "$out" --db "$db" | sed "s/^/  /"
    echo "run $n ($how): thp_enabled $(jq -r 'select(.type == "run") | .config.thp_enabled' "$out")," \
         "load $(cut -d' ' -f1 /proc/loadavg)"
}

start=$(date +%s)
for how in quiet quiet quiet quiet quiet quiet busy busy busy busy busy busy \
    quiet quiet quiet quiet quiet quiet thp thp thp; do
    night "$how"
done
echo "$n runs in $(($(date +%s) - start)) s"
echo "== history check"
"$hb" history check --db "$db"
echo "exit $?"
"$hb" history check --db "$db" --format jsonl >check.jsonl
"$hb" report --history "$db" -o report.html && echo "report: $work/report.html"
echo "== change points: kind, series, run after, change, knobs"
jq -r 'select(.type == "change_point") | [.direction, .kind, .series + " " + .metric, .at_run,
       (.change_pct | tostring) + "%", .knobs] | @tsv' check.jsonl
echo "== config changes: at, run, knobs, hopbench"
jq -r 'select(.type == "config_change") | [.at_time, .at_run, .knobs, .version_change] | @tsv' check.jsonl
first_thp=$(printf 'run-%02d-thp.jsonl' $((n - 2)))
want=$(jq -r 'select(.type == "run") | .start_time' "$first_thp")
got=$(jq -r --arg t "$want" 'select(.type == "config_change" and .at_time == $t) | .knobs' check.jsonl)
case "$got" in
*"thp_enabled "*" -> never"*) echo "PASS: $first_thp ($want) named: $got" ;;
*) echo "FAIL: no config row naming thp_enabled -> never at $first_thp ($want): '$got'"; exit 1 ;;
esac
