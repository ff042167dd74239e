#!/bin/sh
# guest.sh - runs INSIDE the arm64 guest (busybox sh) as its init, started by
# numa-guest-test.sh: topo, a 4 MiB matrix and hops --quick with one rank per node, each
# command's records, stderr and status printed on the console between markers.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /tmp && mount -t tmpfs tmpfs /dev/shm && mount -t tmpfs tmpfs /tmp
hostname arm-guest
ifconfig lo 127.0.0.1 up
export PATH=/usr/bin:/bin HOME=/root OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false
HB=/usr/bin/hopbench
SMALL="--reps 2 --min-time 0.001 --quiet --format jsonl"
MPI="mpirun.openmpi --map-by numa --bind-to numa -np 2"

# run NAME CMD...: the command's records (stdout or -o file), stderr and status
run() {
    name=$1
    shift
    "$@" >/tmp/out 2>/tmp/err
    rc=$?
    [ -s "/tmp/$name.jsonl" ] && cat "/tmp/$name.jsonl" >>/tmp/out
    echo "@@BEGIN $name"
    cat /tmp/out
    echo "@@STDERR $name"
    cat /tmp/err
    echo "@@END $name $rc"
}
# shellcheck disable=SC2086  # option lists split on purpose
{
    run topo $HB topo --format jsonl
    run matrix $MPI $HB matrix --size 4M $SMALL -o /tmp/matrix.jsonl
    run hops $MPI $HB hops --quick --size 1M --reps 1 --min-time 0.001 --quiet --format jsonl -o /tmp/hops.jsonl
} >/dev/console 2>&1
echo "@@DONE" >/dev/console
poweroff -f
