#!/usr/bin/env bash
# loaded-table.sh HOPBENCH - CTest test (label numa: real runs): loaded's table is one row per
# injection delay (idle first), with the delay, the mix, the load the loaders achieved (of
# what was asked, or unpaced), the latency with its interval and the status; the loaders' own
# records are in those rows, not beside them. The rows are the records' own delays.
hb=$1
. "$(dirname "$0")/cli-lib.sh"
cd "$work" || exit 1
args=(loaded --quick --repeat 1 --reps 1 --min-time 0.002 --size 64M --quiet)
"$hb" "${args[@]}" >table.txt || { echo "FAIL: table run: exit $?"; exit 1; }
"$hb" "${args[@]}" -o r.jsonl || { echo "FAIL: jsonl run: exit $?"; exit 1; }
header=$(grep -c '^cpu->mem  delay ' table.txt)
[ "$header" = 1 ] || { echo "FAIL: $header headers"; fail=1; }
want=$(jq -r 'select(.type == "measurement" and .role == "foreground") |
    "\(.cpu_node)->\(.mem_node) \(if .delay == null then "idle" else "\(.delay) ns" end) \(.mix)"' r.jsonl)
got=$(awk '/^cpu->mem  delay / { on = 1; next } on && /^[0-9]+->[0-9]+ / {
    d = ($2 == "idle") ? "idle" : $2 " " $3; m = ($2 == "idle") ? $3 : $4; print $1, d, m }' table.txt)
[ "$got" = "$want" ] || { echo "FAIL: rows"; echo "got:"; echo "$got"; echo "want:"; echo "$want"; fail=1; }
[ "$(head -n 1 <<<"$got")" = "0->0 idle read" ] || { echo "FAIL: idle is not first"; fail=1; }
# Every loaded row names its load: achieved of asked, or unpaced at delay 0.
grep -E '^[0-9]+->[0-9]+ +[0-9]+ ns ' table.txt |
    grep -vqE '[0-9.e+]+ GB/s achieved( of [0-9.e+]+ asked|, unpaced)' &&
    { echo "FAIL: a loaded row without its load: $(cat table.txt)"; fail=1; }
grep -qE '^[0-9]+->[0-9]+ +0 ns +read +[0-9.e+]+ GB/s achieved, unpaced' table.txt ||
    { echo "FAIL: no unpaced row at delay 0"; fail=1; }
# No loader row of its own (label node.1.r.node) beside the latency rows.
! grep -qE '^loaded-' table.txt || { echo "FAIL: per-task rows: $(grep -E '^loaded-' table.txt)"; fail=1; }
cli_finish
