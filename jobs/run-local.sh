#!/usr/bin/env bash
# run-local.sh [HOPBENCH ARGS...]: the first command on a fresh Debian machine. In a clone it
# installs the missing build packages, builds hopbench, its man page and its bash completion
# into build/ (Release) and installs them into a prefix (HOPBENCH_PREFIX, said at the end);
# installed (share/hopbench/) it runs the hopbench installed with it. Runs a study (default: the
# default suite) with one rank per NUMA node, writes results/<timestamp>/ with results.jsonl
# (canonical), table.txt (hopbench report -o table.txt: the table a run prints) and report.html,
# prints the table and says where all three are.
#
# Settings (environment): HOPBENCH_ARGS  study and options when no arguments are given
#   (word-split; default: empty = the default suite); HOPBENCH  use this binary, skipping
#   the package check and the build; RESULTS_ROOT  where <timestamp>/ goes [results/ of the
#   clone; ./results when installed]; HOPBENCH_PREFIX  where a clone's build is installed
#   [build/install of the clone; $HOME/.local puts the man page and the completion where man
#   and bash-completion look]; HOPBENCH_HISTORY  add each finished run to this history
#   (hopbench history add: an SQLite file or a postgresql:// URL; docs/history.md).
# Bad arguments fail before anything is created: hopbench checks them with --dry-run first.
# It writes the results itself: -o, --format and --dry-run are refused.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
# shellcheck source=lib/deps.sh
. "$here/lib/deps.sh"
# shellcheck source=lib/launch.sh
. "$here/lib/launch.sh"
installed=0 docs=""
[ -f "$here/lib/bindir" ] && installed=1

if [ $# -gt 0 ]; then
    args=("$@")
else
    read -ra args <<<"${HOPBENCH_ARGS:-}"
fi
if [ "$installed" = 1 ]; then
    results_root=${RESULTS_ROOT:-$PWD/results}
else
    results_root=${RESULTS_ROOT:-$top/results}
fi

if [ -z "${HOPBENCH:-}" ] && [ "$installed" = 0 ]; then
    # shellcheck disable=SC2086
    hb_deps_ensure $HB_PKGS_BUILD
    cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    # The man page and the bash completion come with it, generated from the same tables.
    cmake --build "$top/build" -j"$(nproc)" --target hopbench hb_docs >/dev/null
    prefix=${HOPBENCH_PREFIX:-$top/build/install}
    if ! cmake --install "$top/build" --prefix "$prefix" >/dev/null; then
        echo "hopbench: cannot install into HOPBENCH_PREFIX '$prefix'; set it to a writable directory" >&2
        exit 3
    fi
    HOPBENCH=$prefix/bin/hopbench
    docs=$prefix/share
fi
hb=$(hb_find_hopbench "$here")
hb_launch_check run-local.sh "$hb" "${args[@]}"

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
    HOPBENCH=$hb "$here/hopbench-mpirun.sh" "${run[@]}" || rc=$?
else
    # One CPU node: one process, which starts no MPI; no mpirun needed.
    hb_omp_env
    printf 'run-local: %s' "$(hb_omp_words)" >&2
    printf ' %q' "$hb" "${run[@]}" >&2
    printf '\n' >&2
    "$hb" "${run[@]}" || rc=$?
fi
# Status 1 (a measurement failed its checks) still leaves complete records, marked failed.
[ "$rc" -le 1 ] || exit "$rc"
# The table as hopbench prints it while it runs, and the report, both from the records.
"$hb" report "$tmp/results.jsonl" -o "$tmp/table.txt"
"$hb" report "$tmp/results.jsonl" -o "$tmp/report.html"
mv -T -- "$tmp" "$out"
trap - EXIT
# With HOPBENCH_HISTORY set, the run goes into the history (a failed add is the exit status).
hrc=0
hb_history_add "$hb" "$out/results.jsonl" || hrc=$?
[ "$rc" != 0 ] || rc=$hrc
cat "$out/table.txt"
echo
echo "results: $out/results.jsonl"
echo "table:   $out/table.txt"
echo "report:  $out/report.html"
if [ -n "$docs" ]; then
    # Quoted for the shell: a prefix with spaces, quotes or $( ) pastes as it is.
    printf 'manual:  man -l %q\n' "$docs/man/man1/hopbench.1"
    printf 'completion: . %q\n' "$docs/bash-completion/completions/hopbench"
fi
exit "$rc"
