# shellcheck shell=bash
# vm-lib.sh - helpers for tests that run commands in an emulated multi-NUMA
# guest (numa-vm.sh next to this file). Source it from a bash test script:
#
#   . "$SRC/tests/vm/vm-lib.sh"
#   vm_prepare_or_skip                       # exit 77 (CTest skip) with the reason
#   vm_run_script $(vm_guest_opts quartet) guest.sh "$outdir"
#   [[ $(cat "$outdir/slit") == "$(vm_expected_slit quartet)" ]]
#
# Guests (vm_guest_opts NAME prints their numa-vm.sh options, words without
# spaces, so unquoted $(vm_guest_opts NAME) is safe):
#   two           2 nodes x 1 core, SLIT 10/21
#   two-612       the same on Linux 6.12 (--kernel-suite bookworm-backports): weighted
#                 interleave, memory tiers
#   two-smp       2 nodes x 2 cores, SLIT 10/21
#   quartet       4 nodes, Opteron square, SLIT 10/16/22
#   quartet-mem   4 CPU nodes + 1 memory-only node (node 4), hypercube SLIT
#   eight         8 nodes, 3-cube, SLIT 10/16/22/28 (four distance classes)
#
# Functions:
#   vm_guest_opts NAME              numa-vm.sh options of guest NAME
#   vm_expected_slit NAME|OPTS...   expected SLIT rows, "10 21;21 10", exactly
#                                   as the guest's $NUMAVM_SLIT
#   vm_expected_slit_json NAME|OPTS...  the same as a JSON matrix [[10,21],[21,10]]
#   vm_prepare_or_skip [OPTS...]    qemu + kernel + busybox ready, or exit 77;
#                                   OPTS: numa-vm.sh options that choose the
#                                   kernel (--kernel-suite S)
#   vm_run OPTS... -- CMD [ARGS...] one boot: CMD with Open MPI and hwloc, and
#                                   hopbench copied in (guest env HB=its path);
#                                   /out comes back to $VM_OUT when that is set
#   vm_run_script OPTS... SCRIPT OUTDIR
#                                   one boot: SCRIPT runs under busybox sh with
#                                   cwd /tmp, $HB = hopbench, /out -> OUTDIR
#   Both return the guest command's exit status; 124 = VM timeout,
#   125 = the VM did not report a status (console tail printed).
#
# Environment:
#   HOPBENCH         hopbench binary to copy in (default <repo>/build/hopbench;
#                    when it is missing and HOPBENCH is unset, HB stays unset)
#   VM_OUT           host directory for /out in vm_run (optional)
#   VM_TIMEOUT       hard limit per boot in seconds (default 900)
#   VM_MEM_PER_NODE  MiB per guest node (default 512)
#   VM_WITH          numa-vm.sh tool bundles (default mpi,hwloc; a guest without mpirun
#                    boots faster with hwloc)
#   NUMAVM_CACHE     cache folder (see numa-vm.sh --help)

VM_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_RUNNER=$VM_LIB_DIR/numa-vm.sh
VM_REPO=$(cd "$VM_LIB_DIR/../.." && pwd)

vm_guest_opts() {
  local mem="--mem-per-node ${VM_MEM_PER_NODE:-512}"
  case ${1:-} in
    two)         echo "-t two $mem";;
    two-612)     echo "-t two --kernel-suite bookworm-backports $mem";;
    two-smp)     echo "-t two --cpus-per-node 2 $mem";;
    quartet)     echo "-t quartet $mem";;
    quartet-mem) echo "-t quartet --memonly-nodes 1 $mem";;
    eight)       echo "-t eight $mem";;
    *) echo "vm_guest_opts: unknown guest '${1:-}' (two, two-612, two-smp, quartet, quartet-mem, eight)" >&2
       return 2;;
  esac
}

# NAME or numa-vm.sh options -> numa-vm.sh options (one per line)
vm__opts() {
  if [[ $# -eq 1 && $1 != -* ]]; then
    local o; o=$(vm_guest_opts "$1") || return 2
    printf '%s\n' $o
  else
    printf '%s\n' "$@"
  fi
}

vm_expected_slit() {
  local opts
  mapfile -t opts < <(vm__opts "$@") && [[ ${#opts[@]} -gt 0 ]] || return 2
  "$VM_RUNNER" "${opts[@]}" --print-slit
}

vm_expected_slit_json() {
  local rows
  rows=$(vm_expected_slit "$@") || return 2
  awk -v s="$rows" 'BEGIN {
    n = split(s, r, ";"); out = "["
    for (i = 1; i <= n; i++) {
      m = split(r[i], v, " "); row = "["
      for (j = 1; j <= m; j++) row = row (j > 1 ? "," : "") v[j]
      out = out (i > 1 ? "," : "") row "]"
    }
    print out "]" }'
}

vm_prepare_or_skip() {
  local t err rc=0
  for t in mpirun lstopo-no-graphics; do
    command -v "$t" >/dev/null ||
      { echo "SKIP: $t is not installed on the host (openmpi-bin, hwloc)"; exit 77; }
  done
  err=$("$VM_RUNNER" -t two "$@" --prepare 2>&1) || rc=$?
  if [[ $rc -eq 77 ]]; then
    echo "SKIP: the NUMA guest cannot run here: $(grep 'ERROR' <<<"$err" | tail -n 1)"
    exit 77
  elif [[ $rc -ne 0 ]]; then
    printf '%s\n' "$err" >&2
    echo "vm_prepare_or_skip: numa-vm.sh --prepare failed with status $rc" >&2
    exit "$rc"
  fi
}

# prints the absolute hopbench path, or nothing when the default is absent
vm__hopbench() {
  local hb=${HOPBENCH:-$VM_REPO/build/hopbench}
  if [[ -f $hb ]]; then realpath -- "$hb"
  elif [[ -n ${HOPBENCH:-} ]]; then echo "vm-lib: HOPBENCH=$HOPBENCH does not exist" >&2; return 2
  fi
}

# common numa-vm.sh options: limit, bundles, hopbench
vm__base_opts() {
  local hb
  hb=$(vm__hopbench) || return 2
  printf '%s\n' --timeout "${VM_TIMEOUT:-900}" --with "${VM_WITH:-mpi,hwloc}"
  [[ -z $hb ]] || printf '%s\n' -f "$hb" -e "HB=$hb"
  # The tests' check that rank 0 keeps what derive reads (tests/CMakeLists.txt) runs there too.
  [[ -z ${HOPBENCH_DEBUG_KEEP:-} ]] || printf '%s\n' -e "HOPBENCH_DEBUG_KEEP=$HOPBENCH_DEBUG_KEEP"
}

vm_run() {
  local base
  mapfile -t base < <(vm__base_opts) && [[ ${#base[@]} -gt 0 ]] || return 2
  [[ -z ${VM_OUT:-} ]] || base+=(-o "$VM_OUT")
  "$VM_RUNNER" "${base[@]}" "$@"
}

vm_run_script() {
  [[ $# -ge 2 ]] || { echo "usage: vm_run_script [numa-vm.sh options] SCRIPT OUTDIR" >&2; return 2; }
  local outdir=${!#} script=${*: -2:1} base
  local opts=("${@:1:$#-2}")
  [[ -f $script ]] || { echo "vm_run_script: no such script: $script" >&2; return 2; }
  script=$(realpath -- "$script")
  mkdir -p "$outdir"
  mapfile -t base < <(vm__base_opts) && [[ ${#base[@]} -gt 0 ]] || return 2
  "$VM_RUNNER" "${base[@]}" "${opts[@]}" -f "$script" -o "$outdir" -C /tmp -- sh "$script"
}
