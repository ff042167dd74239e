#!/usr/bin/env bash
# Regenerates fixtures/shapes.jsonl for report.jsonl_fast: the records of a short run of each
# suite (every record shape hopbench writes on a one-node machine), one file after another.
# Usage: tests/report/shapes_fixture.sh HOPBENCH [OUT]   (a developer tool, not a test)
set -uo pipefail
hb=$1
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${2:-$top/tests/report/fixtures/shapes.jsonl}
# shellcheck source=../../jobs/lib/deps.sh
source "$top/jobs/lib/deps.sh"
hb_mpi_root_env
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f="--reps 2 --min-time 0.001"
runs=("bw --kernel read,copy --size 1M $f" "lat --size 1M $f" "matrix --size 1M $f"
      "peak --size 1M $f" "sweep --max-size 64K $f" "c2c $f"
      "policy --size 1M $f" "loaded --quick --size 1M $f" "hops --quick --size 1M $f" "topo"
      "matrix --dry-run")
i=0
for r in "${runs[@]}"; do
    # shellcheck disable=SC2086  # r holds the command and its options
    timeout 120 "$hb" $r --quiet --format jsonl -o "$tmp/$i.jsonl" >/dev/null 2>&1 ||
        echo "skipped: $r" >&2
    i=$((i + 1))
done
timeout 120 mpirun --oversubscribe -np 2 "$hb" comm --size 64K --reps 2 --min-time 0.001 \
    --quiet --format jsonl -o "$tmp/comm.jsonl" >/dev/null 2>&1 || echo "skipped: comm" >&2
# the boot command line says nothing about records: a neutral one; nor do this machine's paths
# to the binary and the temporary folder in each command_line
cat "$tmp"/*.jsonl | sed -E -e 's/"cmdline":"[^"]*"/"cmdline":"BOOT_IMAGE=\/vmlinuz root=\/dev\/vda1 ro quiet"/g' \
    -e "s#$hb #hopbench #g" -e "s#$tmp/#/tmp/shapes/#g" >"$out"
cut -d'"' -f4 "$out" | sort | uniq -c >&2
