#!/usr/bin/env bash
# README.md is a front door, not the manual: at most 250 lines (the rest lives in docs/).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
n=$(wc -l <"$top/README.md")
[ "$n" -le 250 ] || { echo "FAIL: README.md has $n lines, at most 250: move reference material into docs/"; exit 1; }
echo "PASS: README.md has $n lines (at most 250)"
