#!/usr/bin/env bash
# The git sha is read when the binary is built: --version names HEAD, with -dirty exactly when
# tracked files differ from it; cmake/git-sha.cmake prefers -DHB_GIT_SHA, else git-sha.txt (a
# `git archive` stamp, first 12 digits), else "unknown".
# usage: git-sha-test.sh HOPBENCH SOURCE_DIR
set -uo pipefail
hb=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sha_of() { # SRC GIVEN -> the sha the script writes
  cmake -DSRC="$1" -DOUT="$tmp/sha.c" -DGIVEN="$2" -P "$src/cmake/git-sha.cmake" || return 1
  sed -n 's/^const char hb_git_sha\[\] = "\(.*\)";$/\1/p' "$tmp/sha.c"
}
mkdir "$tmp/tree"
echo '$Format:%H$' > "$tmp/tree/git-sha.txt"
[ "$(sha_of "$tmp/tree" "")" = unknown ] || fail "unstamped git-sha.txt without .git: $(cat "$tmp/sha.c")"
echo 0123456789abcdef0123456789abcdef01234567 > "$tmp/tree/git-sha.txt"
[ "$(sha_of "$tmp/tree" "")" = 0123456789ab ] || fail "stamped git-sha.txt: $(cat "$tmp/sha.c")"
[ "$(sha_of "$tmp/tree" feedface)" = feedface ] || fail "-DHB_GIT_SHA: $(cat "$tmp/sha.c")"

git -C "$src" rev-parse HEAD >/dev/null 2>&1 || { echo "no git checkout: skipped"; exit 77; }
want=$(git -C "$src" rev-parse --short=12 HEAD)
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] || want+=-dirty
got=$("$hb" --version)
grep -qx "hopbench [0-9.]* (git $want)" <<<"$got" ||
  fail "--version says '$got', the tree is at $want (rebuild after changing it)"
echo ok
