#!/usr/bin/env bash
# tests/distros/trixie.sh [CACHE_DIR]: builds this clone's HEAD on Debian 13 (trixie: Open MPI
# 5, hwloc 2.12, gcc 14, jq 1.7) with warnings as errors and runs the labels that need neither
# qemu nor namespaces there (unit cli topo report mpi style install). The Debian 13 root is
# made once (mmdebstrap or debootstrap, minbase, then apt-get install of HB_PKGS_TRIXIE) and
# kept in CACHE_DIR (default: $HOPBENCH_DISTRO_CACHE, else ~/.cache/hopbench) as
# trixie-root; each run copies a fresh clone of HEAD in. Packages come from the Debian mirror
# this machine's apt uses (HB_DEBIAN_MIRROR overrides). Needs root (chroot, bind mounts);
# the mounts live in a private mount namespace, so they go away with the script. Exit: 0
# when every test passed, 1 otherwise, 77 where it cannot run (not root, no mirror).
# Extra arguments after CACHE_DIR go to ctest (e.g. -R 'mpi\.').
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../jobs/lib/deps.sh
. "$top/jobs/lib/deps.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (chroot and bind mounts into the Debian 13 root)"; exit 77; }
cache=${1:-${HOPBENCH_DISTRO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hopbench}}
[ $# -eq 0 ] || shift
root=$cache/trixie-root
labels='^(unit|cli|topo|report|mpi|style|install)$'

# The bind mounts vanish with this namespace, however the script ends.
if [ -z "${HB_DISTRO_NS:-}" ]; then
    HB_DISTRO_NS=1 exec unshare --mount --propagation private "$0" "$cache" "$@"
fi

# debian_mirror: the Debian archive apt uses here (deb822 URIs: or a one-line deb entry);
# nothing when there is none (some of the files may not exist).
debian_mirror() {
    [ -z "${HB_DEBIAN_MIRROR:-}" ] || { echo "$HB_DEBIAN_MIRROR"; return; }
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        if [ -f "$f" ]; then cat "$f"; fi
    done | awk 'match($0, /^(URIs:|deb)[ \t]+[^ \t]+\/debian\/?([ \t]|$)/) && !found {
        print $2; found = 1 }'
}

# in_root CMD...: CMD inside the root, with a clean environment.
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

mount_root() {
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    # --rbind brings /dev/pts (cli.progress needs a pseudo-terminal) and /dev/shm.
    mount --rbind /dev "$root/dev"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
}

# make_root: a minbase Debian 13 under $root.tmp, renamed to $root once complete.
make_root() {
    local mirror
    mirror=$(debian_mirror)
    [ -n "$mirror" ] || { echo "SKIP: no Debian mirror in /etc/apt (set HB_DEBIAN_MIRROR)"; exit 77; }
    command -v mmdebstrap >/dev/null || command -v debootstrap >/dev/null || hb_deps_ensure "$HB_PKGS_DISTRO"
    rm -rf "$root.tmp"
    mkdir -p "$cache"
    echo "trixie: making a Debian 13 root from $mirror in $root"
    if command -v mmdebstrap >/dev/null; then
        mmdebstrap --quiet --variant=minbase trixie "$root.tmp" "$mirror"
    else
        debootstrap --variant=minbase trixie "$root.tmp" "$mirror" >/dev/null
    fi
    mv -T "$root.tmp" "$root"
}

# install_pkgs: what HB_PKGS_TRIXIE names, when the root's stamp lists something else.
install_pkgs() {
    [ "$(cat "$root/.hopbench-pkgs" 2>/dev/null)" != "$HB_PKGS_TRIXIE" ] || return 0
    echo "trixie: apt-get install $HB_PKGS_TRIXIE"
    in_root apt-get update -q >/dev/null
    # shellcheck disable=SC2086
    in_root apt-get install -y -q --no-install-recommends $HB_PKGS_TRIXIE >/dev/null
    echo "$HB_PKGS_TRIXIE" >"$root/.hopbench-pkgs"
}

start=$(date +%s)
[ -d "$root" ] || make_root
mount_root
install_pkgs
ready=$(date +%s)

# A fresh clone of HEAD: nothing of this tree's builds or uncommitted changes goes in.
rm -rf "$root/srv/hopbench-src"
git clone -q --no-checkout "$top" "$root/srv/hopbench-src/hopbench"
git -C "$root/srv/hopbench-src/hopbench" checkout -q --detach "$(git -C "$top" rev-parse HEAD)"
echo "trixie: testing $(git -C "$top" rev-parse --short=12 HEAD) on $(cat "$root/etc/debian_version")," \
    "$(in_root mpirun --version | head -n 1), hwloc $(in_root hwloc-info --version | awk '{ print $2 }')," \
    "$(in_root gcc -dumpfullversion | sed 's/^/gcc /'), $(in_root jq --version)"
jobs=$(nproc)
rc=0
# shellcheck disable=SC2016  # the root's shell expands these
in_root bash -c 'set -e; cd "$0"; . jobs/lib/deps.sh; hb_mpi_root_env
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON -DBUILD_TESTING=ON >/dev/null
    cmake --build build -j"$1" >build.log 2>&1 || { tail -n 40 build.log; exit 1; }
    echo "trixie: built in $(($(date +%s) - $2)) s"
    jobs=$1 labels=$3
    shift 3
    ctest --test-dir build -L "$labels" --output-on-failure -j"$jobs" "$@"' \
    /srv/hopbench-src/hopbench "$jobs" "$(date +%s)" "$labels" "$@" || rc=$?
echo "trixie: root ready in $((ready - start)) s, all done in $(($(date +%s) - start)) s (exit $rc)"
[ "$rc" = 0 ] || exit 1
