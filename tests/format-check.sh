#!/usr/bin/env bash
# Every C source and header follows the committed .clang-format (skip when clang-format is
# missing: it is a developer tool, not a build dependency).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v clang-format >/dev/null || { echo "SKIP: clang-format not installed"; exit 77; }
cd "$top"
mapfile -t files < <(find src omp mpi tests -name '*.c' -o -name '*.h')
clang-format --dry-run -Werror "${files[@]}"
echo "PASS: ${#files[@]} files formatted"
