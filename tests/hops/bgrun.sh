#!/usr/bin/env bash
# A real run with load on this machine: foreground on thread 0, paced background on thread 1
# of the same node (full subscription), or a scenario file doing the same. hops needs two
# nodes with memory: on a machine with one it is refused (exit 3) and the same load, paced
# the same way, runs as the one-node scenario (jobs/scenarios/one-node-load.scn, level high).
# Usage: bgrun.sh HOPBENCH HOPS_CHECK hops|hops-measured|SCENARIO
set -euo pipefail
bin=$1 check=$2 what=$3
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(nproc)" -lt 2 ]; then
  echo "needs 2 CPUs for a foreground and a background thread"; exit 77
fi
common=(--size 16M --reps 3 --min-time 0.05 --format jsonl -o "$tmp/out.jsonl" --quiet)
mem_nodes=$("$bin" topo --format jsonl | jq '[.nodes[] | select(.has_memory)] | length')
one_node=$(cd "$(dirname "$0")/../../jobs/scenarios" && pwd)/one-node-load.scn
if [ "$what" != "${what#hops}" ] && [ "$mem_nodes" -lt 2 ]; then
  rc=0
  "$bin" hops --quick "${common[@]}" 2>"$tmp/err" || rc=$?
  [ "$rc" = 3 ] && grep -q "hops needs 2 or more NUMA nodes with memory" "$tmp/err" &&
    [ ! -e "$tmp/out.jsonl" ] || { echo "FAIL: hops on one node: exit $rc: $(cat "$tmp/err")"; exit 1; }
  [ "$what" = hops ] && common+=(--bg-rate 1)
  what=$one_node
fi
if [ "$what" = hops ]; then
  "$bin" hops --quick --level high --subscription full --bg-rate 1 "${common[@]}"
elif [ "$what" = hops-measured ]; then
  # No --bg-rate: each background thread paces to a share of its own measured rate.
  "$bin" hops --quick --level low --subscription full "${common[@]}"
else
  "$bin" run "$what" "${common[@]}"
fi
"$check" bgrun "$tmp/out.jsonl"
if [ "$3" = hops-measured ]; then
  # Every background thread reports the pace it derived from its own measured rate.
  jq -e -s '[.[] | select(.type == "measurement" and .role == "foreground") | .background[]?.target_GBps]
            | length > 0 and all(. > 0)' "$tmp/out.jsonl" >/dev/null ||
    { echo "FAIL: a measured-pace background thread has no target"; exit 1; }
fi
