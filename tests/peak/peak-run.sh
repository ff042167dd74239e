#!/usr/bin/env bash
# Real peak runs on this machine (one node: the node's peak), validation on, tiny sizes:
# every mix ok with its pages on the node, bound and interleaved, the derived total equal to
# the sum of the nodes' records; the mixes' placement under bw's three policies.
# usage: peak-run.sh HOPBENCH
set -euo pipefail
hb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
common=(--size 8M --reps 2 --min-time 0.005 --format jsonl --quiet)
nodes=$("$hb" topo --format jsonl | jq -cs '[.[] | select(.type=="topology") | .nodes[] | select(.has_cpus and .has_memory) | .os_index]')

for policy in bind interleave; do
  "$hb" peak --policy "$policy" "${common[@]}" -o "$tmp/$policy.jsonl" || fail "peak $policy exit $?"
  q() { jq -cs "$@" "$tmp/$policy.jsonl"; }
  [ "$(q '[.[] | select(.type=="measurement") | .status] | unique')" = '["ok"]' ] \
    || fail "$policy: $(q '[.[] | select(.type=="measurement" and .status!="ok") | [.experiment, .note]]')"
  [ "$(q '[.[] | select(.type=="measurement") | .kernel] | unique')" = '["mix1:1","mix1:1-nt","mix2:1","mix2:1-nt","mix3:1","mix3:1-nt","read"]' ] || fail "$policy kernels"
  [ "$(q '[.[] | select(.type=="measurement") | .pages_on_target_pct] | unique')" = '[100]' ] || fail "$policy pages"
  [ "$(q '[.[] | select(.type=="measurement" and .experiment=="peak-read-'"$policy"'") | .cpu_node]')" = "$nodes" ] || fail "$policy: one record per node"
  # The total is the sum of the nodes' best figures; one peak record per mix.
  [ "$(q '[.[] | select(.type=="peak")] | length')" = 7 ] || fail "$policy peak records"
  sums=$(q '[.[] | select(.type=="measurement")] as $m | [.[] | select(.type=="peak") | . as $p |
    (([$m[] | select(.experiment == $p.experiment) | .bw_GBps_best] | add) - $p.total_GBps | fabs < 0.01) and
    ($p.node_GBps | length) == ($nodes | length) and $p.fg_overlap > 0] | unique' --argjson nodes "$nodes")
  [ "$sums" = '[true]' ] || fail "$policy totals: $(q '[.[] | select(.type=="peak")]')"
done
# The same kernels placed by bw under each policy: pages where the policy puts them. Plain
# mixes work in place; -nt mixes stream a separate array: a kernel's bytes are split evenly
# among its arrays (1:1-nt 2, 2:1-nt 3, 3:1-nt 4).
for policy in bind interleave firsttouch; do
  "$hb" bw --kernel mix3:1,mix2:1-nt,mix1:1,mix3:1-nt,mix1:1-nt --threads 1 --policy "$policy" "${common[@]}" -o "$tmp/bw.jsonl" \
    || fail "bw $policy exit $?"
  [ "$(jq -cs '[.[] | select(.type=="measurement") | [.status, .pages_on_target_pct, .policy]] | unique' "$tmp/bw.jsonl")" = "[[\"ok\",100,\"$policy\"]]" ] \
    || fail "bw $policy: $(jq -cs '[.[] | select(.type=="measurement") | [.kernel, .status, .note]]' "$tmp/bw.jsonl")"
  [ "$(jq -cs '[.[] | select(.type=="measurement") | [.kernel, (.bytes / .array_bytes | floor)]]' "$tmp/bw.jsonl")" = \
    '[["mix3:1",3],["mix2:1-nt",3],["mix1:1",1],["mix3:1-nt",4],["mix1:1-nt",2]]' ] \
    || fail "bw $policy arrays: $(jq -cs '[.[] | select(.type=="measurement") | [.kernel, .bytes, .array_bytes]]' "$tmp/bw.jsonl")"
done
echo ok
