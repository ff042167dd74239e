#!/usr/bin/env bash
# A tiny real sweep on this machine: one ok record per size per page kind for chase (from 16
# lines of 256 bytes) and memcpy, real figures even at 1 KiB (the runner calibrates sweeps per sample), cache sizes
# in the run record and the table's cache marks.
# usage: sweep-run.sh HOPBENCH
set -euo pipefail
hb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { jq -cs "$@" "$tmp/r.jsonl"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$hb" sweep --max-size 4M --reps 2 --min-time 0.005 --format jsonl -o "$tmp/r.jsonl" --quiet
sizes='[1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304]'
for k in chase memcpy; do
  want=$sizes; [ $k = chase ] && want=$(jq -c '.[2:]' <<<"$sizes") # 16 lines of 256 bytes
  for p in 4k thp; do
    got=$(q --arg k "$k" --arg p "$p" '[.[] | select(.type=="measurement" and .kernel==$k and .pages==$p) | .ws_bytes]')
    [ "$got" = "$want" ] || fail "$k $p sizes: $got"
  done
done
[ "$(q '[.[] | select(.type=="measurement") | .status] | unique')" = '["ok"]' ] || fail "status: $(q '[.[] | select(.type=="measurement") | [.experiment, .status, .note]]')"
[ "$(q '[.[] | select(.type=="measurement") | .suite] | unique')" = '["sweep"]' ] || fail "suite"
# every latency positive and finite; many loads per sample at the smallest ring.
[ "$(q '[.[] | select(.kernel=="chase") | .lat_ns_median > 0 and .lat_ns_median < 1e6] | unique')" = "[true]" ] || fail "latencies"
[ "$(q '[.[] | select(.kernel=="memcpy") | .bw_GBps_best > 0] | unique')" = "[true]" ] || fail "bandwidths"
[ "$(q '[.[] | select(.kernel=="chase" and .ws_bytes==4096) | .sweeps_per_sample > 1] | unique')" = "[true]" ] || fail "4 KiB not calibrated"
# non-decreasing-ish: 4 MiB is no faster than 4 KiB in the same series (loose: 0.8x).
for p in 4k thp; do
  ok=$(q --arg p "$p" '[.[] | select(.kernel=="chase" and .pages==$p)] | (map(select(.ws_bytes==4194304))[0].lat_ns_median) >= 0.8 * (map(select(.ws_bytes==4096))[0].lat_ns_median)')
  [ "$ok" = true ] || fail "$p: 4 MiB faster than 4 KiB"
done
# cache sizes: the run record lists hwloc's levels; records carry the same sizes.
caches=$(q '.[] | select(.type=="run") | [.caches[]? | .bytes]')
recs=$(q '[.[] | select(.type=="measurement") | .cache_bytes | map(select(. > 0))] | unique | .[0]')
[ "$caches" = "$recs" ] || fail "caches $caches vs records $recs"

# table: the rows where a cache level ends are marked.
"$hb" sweep --max-size 64K --reps 1 --min-time 0.001 --quiet > "$tmp/t.txt"
if [ "$caches" != "[]" ] && [ "$(q '.[] | select(.type=="run") | .caches[0].bytes')" -le 65536 ]; then
  grep -q "L1 ends here" "$tmp/t.txt" || fail "no L1 mark in the table: $(cat "$tmp/t.txt")"
fi
echo ok
