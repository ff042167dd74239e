#!/bin/sh
# guest-hopbench.sh - runs INSIDE a numa-vm guest (busybox sh), started by
# hopbench-test.sh through vm_run_script, one boot per guest. Runs several
# hopbench commands; each leaves NAME.jsonl / NAME.out / NAME.err / NAME.rc in
# /out, and hopbench-test.sh asserts on them (records only, never timings).
# Needs $HB; $MIGRATOR (hb_vm_migrator) adds the misplaced-pages runs, $PROBE (hb_vm_probe)
# the guest's own checks (selftest/guest-probe.sh, $PROBE_SH). LAYOUT=1: the rank layout
# errors of too few ranks; MATRIX_NODES: the matrix's --nodes; WITH_MATRIX=0: no matrix.
# SMALL, MATRIX, MPI, TINY and BW are option lists: split on purpose.
# $GUEST (the preset's name) picks the runs only one guest does.
# shellcheck disable=SC2086
: "${HB:?HB is not set}"
SMALL="--size 4M --reps 2 --min-time 0.001 --repeat 1 --quiet"
# latency (chase) and one bandwidth kernel: every cell kind, half the experiments
MATRIX="--kernel read --format jsonl $SMALL"
# Launches that hopbench refuses before measuring (and the matrix, refused on quartet-mem):
# once a rank has failed, mpirun waits out a grace between SIGTERM and SIGKILL (1 s; 2-4 s a
# launch here) though no rank has records to keep.
REFUSED="mpirun --mca odls_base_sigkill_timeout 0"

# run NAME CMD...: the command's output and status into /out
run() {
    name=$1
    shift
    t0=$(cut -d' ' -f1 /proc/uptime)
    "$@" >"/out/$name.out" 2>"/out/$name.err"
    echo $? >"/out/$name.rc"
    echo "$name: status $(cat "/out/$name.rc"), from ${t0}s to $(cut -d' ' -f1 /proc/uptime)s uptime"
}

[ -z "${PROBE:-}" ] || sh "$PROBE_SH"
run topo "$HB" topo --format jsonl
# The launch line hopbench suggests for this machine, with its "hopbench ..."
# placeholder cut off (busybox has no JSON tool; the field is a plain string).
sed -n 's/.*"mpirun":"\([^"]*\) hopbench \.\.\.".*/\1/p' /out/topo.out >/out/suggested.txt

if [ "${WITH_MATRIX:-1}" = 1 ]; then
    run matrix $REFUSED --map-by numa --bind-to numa -np "$NUMAVM_CPU_NODES" \
        "$HB" matrix $MATRIX ${MATRIX_NODES:+--nodes "$MATRIX_NODES"} -o /out/matrix.jsonl
fi
if [ "${LAYOUT:-0}" = 1 ]; then
    run layout-np1 $REFUSED -np 1 "$HB" lat $SMALL
    if [ "$NUMAVM_CPU_NODES" -gt 2 ]; then
        run layout-np2 $REFUSED --map-by numa --bind-to numa -np 2 "$HB" lat $SMALL
    fi
fi
if [ "$NUMAVM_NODES" -gt "$NUMAVM_CPU_NODES" ]; then
    # one rank per NUMA node, the memory-only ones included: what people try first
    run layout-all $REFUSED --map-by numa --oversubscribe -np "$NUMAVM_NODES" "$HB" lat $SMALL
    # shellcheck disable=SC2046  # the suggested line is words without spaces
    run suggested $(cat /out/suggested.txt) "$HB" matrix $MATRIX -o /out/suggested.jsonl
fi
if [ "${GUEST:-}" = two-smp ]; then
    # Ranks and threads left unbound (libgomp ignores OMP_PLACES without binding): the ranks
    # may run anywhere, so hopbench must refuse before timing anything (exit 3).
    run unbound $REFUSED --bind-to none -np 1 -x OMP_PLACES="{0},{1}" -x OMP_PROC_BIND=false \
        "$HB" lat $SMALL : -np 1 -x OMP_PLACES="{2},{3}" -x OMP_PROC_BIND=false "$HB" lat $SMALL
    # Ranks bound to nothing: each spans both nodes, so none serves one (exit 3, the line).
    run unbound-ranks $REFUSED --bind-to none -np 2 "$HB" lat $SMALL
    # The ranks bind themselves (the one-app-context line topo prints for SNC + CXL machines),
    # here in reverse: local rank 0 on node 1's CPUs, rank 1 on node 0's.
    run rank-cpus mpirun --bind-to none -np 2 -x HOPBENCH_RANK_CPUS=2-3:0-1 "$HB" lat $SMALL \
        --format jsonl -o /out/rank-cpus.jsonl
    # Core to core, one process: node pairs with the line homed at the writer, then on node 1.
    C2C="c2c --reps 2 --min-time 0.005 --repeat 1 --format jsonl"
    run c2c "$HB" $C2C -o /out/c2c.jsonl
    run c2c-home1 "$HB" $C2C --home 1 -o /out/c2c-home1.jsonl
    # comm --bg: node 1's rank loads it (one load thread beside its messaging thread) while
    # each pair runs, the pair it is in and the one it is not.
    run comm-bg mpirun --map-by numa --bind-to numa -np 2 "$HB" comm --bg low --load-nodes 1 \
        --size 8 --reps 1 --min-time 0.001 --repeat 1 --quiet --format jsonl -o /out/comm-bg.jsonl
fi
if [ "${GUEST:-}" = quartet ]; then
    # The square's studies over one rank per node: hops (crossfire on every
    # link, background load), policy (interleave, one-node, local pages) and peak.
    MPI="mpirun --map-by numa --bind-to numa -np $NUMAVM_CPU_NODES"
    TINY="--reps 1 --min-time 0.001 --repeat 1 --format jsonl --quiet"
    run hops $MPI "$HB" hops --quick --size 1M $TINY -o /out/hops.jsonl
    run policy $MPI "$HB" policy --mode rate --kernel triad --size 4M $TINY -o /out/policy.jsonl
    # Peak injection: every node's task at once, one rank each, bound and interleaved.
    run peak $MPI "$HB" peak --kernel read,mix1:1-nt --size 4M $TINY -o /out/peak.jsonl
    run peak-il $MPI "$HB" peak --policy interleave --kernel mix2:1 --size 4M $TINY \
        -o /out/peak-il.jsonl
    # MPI messages between every ordered pair of the four ranks' nodes, 8 B only.
    run comm $MPI "$HB" comm --size 8 $TINY -o /out/comm.jsonl
    run comm-export "$HB" export /out/comm.jsonl -o /out/comm.xml
    # bcast over the square's hop classes, each node as root; then allreduce with its buffers
    # interleaved over the nodes of the pair 0-1 (its only communicator).
    run coll $MPI "$HB" coll --op bcast --size 8 $TINY -o /out/coll.jsonl
    run coll-il $MPI "$HB" coll --op allreduce --size 64K,128K --nodes 0,1 --policy interleave \
        $TINY -o /out/coll-il.jsonl
fi
if [ "${GUEST:-}" = eight ]; then
    # bcast over the cube's hop classes (1, 2, 3), each node as root.
    MPI="mpirun --map-by numa --bind-to numa -np $NUMAVM_CPU_NODES"
    run coll $MPI "$HB" coll --op bcast --size 8 --reps 1 --min-time 0.001 \
        --repeat 1 --format jsonl --quiet -o /out/coll.jsonl
fi
if [ "${GUEST:-}" = quartet-mem ]; then
    # Both ends' buffers on the memory-only node 4, the pairs of nodes 0 and 1. One rank per
    # core: --map-by numa counts node 4 too and put two ranks on node 0's one core, which comm
    # refuses (their latency would be the scheduler's); that launch is checked too.
    run comm-shared $REFUSED --map-by numa --bind-to numa -np "$NUMAVM_CPU_NODES" "$HB" comm \
        --size 8 --nodes 0,1 --mem-node 4 --reps 1 --min-time 0.001 --repeat 1 --quiet \
        -o /out/comm-shared.jsonl
    run comm-mem mpirun --map-by core --bind-to core -np "$NUMAVM_CPU_NODES" "$HB" comm \
        --size 8 --nodes 0,1 --mem-node 4 --reps 1 --min-time 0.001 --repeat 1 --quiet \
        -o /out/comm-mem.jsonl
fi
if [ "${GUEST:-}" = two ] || [ "${GUEST:-}" = quartet-mem ]; then
    # Page migration between every ordered pair of the chosen memory nodes (on quartet-mem a
    # CPU node and the memory-only node), both methods, base pages and THP.
    MIG="--size 2M --reps 2 --min-time 0.001 --repeat 2 --format jsonl --quiet"
    [ "$GUEST" = two ] || MIG="$MIG --nodes 0,4"
    run migrate "$HB" migrate $MIG -o /out/migrate.jsonl
fi
WIL_DIR=/sys/kernel/mm/mempolicy/weighted_interleave
WIL="bw --cpu-node 0 --policy weighted --mem-node 0,1 --weights 3,1 --format jsonl"
if [ "${GUEST:-}" = two ]; then
    # Linux 6.1 has no weighted interleave: refused in one line before any output (one
    # process: the plan is refused before the rank layout is looked at).
    run weighted-61 "$HB" $WIL --size 4M -o /out/weighted-61.jsonl
    run weights-auto-61 "$HB" policy --weights auto --size 4M -o /out/weights-auto-61.jsonl
fi
if [ "${GUEST:-}" = two-612 ]; then
    # Linux 6.12: pages 3:1 over nodes 0 and 1, the kernel's weights set for the run and put
    # back after it, and after a SIGTERM to mpirun mid-run (as Ctrl-C would).
    MPI="mpirun --map-by numa --bind-to numa -np $NUMAVM_CPU_NODES"
    uname -r >/out/uname.txt
    cat $WIL_DIR/node0 $WIL_DIR/node1 >/out/weights-before.txt
    run weighted $MPI "$HB" $WIL --size 32M --reps 2 --min-time 0.001 --repeat 1 --quiet \
        -o /out/weighted.jsonl
    cat $WIL_DIR/node0 $WIL_DIR/node1 >/out/weights-after.txt
    # mpirun SIGKILLs the ranks 1 s after its SIGTERM (odls_base_sigkill_timeout), which a
    # loaded 2-core machine under TCG may not give the handler: then the guardian puts the
    # weights back, a moment after the rank is gone.
    mpirun --map-by numa --bind-to numa \
        -np "$NUMAVM_CPU_NODES" "$HB" $WIL --size 64M --reps 1000 --min-time 0.05 --repeat 1 \
        --quiet -o /out/weighted-term.jsonl >/out/weighted-term.out 2>/out/weighted-term.err &
    pid=$!
    i=0
    while [ "$(cat $WIL_DIR/node0)" != 3 ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    cat $WIL_DIR/node0 $WIL_DIR/node1 >/out/weights-during.txt
    sleep 1
    kill -TERM $pid
    wait $pid
    echo $? >/out/weighted-term.rc
    i=0
    while [ "$(cat $WIL_DIR/node0)" = 3 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    cat $WIL_DIR/node0 $WIL_DIR/node1 >/out/weights-after-term.txt
    # The weight search: bound to each node, then 1:1 .. 16:1, each step's weights set in turn.
    run weights-auto $MPI "$HB" policy --weights auto --mem-node 0,1 --cpu-node 0 --kernel read \
        --size 8M --reps 2 --min-time 0.001 --repeat 1 --format jsonl --quiet \
        -o /out/weights-auto.jsonl
    cat $WIL_DIR/node0 $WIL_DIR/node1 >/out/weights-after-auto.txt
fi
if [ "${GUEST:-}" = two-612 ]; then
    # balance: threads on node 0, 32 MiB first touched on node 1. The guest boots with NUMA
    # balancing off (numa-vm.sh), which balance refuses without changing it; then the guest
    # itself turns it on (sysctl kernel.numa_balancing=1) for the run, and off again.
    BAL="balance --cpu-node 0 --mem-node 1 --size 32M --repeat 1 --format jsonl"
    cat /proc/sys/kernel/numa_balancing >/out/numa-balancing-boot.txt
    run balance-off "$HB" $BAL --max-time 30 -o /out/balance-off.jsonl
    echo 1 >/proc/sys/kernel/numa_balancing
    run balance "$HB" $BAL --max-time 30 --quiet -o /out/balance.jsonl
    run balance-thp "$HB" $BAL --max-time 30 --pages thp --quiet -o /out/balance-thp.jsonl
    # Mode 2 (memory tiering alone) scans no page on a top-tier node, and both of this
    # guest's nodes are DRAM: nothing moves, and the series runs to --max-time.
    echo 2 >/proc/sys/kernel/numa_balancing
    run balance-tiering "$HB" $BAL --max-time 2 --quiet -o /out/balance-tiering.jsonl
    echo 0 >/proc/sys/kernel/numa_balancing
fi
if [ -n "${MIGRATOR:-}" ]; then
    # Every rank runs under the migrator, which moves the pages of node 1 to
    # node 0 every 20 ms while bw runs on node 1 (rank 1); hopbench locates
    # its pages after the timed samples.
    MPI="mpirun --map-by numa --bind-to numa -np $NUMAVM_CPU_NODES"
    BW="bw --cpu-node 1 --mem-node 1 --size 16M --reps 8 --min-time 0.02 --repeat 1 --format jsonl --quiet"
    run misplaced $MPI "$MIGRATOR" 1 0 20 -- "$HB" $BW -o /out/misplaced.jsonl
    run allowed $MPI "$MIGRATOR" 1 0 20 -- "$HB" $BW --allow-misplaced -o /out/allowed.jsonl
fi
exit 0
