#!/usr/bin/env bash
# Study: latency and bandwidth by hop distance, idle and under each level of background load
# on the other nodes (does the cost of a hop grow with load?). jobs/studies/hops-loaded.sh [OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../hopbench-mpirun.sh" hops --format jsonl -o "hops-$(date -u +%Y%m%dT%H%M%SZ).jsonl" "$@"
