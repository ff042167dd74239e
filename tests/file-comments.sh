#!/usr/bin/env bash
# Every C source of the program opens with a comment that says what the file is for, so a
# reader learns its job before its includes.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
missing=$(find src omp mpi -name '*.c' | sort | while read -r f; do
    head -n 1 "$f" | grep -q '^/\* [^ ]' || echo "$f"
done)
[ -z "$missing" ] || { echo "FAIL: no opening comment in:"; echo "$missing"; exit 1; }
echo "PASS: $(find src omp mpi -name '*.c' | wc -l) files open with a comment"
