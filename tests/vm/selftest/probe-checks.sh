# shellcheck shell=bash
# probe-checks.sh - sourced by hopbench-test.sh for the 2-node guest with two cores per node
# (two-smp, 10/21), whose boot also runs guest-probe.sh: probe_checks OUT checks with
# hb_vm_probe's output in OUT, through the caller's expect, that
#  - mpirun --map-by numa --bind-to numa -np 2 puts rank r on node r, with
#    its OpenMP threads on that node;
#  - memory bound to each node (node 1 included) has 100% of its pages there;
#  - hwloc and sysfs report the SLIT 10/21;
#  - the normal build (no -march=native) runs in the AVX2-only guest; so does
#    $HOPBENCH (no SIGILL).
probe_has() { grep -Eq -- "$2" "$1/$3"; } # OUT PATTERN FILE

# shellcheck disable=SC2016  # bash -c gets its script in single quotes on purpose
probe_checks() { # OUT
  local out=$1 slit r n
  slit=$(vm_expected_slit two-smp)
  expect "probe exit status 0" [ "$(cat "$out/probe.rc")" = 0 ]
  expect "probe verdict PASS" probe_has "$out" '^PROBE-RESULT PASS$' probe.txt
  for r in 0 1; do
    expect "rank $r bound to node $r, threads on it" \
      probe_has "$out" "^PROBE bind rank $r/2 node $r cpus [0-9,-]+ threads ([0-9]+) on_node \\1 ok$" probe.txt
    for n in 0 1; do
      expect "rank $r: buffer bound to node $n is 100% on node $n" \
        probe_has "$out" "^PROBE pages rank $r node $n pages [1-9][0-9]* on_node_pct 100.0 ok$" probe.txt
    done
  done
  expect "hwloc reads the SLIT $slit" probe_has "$out" "^PROBE slit \"$slit\" expected \"$slit\" ok$" probe.txt
  expect "sysfs distances are $slit" [ "$(paste -sd';' "$out/sysfs-distance")" = "$slit" ]
  expect "guest CPU has AVX2, no AVX-512" probe_has "$out" '^PROBE simd cpu_avx2 1 cpu_avx512f 0 ' probe.txt
  expect "guest cpuinfo agrees (avx2, no avx512f)" \
    bash -c 'grep -qw avx2 "$1" && ! grep -qw avx512f "$1"' _ "$out/cpuflags"
  expect "probe built without AVX-512 code (no -march=native)" probe_has "$out" ' built_avx512f 0 ok$' probe.txt
  expect "hopbench runs in the AVX2-only guest (status $(cat "$out/hb-version.rc" 2>/dev/null), not SIGILL)" \
    [ "$(cat "$out/hb-version.rc" 2>/dev/null)" = 0 ]
}
