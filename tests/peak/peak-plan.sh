#!/usr/bin/env bash
# peak plans on hwloc XML fixtures (--dry-run): one experiment per mix, one task per CPU node
# with every core, bound to its own node or interleaved over all; memory-less CPU nodes only
# under interleave; matrix takes the mixes as kernels.
# usage: peak-plan.sh HOPBENCH FIXTURES_DIR
set -euo pipefail
hb=$1 fx=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The plan's experiment records (its last, the plan_summary, is checked in cli.plan-summary).
q() { local file=$1; shift; jq -c 'select(.type == "experiment")' "$file" | jq -cs "$@"; }

"$hb" --topology "$fx/4n-quartet.xml" peak --dry-run > "$tmp/b.jsonl"
[ "$(q "$tmp/b.jsonl" '[.[].name]')" = '["peak-read-bind","peak-mix3:1-bind","peak-mix2:1-bind","peak-mix1:1-bind","peak-mix3:1-nt-bind","peak-mix2:1-nt-bind","peak-mix1:1-nt-bind"]' ] || fail "mixes: $(q "$tmp/b.jsonl" '[.[].name]')"
[ "$(q "$tmp/b.jsonl" '[.[] | [.suite, .metric, (.tasks | length)]] | unique')" = '[["peak","bandwidth",4]]' ] || fail "one task per node"
[ "$(q "$tmp/b.jsonl" '[.[].tasks[] | .mem_node == .cpu_node and .policy == "bind" and .role == "foreground" and .first_thread == 0] | unique')" = '[true]' ] || fail "each node on its own memory"
cores=$("$hb" --topology "$fx/4n-quartet.xml" topo --format jsonl | jq -c 'select(.type=="topology") | [.nodes[].cores]')
[ "$(q "$tmp/b.jsonl" '[.[0].tasks[].threads]')" = "$cores" ] || fail "every core: $(q "$tmp/b.jsonl" '[.[0].tasks[].threads]') vs $cores"

"$hb" --topology "$fx/4n-quartet.xml" peak --policy interleave --kernel mix2:1,read --dry-run > "$tmp/i.jsonl"
[ "$(q "$tmp/i.jsonl" '[.[].name]')" = '["peak-mix2:1-interleave","peak-read-interleave"]' ] || fail "kernel list"
[ "$(q "$tmp/i.jsonl" '[.[].tasks[] | [.policy, .mem_nodes]] | unique')" = '[["interleave",[0,1,2,3]]]' ] || fail "interleave over every node"

# A CPU node without memory joins only when interleaved.
"$hb" --topology "$fx/2n-memless.xml" peak --kernel read --dry-run > "$tmp/m.jsonl"
[ "$(q "$tmp/m.jsonl" '[.[].tasks[].cpu_node]')" = '[0]' ] || fail "memless bind: $(q "$tmp/m.jsonl" '[.[].tasks[].cpu_node]')"
"$hb" --topology "$fx/2n-memless.xml" peak --kernel read --policy interleave --dry-run > "$tmp/m2.jsonl"
[ "$(q "$tmp/m2.jsonl" '[.[].tasks[].cpu_node]')" = '[0,1]' ] || fail "memless interleave"

# matrix --kernel takes the mixes: every CPU x memory cell.
"$hb" --topology "$fx/4n-quartet.xml" matrix --kernel mix3:1-nt --dry-run > "$tmp/x.jsonl"
[ "$(q "$tmp/x.jsonl" '[.[] | select(.tasks[0].kernel=="mix3:1-nt")] | length')" = 16 ] || fail "matrix mix cells"
echo ok
