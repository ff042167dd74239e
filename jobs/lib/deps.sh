# Debian packages hopbench needs, installed when missing (sourced by jobs/run-local.sh and
# tests/run.sh). As root they are installed; otherwise the exact command is printed and the
# caller stops.

HB_PKGS_BUILD="cmake make gcc pkg-config libhwloc-dev hwloc libopenmpi-dev openmpi-bin libjansson-dev jq
 libsqlite3-dev libpq-dev"
# tests/bench/peers.sh's independent tools (a benchmark, not part of tests/run.sh).
HB_PKGS_BENCH="likwid numactl jq"
# sqlite3 and postgresql: the history's tests read its databases and start a real server.
HB_PKGS_TEST="sqlite3 postgresql cpio bsdextrautils python3 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static binfmt-support qemu-system-arm qemu-system-x86 munge slurmctld slurmd slurm-client clang clang-format libclang-rt-dev chromium jq debhelper dpkg-dev build-essential man-db groff-base chromium"
# tests/distros/trixie.sh: the Debian 13 root's packages (the build's and the tests' of the
# labels it runs: unit cli topo report mpi style install), and what makes the root here.
HB_PKGS_TRIXIE="$HB_PKGS_BUILD git ca-certificates procps python3 bsdextrautils cpio clang-format sqlite3
 debhelper dpkg-dev build-essential man-db groff-base chromium"
HB_PKGS_DISTRO="mmdebstrap"
# The aarch64 build's libraries (label arm): Debian arm64 packages fetched with
# `apt-get download` and unpacked into their own root by tests/arm/arm64-root.sh, because
# Debian's arm64 Open MPI does not co-install with the amd64 one (libmunge2 and
# libpmix2's dependencies are not Multi-Arch: same).
HB_PKGS_ARM64_ROOT="libc6 libc6-dev linux-libc-dev libgcc-s1 libgomp1 libhwloc15 libhwloc-dev
 libjansson4 libjansson-dev libopenmpi3 libopenmpi-dev openmpi-bin libpmix2 libmunge2
 libevent-core-2.1-7 libevent-pthreads-2.1-7 libudev1 libucx0 libfabric1 libibverbs1
 librdmacm1 libnl-3-200 libnl-route-3-200 libxml2 zlib1g liblzma5 libicu72 libstdc++6
 libnuma1 libpciaccess0 libltdl7 libcap2 libgfortran5 libcrypt1 busybox-static
 libsqlite3-0 libsqlite3-dev"

hb_missing_pkgs() {
    local p missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    echo "${missing[*]}"
}

# hb_deps_ensure PKG...: install what is missing or say exactly what to install.
hb_deps_ensure() {
    command -v dpkg-query >/dev/null 2>&1 || {
        echo "hopbench: not a Debian system: install $* with your package manager" >&2
        return 1
    }
    local missing
    missing=$(hb_missing_pkgs "$@")
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "hopbench: missing packages; run as root: apt-get install -y --no-install-recommends $missing" >&2
        return 1
    fi
    echo "hopbench: installing $missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >/dev/null ||
        { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null; }
}

# hb_mpi_root_env and what else differs between Open MPI 4.1 and 5.
# shellcheck source=mpi.sh
. "$(dirname "${BASH_SOURCE[0]}")/mpi.sh"
