#!/usr/bin/env bash
# firmware-mem.sh HOPBENCH FIXTURES - CTest (label topo): what the firmware says about memory
# beyond SLIT, read from hwloc XML fixtures written inside HMAT guests (see make-fixtures.sh):
#  - topo reports exactly the HMAT figures the guest was given, with their initiators, and
#    the memory-side caches (size, line, associativity);
#  - a SLIT/HMAT contradiction in the firmware itself is reported (record and table);
#  - without HMAT: one line saying so, no conflicts;
#  - kinds and tiers: CXL-DRAM memory-only nodes grouped apart from DRAM; policy's remote
#    stays on DRAM unless --tier asks for another kind, and its records say which;
#  - default sizes above every memory-side cache; sweep marks the memory-side cache.
# jq programs name jq variables in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
HB=${1:?usage: firmware-mem.sh HOPBENCH FIXTURES}
FX=${2:?usage: firmware-mem.sh HOPBENCH FIXTURES}
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
fails=0
expect() { # expect DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
topo() { "$HB" topo --topology "$FX/$1" --format jsonl; }
q() { jq -e "$2" <<<"$1" >/dev/null; }
hmat_of() { # node attribute -> "value from initiators"
    jq -r --argjson n "$2" --arg a "$3" '.nodes[$n].hmat[] | select(.attribute == $a) |
        "\(.value) from \(.initiators | map(tostring) | join(","))"' <<<"$1" | paste -sd' '
}

c=$(topo 2n1m-hmat-contra.xml)
# the guest was given: latency "100 210 90; 210 100 280", bandwidth "20000 9000 40000;
# 9000 20000 7000"; Linux publishes each target's best initiator only
expect "contra: node 0 Latency 100 ns from node 0" [ "$(hmat_of "$c" 0 Latency)" = "100 from 0" ]
expect "contra: node 1 ReadLatency 100 ns from node 1" [ "$(hmat_of "$c" 1 ReadLatency)" = "100 from 1" ]
expect "contra: node 2 Latency 90 ns from node 0" [ "$(hmat_of "$c" 2 Latency)" = "90 from 0" ]
expect "contra: node 2 ReadBandwidth 40000 MB/s from node 0" [ "$(hmat_of "$c" 2 ReadBandwidth)" = "40000 from 0" ]
expect "contra: node 1 WriteBandwidth 20000 MB/s from node 1" [ "$(hmat_of "$c" 1 WriteBandwidth)" = "20000 from 1" ]
expect "contra: every node has one 64 MiB direct-mapped memory-side cache, 64-byte lines" \
    q "$c" '.hmat == true and all(.nodes[]; .memory_side_caches == [{level: 1, size_bytes: 67108864,
        line_bytes: 64, associativity: 1, policy: "unknown"}])'
expect "contra: the firmware contradicts itself from node 0 on nodes 0/2, latency and bandwidth" \
    q "$c" '.hmat_conflicts | map([.cpu_node, .mem_nodes, .attribute, .slit, .hmat]) ==
        [[0, [0,2], "Latency", [10,17], [100,90]], [0, [0,2], "Bandwidth", [10,17], [20000,40000]]]'
t=$("$HB" topo --topology "$FX/2n1m-hmat-contra.xml")
expect "contra table: one contradiction line per attribute" \
    [ "$(grep -c '^firmware contradicts itself: from node 0 SLIT puts node 0 nearer (10 vs 17), HMAT' <<<"$t")" = 2 ]
expect "contra table: node 2's memory-side cache and HMAT latency" \
    grep -Eq 'node 2: DRAM; memory-side cache L1 64 MiB, 64-byte lines, direct-mapped' <<<"$t"

a=$(topo 2n1m-hmat-agree.xml)
# --hmat from SLIT: latency 10 x SLIT, bandwidth 200000 / SLIT
expect "agree: node 2 Latency 170 ns and Bandwidth 11764 MB/s from node 0" \
    [ "$(hmat_of "$a" 2 Latency) $(hmat_of "$a" 2 Bandwidth)" = "170 from 0 11764 from 0" ]
expect "agree: 32 MiB memory-side caches, no contradiction" \
    q "$a" 'all(.nodes[]; .memory_side_caches[0].size_bytes == 33554432) and .hmat_conflicts == []'

n=$(topo 4n-quartet.xml)
expect "no HMAT: hmat false, no figures, no conflicts" \
    q "$n" '.hmat == false and all(.nodes[]; .hmat == [] and .memory_side_caches == []) and .hmat_conflicts == []'
expect "no HMAT: the table says so in one line" \
    [ "$("$HB" topo --topology "$FX/4n-quartet.xml" | grep -c '^HMAT: none (the firmware gives no latency or bandwidth per initiator)$')" = 1 ]

x=$(topo 4n-memonly-cxl.xml)
expect "tiers: DRAM tier 1 = nodes 0,1; CXL-DRAM tier 2 = memory-only nodes 2,3" \
    q "$x" '.tiers == [{kind: "DRAM", tier: 1, nodes: [0,1], memory_only: false},
        {kind: "CXL-DRAM", tier: 2, nodes: [2,3], memory_only: true}] and .nodes[2].kind == "CXL-DRAM"'

remote() { "$HB" policy --topology "$FX/4n-memonly-cxl.xml" --dry-run --kernel read --mode rate "$@" |
    jq -sc 'map(select(.policy == "remote")) | .[0] | [.remote_kind, [.tasks[] | [.cpu_node, .mem_node]]]'; }
expect "policy remote: the farthest DRAM node, not the farther CXL nodes; records say DRAM" \
    [ "$(remote)" = '["DRAM",[[0,1],[1,0]]]' ]
expect "policy --tier CXL-DRAM (or --tier 2): remote on the farthest CXL node, records say so" \
    [ "$(remote --tier CXL-DRAM)" = '["CXL-DRAM",[[0,3],[1,2]]]' -a "$(remote --tier 2)" = '["CXL-DRAM",[[0,3],[1,2]]]' ]
out=$("$HB" policy --topology "$FX/4n-memonly-cxl.xml" --dry-run --tier HBM 2>&1)
expect "policy --tier HBM on a machine without HBM: exit 2, one line naming the kinds there" \
    [ $? = 2 -a "$(grep -c . <<<"$out")" = 1 ] && grep -q "tier 'HBM': no memory node of that kind or tier; this machine has .*CXL-DRAM" <<<"$out"

# the guests' 32 and 64 MiB caches, and Xeon Max-like 16 GiB caches before 128 GiB nodes
for f in 2n1m-hmat-agree.xml 2n1m-hmat-contra.xml 2n1m-hbm-cache.xml; do
    msc=$(topo "$f" | jq '[.nodes[].memory_side_caches[].size_bytes] | max')
    for cmd in lat bw matrix; do
        expect "$f: $cmd default size above the $msc-byte memory-side cache" \
            q "$("$HB" $cmd --topology "$FX/$f" --dry-run | jq -s '[.[] | select(.type == "experiment") | .tasks[].bytes]')" \
            "length > 0 and all(. > $msc)"
    done
    expect "$f: sweep marks the memory-side cache where memcpy's working set reaches its size" \
        q "$("$HB" sweep --topology "$FX/$f" --dry-run --max-size 64G | jq -s .)" \
        "[.[] | select(.cache_end == \"memory-side cache\" and .tasks[0].kernel == \"memcpy\") | .ws_bytes] | unique == [$msc]"
done
echo "$fails failed check(s)"
[ "$fails" -eq 0 ]
