#!/usr/bin/env bash
# probe-test.sh PROBE_BINARY - CTest test (label vm): boots the 2-node guest
# (10/21, two cores per node) once and checks with hb_vm_probe that
#  - mpirun --map-by numa --bind-to numa -np 2 puts rank r on node r, with
#    its OpenMP threads on that node;
#  - memory bound to each node (node 1 included) has 100% of its pages there;
#  - hwloc and sysfs report the SLIT 10/21;
#  - the normal build (no -march=native) runs in the AVX2-only guest; so does
#    $HOPBENCH when it exists (no SIGILL).
# Exit 77 (skip) when the VM cannot run here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../vm-lib.sh"
PROBE=$(realpath -- "${1:?usage: probe-test.sh PROBE_BINARY}")
OUT=${PROBE_OUT:-$PWD/vm-probe-out}
if [[ -n ${HOPBENCH:-} && ! -f $HOPBENCH ]]; then
  echo "note: $HOPBENCH not built; only the probe is checked in the guest"
  unset HOPBENCH
fi

vm_prepare_or_skip
rm -rf "$OUT"
start=$SECONDS
rc=0
# shellcheck disable=SC2046  # guest options are words without spaces
vm_run_script $(vm_guest_opts two-smp) -f "$PROBE" -e "PROBE=$PROBE" \
  "$HERE/guest-probe.sh" "$OUT" || rc=$?
echo "guest run: status $rc, $((SECONDS - start)) s"
[[ $rc -eq 0 ]] || { echo "FAIL: the guest run ended with status $rc"; exit 1; }

fails=0
expect() {   # expect DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
has() { grep -Eq -- "$1" "$OUT/$2"; }
slit=$(vm_expected_slit two-smp)

expect "probe exit status 0" [ "$(cat "$OUT/probe.rc")" = 0 ]
expect "probe verdict PASS" has '^PROBE-RESULT PASS$' probe.txt
for r in 0 1; do
  expect "rank $r bound to node $r, threads on it" \
    has "^PROBE bind rank $r/2 node $r cpus [0-9,-]+ threads ([0-9]+) on_node \\1 ok$" probe.txt
  for n in 0 1; do
    expect "rank $r: buffer bound to node $n is 100% on node $n" \
      has "^PROBE pages rank $r node $n pages [1-9][0-9]* on_node_pct 100.0 ok$" probe.txt
  done
done
expect "hwloc reads the SLIT $slit" has "^PROBE slit \"$slit\" expected \"$slit\" ok$" probe.txt
expect "sysfs distances are $slit" [ "$(paste -sd';' "$OUT/sysfs-distance")" = "$slit" ]
expect "guest CPU has AVX2, no AVX-512" has '^PROBE simd cpu_avx2 1 cpu_avx512f 0 ' probe.txt
expect "guest cpuinfo agrees (avx2, no avx512f)" \
  bash -c 'grep -qw avx2 "$1" && ! grep -qw avx512f "$1"' _ "$OUT/cpuflags"
expect "probe built without AVX-512 code (no -march=native)" has ' built_avx512f 0 ok$' probe.txt
if [[ -f $OUT/hb-version.rc ]]; then
  expect "hopbench runs in the AVX2-only guest (status $(cat "$OUT/hb-version.rc"), not SIGILL)" \
    [ "$(cat "$OUT/hb-version.rc")" != 132 ]
fi
echo "$fails failed check(s); total $((SECONDS - start)) s"
[[ $fails -eq 0 ]]
