#!/bin/sh
# guest-hmat.sh - runs INSIDE a numa-vm guest with an ACPI HMAT (started by hmat-test.sh):
# topo, the matrix plan, and with MATRIX=1 a small matrix over one rank per CPU node that
# also exports the measured matrix as hwloc XML. Each run leaves NAME.out / NAME.err /
# NAME.rc in /out; hmat-test.sh asserts on the records. Needs $HB.
: "${HB:?HB is not set}"

# run NAME CMD...: the command's output and status into /out
run() {
    name=$1
    shift
    "$@" >"/out/$name.out" 2>"/out/$name.err"
    echo $? >"/out/$name.rc"
}

run topo "$HB" topo --format jsonl
if [ "${TIERS:-0}" = 1 ]; then
    # The kernel's memory tiers as sysfs lists them ("memory_tierN NODELIST" per line), and page
    # migration between a CPU node and the memory-only node, both ways, in one process.
    uname -r >/out/uname.txt
    for d in /sys/devices/virtual/memory_tiering/memory_tier*; do
        echo "${d##*/} $(cat "$d/nodelist")"
    done >/out/tiers.txt
    run migrate "$HB" migrate --nodes 0,2 --size 2M --reps 2 --min-time 0.001 --repeat 2 \
        --format jsonl --quiet -o /out/migrate.jsonl
fi
run topo-table "$HB" topo
run plan "$HB" matrix --dry-run
if [ "${MATRIX:-0}" = 1 ]; then
    # one rank per CPU node: the memory-only node would take a rank with --map-by numa
    run matrix mpirun -np "$NUMAVM_CPU_NODES" --map-by ppr:1:socket --bind-to socket \
        "$HB" matrix --kernel read --size 1M --reps 2 --min-time 0.001 --quiet --format jsonl \
        -o /out/matrix.jsonl --export-hwloc /out/matrix.xml
fi
exit 0
