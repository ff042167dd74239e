#!/usr/bin/env bash
# A real run with load on this machine: foreground on thread 0, paced background on thread 1
# of the same node (full subscription), or a scenario file doing the same.
# Usage: bgrun.sh HOPBENCH HOPS_CHECK hops|SCENARIO
set -euo pipefail
bin=$1 check=$2 what=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(nproc)" -lt 2 ]; then
  echo "needs 2 CPUs for a foreground and a background thread"; exit 77
fi
common=(--size 16M --reps 3 --min-time 0.05 --format jsonl -o "$tmp/out.jsonl" --quiet)
if [ "$what" = hops ]; then
  "$bin" hops --quick --level high --subscription full --bg-rate 1 "${common[@]}"
elif [ "$what" = hops-measured ]; then
  # No --bg-rate: each background thread paces to a share of its own measured rate.
  "$bin" hops --quick --level low --subscription full "${common[@]}"
else
  "$bin" run "$what" "${common[@]}"
fi
"$check" bgrun "$tmp/out.jsonl"
if [ "$what" = hops-measured ]; then
  command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
  # Every background thread reports the pace it derived from its own measured rate.
  jq -e -s '[.[] | select(.type == "measurement" and .role == "foreground") | .background[]?.target_GBps]
            | length > 0 and all(. > 0)' "$tmp/out.jsonl" >/dev/null ||
    { echo "FAIL: a measured-pace background thread has no target"; exit 1; }
fi
