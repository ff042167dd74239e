#!/usr/bin/env bash
# --pages huge with no 2 MiB pages reserved: refused before anything runs (exit 3, the line
# that reserves them, no output file). Skipped where pages are reserved.
set -euo pipefail
hb=$1
free=$(cat /sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
[ "$free" = 0 ] || { echo "SKIP: $free huge pages are reserved on node 0"; exit 77; }
exec "$(dirname "${BASH_SOURCE[0]}")/check.sh" "$hb" 3 \
    "--pages huge needs 2 free 2 MiB huge pages on node 0, found 0; reserve them with: echo 2 >" \
    lat --pages huge --size 4M -o out.jsonl
