#!/usr/bin/env bash
# topo's table carries the facts of its JSON record, on the terminal and in a file alike: the
# nodes' CPUs, cores, SMT and packages, their caches and memory kinds, the distances and hop
# classes, the NICs with the nodes each is near and every launch line, for this machine and for topology
# files with NICs on one node or on every node; this machine's kernel memory tiers.
# shellcheck source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"
HB=$1 corpus=$2
for input in "" "$corpus/32em64t-2n8c2t-pci-normalio.xml" "$corpus/96em64t-4n4d3ca2co-pci.xml"; do
    name=${input:-this machine}
    args=(topo ${input:+--topology "$input"})
    "$HB" "${args[@]}" >"$work/term.txt" || { echo "FAIL: $name: topo exit $?"; fail=1; continue; }
    if ! "$HB" "${args[@]}" -o "$work/file.txt" || ! "$HB" "${args[@]}" -o "$work/rec.jsonl"; then
        echo "FAIL: $name: topo -o failed"
        fail=1
        continue
    fi
    # (this machine's free memory moves between two runs: its node rows are left out)
    if [ -n "$input" ]; then
        cmp -s "$work/term.txt" "$work/file.txt"
    else
        cmp -s <(grep -v '^[0-9]' "$work/term.txt") <(grep -v '^[0-9]' "$work/file.txt")
    fi || { echo "FAIL: $name: the file's table differs from the terminal's"; fail=1; }
    # every line the record implies is in the table
    jq -r '(.nics[] | "  \(.name): \(.kind), PCI \(.pci // "none (virtual)"), near node\(if (.nodes | length) == 1 then "" else "s" end) \(.nodes | map(tostring) | join(","))"),
        "  " + .mpirun, "  " + .srun, (.nic_launch[] | "  " + .mpirun, "  " + .srun)' "$work/rec.jsonl" >"$work/want"
    [ -s "$work/want" ] || { echo "FAIL: $name: the record implies no lines"; fail=1; }
    while IFS= read -r line; do
        grep -qxF -- "$line" "$work/term.txt" || { echo "FAIL: $name: the table lacks: $line"; fail=1; }
    done <"$work/want"
    echo "ok: $name: $(wc -l <"$work/want") lines of the record in the table"
done
# The nodes' rows, caches, kinds, distances and hop classes of the record, in the table: a
# machine with SMT and several packages, SNC with a CXL node, and the quartet.
fx=$(cd "$corpus/../fixtures" && pwd)
for input in "$corpus/32em64t-2n8c2t-pci-normalio.xml" "$fx/3n-snc-cxl.xml" "$fx/4n-quartet.xml"; do
    name=$(basename "$input") before=$fail
    "$HB" topo --topology "$input" >"$work/t.txt" && "$HB" topo --topology "$input" -o "$work/t.jsonl" ||
        { echo "FAIL: $name: topo exit $?"; fail=1; continue; }
    # node cpus cores smt packages, as the record says (packages "-" when none)
    want=$(jq -r '.nodes[] | "\(.os_index) \(.cpus | length) \(.cores) \(.smt) \(if .packages == [] then "-" else (.packages | map(tostring) | join(",")) end)"' "$work/t.jsonl")
    got=$(awk '/^node +cpus +cores +smt +packages/ { on = 1; next } on && /^[0-9]/ { print $1, $2, $3, $4, $5; next } on { exit }' "$work/t.txt")
    [ "$got" = "$want" ] || { echo "FAIL: $name: node rows"; echo "got: $got"; echo "want: $want"; fail=1; }
    # each node's caches: level (d for data), count and CPUs sharing each, in the record's order
    while read -r node re; do
        grep -qE "^  node $node: $re\$" "$work/t.txt" || { echo "FAIL: $name: node $node caches not /$re/"; fail=1; }
    done < <(jq -r '.nodes[] | select(.caches != []) | "\(.os_index) " + ([.caches[] |
        " L\(.level)\(if .type == "data" then "d" else "" end) [0-9.]+ [KMG]?i?B x\(.count) \\(\(.cpus_each) CPUs? each[^)]*\\)"] | join(","))' "$work/t.jsonl")
    # each node's kind (and tier, where the record has one)
    while IFS= read -r line; do
        grep -qE "^  $line(,|\$)" "$work/t.txt" || { echo "FAIL: $name: no line '$line'"; fail=1; }
    done < <(jq -r '.nodes[] | "node \(.os_index): \(.kind)\(if .tier then ", tier \(.tier)" else "" end)"' "$work/t.jsonl")
    # the distance and hop-class grids, cell by cell (a hop class of -1: "-")
    for grid in "firmware distances:distances" "hop classes (:hop_class"; do
        head=${grid%:*} key=${grid##*:}
        want=$(jq -r --arg k "$key" '.[$k] | map(map(if . < 0 then "-" else tostring end) | join(" ")) | .[]' "$work/t.jsonl")
        got=$(awk -v h="$head" 'index($0, h) == 1 { on = 1; next } on && /cpu.mem/ { next }
            on && /^ +[0-9]+ / { $1 = ""; sub(/^ /, ""); print; next } on { exit }' "$work/t.txt")
        [ "$got" = "$want" ] || { echo "FAIL: $name: $key grid"; echo "got: $got"; echo "want: $want"; fail=1; }
    done
    [ "$fail" != "$before" ] || echo "ok: $name: node rows, caches, kinds, distances and hop classes as the record's"
done
# the kernel's tier of each node of this machine: the memory_tierN whose nodelist holds it
"$HB" topo -o "$work/here.jsonl" || { echo "FAIL: topo -o here.jsonl"; fail=1; }
for dir in /sys/devices/virtual/memory_tiering/memory_tier*; do
    [ -r "$dir/nodelist" ] || continue
    tier=${dir##*memory_tier}
    for node in $(hwloc-calc --po -I numa "node:all" 2>/dev/null | tr , ' '); do
        grep -Eq "(^|,)$node(,|-|$)" "$dir/nodelist" || continue
        got=$(jq --argjson n "$node" '.nodes[] | select(.os_index == $n) | .kernel_tier' "$work/here.jsonl")
        [ "$got" = "$tier" ] || { echo "FAIL: node $node: kernel_tier $got, sysfs memory_tier$tier"; fail=1; }
        "$HB" topo | grep -q "node $node: .*kernel memory_tier$tier" ||
            { echo "FAIL: node $node: the table does not show kernel memory_tier$tier"; fail=1; }
        echo "ok: node $node in kernel memory_tier$tier"
    done
done
# NICs near some nodes only: a launch line per such node; near every node: none
[ "$(jq '.nic_launch | length' "$work/rec.jsonl")" = 4 ] || { echo "FAIL: 96em64t: $(jq -c .nic_launch "$work/rec.jsonl")"; fail=1; }
cli_finish
