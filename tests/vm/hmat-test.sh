#!/usr/bin/env bash
# hmat-test.sh agree|contra - CTest (label vm): one boot of a 2-node guest plus memory-only
# node 2 (SLIT "10 21 17; 21 10 28; 17 28 10") whose ACPI HMAT and memory-side caches are
# given to QEMU here, then checks on the records (never on guest timings, which mean nothing
# under TCG):
#  agree   HMAT from SLIT (latency 10 x SLIT ns, bandwidth 200000 / SLIT MB/s), 32 MiB
#          caches: topo reports exactly those figures for the initiators Linux publishes,
#          no contradiction; the matrix plan's size is above the caches. On Linux 6.12
#          (bookworm-backports), which ranks memory tiers by the HMAT: each node's
#          kernel_tier is the memory_tierN sysfs lists it in, the slower memory-only node in
#          a lower tier than the DRAM of the CPU nodes, in the record and the table; migrate
#          moves pages between CPU node 0 and memory-only node 2 both ways, every page.
#  contra  node 2 nearer than node 0 from node 0 by HMAT (90 vs 100 ns, 40000 vs 20000
#          MB/s), farther by SLIT (17 vs 10), 64 MiB caches: topo reports the figures and
#          the contradiction; a matrix over mpirun puts the HMAT figure beside each covered
#          cell; the run record's default size is above the caches; the exported XML, read
#          back by lstopo, holds the measured values.
# Exit 77 (skip) when the VM cannot run here or jq is missing.
# jq programs name jq variables in single quotes on purpose.
# shellcheck disable=SC2016
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/vm-lib.sh"
CASE=${1:?usage: hmat-test.sh agree|contra}
OUT=${VM_TEST_OUT:-$PWD/vm-hmat-$CASE}
: "${HOPBENCH:?HOPBENCH (the hopbench binary) is not set}"
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }

kernel=()
opts=(-t custom -n 2 --memonly-nodes 1 --dist "10 21 17; 21 10 28; 17 28 10" --hmat)
case $CASE in
    agree) # latency 10 x SLIT, bandwidth 200000 / SLIT: numa-vm.sh's default. On Linux 6.12
        # (bookworm-backports), whose memory tiers come from the HMAT: the memory-only node,
        # slower than the CPU nodes' DRAM, must sit in a lower tier
        lat="100 210 170; 210 100 280" bw="20000 9523 11764; 9523 20000 7142" cache=32 matrix=0
        kernel=(--kernel-suite bookworm-backports)
        opts+=("${kernel[@]}" -e TIERS=1)
        export VM_WITH=hwloc ;; # no mpirun: a smaller guest boots faster
    contra)
        lat="100 210 90; 210 100 280" bw="20000 9000 40000; 9000 20000 7000" cache=64 matrix=1 ;;
    *) echo "hmat-test.sh: unknown case '$CASE' (agree, contra)" >&2; exit 2 ;;
esac
opts+=(--hmat-latency "$lat" --hmat-bandwidth "$bw" --hmat-cache "$cache" -e "MATRIX=$matrix")

vm_prepare_or_skip "${kernel[@]}"
rm -rf "$OUT"
start=$SECONDS
rc=0
vm_run_script "${opts[@]}" "$HERE/guest-hmat.sh" "$OUT" || rc=$?
echo "guest hmat-$CASE: status $rc, wall time $((SECONDS - start)) s"
[[ $rc -eq 0 ]] || { echo "FAIL: the guest run ended with status $rc"; exit 1; }

fails=0
expect() { # expect DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
status_is() { [[ -f $OUT/$1.rc && $(cat "$OUT/$1.rc") == "$2" ]]; }
jqf() { jq -e -s "$2" "$OUT/$1" >/dev/null; }
# fig I J: the figures given to QEMU for CPU node I -> node J, as "latency bandwidth"
fig() { echo "$(tr ';' '\n' <<<"$lat" | sed -n "$(($1 + 1))p" | awk -v j=$(($2 + 1)) '{print $j}') \
$(tr ';' '\n' <<<"$bw" | sed -n "$(($1 + 1))p" | awk -v j=$(($2 + 1)) '{print $j}')"; }

expect "topo exits 0" status_is topo 0
# Linux publishes the best initiator of each target: node 0 for 0 and 2, node 1 for 1
for pair in "0 0" "1 1" "0 2"; do
    read -r i j <<<"$pair"
    read -r l b <<<"$(fig "$i" "$j")"
    expect "topo: node $j Latency/ReadLatency/WriteLatency $l ns, Bandwidth/Read/Write $b MB/s, from node $i only" \
        jqf topo.out ".[0].nodes[$j].hmat | map([.attribute, .value, .initiators]) ==
            [[\"Latency\", $l, [$i]], [\"ReadLatency\", $l, [$i]], [\"WriteLatency\", $l, [$i]],
             [\"Bandwidth\", $b, [$i]], [\"ReadBandwidth\", $b, [$i]], [\"WriteBandwidth\", $b, [$i]]]"
done
expect "topo: every node has one $cache MiB direct-mapped write-back memory-side cache, 64-byte lines" \
    jqf topo.out ".[0].nodes | length == 3 and all(.[]; .memory_side_caches == [{level: 1,
        size_bytes: ($cache * 1048576), line_bytes: 64, associativity: 1, policy: \"write-back\"}])"
if [[ $CASE == agree ]]; then # Linux 6.12: the tiers from the HMAT
    expect "topo: the DRAM of the CPU nodes in one tier, the slower memory-only node 2 in a lower one" \
        jqf topo.out '.[0].tiers | length == 2 and map([.kind, .nodes, .memory_only]) ==
            [["DRAM", [0,1], false], ["DRAM", [2], true]] and .[0].tier < .[1].tier'
else # Linux 6.1 puts every node in the default tier
    expect "topo: memory-only node 2 grouped with DRAM by the kernel's memory tier" \
        jqf topo.out '.[0].tiers | length == 1 and .[0].kind == "DRAM" and .[0].nodes == [0,1,2] and (.[0].tier | type) == "number"'
fi
if [[ $CASE == agree ]]; then
    expect "topo: no SLIT/HMAT contradiction" jqf topo.out '.[0].hmat_conflicts == []'
    # the kernel's tiers as sysfs lists them: {"0": N, "1": N, "2": M} from "memory_tierN 0-1"
    ktiers=$(awk '{ t = substr($1, 12); n = split($2, parts, ","); for (i = 1; i <= n; i++) {
        if (split(parts[i], r, "-") == 1) r[2] = r[1]; for (k = r[1]; k <= r[2]; k++) printf "%s\"%d\": %d", (c++ ? ", " : "{"), k, t } }
        END { print (c ? "}" : "{}") }' "$OUT/tiers.txt" 2>/dev/null)
    expect "the guest runs Linux 6.12 ($(cat "$OUT/uname.txt" 2>/dev/null)); sysfs tiers: $(paste -sd';' "$OUT/tiers.txt" 2>/dev/null)" \
        grep -q '^6\.12\.' "$OUT/uname.txt"
    expect "topo: each node's kernel_tier is the memory_tierN sysfs lists it in ($ktiers)" \
        jqf topo.out "($ktiers) as \$k | .[0].nodes | length == 3 and
            all(.[]; .kernel_tier == \$k[.os_index | tostring])"
    expect "topo: the memory-only node, slower in the HMAT, sits in a lower tier than both CPU nodes' DRAM" \
        jqf topo.out '.[0].nodes | .[0].kernel_tier == .[1].kernel_tier and .[2].kernel_tier > .[0].kernel_tier'
    table_tiers() { # every node's line in topo's table names the kernel tier of its record
        local j
        for j in 0 1 2; do
            grep -Eq "^  node $j: DRAM.*, kernel memory_tier$(jq -s ".[0].nodes[$j].kernel_tier" \
                "$OUT/topo.out")(;|\$)" "$OUT/topo-table.out" || return 1
        done
    }
    expect "topo table: each node's kernel tier beside its kind" table_tiers
    mig='[.[] | select(.type == "measurement" and .suite == "migrate")]'
    expect "migrate exits 0" status_is migrate 0
    expect "migrate: CPU node 0 and memory-only node 2, both ways x {move_pages, mbind} x {4k, thp}, every page on dst_node" \
        jqf migrate.jsonl "$mig | (map([.src_node, .dst_node, .method, .pages]) | sort) ==
            ([[[0,2],[2,0]][] as [\$s, \$d] | [\"move_pages\", \"mbind\"][] as \$m | [\"4k\", \"thp\"][] as \$p |
              [\$s, \$d, \$m, \$p]] | sort) and all(.status == \"ok\" and .pages_on_target_pct == 100 and
            .pages_share_pct[.dst_node | tostring] == 100 and .unit == \"GBps\" and .value > 0)"
else
    expect "topo: the firmware's own contradiction, from node 0 on nodes 0 and 2, latency and bandwidth" \
        jqf topo.out '.[0].hmat_conflicts | map([.cpu_node, .mem_nodes, .attribute, .slit, .hmat]) ==
            [[0, [0,2], "Latency", [10,17], [100,90]], [0, [0,2], "Bandwidth", [10,17], [20000,40000]]]'
    expect "topo table: says the firmware contradicts itself" \
        grep -q '^firmware contradicts itself: from node 0 SLIT puts node 0 nearer (10 vs 17), HMAT Latency puts node 2 nearer (90 vs 100 ns)' "$OUT/topo-table.out"
fi
expect "matrix plan: every task's default size is above the $cache MiB memory-side caches" \
    jqf plan.out "map(select(.type == \"experiment\")) | length > 0 and all(.[].tasks[]; .bytes > $cache * 1048576)"

if [[ $matrix == 1 ]]; then
    expect "matrix over mpirun exits 0" status_is matrix 0
    run='(map(select(.type == "run")) | .[0])'
    expect "run record: default size above the memory-side cache, and its rule says so" \
        jqf matrix.jsonl "$run | .sizes.memside_cache_bytes == ($cache * 1048576) and
            .sizes.default_bytes > .sizes.memside_cache_bytes and .sizes.size_source == \"--size\" and
            (.sizes.default_source | endswith(\"; memory-side cache $cache MiB: the size is above it\"))"
    mx='(map(select(.type == "matrix" and .kernel == $k)) | .[0])'
    # covered cells: 0->0, 1->1, 0->2 (the initiators Linux publishes), in GB/s for bandwidth
    expect "matrix chase: HMAT ReadLatency beside the covered cells, null elsewhere" \
        jqf matrix.jsonl "\"chase\" as \$k | $mx | .hmat.attribute == \"ReadLatency\" and
            .hmat.values == [[100, null, 90], [null, 100, null]]"
    expect "matrix read: HMAT ReadBandwidth in GB/s beside the covered cells" \
        jqf matrix.jsonl "\"read\" as \$k | $mx | .hmat.attribute == \"ReadBandwidth\" and
            .hmat.values == [[20, null, 40], [null, 20, null]]"
    expect "cells: every covered cell carries the HMAT figure and measured/firmware ratio, others null" \
        jqf matrix.jsonl 'map(select(.type == "cell")) | length == 12 and all(.[];
            if ([.cpu_node, .mem_node] | IN([0,0], [1,1], [0,2])) then
                (.hmat_value > 0 and ((.hmat_ratio - (.value / .hmat_value)) | fabs) < 0.001 * .hmat_ratio + 0.001)
            else .hmat_value == null and .hmat_ratio == null end)'
    expect "the exported XML exists (no .partial left)" [ -s "$OUT/matrix.xml" -a ! -e "$OUT/matrix.xml.partial" ]
    # lstopo lists NUMA nodes in logical order 0, 2, 1 = OS 0, 1, 2 (node 2 hangs from package 0)
    got=$(lstopo-no-graphics --input "$OUT/matrix.xml" --distances | awk '
        index($0, "(name hopbench-measured-latency ") { on = 1; getline; next }
        on && /^ *[0-9]/ { $1 = ""; sub(/^ /, ""); out = out (out ? ";" : "") $0; next }
        on { exit } END { print out }')
    want=$(jq -r -s '"chase" as $k | map(select(.type == "matrix" and .kernel == $k)) | .[0].values |
        (map(map(if . == null then 0 else (. + 0.5 | floor) end)) + [[0,0,0]]) |
        map(map(tostring) | join(" ")) | join(";")' "$OUT/matrix.jsonl")
    expect "lstopo --distances reads the measured latencies back ($want)" [ "$got" = "$want" ]
    got=$(lstopo-no-graphics --input "$OUT/matrix.xml" --memattrs | awk '
        index($0, "name `HopbenchMeasuredBandwidth'"'"'") { on = 1; next } on && /^Memory/ { exit }
        on { print $4 }' | sort -n | paste -sd' ')
    want=$(jq -r -s '[.[] | select(.type == "cell" and .kernel == "read") | .value * 1000 | . + 0.5 | floor] |
        sort | map(tostring) | join(" ")' "$OUT/matrix.jsonl")
    expect "lstopo --memattrs reads the measured bandwidths back in MB/s ($want)" [ "$got" = "$want" ]
    "$HOPBENCH" report "$OUT/matrix.jsonl" -o "$OUT/report.html" >"$OUT/report.log" 2>&1
    expect "report: the HMAT figure and the ratio drawn for the 3 covered cells of both matrices" \
        [ "$(grep -c 'data-kind="hmat"' "$OUT/report.html")" = 6 -a "$(grep -c 'data-kind="hmat-ratio"' "$OUT/report.html")" = 6 ]
fi
echo "hmat-$CASE: $fails failed check(s); total $((SECONDS - start)) s"
[[ $fails -eq 0 ]]
