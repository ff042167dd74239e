#!/usr/bin/env bash
# Compile one file (syntax only) with a library's include directories, one per line in
# INCLUDES: "ok" must compile; any other EXPECT is the header that must not be found.
# usage: layers-test.sh CC INCLUDES SOURCE EXPECT
set -uo pipefail
cc=$1 incs=$2 src=$3 expect=$4
args=()
while IFS= read -r d; do [ -n "$d" ] && args+=("-I$d"); done <"$incs"
# A cross-build's system headers are under its sysroot (HB_SYSROOT, from CMAKE_SYSROOT).
[ -z "${HB_SYSROOT:-}" ] || args+=("--sysroot=$HB_SYSROOT")
out=$("$cc" -std=c11 -D_GNU_SOURCE -fsyntax-only "${args[@]}" "$src" 2>&1); rc=$?
if [ "$expect" = ok ]; then
  [ "$rc" = 0 ] || { echo "FAIL: $src does not compile with $incs: $out" >&2; exit 1; }
else
  [ "$rc" != 0 ] || { echo "FAIL: $src compiled: $expect is visible through $incs" >&2; exit 1; }
  grep -qF "$expect: No such file" <<<"$out" || { echo "FAIL: $src failed otherwise: $out" >&2; exit 1; }
fi
echo ok
