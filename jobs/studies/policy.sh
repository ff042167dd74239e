#!/usr/bin/env bash
# Study: the same kernels under bind, interleave and first-touch placement, to see which
# policy each kind of work wants. jobs/studies/policy.sh [OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../hopbench-mpirun.sh" policy --format jsonl -o "policy-$(date -u +%Y%m%dT%H%M%SZ).jsonl" "$@"
