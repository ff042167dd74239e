#!/usr/bin/env bash
# check.py can fail: on the tree in broken/ (links, anchors and cited documents broken on
# purpose) it exits 1 and names each broken reference, and none of the good ones.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(python3 "$here/check.py" "$here/broken"); rc=$?
[ "$rc" = 1 ] || { echo "FAIL: check.py exited $rc on broken links, expected 1"; echo "$out"; exit 1; }
expect=(
    "README.md:7: link to docs/gone.md: docs/gone.md does not exist"
    "README.md:8: link to docs/a.md#no-such-heading: docs/a.md has no heading with anchor #no-such-heading"
    "README.md:9: link to #nothing: README.md has no heading with anchor #nothing"
    "docs/a.md:7: link to img/missing.png: docs/img/missing.png does not exist"
    "src/x.c:1: cites docs/a.md#gone: docs/a.md has no heading with that anchor"
    "src/x.c:1: names DESIGN.md, which is not in the tree"
    "src/x.c:2: cites docs/a.md §...: cite the section as docs/a.md#anchor"
)
for e in "${expect[@]}"; do
    grep -qF "FAIL: $e" <<<"$out" || { echo "FAIL: not reported: $e"; echo "$out"; exit 1; }
done
n=$(grep -c '^FAIL: ' <<<"$out")
[ "$n" = "${#expect[@]}" ] || { echo "FAIL: $n reports, expected ${#expect[@]}:"; echo "$out"; exit 1; }
echo "PASS: the ${#expect[@]} broken references are reported, the good ones are not"
