#!/usr/bin/env bash
# arm64-root.sh DIR: Debian's arm64 packages that hopbench links and runs with
# (HB_PKGS_ARM64_ROOT in jobs/lib/deps.sh) unpacked into DIR, a root for the cross-build's
# sysroot, qemu-user's QEMU_LD_PREFIX and the arm64 guest's initramfs. Adds the arm64
# architecture to apt when it is missing (as root). Reuses DIR when it holds the same list.
# Exit 77 when the packages cannot be had (not root, no apt, no mirror).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../../jobs/lib/deps.sh"
dir=${1:?usage: arm64-root.sh DIR}
stamp=$dir/.packages
want=$(tr -s ' \n' ' ' <<<"$HB_PKGS_ARM64_ROOT")
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0
command -v apt-get >/dev/null || { echo "SKIP: no apt-get to fetch arm64 packages"; exit 77; }
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    [ "$(id -u)" = 0 ] || { echo "SKIP: run as root once: dpkg --add-architecture arm64 && apt-get update"; exit 77; }
    dpkg --add-architecture arm64
    apt-get update -q >/dev/null
fi
rm -rf "$dir"
mkdir -p "$dir/.debs"
read -ra pkgs <<<"$want"
(cd "$dir/.debs" && apt-get download -q "${pkgs[@]/%/:arm64}" >/dev/null) ||
    { echo "SKIP: apt-get download of the arm64 packages failed"; exit 77; }
for deb in "$dir"/.debs/*.deb; do dpkg-deb -x "$deb" "$dir"; done
rm -rf "$dir/.debs"
# Merged /usr as on a Debian 12 system: the loader's /lib is usr/lib.
for d in lib bin sbin; do
    if [ -d "$dir/$d" ] && [ ! -L "$dir/$d" ]; then
        mkdir -p "$dir/usr/$d"
        cp -a "$dir/$d/." "$dir/usr/$d/"
        rm -rf "${dir:?}/$d"
        ln -s "usr/$d" "$dir/$d"
    fi
done
echo "$want" >"$stamp"
