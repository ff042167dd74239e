#!/usr/bin/env bash
# hmat.sh HOPBENCH - CTest (label cli): the report draws the firmware's HMAT beside a
# measured matrix: one "hmat" and one "hmat-ratio" heatmap cell per covered cell, the flagged
# cell outlined, the flag's reason listed; a matrix without HMAT gets its note instead. The
# kernel's memory tiers beside it: the tiers, a flag and an inconclusive listed.
HB=${1:?usage: hmat.sh HOPBENCH}
. "$(dirname "$0")/expect-lib.sh"
{
    echo '{"type":"run","schema_version":1,"hosts":["h"]}'
    jq -nc '{type: "matrix", suite: "matrix", host: "h", metric: "latency", kernel: "chase",
        unit: "ns", rows: [0,1], cols: [0,1,2], values: [[120, 252, 326], [252, 120, 336]],
        relative: [[1, 2.1, 2.7], [2.1, 1, 2.8]], flags: [],
        hmat: {attribute: "ReadLatency", unit: "ns", values: [[100, 210, 170], [210, 100, null]],
               ratio: [[1.2, 1.2, 1.918], [1.2, 1.2, null]], threshold_pct: 5,
               flags: [{cpu_node: 0, mem_node: 2, other_mem_node: 1, kind: "order",
                        reason: "from node 0 the firmware puts node 2 nearer than node 1"}]},
        kernel_tiers: {tiers: [{node: 0, kernel_tier: 4}, {node: 1, kernel_tier: 4},
                               {node: 2, kernel_tier: 19}], threshold_pct: 5,
               flags: [{cpu_node: 0, mem_node: 1, other_mem_node: 2, kernel_tier: 4,
                        other_kernel_tier: 19, evidence: "clear",
                        reason: "from node 0 the kernel puts node 1 in a faster tier than node 2"}],
               inconclusive: [{cpu_node: 1, mem_node: 0, other_mem_node: 2, kernel_tier: 4,
                               other_kernel_tier: 19, evidence: "inconclusive",
                               reason: "from node 1 the kernel puts node 0 in a faster tier"}]}}'
    jq -nc '{type: "matrix", suite: "matrix", host: "h", metric: "bandwidth", kernel: "read",
        unit: "GBps", rows: [0], cols: [0], values: [[10]], relative: [[1]], flags: [],
        hmat: null, hmat_note: "the firmware'"'"'s HMAT gives no figure for these cells"}'
} >"$tmp/r.jsonl"
"$HB" report "$tmp/r.jsonl" -o "$tmp/r.html"
expect "report exits 0" [ $? = 0 ]
expect "5 covered cells drawn as firmware figures" [ "$(grep -c 'data-kind="hmat"' "$tmp/r.html")" = 5 ]
expect "... and as measured/firmware ratios" [ "$(grep -c 'data-kind="hmat-ratio"' "$tmp/r.html")" = 5 ]
expect "the flagged cell 0 -> 2 outlined on both HMAT maps" \
    [ "$(grep -c 'class="cell flagged".*data-kind="hmat[-a-z]*" data-row="0" data-col="2"' "$tmp/r.html")" = 2 ]
expect "the flag's reason listed" grep -q 'HMAT order: from node 0 the firmware puts node 2 nearer than node 1' "$tmp/r.html"
expect "the kernel tiers listed" grep -q 'kernel memory tiers: node 0 memory_tier4, node 1 memory_tier4, node 2 memory_tier19' "$tmp/r.html"
expect "the kernel tier flag listed as a warning" grep -q '<p class="warn flag">! kernel tier: from node 0 the kernel puts node 1 in a faster tier than node 2</p>' "$tmp/r.html"
expect "the kernel tier inconclusive listed as a note" grep -q '<p class="note">kernel tier, inconclusive (within the noise): from node 1 the kernel puts node 0' "$tmp/r.html"
expect "one kernel tier line for the one matrix that has them" [ "$(grep -c 'kernel memory tiers:' "$tmp/r.html")" = 1 ]
expect "the matrix without HMAT shows its note" grep -q 'HMAT: the firmware&#39;s HMAT gives no figure\|HMAT: the firmware.s HMAT gives no figure' "$tmp/r.html"
expect_done
