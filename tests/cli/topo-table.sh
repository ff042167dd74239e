#!/usr/bin/env bash
# topo's table carries the facts of its JSON record, on the terminal and in a file alike: the
# NICs with the nodes each is near and every launch line, for this machine and for topology
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
