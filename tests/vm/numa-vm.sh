#!/usr/bin/env bash
# =============================================================================
# numa-vm.sh - run a command inside a throw-away multi-NUMA-node Linux guest
# emulated by QEMU in pure software (TCG; no /dev/kvm needed).
#
# hopbench's copy of the team's numa-vm recipe (run-in-numa-vm.sh), adapted
# for the test suite: the cache lives outside the source tree, missing
# prerequisites exit 77 (the CTest skip code), and --prepare / --print-slit
# serve tests/vm/vm-lib.sh.
#
# The guest is a Debian 6.1 kernel (or, with --kernel-suite, another Debian suite's, e.g.
# bookworm-backports' 6.12) plus an initramfs built on the fly from
# busybox-static and the host files you name (their shared libraries are found
# with ldd and copied too).  Nothing else: no disk image, no network, no root
# file system.  The guest runs your command once, sends back its stdout,
# stderr, exit status and any files it wrote under /out, and powers itself off.
#
#   numa-vm.sh [options] -- PROGRAM [ARGS...]     (argv, exec'd as is)
#   numa-vm.sh [options] -c 'shell command line'  (run by busybox sh)
#   numa-vm.sh [options] --prepare                (fetch/build the cache only)
#   numa-vm.sh [options] --print-slit             (expected SLIT, no VM)
#
# Run with --help for the options.  Tests use it through vm-lib.sh.
#
# How results come back (four emulated 16550 serial ports, all raw mode):
#   ttyS0  kernel console + init messages  -> $WORK/console.log (diagnostics)
#   ttyS1  the command's stdout            -> streamed to this script's stdout
#   ttyS2  the command's stderr            -> streamed to this script's stderr
#   ttyS3  control channel: exit status and timings
#   /dev/nvme0n1 (only with -o DIR): raw disk onto which the guest writes a tar
#          of /out at the end; the host unpacks it into DIR
# Exit status of this script: the guest command's exit status, or
#   124 = hard timeout hit (qemu killed), 125 = VM/infrastructure failure
#   (no exit status came back; console log is kept and its tail printed),
#   77  = a prerequisite is unavailable here (qemu cannot be installed, the
#         kernel or busybox cannot be fetched); use --prepare to tell this
#         apart from a guest command that itself exits 77,
#   2   = usage error.
# =============================================================================
set -euo pipefail
export LC_ALL=C

PROG=${0##*/}
log() { [[ $QUIET == 1 ]] || printf '[numa-vm] %s\n' "$*" >&2; }
warn() { printf '[numa-vm] %s\n' "$*" >&2; }           # printed even with -q
die() { printf '[numa-vm] ERROR: %s\n' "$1" >&2; exit "${2:-125}"; }

usage() {
cat <<EOF
Usage: $PROG [options] -- PROGRAM [ARGS...]
       $PROG [options] -c 'SHELL COMMAND LINE'
       $PROG [options] --shell            (interactive shell on the console)
       $PROG [options] --prepare          (install qemu, fetch kernel+busybox,
                                          build the base initramfs; exit 0 or 77)
       $PROG [options] --print-slit       (print the topology's SLIT rows as
                                          NUMAVM_SLIT has them; no VM)

Topology (default: quartet):
  -t, --topology NAME   single   1 node
                        two      2 nodes, SLIT 10/21
                        quartet  4 nodes, Opteron-style square, SLIT 10/16/22
                                 (0-1,0-2,1-3,2-3 one hop; 0-3,1-2 two hops)
                        eight    8 nodes, 3-cube, SLIT 10/16/22/28
                        custom   give -n and --dist yourself
  -n, --nodes N         number of NUMA nodes with CPUs (overrides the preset)
      --cpus-per-node C cores per node (= per socket), default 1
      --threads-per-core T  SMT threads per core, default 1
      --mem-per-node MiB    memory per node, default 512
      --memonly-nodes K extra K NUMA nodes with memory but no CPUs
                        (numbered after the CPU nodes; like HBM/CXL/PMEM nodes)
      --dist SPEC       distance matrix (SLIT) over all nodes:
                          hypercube   10 + 6 * (number of differing bits of i,j)
                          uniform:V   10 local, V remote
                          "a b c ..." explicit N*N values, row major
                                      (separators: space , ; )
      --hmat            give the guest an ACPI HMAT (-machine hmat=on): every
                        CPU node is its own initiator, a memory-only node's is
                        the nearest CPU node; latency = SLIT x 10 ns and
                        bandwidth = 200000 / SLIT MB/s per initiator x target
                        unless given below (Linux publishes the best
                        initiators' figures under nodeN/access0, hwloc shows
                        them as memattrs)
      --hmat-latency "..."    with --hmat: explicit latencies in ns, one row per
                        CPU node (initiator), one column per node (target)
      --hmat-bandwidth "..."  with --hmat: the same for bandwidth in MB/s
      --hmat-cache MiB  with --hmat: a direct-mapped write-back memory-side
                        cache of MiB (64-byte lines) on every node
Payload:
  -f, --file PATH       copy host file PATH into the guest at the same absolute
                        path (symlinks are followed); if it is a dynamic ELF,
                        its ldd dependencies are copied too. Repeatable.
  -d, --dir PATH        copy a host directory tree (symlinks followed), plus
                        the ldd dependencies of every ELF file in it (-f on a
                        directory does the same). Repeatable.
      --files-from LIST file with one host path per line (# comments ok),
                        each handled like -f
      --with LIST       comma list of tool bundles: numactl, hwloc, mpi
                        (mpi = Open MPI mpirun/orted/ompi_info + components,
                        help files and PMIx; sets OMPI_ALLOW_RUN_AS_ROOT*)
  -e, --env VAR=VALUE   environment variable for the guest command. Repeatable.
  -C, --cwd DIR         working directory in the guest (default: the host's
                        current directory, created if absent)
  -o, --out DIR         host directory that receives what the guest command
                        writes under /out (\$NUMAVM_OUT) in the guest (sent
                        back as a tar on an emulated NVMe disk; fast)
      --out-size MiB    capacity for /out (sparse disk image), default 4096
Machine:
      --timeout SEC     hard limit for the whole VM run (default 1800)
      --machine TYPE    QEMU machine type (default q35)
      --cpu MODEL       QEMU CPU model (default max,vendor=GenuineIntel: all
                        that TCG emulates, incl. AVX2 but no AVX-512, so do not
                        run -march=native code built on an AVX-512 host; the
                        Intel vendor string makes Linux see SMT siblings, which
                        TCG cannot describe for AMD CPUs (no topoext))
      --append ARGS     extra kernel command line arguments
      --qemu-arg ARG    extra QEMU argument (repeatable)
      --tcg-threads M   multi (one host thread per vCPU; the default with the
                        machine's own kernel) or single (one host thread runs
                        every vCPU in turn; the default with --kernel-suite:
                        slower, but the kernel's code patching is then exact,
                        where multi lost Linux 6.12 boots to 'Oops: int3')
      --kernel-suite S  take the guest kernel from Debian suite S instead of
                        the machine's own, e.g. bookworm-backports (Linux
                        6.12: /sys/kernel/mm/mempolicy/weighted_interleave/,
                        memory tiers from the HMAT) or trixie: the suite's
                        linux-image-cloud-amd64, through a private apt list
                        under the cache on the mirror of the machine's apt
                        sources (which stay as they are); the package is
                        remembered in \$NUMAVM_CACHE/kernel-pkg-S and its
                        vmlinuz cached like the default kernel's. Linux 6.12
                        under this TCG (QEMU 7.2) panics in SLUB's cmpxchg16b
                        fast path in about half the boots, so a suite kernel
                        boots with slub_debug=F (debug caches take the locked
                        path; 22 of 22 boots); dropping cx16 from the CPU
                        instead would stop Open MPI, which needs it
Other:
      --shell           interactive busybox shell on the console instead of a
                        command (exit the shell to power off; Ctrl-A X kills)
      --keep            keep the work directory (initrd, console log)
  -q, --quiet           no progress messages
  -h, --help            this text

Environment:
  NUMAVM_CACHE          cache folder for kernel/busybox/base initramfs
                        (default \${XDG_CACHE_HOME:-\$HOME/.cache}/hopbench/numa-vm,
                        or /tmp/hopbench-numa-vm-UID without a writable home)
  NUMAVM_KERNEL_PKG     Debian kernel package to use (default: the one that
                        linux-image-cloud-amd64 depends on, e.g.
                        linux-image-6.1.0-57-cloud-amd64, remembered in
                        \$NUMAVM_CACHE/kernel-pkg; delete that file to move to
                        a newer one); the generic linux-image-*-amd64 works too
                        but boots ~2x slower under TCG
  NUMAVM_KERNEL_SUITE   default for --kernel-suite
  NUMAVM_KERNEL         path to a vmlinuz to use instead (no download)
  NUMAVM_TIMEOUT        default for --timeout

Inside the guest: busybox (sh, awk, taskset, ...), /proc, /sys, devtmpfs
/dev, tmpfs /dev/shm, writable /tmp (the root is a tmpfs), hugetlbfs
/dev/hugepages, loopback up, hostname numa-vm, root, no network.  Set:
NUMAVM_NODES (all nodes), NUMAVM_CPU_NODES, NUMAVM_CPUS, NUMAVM_TOPOLOGY,
NUMAVM_SLIT (expected rows, "10 21;21 10"), NUMAVM_OUT=/out.
Kernel command line by default disables automatic NUMA balancing
(numa_balancing=disable) so that page placement stays where it was put, and
sets tsc=reliable (TSC clocksource: clock_gettime ~0.1 us instead of ~1.2 us
with the HPET that Linux otherwise picks under TCG).
EOF
}

# ----------------------------------------------------------------------------
# defaults and option parsing
# ----------------------------------------------------------------------------
default_cache() {
  local base=${XDG_CACHE_HOME:-${HOME:-}/.cache}
  if [[ -n ${XDG_CACHE_HOME:-}${HOME:-} ]] && mkdir -p "$base/hopbench/numa-vm" 2>/dev/null &&
     [[ -w $base/hopbench/numa-vm ]]; then
    echo "$base/hopbench/numa-vm"
  else
    echo "/tmp/hopbench-numa-vm-$(id -u)"
  fi
}
CACHE=${NUMAVM_CACHE:-$(default_cache)}
TIMEOUT=${NUMAVM_TIMEOUT:-1800}
TOPO=quartet NODES='' CPN=1 TPC=1 MEMPN=512 MEMONLY=0 DIST=''
MACHINE=q35 CPU_MODEL=max,vendor=GenuineIntel KSUITE=${NUMAVM_KERNEL_SUITE:-} APPEND_EXTRA='' QUIET=0 KEEP=0 SHELL_MODE=0
GUEST_CWD=$PWD OUTDIR='' OUT_MB=4096 CMD_STRING='' HAVE_CMD=0 MODE=run
FILES=() DIRS=() WITH=() ENVS=() QEMU_EXTRA=() ARGV=()
HMAT=0 HMAT_LAT='' HMAT_BW='' HMAT_CACHE=0 TCG_THREADS=''

need_arg() { [[ $# -ge 2 ]] || die "option $1 needs an argument" 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    -t|--topology)      need_arg "$@"; TOPO=$2; shift 2;;
    -n|--nodes)         need_arg "$@"; NODES=$2; shift 2;;
    --cpus-per-node)    need_arg "$@"; CPN=$2; shift 2;;
    --threads-per-core) need_arg "$@"; TPC=$2; shift 2;;
    --mem-per-node)     need_arg "$@"; MEMPN=$2; shift 2;;
    --memonly-nodes)    need_arg "$@"; MEMONLY=$2; shift 2;;
    --dist)             need_arg "$@"; DIST=$2; shift 2;;
    --hmat)             HMAT=1; shift;;
    --hmat-latency)     need_arg "$@"; HMAT_LAT=$2; shift 2;;
    --hmat-bandwidth)   need_arg "$@"; HMAT_BW=$2; shift 2;;
    --hmat-cache)       need_arg "$@"; HMAT_CACHE=$2; shift 2;;
    -f|--file)          need_arg "$@"; FILES+=("$2"); shift 2;;
    -d|--dir)           need_arg "$@"; DIRS+=("$2"); shift 2;;
    --files-from)       need_arg "$@"; [[ -r $2 ]] || die "cannot read $2" 2
                        while IFS= read -r l; do [[ -n $l && $l != \#* ]] && FILES+=("$l"); done <"$2"; shift 2;;
    --with)             need_arg "$@"; IFS=, read -ra w <<<"$2"; WITH+=("${w[@]}"); shift 2;;
    -e|--env)           need_arg "$@"; ENVS+=("$2"); shift 2;;
    -C|--cwd)           need_arg "$@"; GUEST_CWD=$2; shift 2;;
    -o|--out)           need_arg "$@"; OUTDIR=$2; shift 2;;
    --out-size)         need_arg "$@"; OUT_MB=$2; shift 2;;
    --timeout)          need_arg "$@"; TIMEOUT=$2; shift 2;;
    --machine)          need_arg "$@"; MACHINE=$2; shift 2;;
    --cpu)              need_arg "$@"; CPU_MODEL=$2; shift 2;;
    --append)           need_arg "$@"; APPEND_EXTRA+=" $2"; shift 2;;
    --qemu-arg)         need_arg "$@"; QEMU_EXTRA+=("$2"); shift 2;;
    --tcg-threads)      need_arg "$@"; TCG_THREADS=$2; shift 2;;
    --kernel-suite)     need_arg "$@"; KSUITE=$2; shift 2;;
    -c|--command)       need_arg "$@"; CMD_STRING=$2; HAVE_CMD=1; shift 2;;
    --shell)            SHELL_MODE=1; shift;;
    --prepare)          MODE=prepare; shift;;
    --print-slit)       MODE=print-slit; shift;;
    --keep)             KEEP=1; shift;;
    -q|--quiet)         QUIET=1; shift;;
    -h|--help)          usage; exit 0;;
    --)                 shift; ARGV=("$@"); [[ $# -gt 0 ]] && HAVE_CMD=1; break;;
    -*)                 die "unknown option $1 (see --help)" 2;;
    *)                  ARGV=("$@"); HAVE_CMD=1; break;;
  esac
done
[[ $HAVE_CMD == 1 || $SHELL_MODE == 1 || $MODE != run ]] || { usage >&2; die "no command given" 2; }
[[ -n $CMD_STRING && ${#ARGV[@]} -gt 0 ]] && die "give either -c STRING or -- ARGV, not both" 2

isnum() { [[ $1 =~ ^[0-9]+$ ]]; }
[[ -z $TCG_THREADS || $TCG_THREADS == multi || $TCG_THREADS == single ]] ||
  die "bad --tcg-threads '$TCG_THREADS' (multi or single)" 2
[[ -z $KSUITE || $KSUITE =~ ^[a-z0-9][a-z0-9.-]*$ ]] ||
  die "bad --kernel-suite '$KSUITE' (a Debian suite name such as bookworm-backports)" 2
# Linux 6.12 under QEMU 7.2's TCG panics in SLUB's cmpxchg16b fast path in about half the
# boots; SLUB's debug caches take the locked path (slub_debug=F: 22 of 22 boots). Without cx16
# the kernel would boot too, but Open MPI's atomics need it (SIGILL).
[[ -z $KSUITE ]] || APPEND_EXTRA=" slub_debug=F$APPEND_EXTRA"
# Multi-threaded TCG also lost 6.12 boots to 'Oops: int3' in a static key being patched
# (twice in a row on a loaded CI); one host thread for every vCPU makes the kernel's code
# patching exact, for about 5 s more on the two-node guest.
[[ -n $TCG_THREADS ]] || { [[ -n $KSUITE ]] && TCG_THREADS=single || TCG_THREADS=multi; }

# ----------------------------------------------------------------------------
# topology -> node count and distance matrix
# ----------------------------------------------------------------------------
case $TOPO in
  single)  : "${NODES:=1}"; : "${DIST:=uniform:20}";;
  two)     : "${NODES:=2}"; : "${DIST:=uniform:21}";;
  quartet) : "${NODES:=4}"; : "${DIST:=hypercube}";;
  eight)   : "${NODES:=8}"; : "${DIST:=hypercube}";;
  custom)  [[ -n $NODES ]] || die "--topology custom needs --nodes" 2; : "${DIST:=hypercube}";;
  *)       die "unknown topology '$TOPO' (single, two, quartet, eight, custom)" 2;;
esac
for v in NODES CPN TPC MEMPN MEMONLY TIMEOUT OUT_MB HMAT_CACHE; do
  isnum "${!v}" || die "$v must be a number (got '${!v}')" 2
done
(( NODES >= 1 && CPN >= 1 && TPC >= 1 && MEMPN >= 64 )) || die "bad topology numbers" 2
TOTAL_NODES=$(( NODES + MEMONLY ))
NCPUS=$(( NODES * CPN * TPC ))
TOTAL_MEM=$(( TOTAL_NODES * MEMPN ))
(( NCPUS <= 255 )) || die "at most 255 vCPUs (x2APIC-less q35 limit); asked for $NCPUS" 2

# fill DM[i*N+j]
DM=()
popcount() { local x=$1 c=0; while (( x )); do (( c += x & 1, x >>= 1 )); done; echo $c; }
case $DIST in
  hypercube)
    for ((i = 0; i < TOTAL_NODES; i++)); do for ((j = 0; j < TOTAL_NODES; j++)); do
      DM+=( $(( 10 + 6 * $(popcount $(( i ^ j ))) )) ); done; done;;
  uniform:*)
    v=${DIST#uniform:}; isnum "$v" || die "bad --dist $DIST" 2
    for ((i = 0; i < TOTAL_NODES; i++)); do for ((j = 0; j < TOTAL_NODES; j++)); do
      (( i == j )) && DM+=(10) || DM+=("$v"); done; done;;
  *)
    read -ra DM <<<"$(tr ',;' '  ' <<<"$DIST")"
    (( ${#DM[@]} == TOTAL_NODES * TOTAL_NODES )) ||
      die "--dist needs $((TOTAL_NODES * TOTAL_NODES)) values for $TOTAL_NODES nodes, got ${#DM[@]}" 2;;
esac
for ((i = 0; i < TOTAL_NODES; i++)); do for ((j = 0; j < TOTAL_NODES; j++)); do
  d=${DM[i * TOTAL_NODES + j]}; isnum "$d" || die "distance '$d' is not a number" 2
  if (( i == j )); then (( d == 10 )) || die "local distance must be 10 (node $i: $d)" 2
  else (( d > 10 && d <= 255 )) || die "remote distance must be 11..255 ($i->$j: $d)" 2; fi
done; done

# HMAT figures, HL[i*TOTAL+j] ns and HB[...] MB/s for CPU node i -> node j
HL=() HB=()
if (( HMAT == 1 )); then
  if [[ -n $HMAT_LAT ]]; then read -ra HL <<<"$(tr ',;' '  ' <<<"$HMAT_LAT")"; else
    for ((i = 0; i < NODES * TOTAL_NODES; i++)); do HL+=($(( DM[i] * 10 ))); done; fi
  if [[ -n $HMAT_BW ]]; then read -ra HB <<<"$(tr ',;' '  ' <<<"$HMAT_BW")"; else
    for ((i = 0; i < NODES * TOTAL_NODES; i++)); do HB+=($(( 200000 / DM[i] ))); done; fi
  (( ${#HL[@]} == NODES * TOTAL_NODES && ${#HB[@]} == NODES * TOTAL_NODES )) ||
    die "--hmat-latency/--hmat-bandwidth need $NODES x $TOTAL_NODES values (CPU nodes x nodes)" 2
  for v in "${HL[@]}" "${HB[@]}"; do
    if ! isnum "$v" || (( v == 0 )); then die "HMAT figure '$v' is not a positive number" 2; fi
  done
elif [[ -n $HMAT_LAT$HMAT_BW ]] || (( HMAT_CACHE > 0 )); then
  die "--hmat-latency, --hmat-bandwidth and --hmat-cache need --hmat" 2
fi

# SLIT as "row0;row1;..." with rows formatted like /sys/.../nodeN/distance
dm_rows() {
  local i j r out=
  for ((i = 0; i < TOTAL_NODES; i++)); do
    r=; for ((j = 0; j < TOTAL_NODES; j++)); do r+=" ${DM[i * TOTAL_NODES + j]}"; done
    out+="${r# };"
  done
  echo "${out%;}"
}
if [[ $MODE == print-slit ]]; then dm_rows; exit 0; fi

# ----------------------------------------------------------------------------
# host prerequisites: qemu (installed with apt-get if missing), kernel and
# busybox-static (downloaded with apt-get download, never installed)
# ----------------------------------------------------------------------------
SKIP=77                                   # prerequisite unavailable here
# root runs apt-get itself; others only with passwordless sudo
can_root() { [[ $(id -u) == 0 ]] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }
as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo -n "$@"; fi; }
apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "$@"
}
if ! command -v qemu-system-x86_64 >/dev/null; then
  command -v apt-get >/dev/null || die "qemu-system-x86_64 is missing and there is no apt-get to install it" $SKIP
  can_root || die "qemu-system-x86_64 is missing and installing qemu-system-x86 needs root" $SKIP
  log "installing qemu-system-x86 with apt-get"
  apt_install qemu-system-x86 >&2 ||
    { as_root apt-get update >&2 && apt_install qemu-system-x86 >&2; } ||
    die "cannot install qemu-system-x86 with apt-get" $SKIP
fi
for t in timeout tail flock sha256sum realpath truncate tar dpkg-deb apt-get apt-cache; do
  command -v $t >/dev/null || die "host tool '$t' missing" $SKIP
done

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9                                  # serialise cache population between runs

# apt-get download PKG into $CACHE/deb, running apt-get update once if needed; with
# --kernel-suite the private list of that suite (APT_OPTS) updates instead
APT_OPTS=()
apt_download() {
  local pkg=$1
  mkdir -p "$CACHE/deb"; chmod 755 "$CACHE/deb" 2>/dev/null || true
  ( cd "$CACHE/deb" && apt-get "${APT_OPTS[@]}" download -o APT::Sandbox::User=root "$pkg" ) >&2 ||
    { if (( ${#APT_OPTS[@]} )); then apt-get "${APT_OPTS[@]}" update >&2; else can_root && as_root apt-get update >&2; fi &&
      ( cd "$CACHE/deb" && apt-get "${APT_OPTS[@]}" download -o APT::Sandbox::User=root "$pkg" ) >&2; } ||
    die "apt-get download $pkg failed (no network or package mirror?)" $SKIP
  ls -t "$CACHE/deb/${pkg}_"*.deb | head -1
}

# APT_OPTS: a private apt list of suite $KSUITE on the mirror of the machine's own sources,
# under the cache (apt-get update there needs no root); the machine's lists stay as they are
suite_apt_opts() {
  local d=$CACHE/apt-$KSUITE uri
  APT_OPTS=(-o "Dir::Etc::sourcelist=$d/sources.list" -o "Dir::Etc::sourceparts=-"
            -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o APT::Sandbox::User=root)
  [[ -s $d/sources.list ]] && compgen -G "$d/lists/*Packages*" >/dev/null && return 0
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2; exit}')
  [[ -n $uri ]] || uri=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  [[ -n $uri ]] || die "--kernel-suite $KSUITE: no Debian mirror found in the machine's apt sources" $SKIP
  mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
  echo "deb $uri $KSUITE main" >"$d/sources.list"
  apt-get "${APT_OPTS[@]}" update >&2 || die "--kernel-suite $KSUITE: apt-get update failed ($uri)" $SKIP
}
# the kernel package linux-image-cloud-amd64 depends on, in the lists APT_OPTS names
cloud_kernel_pkg() {
  apt-cache "${APT_OPTS[@]}" depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}'
}

# --- kernel -----------------------------------------------------------------
if [[ -n ${NUMAVM_KERNEL:-} ]]; then
  KERNEL=$NUMAVM_KERNEL; [[ -r $KERNEL ]] || die "NUMAVM_KERNEL=$KERNEL not readable" $SKIP
else
  KPKG=${NUMAVM_KERNEL_PKG:-}
  KPKG_FILE=$CACHE/kernel-pkg${KSUITE:+-$KSUITE}   # which package, remembered per suite
  if [[ -z $KPKG ]]; then
    if [[ -f $KPKG_FILE ]]; then KPKG=$(cat "$KPKG_FILE")
    elif [[ -n $KSUITE ]]; then
      suite_apt_opts
      KPKG=$(cloud_kernel_pkg)
      [[ -n $KPKG ]] || die "--kernel-suite $KSUITE: no linux-image-cloud-amd64 there" $SKIP
      echo "$KPKG" >"$KPKG_FILE"
    else
      KPKG=$(cloud_kernel_pkg)
      if [[ -z $KPKG ]] && can_root; then as_root apt-get update >&2 || true
        KPKG=$(cloud_kernel_pkg); fi
      [[ -n $KPKG ]] || die "cannot resolve linux-image-cloud-amd64 to a kernel package (apt lists missing?)" $SKIP
      echo "$KPKG" >"$KPKG_FILE"
    fi
  fi
  KERNEL=$CACHE/kernel/$KPKG/vmlinuz
  if [[ ! -s $KERNEL ]]; then
    [[ -z $KSUITE ]] || suite_apt_opts
    log "fetching kernel $KPKG (apt-get download; only /boot is extracted)"
    deb=$(apt_download "$KPKG")
    tmpx=$(mktemp -d "$CACHE/x.XXXXXX")
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmpx" --wildcards './boot/*'
    mkdir -p "$CACHE/kernel/$KPKG"
    grep -q '^CONFIG_NUMA=y' "$tmpx"/boot/config-* || die "$KPKG has no CONFIG_NUMA=y" $SKIP
    cp "$tmpx"/boot/config-* "$CACHE/kernel/$KPKG/config"
    cp "$tmpx"/boot/vmlinuz-* "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL"
    rm -rf "$tmpx" "$deb"
  fi
fi

# --- busybox-static -----------------------------------------------------------
BUSYBOX=$CACHE/busybox
if [[ ! -x $BUSYBOX ]]; then
  log "fetching busybox-static (apt-get download)"
  deb=$(apt_download busybox-static)
  tmpx=$(mktemp -d "$CACHE/x.XXXXXX")
  dpkg-deb -x "$deb" "$tmpx"
  cp "$tmpx/bin/busybox" "$BUSYBOX.tmp" && mv "$BUSYBOX.tmp" "$BUSYBOX"
  rm -rf "$tmpx" "$deb"
fi

# ----------------------------------------------------------------------------
# base initramfs (cached): busybox + /init + /etc skeleton.
# The per-run payload (your files + command) is a second cpio archive that
# is appended; the kernel unpacks concatenated archives in order.
# ----------------------------------------------------------------------------
read -r -d '' INIT_SCRIPT <<'INIT_EOF' || true
#!/.numavm/busybox sh
# /init of the numa-vm initramfs; runs as PID 1 in the guest (busybox ash).
# Create the busybox applet links (bin/sh, usr/bin/awk, sbin/poweroff, ...);
# busybox skips names that already exist, so host files in the payload win.
/.numavm/busybox --install -s
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /dev/hugepages /tmp /var/tmp /run /out /root
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm      # POSIX shm_open(); Open MPI can use it
chmod 1777 /tmp /var/tmp         # rootfs is already a tmpfs; files put under /tmp stay visible
mount -t hugetlbfs hugetlbfs /dev/hugepages 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
hostname numa-vm
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
OUT=/dev/ttyS1 ERR=/dev/ttyS2 CTL=/dev/ttyS3
for t in $OUT $ERR $CTL; do stty -F $t raw -echo 2>/dev/null || echo "init: stty $t failed"; done
up() { cut -d' ' -f1 /proc/uptime; }
. /numavm/env
echo "NUMAVM-STARTED uptime=$(up)" >$CTL
echo "numa-vm init: $(grep -c ^processor /proc/cpuinfo) cpus, nodes: $(cat /sys/devices/system/node/online), uptime $(up)s"
mkdir -p "$NUMAVM_CWD" && cd "$NUMAVM_CWD"
t0=$(up)
if [ "$NUMAVM_SHELL" = 1 ]; then
  echo "numa-vm: interactive shell; 'exit' powers the guest off"
  setsid cttyhack sh -l
  rc=$?
else
  sh /numavm/cmd.sh </dev/null >$OUT 2>$ERR
  rc=$?
fi
t1=$(up)
# reopen+close each port: the last close of a tty waits until its output
# is drained, so nothing is lost when we power off right after
for t in $OUT $ERR; do : >$t; done
{
  echo "NUMAVM-RC $rc"
  echo "NUMAVM-TIMES boot=$t0 command=$t0..$t1"
  # /out goes back as a plain tar written straight onto the raw NVMe disk
  # that the host attaches only when it asked for /out (-o); NVMe is built
  # into the Debian cloud kernel, so no modules are needed.  The serial
  # ports are far too slow for bulk data (~40 KB/s under TCG).
  if [ -b /dev/nvme0n1 ]; then
    if tar -C /out -cf /dev/nvme0n1 . && sync; then
      echo "NUMAVM-OUT-DISK $(du -sk /out | cut -f1) KiB"
    else
      echo "NUMAVM-OUT-ERROR tar to /dev/nvme0n1 failed (disk too small? see --out-size)"
    fi
  fi
  echo "NUMAVM-DONE"
} >$CTL
: >$CTL
echo "numa-vm init: command exited with $rc after $t0..$t1 s; powering off"
sync
poweroff -f
INIT_EOF

BASE_KEY=$( { printf '%s' "$INIT_SCRIPT"; sha256sum <"$BUSYBOX"; readlink /bin /lib /lib64 /sbin 2>/dev/null; } | sha256sum | cut -c1-16)
BASE_CPIO=$CACHE/base-$BASE_KEY.cpio

# create bin/sbin/lib/lib64 either as merged-/usr symlinks (like the host) or dirs
make_skeleton() {
  local root=$1 d
  mkdir -p "$root"/usr/{bin,sbin,lib,lib64}
  for d in bin sbin lib lib64; do
    if [[ -L /$d ]]; then ln -sfn "usr/$d" "$root/$d"; else mkdir -p "$root/$d"; fi
  done
}
make_cpio() {   # make_cpio DIR OUTFILE
  ( cd "$1" && find . -mindepth 1 | sort | "$BUSYBOX" cpio -o -H newc 2>/dev/null ) >"$2.tmp"
  mv "$2.tmp" "$2"
}

if [[ ! -s $BASE_CPIO ]]; then
  log "building base initramfs $BASE_CPIO"
  b=$(mktemp -d "$CACHE/base.XXXXXX")
  make_skeleton "$b"
  mkdir -p "$b"/{proc,sys,dev,tmp,run,root,out,etc,numavm,.numavm}
  cp "$BUSYBOX" "$b/.numavm/busybox"
  printf '%s\n' "$INIT_SCRIPT" >"$b/init"; chmod 755 "$b/init"
  chmod 1777 "$b/tmp"
  echo 'root:x:0:0:root:/root:/bin/sh'  >"$b/etc/passwd"
  echo 'root:x:0:'                     >"$b/etc/group"
  printf '127.0.0.1 localhost\n127.0.1.1 numa-vm\n::1 localhost\n' >"$b/etc/hosts"
  printf 'passwd: files\ngroup: files\nhosts: files\n' >"$b/etc/nsswitch.conf"
  echo numa-vm >"$b/etc/hostname"
  : >"$b/etc/fstab"
  make_cpio "$b" "$BASE_CPIO"
  rm -rf "$b"
  find "$CACHE" -maxdepth 1 -name 'base-*.cpio' ! -path "$BASE_CPIO" -delete   # stale versions
fi
flock -u 9; exec 9>&-
if [[ $MODE == prepare ]]; then log "ready: qemu, kernel $KERNEL, base initramfs $BASE_CPIO"; exit 0; fi

# ----------------------------------------------------------------------------
# per-run payload
# ----------------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/numa-vm-run.XXXXXX")
QPID='' T1='' T2=''
cleanup() {           # on every exit: stop what we started (by PID), drop WORK
  local p
  for p in $T1 $T2 $QPID; do kill "$p" 2>/dev/null || true; done
  if [[ $KEEP == 1 ]]; then warn "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
STAGE=$WORK/root
make_skeleton "$STAGE"
mkdir -p "$STAGE/numavm"

declare -A COPIED=()
LDSO=/lib64/ld-linux-x86-64.so.2
is_elf() { local m; IFS= read -r -n4 m <"$1" 2>/dev/null || true; [[ $m == $'\x7fELF' ]]; }
# copy one host file (dereferenced) to the same path in the guest
put_file() {
  local src=$1 dst=${2:-$1}
  [[ -n ${COPIED[$dst]:-} ]] && return 0
  COPIED[$dst]=1
  [[ -d $STAGE${dst%/*} ]] || mkdir -p "$STAGE${dst%/*}"
  cp -L "$src" "$STAGE$dst" || die "cannot copy $src"
}
# copy the shared libraries (and ELF interpreter) that the dynamic loader
# reports for $1.  "ld.so --list" is ldd without ldd's (slow) shell wrapper;
# it crashes on static binaries, so fall back to ldd when it fails.
put_deps() {
  local f=$1 line lib
  is_elf "$f" || return 0
  while IFS= read -r line; do
    case $line in
      *'=> not found'*) warn "warning: $f: ${line%% =>*} not found by ldd";;
      *'=> /'*) lib=${line#*=> }; lib=${lib%% (*}; put_file "$lib";;
      [[:space:]]/*) lib=${line#"${line%%[![:space:]]*}"}; lib=${lib%% (*}; put_file "$lib";;
    esac
  done < <( { "$LDSO" --list "$f" || ldd "$f" || true; } 2>/dev/null )
}
abspath() { realpath -s -m -- "$1"; }     # absolute, normalised, symlinks kept
add_file() {
  local p; p=$(abspath "$1")
  [[ -d $p ]] && { add_dir "$p"; return; }
  [[ -f $p ]] || die "no such file: $1" 2
  put_file "$p"; put_deps "$p"
}
# copy a whole tree in one go, then scan its ELF files for dependencies
add_dir() {
  local p f; p=$(abspath "$1"); p=${p%/}
  [[ -d $p ]] || die "no such directory: $1" 2
  mkdir -p "$STAGE$p"
  cp -rL "$p/." "$STAGE$p/" || die "cannot copy directory $p"
  while IFS= read -r -d '' f; do
    COPIED[$f]=1; put_deps "$f"
  done < <(find -L "$p" -type f -print0)
}
add_link() { mkdir -p "$STAGE$(dirname "$2")"; ln -sfn "$1" "$STAGE$2"; }

# ---- tool bundles ----
for w in "${WITH[@]}"; do
  case $w in
    numactl)
      for b in numactl numastat migratepages migspeed memhog; do
        p=$(command -v $b || true); [[ -n $p ]] && add_file "$p"; done
      command -v numactl >/dev/null || die "--with numactl: numactl not installed on the host" 2;;
    hwloc)
      command -v lstopo-no-graphics >/dev/null || die "--with hwloc: hwloc not installed on the host" 2
      for b in lstopo-no-graphics hwloc-info hwloc-bind hwloc-calc hwloc-distrib hwloc-ps hwloc-annotate; do
        p=$(command -v $b || true); [[ -n $p ]] && add_file "$p"; done
      p=$(command -v lstopo-no-graphics)
      add_link lstopo-no-graphics "$(dirname "$p")/lstopo"
      add_link lstopo-no-graphics "$(dirname "$p")/hwloc-ls";;
    mpi)
      command -v mpirun >/dev/null || die "--with mpi: mpirun not installed on the host" 2
      run=$(readlink -f "$(command -v mpirun)")              # /usr/bin/orterun on Debian 12
      add_file "$run"
      add_link "${run##*/}" "$(dirname "$run")/mpirun"
      add_link "${run##*/}" "$(dirname "$run")/mpiexec"
      for b in orted ompi_info; do p=$(command -v $b || true); [[ -n $p ]] && add_file "$(readlink -f "$p")"; done
      # component dir (mca_*.so), help texts, openmpi-mca-params.conf; from
      # ompi_info when it works, else the Debian 12 locations
      paths=$(ompi_info --path all --parsable 2>/dev/null || true)
      pkglibdir=$(sed -n 's/^path:pkglibdir://p' <<<"$paths" | head -1)
      pkgdatadir=$(sed -n 's/^path:pkgdatadir://p' <<<"$paths" | head -1)
      sysconfdir=$(sed -n 's/^path:sysconfdir://p' <<<"$paths" | head -1)
      : "${pkglibdir:=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3}"
      : "${pkgdatadir:=/usr/share/openmpi}" "${sysconfdir:=/etc/openmpi}"
      for d in "$pkglibdir" "$pkgdatadir" "$sysconfdir" /usr/lib/x86_64-linux-gnu/pmix2/lib /usr/lib/x86_64-linux-gnu/pmix2/share; do
        [[ -d $d ]] && add_dir "$d"; done
      # no ssh/rsh in the guest: the "isolated" launcher starts local processes only
      ENVS=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated "${ENVS[@]}");;
    *) die "unknown --with bundle '$w' (numactl, hwloc, mpi)" 2;;
  esac
done
for f in "${FILES[@]}"; do add_file "$f"; done
for d in "${DIRS[@]}"; do add_dir "$d"; done

# ---- command and environment ----
SLIT_ROWS=$(dm_rows)
squote() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }
{
  echo "# generated by $PROG"
  if [[ -n $CMD_STRING ]]; then printf '%s\n' "$CMD_STRING"
  elif [[ ${#ARGV[@]} -gt 0 ]]; then
    printf 'exec'; for a in "${ARGV[@]}"; do printf ' %s' "$(squote "$a")"; done; echo
  fi
} >"$STAGE/numavm/cmd.sh"
{
  echo "export NUMAVM_NODES=$TOTAL_NODES NUMAVM_CPU_NODES=$NODES NUMAVM_CPUS=$NCPUS NUMAVM_TOPOLOGY=$(squote "$TOPO") NUMAVM_OUT=/out"
  echo "export NUMAVM_SLIT=$(squote "$SLIT_ROWS")"
  echo "export NUMAVM_SHELL=$SHELL_MODE NUMAVM_CWD=$(squote "$(abspath "$GUEST_CWD")")"
  for e in "${ENVS[@]}"; do
    [[ $e =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "bad --env '$e' (want VAR=VALUE)" 2
    echo "export ${e%%=*}=$(squote "${e#*=}")"
  done
} >"$STAGE/numavm/env"

make_cpio "$STAGE" "$WORK/payload.cpio"
cat "$BASE_CPIO" "$WORK/payload.cpio" >"$WORK/initrd.cpio"
rm -f "$WORK/payload.cpio"
log "payload: ${#COPIED[@]} files, initrd $(( $(stat -c %s "$WORK/initrd.cpio") / 1024 / 1024 )) MiB"

# ----------------------------------------------------------------------------
# QEMU command line
# ----------------------------------------------------------------------------
(( HMAT == 1 )) && MACHINE+=",hmat=on"
# shellcheck disable=SC2054  # commas are part of QEMU option values
Q=(qemu-system-x86_64 -nodefaults -no-user-config -no-reboot
   -machine "$MACHINE" -accel "tcg,thread=$TCG_THREADS" -cpu "$CPU_MODEL"
   -smp "$NCPUS,sockets=$NODES,cores=$CPN,threads=$TPC" -m "${TOTAL_MEM}M"
   -display none -kernel "$KERNEL" -initrd "$WORK/initrd.cpio")
# HMAT: a CPU node is its own initiator, a memory-only node's is the nearest CPU node
nearest_cpu_node() { local m=$1 best=0 bd=999999 c; for ((c = 0; c < NODES; c++)); do
    (( DM[m * TOTAL_NODES + c] < bd )) && { bd=${DM[m * TOTAL_NODES + c]}; best=$c; }; done; echo "$best"; }
for ((i = 0; i < TOTAL_NODES; i++)); do
  ini=''
  if (( HMAT == 1 )); then
    if (( i < NODES )); then ini=",initiator=$i"; else ini=",initiator=$(nearest_cpu_node "$i")"; fi
  fi
  Q+=(-object "memory-backend-ram,id=mem$i,size=${MEMPN}M" -numa "node,nodeid=$i,memdev=mem$i$ini")
done
for ((i = 0; i < NODES; i++)); do Q+=(-numa "cpu,node-id=$i,socket-id=$i"); done
if (( TOTAL_NODES > 1 )); then
  for ((i = 0; i < TOTAL_NODES; i++)); do for ((j = 0; j < TOTAL_NODES; j++)); do
    (( i != j )) && Q+=(-numa "dist,src=$i,dst=$j,val=${DM[i * TOTAL_NODES + j]}"); done; done
fi
if (( HMAT == 1 )); then
  for ((i = 0; i < NODES; i++)); do for ((j = 0; j < TOTAL_NODES; j++)); do
    Q+=(-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-latency,latency=${HL[i * TOTAL_NODES + j]}")
    Q+=(-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-bandwidth,bandwidth=${HB[i * TOTAL_NODES + j]}M")
  done; done
  if (( HMAT_CACHE > 0 )); then for ((j = 0; j < TOTAL_NODES; j++)); do
    Q+=(-numa "hmat-cache,node-id=$j,size=${HMAT_CACHE}M,level=1,associativity=direct,policy=write-back,line=64")
  done; fi
fi
if [[ -n $OUTDIR ]]; then           # raw sparse disk that carries /out back
  truncate -s "${OUT_MB}M" "$WORK/out.img"
  Q+=(-drive "file=$WORK/out.img,if=none,id=outdisk,format=raw" -device "nvme,drive=outdisk,serial=numavm-out")
fi
if [[ $SHELL_MODE == 1 ]]; then Q+=(-serial mon:stdio)
else Q+=(-serial "file:$WORK/console.log"); fi
Q+=(-serial "file:$WORK/stdout.log" -serial "file:$WORK/stderr.log" -serial "file:$WORK/control.log")
# quiet console; panic -> reboot -> qemu exits (-no-reboot); no NUMA balancing
# (pages stay where they were put); tsc=reliable: TCG's TSC follows the host
# clock and is consistent across vCPUs, and it makes clock_gettime a cheap vDSO
# call instead of an emulated HPET read
APPEND="console=ttyS0,115200 quiet loglevel=4 panic=-1 numa_balancing=disable tsc=reliable nowatchdog rdinit=/init$APPEND_EXTRA"
Q+=(-append "$APPEND" "${QEMU_EXTRA[@]}")
: >"$WORK/stdout.log"; : >"$WORK/stderr.log"; : >"$WORK/control.log"; : >"$WORK/console.log"
printf '%q ' "${Q[@]}" >"$WORK/qemu-cmdline.txt"; echo >>"$WORK/qemu-cmdline.txt"

# ----------------------------------------------------------------------------
# run it (hard timeout), streaming the guest's stdout/stderr while it runs
# ----------------------------------------------------------------------------
log "topology $TOPO: $TOTAL_NODES nodes ($NODES with CPUs x $CPN cores x $TPC threads = $NCPUS vCPUs, $MEMONLY memory-only), ${MEMPN} MiB/node, SLIT: $SLIT_ROWS"
# A guest whose kernel dies before init starts the command (an oops of the emulated CPU early
# in boot, seen now and then under TCG) is booted once more: nothing of the command ran, so
# nothing of it is hidden. A second such death, or any after NUMAVM-STARTED, is reported.
for BOOT in 1 2; do
  START=$(date +%s.%N)
  if [[ $SHELL_MODE == 1 ]]; then
    set +e; timeout --foreground -k 10 "$TIMEOUT" "${Q[@]}"; QRC=$?; set -e
  else
    timeout -k 10 "$TIMEOUT" "${Q[@]}" </dev/null >"$WORK/qemu.log" 2>&1 &
    QPID=$!
    tail -n +1 -s 0.2 --pid="$QPID" -f "$WORK/stdout.log" & T1=$!
    tail -n +1 -s 0.2 --pid="$QPID" -f "$WORK/stderr.log" >&2 & T2=$!
    set +e; wait "$QPID"; QRC=$?; wait "$T1" "$T2"; set -e
    QPID='' T1='' T2=''
  fi
  END=$(date +%s.%N)
  ELAPSED=$(awk -v a="$START" -v b="$END" 'BEGIN { printf "%.1f", b - a }')
  if (( BOOT == 1 && QRC != 124 && QRC != 137 && SHELL_MODE != 1 )) &&
     ! grep -q '^NUMAVM-STARTED' "$WORK/control.log"; then
    warn "guest died before starting the command (after ${ELAPSED}s); booting it again. Console tail:"
    tail -n 8 "$WORK/console.log" | tr -d '\r' >&2
    : >"$WORK/stdout.log"; : >"$WORK/stderr.log"; : >"$WORK/control.log"; : >"$WORK/console.log"
    [[ -z $OUTDIR ]] || { rm -f "$WORK/out.img"; truncate -s "${OUT_MB}M" "$WORK/out.img"; }
    continue
  fi
  break
done

# ----------------------------------------------------------------------------
# collect exit status, timings and /out files from the control channel
# ----------------------------------------------------------------------------
CTL=$(tr -d '\r' <"$WORK/control.log")
RC=$(sed -n 's/^NUMAVM-RC \([0-9]*\)$/\1/p' <<<"$CTL" | tail -1)
TIMES=$(sed -n 's/^NUMAVM-TIMES //p' <<<"$CTL" | tail -1)
if [[ -n $OUTDIR ]]; then
  if grep -q '^NUMAVM-OUT-DISK' <<<"$CTL"; then
    mkdir -p "$OUTDIR"
    if tar -xf "$WORK/out.img" -C "$OUTDIR" --no-same-owner; then
      log "guest /out ($(sed -n 's/^NUMAVM-OUT-DISK //p' <<<"$CTL")) unpacked into $OUTDIR"
    else warn "warning: could not unpack /out into $OUTDIR"; fi
  else
    warn "warning: no /out came back ($(grep '^NUMAVM-OUT-ERROR' <<<"$CTL" || echo 'guest did not write it'))"
  fi
fi
rm -f "$WORK/out.img"
if [[ -n $RC ]]; then
  log "guest command exit status $RC; wall time ${ELAPSED}s (guest uptime: $TIMES)"
  exit "$RC"
fi
KEEP=1
if (( QRC == 124 || QRC == 137 )); then
  warn "TIMEOUT: VM killed after ${TIMEOUT}s; console log tail:"
  tail -n 30 "$WORK/console.log" | tr -d '\r' >&2
  exit 124
fi
warn "VM ended (qemu status $QRC) after ${ELAPSED}s without reporting an exit status; qemu said:"
tail -n 10 "$WORK/qemu.log" >&2 || true
warn "console log tail:"
tail -n 30 "$WORK/console.log" | tr -d '\r' >&2
exit 125
