#!/usr/bin/env bash
# Builds the scenario parser's libFuzzer target with clang and runs it for a bounded time
# on the example scenarios. Skips (77) where clang or libFuzzer is missing.
# Usage: fuzz.sh SRC_DIR GENERATED_DIR SCENARIO_DIR SECONDS
set -euo pipefail
src=$1 gen=$2 seeds=$3 secs=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v clang >/dev/null || { echo "clang not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! clang -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -I"$src" -I"$gen" \
    "$here/fuzz_scenario.c" "$src/hb_scenario.c" "$src/hb_error.c" "$src/hb_size.c" \
    "$here/fuzz_names.c" -o "$tmp/fuzz" 2>"$tmp/cc.log"; then
  if grep -q "fuzzer" "$tmp/cc.log"; then
    echo "libFuzzer not available (libclang-rt-dev):"; cat "$tmp/cc.log"; exit 77
  fi
  cat "$tmp/cc.log"; exit 1
fi
mkdir "$tmp/corpus"
cp "$seeds"/*.scn "$tmp/corpus/"
"$tmp/fuzz" -max_total_time="$secs" -max_len=2048 -rss_limit_mb=1024 "$tmp/corpus" 2>&1 | tail -5
