#!/usr/bin/env bash
# numa-guest-test.sh HOPBENCH ROOT WORK - CTest test (label arm): boots a two-node arm64
# guest under qemu-system-aarch64 (virt machine, -numa with a SLIT of 10/20, TCG) from a
# Debian arm64 kernel and an initramfs of ROOT (arm64-root.sh) plus the aarch64 HOPBENCH,
# runs guest.sh there (topo, matrix --size 4M, hops --quick, one rank per node) and checks
# the records: both nodes and their distances seen, every measurement ok with its threads
# on their node and 100% of its pages on the memory node, a 2x2 matrix, the plain C path.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../slurm/expect.sh"
hb=$1 root=$2 work=$3
for tool in qemu-system-aarch64 cpio jq; do
    command -v "$tool" >/dev/null || { echo "SKIP: no $tool (jobs/lib/deps.sh HB_PKGS_TEST)"; exit 77; }
done
[ -x "$hb" ] || { echo "SKIP: no aarch64 hopbench at $hb (the arm.cross test builds it)"; exit 77; }
mkdir -p "$work/kernel"
kernel=$(ls "$work"/kernel/vmlinuz-* 2>/dev/null | head -1)
if [ -z "$kernel" ]; then
    pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[^:]*\).*/\1/p' | head -1)
    [ -n "$pkg" ] || { echo "SKIP: apt knows no arm64 kernel (dpkg --add-architecture arm64)"; exit 77; }
    (cd "$work/kernel" && apt-get download -q "$pkg:arm64" >/dev/null 2>&1 &&
        dpkg-deb --fsys-tarfile "$pkg"_*.deb | tar -x --strip-components=2 ./boot/ && rm -f "$pkg"_*.deb) ||
        { echo "SKIP: cannot fetch $pkg:arm64"; exit 77; }
    kernel=$(ls "$work"/kernel/vmlinuz-* | head -1)
fi

# The initramfs: the arm64 root without headers, static libraries and locales, busybox as
# the shell and tools, hopbench, guest.sh as /init, a root user for Open MPI.
stage=$work/initrd
rm -rf "$stage"
mkdir -p "$stage"
(cd "$root" && tar -c --exclude=./usr/include --exclude='*.a' --exclude=./usr/lib/aarch64-linux-gnu/gconv \
    --exclude=./usr/lib/aarch64-linux-gnu/fortran --exclude=./usr/share/doc --exclude=./usr/share/man .) |
    tar -x -C "$stage"
for applet in $("$stage/usr/bin/busybox" --list 2>/dev/null || QEMU_LD_PREFIX=$root "$stage/usr/bin/busybox" --list); do
    [ -e "$stage/usr/bin/$applet" ] || ln -s busybox "$stage/usr/bin/$applet"
done
cp "$hb" "$stage/usr/bin/hopbench"
cp "$HERE/guest.sh" "$stage/init"
mkdir -p "$stage/etc" "$stage/root" "$stage/proc" "$stage/sys" "$stage/dev"
echo 'root:x:0:0:root:/root:/bin/sh' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"
# Not compressed: the guest's kernel would inflate it under TCG (2 s of a 4 s boot).
(cd "$stage" && find . | cpio -o -H newc --quiet) >"$work/initrd.cpio"

console=$work/console.log
start=$SECONDS
timeout 900 qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2 -m 1G \
    -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
    -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 \
    -numa dist,src=0,dst=1,val=20 \
    -kernel "$kernel" -initrd "$work/initrd.cpio" \
    -append "console=ttyAMA0 rdinit=/init quiet loglevel=1 numa_balancing=disable" \
    -display none -monitor none -serial "file:$console" -no-reboot >"$work/qemu.log" 2>&1
rc=$?
echo "arm64 guest: qemu status $rc, $((SECONDS - start)) s"
tr -d '\r' <"$console" >"$console.txt"
expect "the guest ran guest.sh to the end" grep -q '^@@DONE' "$console.txt"
# section NAME: what the guest printed for NAME; status NAME: its exit status
section() { awk -v n="$1" '$0 == "@@BEGIN " n { on = 1; next } /^@@STDERR / { on = 0 } on' "$console.txt" | grep '^{'; }
status() { sed -n "s/^@@END $1 //p" "$console.txt"; }
for name in topo matrix hops; do
    expect "$name exits 0 (status '$(status "$name")')" [ "$(status "$name")" = 0 ]
    [ "$(status "$name")" = 0 ] || awk -v n="$name" '$0 == "@@STDERR " n { on = 1; next } /^@@END / { on = 0 } on' "$console.txt" | tail -5
done
section topo >"$work/topo.jsonl"
section matrix >"$work/matrix.jsonl"
section hops >"$work/hops.jsonl"
expect "topo: two nodes with CPUs and memory, SLIT 10/20" jq_true "$work/topo.jsonl" \
    '.[] | select(.type == "topology") | (.nodes | length) == 2 and all(.nodes[]; .has_cpus and .has_memory) and .distances == [[10,20],[20,10]]'
for f in matrix hops; do
    expect "$f: run record with 2 ranks, one per node, plain C kernels" jq_true "$work/$f.jsonl" \
        '.[] | select(.type == "run") | .ranks == 2 and ([.rank_layout[].node] | sort) == [0,1] and .simd == "c"'
    expect "$f: every measurement ok, threads on their node, all pages on the target" jq_true "$work/$f.jsonl" \
        '[.[] | select(.type == "measurement")] | length > 0 and all(.[]; .status == "ok" and .threads_on_node == .threads and (.pages_on_target_pct == 100 or .pages_on_target_pct == null))'
done
expect "matrix: 2x2 latency and bandwidth cells, remote placements measured" jq_true "$work/matrix.jsonl" \
    '[.[] | select(.type == "matrix") | .values | length == 2 and all(.[]; length == 2)] | length >= 2 and all(.)'
expect "matrix: the cross-node cells ran on one node against the other's memory" jq_true "$work/matrix.jsonl" \
    '[.[] | select(.type == "measurement" and .cpu_node != .mem_node)] | length > 0 and all(.[]; .pages_on_target_pct == 100 and .hops == 1)'
expect "hops --quick: crossfire both ways on the link, pairs, low background load" jq_true "$work/hops.jsonl" \
    '[.[] | select(.type == "measurement")] | ([.[] | select(.case == "crossfire") | [.cpu_node, .mem_node]] | unique) == [[0,1],[1,0]] and any(.[]; .case == "pair") and any(.[]; .bg_level == "low")'
expect_done
