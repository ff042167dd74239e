#!/usr/bin/env bash
# deb-test.sh SOURCE_DIR WORK - CTest test (label install): builds the Debian package from a
# copy of the tree without .git (`dpkg-buildpackage -b -us -uc`, the git sha given as
# HB_GIT_SHA as a tarball build would), unpacks it into a clean prefix and runs what it
# installed: hopbench topo, man hopbench (with the man page and completion checked against
# --help), and the launchers. Also checks that `git archive` stamps the sha into git-sha.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../slurm/expect.sh"
. "$HERE/docs-check.sh"
src=$1 work=$2
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
    { echo "SKIP: no dpkg-buildpackage/debhelper (jobs/lib/deps.sh HB_PKGS_TEST)"; exit 77; }
git -C "$src" rev-parse HEAD >/dev/null 2>&1 || { echo "SKIP: $src is not a git clone"; exit 77; }
rm -rf "$work"
mkdir -p "$work/src"
# The tree as a release tarball would hold it: tracked and new files, no .git, no builds.
(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work/src")
sha=$(git -C "$src" rev-parse --short=12 HEAD)
rc=0
# noopt noddebs: the package is what is tested here, not the compiler's optimiser (the
# release tree builds -O3 with warnings as errors): an unoptimised build and no debug-symbol
# package take a quarter less CPU time.
(cd "$work/src" && HB_GIT_SHA=$sha DEB_BUILD_OPTIONS="noopt noddebs" \
    dpkg-buildpackage -b -us -uc -j"$(nproc)" >"$work/build.log" 2>&1) || rc=$?
[ "$rc" = 0 ] || tail -40 "$work/build.log"
version=$(sed -n 's/^project(hopbench VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
deb=$(ls "$work"/hopbench_*.deb 2>/dev/null | head -1)
expect "dpkg-buildpackage -b -us -uc builds a .deb (exit $rc)" [ "$rc" = 0 ] && [ -n "$deb" ]
[ -n "$deb" ] || { expect_done; exit 1; }
expect "the package version is the project's ($version)" \
    [ "$(dpkg-deb -f "$deb" Version)" = "$version" ]
expect "it depends on Open MPI's launcher, jq and the libraries it links" \
    grep -q 'openmpi-bin.*jq.*\|libhwloc.*libjansson' <<<"$(dpkg-deb -f "$deb" Depends)"

root=$work/root
dpkg-deb -x "$deb" "$root"
hb=$root/usr/bin/hopbench
expect "hopbench --version: the project version and the sha given without .git" \
    grep -qx "hopbench $version (git $sha)" <("$hb" --version)
rc=0
"$hb" topo --format jsonl >"$work/topo.jsonl" || rc=$?
expect "installed hopbench topo exits 0 with the nodes" \
    [ "$rc:$(jq -s '[.[] | select(.type == "topology") | .nodes | length] | .[0] > 0' "$work/topo.jsonl")" = 0:true ]
expect "man hopbench finds the installed page" \
    grep -q '^HOPBENCH(1)' <(MANPATH=$root/usr/share/man man hopbench 2>/dev/null)
hb_docs_check "$hb" "$root/usr/share/man/man1/hopbench.1.gz" \
    "$root/usr/share/bash-completion/completions/hopbench"
expect "the README is in /usr/share/doc/hopbench" grep -q "^# hopbench" <(zcat -f "$root"/usr/share/doc/hopbench/README.md*)
rc=0
(cd "$work" && env -u HOPBENCH PATH=/usr/bin:/bin "$root/usr/share/hopbench/hopbench-mpirun.sh" topo \
    --format jsonl >"$work/mpirun.out" 2>"$work/mpirun.err") || rc=$?
expect "the installed hopbench-mpirun.sh runs the packaged binary (exit $rc)" \
    grep -qF -- " $hb topo --format jsonl" "$work/mpirun.err"
expect "git archive stamps the commit into git-sha.txt" \
    grep -qx "$(git -C "$src" rev-parse HEAD)" <(git -C "$src" archive HEAD git-sha.txt | tar -xO)
expect_done
