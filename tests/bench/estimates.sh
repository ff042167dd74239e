#!/usr/bin/env bash
# estimates.sh HOPBENCH - a benchmark, not a test: each suite's own estimate of its time (the
# plan's, as the dry run and the run's first line give it; the summary record's estimate_s)
# against the time the run really took (wall clock, start to exit), one row per suite, with
# their ratio. docs/method.md promises the estimate errs long and stays within 1.5x. comm runs
# under mpirun with two ranks, idle and under --bg. Takes about 15 minutes on the 2-core VM;
# PATTERN (an extended regular expression) runs only the rows whose name matches.
set -u
hb=${1:?usage: estimates.sh HOPBENCH [PATTERN]}
only=${2:-}
command -v jq >/dev/null || { echo "jq is needed"; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# shellcheck source=../../jobs/lib/mpi.sh
. "$top/jobs/lib/mpi.sh"
hb_mpi_detect
hb_mpi_root_env
read -ra oversub <<<"$(hb_mpi_oversubscribe)"
# row NAME CMD...: run CMD (its -o is r.jsonl), then the estimate, the real time, the ratio.
row() {
    local name=$1 start end est real
    shift
    [[ -z $only || $name =~ $only ]] || return 0
    rm -f r.jsonl
    start=$(date +%s.%N)
    "$@" >/dev/null 2>err.txt
    end=$(date +%s.%N)
    est=$(jq -r 'select(.type == "summary") | .estimate_s' r.jsonl 2>/dev/null | tail -n 1)
    real=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    if [ -z "$est" ] || [ "$est" = null ]; then
        printf '%-24s %10s %10s %8s  (%s)\n' "$name" "-" "$real" "-" "$(head -c 120 err.txt)"
        return
    fi
    awk -v n="$name" -v e="$est" -v r="$real" 'BEGIN {
        printf "%-24s %10.1f %10.1f %8.2f%s\n", n, e, r, e / r, (e < r ? "  SHORT" : e > 1.5 * r ? "  LONG" : "") }'
}
printf '%-24s %10s %10s %8s\n' suite "estimate s" "real s" "est/real"
row "default suite" "$hb" --quiet -o r.jsonl
row "bw" "$hb" bw --quiet -o r.jsonl
row "lat" "$hb" lat --quiet -o r.jsonl
row "matrix" "$hb" matrix --quiet -o r.jsonl
row "hops --quick" "$hb" hops --quick --quiet -o r.jsonl
row "loaded --quick" "$hb" loaded --quick --quiet -o r.jsonl
row "run one-node-load.scn" "$hb" run "$top/jobs/scenarios/one-node-load.scn" --quiet -o r.jsonl
row "policy" "$hb" policy --quiet -o r.jsonl
row "peak" "$hb" peak --quiet -o r.jsonl
row "sweep" "$hb" sweep --quiet -o r.jsonl
row "c2c" "$hb" c2c --quiet -o r.jsonl
row "comm (2 ranks)" mpirun "${oversub[@]}" -np 2 "$hb" comm --quiet -o r.jsonl
# --bg runs its load on the rank's other cores: each rank bound to the whole node.
row "comm --bg low (2 ranks)" mpirun "${oversub[@]}" --bind-to numa -np 2 "$hb" comm --bg low --quiet -o r.jsonl
