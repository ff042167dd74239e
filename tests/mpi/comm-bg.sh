#!/usr/bin/env bash
# comm --bg under a real mpirun on this one-node machine: two ranks share node 0, bound to the
# whole node (a core for each rank's messages, the others for the load). Every experiment runs
# idle, then loaded; the loaded records say what the load was and read; comm_bg puts the two
# side by side; the matrices stay idle. Then the launches --bg refuses: ranks bound to one core
# (exit 3), a named node no rank sits on (exit 2, a two-node HWLOC_SYNTHETIC topology). The
# report draws the idle records.
. "$(dirname "$0")/mpi-lib.sh"
topo=$("$HB" topo --format jsonl)
node=$(jq -r 'select(.type=="topology") | .nodes[0].os_index' <<<"$topo")
cores=$(jq -r 'select(.type=="topology") | .nodes[0].cores' <<<"$topo")
[ "$cores" -ge 2 ] || { echo "SKIP: node $node has one core; comm --bg needs two"; exit 77; }
host=$(hostname)
BIND=(--bind-to numa)
args=(comm --bg high --size 8 --reps 2 --min-time 0.002 --repeat 2 --quiet)
timeout 240 mpirun "${OVERSUB[@]}" "${BIND[@]}" -np 2 "$HB" "${args[@]}" -o b.jsonl
m='[.[] | select(.type=="measurement")]'
expect_eq "records: 3 metrics x (idle, loaded) x 2 ordered pairs" "$(jq -s "$m | length" b.jsonl)" 12
expect_eq "idle and loaded alternate, experiment by experiment" \
    "$(jq -c -s "$m | [range(0; length; 2) as \$i | .[\$i] | [.bg_level, .experiment]]" b.jsonl)" \
    "$(jq -c -n --arg n "$node" '["latency", "bandwidth", "bibandwidth"] | map("comm-\(.)-\($n)-\($n)-8" as $e | [["idle", $e], ["high", "\($e)-bg-high"]]) | add')"
expect_eq "loaded: the load of node $node, run by one rank on $((cores - 1)) thread(s), read > 0 GB/s" \
    "$(jq -s "$m | map(select(.bg_level == \"high\")) | map(.bg_nodes == [$node] and .bg_hosts == [\"$host\"] and .bg_threads == [$((cores - 1))] and .bg_GBps[0] > 0 and .status == \"ok\") | [length, all]" b.jsonl | tr -d ' \n')" \
    "[6,true]"
expect_eq "idle: no load columns" \
    "$(jq -s "$m | map(select(.bg_level == \"idle\")) | map(has(\"bg_nodes\") or has(\"bg_GBps\")) | [length, any]" b.jsonl | tr -d ' \n')" \
    "[6,false]"
# The node matrix's cell is the median of the idle pairs' figures (two pairs: their mean).
expect_eq "comm_matrix from idle records only" \
    "$(jq -s "($m | map(select(.bg_level == \"idle\" and .metric == \"latency\") | .value) | add / 2) as \$idle |
        [.[] | select(.type == \"comm_matrix\" and .metric == \"latency\")][0].values[0][0] |
        (. - \$idle) | fabs < 1e-6 * \$idle" b.jsonl)" true
b='[.[] | select(.type=="comm_bg")]'
expect_eq "comm_bg: one per rank pair" "$(jq -c -s "$b | map([.src_rank, .dst_rank])" b.jsonl)" '[[0,1],[1,0]]'
expect_eq "comm_bg: the load and the figures it compares" \
    "$(jq -s "$m as \$ms | $b | map(. as \$c | (\$ms | map(select(.src_rank == \$c.src_rank and .metric == \"latency\"))) as \$l |
        .bg_level == \"high\" and .bg_nodes == [$node] and .bg_GBps[0] > 0 and .src_node == $node and .hops == 0 and
        .latency.message_bytes == 8 and .bandwidth.message_bytes == 8 and .latency.unit == \"us\" and .bandwidth.unit == \"GBps\" and
        .latency.idle.value == (\$l | map(select(.bg_level == \"idle\"))[0].value) and
        .latency.loaded.value == (\$l | map(select(.bg_level == \"high\"))[0].value) and
        ((.latency.ratio - .latency.loaded.value / .latency.idle.value) | fabs) < 0.001 and
        (.latency.ratio_ci95 | length) == 2 and .latency.ratio_ci95[0] <= .latency.ratio_ci95[1]) | all" b.jsonl)" true
# A verdict only beyond the noise, and then the one the figures give.
expect_eq "comm_bg: verdicts" \
    "$(jq -s "$b | map(.latency, .bandwidth) | map(
        (.separation | IN(\"clear\", \"inconclusive\")) and
        if .separation == \"clear\" then
            .verdict == (if .loaded.value > .idle.value then (if .unit == \"us\" then \"slower under load\" else \"higher under load\" end)
                         else (if .unit == \"us\" then \"faster under load\" else \"lower under load\" end) end)
        else .verdict == null end) | all" b.jsonl)" true
# The report's latency curve takes the idle pairs only: its 8 B point is their median.
"$HB" report b.jsonl -o b.html 2>/dev/null || fail "report of a --bg run: exit $?"
point=$(perl -0ne 'print "$1\n" if /<svg class="fig lines"[^>]*data-metric="comm latency">.*?class="pt"[^>]*data-x="8" data-y="([^"]+)"/s' b.html)
expect_eq "report: the latency curve from idle records only" \
    "$(jq -s --argjson y "${point:-null}" "$m | map(select(.bg_level == \"idle\" and .metric == \"latency\") | .value) | add / 2 |
        \$y != null and ((. - \$y) | fabs) < 1e-6 * ." b.jsonl)" true

# The table: the comparison under the matrices.
out=$(timeout 120 mpirun "${OVERSUB[@]}" "${BIND[@]}" -np 2 "$HB" comm --bg low --size 8 --reps 1 \
    --min-time 0.001 --repeat 1 --quiet --format table 2>&1) || fail "comm --bg --format table: exit $?"
expect_has "table: comm_bg" "$out" "MPI messages under --bg low, ranks 0 -> 1 (node $node -> $node, host $host): load: node $node $((cores - 1)) thread(s)"
expect_has "table: latency line" "$out" "  latency at 8 B: "
expect_has "table: the pair's idle block" "$out" "  latency, one way (half a ping-pong round trip), idle, us;"
expect_has "table: and its loaded one" "$out" "  latency, one way (half a ping-pong round trip), under --bg low load, us;"

# Ranks bound to one core each (mpirun's default for two ranks): no core for the load.
rc=0
out=$(timeout 60 mpirun "${OVERSUB[@]}" --bind-to core -np 2 "$HB" comm --bg high --size 8 -o core.jsonl 2>&1) || rc=$?
expect_eq "one core per rank: exit" "$rc" 3
expect_has "one core per rank: message" "$out" "is bound to 1 core of node $node (CPUs "
expect_has "one core per rank: the line that works" "$out" "mpirun --map-by numa --bind-to numa hopbench comm --bg high --size 8 -o core.jsonl"
[ ! -e core.jsonl ] && [ ! -e core.jsonl.partial ] || fail "one core per rank: core.jsonl was written"

# A node named to load that no rank sits on: known only once the world is, refused then. Two
# synthetic nodes of two cores stand for this machine; both ranks sit on node 0.
rc=0
out=$(timeout 60 mpirun "${OVERSUB[@]}" --bind-to core -np 2 env HWLOC_SYNTHETIC="node:2 core:2 pu:1" \
    HWLOC_THISSYSTEM=1 "$HB" comm --bg high --load-nodes 1 --size 8 -o none.jsonl 2>&1) || rc=$?
expect_eq "node without a rank: exit" "$rc" 2
expect_has "node without a rank: message" "$out" "hopbench: --load-nodes 1: no rank runs on node 1 (ranks sit on node 0)"
expect_eq "node without a rank: one hopbench line" "$(grep -c '^hopbench:' <<<"$out")" 1
[ ! -e none.jsonl ] && [ ! -e none.jsonl.partial ] || fail "node without a rank: none.jsonl was written"
finish
