#!/usr/bin/env bash
# run-local.sh [HOPBENCH ARGS...]: the first command on a fresh Debian machine. Installs the
# missing build packages, builds hopbench into build/ (Release), runs a study (default: the
# default suite) with one rank per NUMA node, and writes results/<timestamp>/ with
# results.jsonl (canonical) and table.txt. Prints where the results are.
#
# Settings (environment): HOPBENCH_ARGS  study and options when no arguments are given
#   (word-split; default: empty = the default suite); HOPBENCH  use this binary, skipping
#   the package check and the build; RESULTS_ROOT  where <timestamp>/ goes [results/].
# Bad arguments fail before anything is created: hopbench checks them with --dry-run first.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/deps.sh
. "$top/jobs/lib/deps.sh"
# shellcheck source=lib/launch.sh
. "$top/jobs/lib/launch.sh"

if [ $# -gt 0 ]; then
    args=("$@")
else
    read -ra args <<<"${HOPBENCH_ARGS:-}"
fi
results_root=${RESULTS_ROOT:-$top/results}

if [ -z "${HOPBENCH:-}" ]; then
    # shellcheck disable=SC2086
    hb_deps_ensure $HB_PKGS_BUILD
    cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$top/build" -j"$(nproc)" --target hopbench >/dev/null
    HOPBENCH=$top/build/hopbench
fi
hb=$(hb_find_hopbench "$top")
"$hb" "${args[@]}" --dry-run --quiet >/dev/null

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$results_root/$stamp
tmp=$results_root/.$stamp.partial.$$
if ! mkdir -p "$results_root" 2>/dev/null || ! mkdir "$tmp" 2>/dev/null; then
    echo "hopbench: cannot create a results directory in '$results_root'; set RESULTS_ROOT to a writable directory" >&2
    exit 3
fi
# Until the run is complete the results live in a hidden temporary directory; a failed or
# interrupted run keeps only what it measured (hb_results_settle).
trap 'hb_results_settle "$tmp" "$out"' EXIT
trap 'exit 130' INT TERM

record=$(hb_topo_record "$hb")
run=("${args[@]}" --format jsonl -o "$tmp/results.jsonl")
rc=0
if [ "$(hb_topo_cpu_nodes "$record")" -gt 1 ]; then
    hb_mpi_root_env
    HOPBENCH=$hb "$top/jobs/hopbench-mpirun.sh" "${run[@]}" || rc=$?
else
    # One CPU node: one rank, a singleton MPI process; no mpirun needed.
    hb_omp_env "$(hb_topo_cores "$record")"
    printf 'run-local: OMP_PLACES=%s OMP_PROC_BIND=%s OMP_NUM_THREADS=%s' \
        "$OMP_PLACES" "$OMP_PROC_BIND" "$OMP_NUM_THREADS" >&2
    printf ' %q' "$hb" "${run[@]}" >&2
    printf '\n' >&2
    "$hb" "${run[@]}" || rc=$?
fi
# Status 1 (a measurement failed its checks) still leaves complete records, marked failed.
[ "$rc" -le 1 ] || exit "$rc"
if command -v jq >/dev/null 2>&1; then
    jq -r -s -f "$top/jobs/lib/table.jq" "$tmp/results.jsonl" >"$tmp/table.txt"
else
    echo "run-local: no jq, so no table.txt (results.jsonl is complete)" >&2
fi
mv -T -- "$tmp" "$out"
trap - EXIT
echo "results: $out"
exit "$rc"
