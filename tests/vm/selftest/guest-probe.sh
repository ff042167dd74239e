#!/bin/sh
# guest-probe.sh - runs INSIDE the numa-vm guest (busybox sh), started by guest-hopbench.sh
# when hopbench-test.sh gives it $PROBE (hb_vm_probe). Runs the probe and $HB --version;
# everything probe-checks.sh checks goes to /out.
: "${PROBE:?PROBE is not set}"
: "${HB:?HB is not set}"
grep -m 1 '^flags' /proc/cpuinfo >/out/cpuflags
k=0
while [ -d "/sys/devices/system/node/node$k" ]; do
    cat "/sys/devices/system/node/node$k/distance"
    k=$((k + 1))
done >/out/sysfs-distance
mpirun --map-by numa --bind-to numa -np "$NUMAVM_CPU_NODES" --report-bindings \
    "$PROBE" 16 >/out/probe.txt 2>/out/probe.err
echo $? >/out/probe.rc
"$HB" --version >/out/hb-version.txt 2>&1
echo $? >/out/hb-version.rc
cat /out/probe.txt
cat /out/probe.err >&2
