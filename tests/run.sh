#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds, and runs every test with CTest:
# first the unit and cli labels under AddressSanitizer + UBSan (leak checking on; the unit
# tests' long loops at their short count), then the
# whole suite on the release build (the label distro only with HOPBENCH_DISTROS=1). Ends with
# CTest's summary line.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../jobs/lib/deps.sh
. "$top/jobs/lib/deps.sh"
# shellcheck disable=SC2086
hb_deps_ensure $HB_PKGS_BUILD $HB_PKGS_TEST
hb_mpi_root_env
jobs=$(nproc)

# Warnings are errors here (and so in CI); a packager's build leaves them warnings.
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON -DBUILD_TESTING=ON >/dev/null
cmake --build "$top/build" -j"$jobs"
cmake -S "$top" -B "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug -DHB_SANITIZE=ON -DHB_WERROR=ON \
    -DBUILD_TESTING=ON >/dev/null
cmake --build "$top/build-asan" -j"$jobs"

# Open MPI leaks by design at exit; keep its components loaded so the suppressions can name
# them, and unwind fully (its libraries have no frame pointers).
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="fast_unwind_on_malloc=0:detect_leaks=1"
export OMPI_MCA_mca_base_component_disable_dlclose=1
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The sanitizers look for memory and undefined behaviour on each code path: the unit tests'
# long loops over generated inputs take their short count here (HB_TEST_SHORT=1, every path
# still runs), and every input on the release build below.
HB_TEST_SHORT=1 ctest --test-dir "$top/build-asan" -L '^(unit|cli)$' --output-on-failure -j"$jobs"
# The release build runs the rest: cli ran above under the sanitizers (the same cases, on a
# stricter build; in release again it took a minute of a 15-minute budget). Another Debian
# release in its own root (label distro) takes minutes even when its root is cached: only on
# request.
skip=(-LE '^(cli|distro)$')
[ "${HOPBENCH_DISTROS:-0}" = 0 ] || skip=(-LE '^cli$')
ctest --test-dir "$top/build" --output-on-failure -j"$jobs" "${skip[@]}" "$@"
