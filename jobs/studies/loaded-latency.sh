#!/usr/bin/env bash
# Study: loaded latency, pointer-chase latency while load threads sweep their injection delay
# from idle to saturation (the knee of the latency/bandwidth curve). jobs/studies/loaded-latency.sh [OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../hopbench-mpirun.sh" loaded --format jsonl -o "loaded-$(date -u +%Y%m%dT%H%M%SZ).jsonl" "$@"
