#!/usr/bin/env bash
# Real policy runs on this machine, validation on, tiny sizes: every workload under every
# policy in both modes, then the intensity study. Asserts statuses, placement and the
# derived throughput, gain and knee records (values themselves vary on a shared machine). On
# one node with memory, the scoped study: local placement only, said before it runs.
# usage: policy-run.sh HOPBENCH
set -euo pipefail
hb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nodes=$("$hb" topo --format jsonl | jq -s '[.[] | select(.type=="topology") | .nodes[] | select(.has_memory)] | length')

"$hb" policy --size 4M --reps 2 --min-time 0.005 --format jsonl --quiet -o "$tmp/p.jsonl" \
  || fail "policy run exit $?"
q() { jq -cs "$@" "$tmp/p.jsonl"; }
if [ "$nodes" -lt 2 ]; then
  # One node with memory: only the local placement means something (every other would put the
  # pages there too); the plan says so, and the gains over the others are not measured.
  "$hb" policy --kernel triad --size 4M --reps 1 --min-time 0.002 --repeat 1 -o "$tmp/n.jsonl" 2>"$tmp/n.err" \
    || fail "policy run exit $?"
  grep -q '^hopbench: policy: one node with memory: only the local placement runs' "$tmp/n.err" \
    || fail "no note on one node: $(cat "$tmp/n.err")"
  [ "$(q '[.[] | select(.type=="measurement") | .policy] | unique')" = '["local"]' ] || fail "placements on one node"
  [ "$(q '[.[] | select(.type=="measurement" and .status=="ok" and .pages_share_pct["0"] == 100)] | length')" = 14 ] \
    || fail "local measurements: $(q '[.[] | select(.type=="measurement") | [.experiment, .status, .pages_share_pct]]')"
  [ "$(q '[.[] | select(.type=="throughput") | select(.value > 0 and .placement_ok and .status=="ok")] | length')" = 14 ] \
    || fail "throughput records: $(q '[.[] | select(.type=="throughput")]')"
  [ "$(q '[.[] | select(.type=="throughput") | .workload] | unique')" = '["blur3","chase","dgemm","fir","gups","read","triad"]' ] || fail "workloads"
  [ "$(q '[.[] | select(.type=="gain") | .gain_vs_interleave, .gain_vs_one_node, .gain_vs_remote, .gain_vs_os] | unique')" = '[null]' ] \
    || fail "gains on one node: $(q '[.[] | select(.type=="gain")]')"
  "$hb" policy --intensity --mode single --size 1M --reps 2 --min-time 0.002 --format jsonl --quiet -o "$tmp/i.jsonl" \
    || fail "intensity run exit $?"
  [ "$(jq -cs '[.[] | select(.type=="measurement" and .status=="ok" and .kernel=="intensity" and .policy=="local")] | length' "$tmp/i.jsonl")" = 10 ] \
    || fail "intensity measurements on one node"
  [ "$(jq -cs '[.[] | select(.type=="knee")] | length' "$tmp/i.jsonl")" = 0 ] || fail "a knee with nothing to compare"
  echo ok
  exit 0
fi
[ "$(q '[.[] | select(.type=="measurement" and .status!="ok")] | length')" = 0 ] \
  || fail "not ok: $(q '[.[] | select(.type=="measurement" and .status!="ok") | [.experiment, .note]]')"
[ "$(q '[.[] | select(.type=="throughput")] | length')" = 70 ] || fail "throughput records: $(q '[.[] | select(.type=="throughput")] | length')"
[ "$(q '[.[] | select(.type=="throughput") | .workload] | unique')" = '["blur3","chase","dgemm","fir","gups","read","triad"]' ] || fail "workloads"
[ "$(q '[.[] | select(.type=="throughput") | select(.value > 0 and .placement_ok and .status=="ok")] | length')" = 70 ] \
  || fail "bad throughput: $(q '[.[] | select(.type=="throughput") | select((.value > 0 and .placement_ok) | not)]')"
# Every measurement says which workload, policy and mode it belongs to, and where its pages are.
[ "$(q '[.[] | select(.type=="measurement") | select(.workload and .policy and .mode and .pages_share_pct)] | length')" = \
  "$(q '[.[] | select(.type=="measurement")] | length')" ] || fail "measurement keys"
# Interleave spreads over every node with memory (here: all pages on the one node there is).
[ "$(q '[.[] | select(.type=="measurement" and .policy=="interleave") | .pages_share_pct | keys | length] | unique')" = "[$nodes]" ] \
  || fail "interleave share: $(q '[.[] | select(.type=="measurement" and .policy=="interleave") | .pages_share_pct]')"
[ "$(q '[.[] | select(.type=="measurement" and .policy=="one-node") | .pages_share_pct["0"]] | unique')" = "[100]" ] || fail "one-node share"
# The chase reports latency, the others bandwidth; dgemm and fir really ran their products.
[ "$(q '[.[] | select(.type=="throughput" and .workload=="chase") | .unit] | unique')" = '["ns"]' ] || fail "chase unit"
# NUMA gain table: one row per workload and mode, every ratio a positive number.
[ "$(q '[.[] | select(.type=="gain")] | length')" = 14 ] || fail "gain rows"
[ "$(q '[.[] | select(.type=="gain") | .gain_vs_interleave, .gain_vs_one_node, .gain_vs_remote, .gain_vs_os | select(. > 0)] | length')" = 56 ] || fail "gain values"

"$hb" policy --intensity --mode single --size 1M --reps 2 --min-time 0.002 --format jsonl --quiet -o "$tmp/i.jsonl" \
  || fail "intensity run exit $?"
[ "$(jq -cs '[.[] | select(.type=="measurement" and .status=="ok" and .kernel=="intensity")] | length' "$tmp/i.jsonl")" = 30 ] || fail "intensity measurements"
[ "$(jq -cs '[.[] | select(.type=="knee") | .against] | sort' "$tmp/i.jsonl")" = '["interleave","remote"]' ] || fail "knee records"
[ "$(jq -cs '[.[] | select(.type=="knee") | .intensities | length] | unique' "$tmp/i.jsonl")" = "[10]" ] || fail "knee points"
# A knee, when found, is one of the measured intensities.
[ "$(jq -cs '[.[] | select(.type=="knee") | select(.knee_intensity != null) | select(.knee_intensity as $k | .intensities | index($k) | not)] | length' "$tmp/i.jsonl")" = 0 ] || fail "knee not a measured intensity"
echo ok
