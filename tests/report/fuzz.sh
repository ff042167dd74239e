#!/usr/bin/env bash
# Builds the JSON Lines reader's libFuzzer target (reader and report sections) with clang and
# runs it for a bounded time on the report fixtures. Skips (77) where clang or libFuzzer is
# missing. Usage: fuzz.sh SRC_DIR GENERATED_DIR FIXTURE_DIR SECONDS
set -euo pipefail
src=$1 gen=$2 seeds=$3 secs=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v clang >/dev/null || { echo "clang not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for f in hb_jsonl_read hb_error hb_escape hb_size hb_outfile hb_report hb_report_draw \
    hb_report_tables hb_report_curves; do
  files+=("$src/$f.c")
done
if ! clang -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -I"$src" -I"$gen" \
    "$here/fuzz_jsonl.c" "${files[@]}" -ljansson -lm -o "$tmp/fuzz" 2>"$tmp/cc.log"; then
  if grep -q "fuzzer" "$tmp/cc.log"; then
    echo "libFuzzer not available (libclang-rt-dev):"; cat "$tmp/cc.log"; exit 77
  fi
  cat "$tmp/cc.log"; exit 1
fi
mkdir "$tmp/corpus"
cp "$seeds"/*.jsonl "$tmp/corpus/"
"$tmp/fuzz" -max_total_time="$secs" -max_len=4096 -rss_limit_mb=1024 "$tmp/corpus" 2>&1 | tail -5
