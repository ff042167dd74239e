#!/usr/bin/env bash
# Builds a libFuzzer target with clang from SOURCES (file names found under SRC_DIR, or absolute)
# and runs it for a bounded time on the seed files. Skips (77) where clang or libFuzzer is
# missing. Shared by the fuzz label's targets.
# Usage: fuzz.sh SRC_DIR GENERATED_DIR SEED_GLOB SECONDS MAX_LEN SOURCE...
set -euo pipefail
src=$1 gen=$2 seeds=$3 secs=$4 max_len=$5
shift 5
command -v clang >/dev/null || { echo "clang not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=() incs=()
for f in "$@"; do
  if [[ $f == */third_party/* ]]; then
    # vendored code (yyjson, fuzzed upstream) is built apart without the sanitizers, which
    # take clang minutes on it; its folder gives its headers
    incs+=(-I"$(dirname "$f")")
    clang -O1 -w -c "$f" -o "$tmp/${#files[@]}.o" || exit 1
    files+=("$tmp/${#files[@]}.o")
  elif [[ $f == /* ]]; then
    files+=("$f")
  else
    files+=("$(find "$src" -name "$f" -print -quit)")
  fi
done
# src/ holds one folder a layer: each is an include folder, as for hb_core.
while IFS= read -r d; do incs+=(-I"$d"); done < <(find "$src" -type d)
if ! clang -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined "${incs[@]}" -I"$gen" \
    "${files[@]}" -ljansson -lhwloc -lm -o "$tmp/fuzz" 2>"$tmp/cc.log"; then
  if grep -q "fuzzer" "$tmp/cc.log"; then
    echo "libFuzzer not available (libclang-rt-dev):"; cat "$tmp/cc.log"; exit 77
  fi
  cat "$tmp/cc.log"; exit 1
fi
mkdir "$tmp/corpus"
# shellcheck disable=SC2086  # the glob names the seeds
cp $seeds "$tmp/corpus/"
"$tmp/fuzz" -max_total_time="$secs" -max_len="$max_len" -rss_limit_mb=1024 "$tmp/corpus" 2>&1 |
  tail -5
