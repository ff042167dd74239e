#!/usr/bin/env bash
# Time and peak memory of `hopbench report` on a made fleet (a benchmark, not a test): one run
# record and HOSTS x CELLS copies of a real bw run's measurements, each host and cell named
# apart (tests/report/fleet_gen.awk; host 17 twice as slow). Prints one row per binary: wall
# and cpu seconds (user + system), peak RSS, the page's size.
#
#   tests/bench/report_fleet.sh [HOSTS CELLS]          (default: 1000 1000, 1.3 GB)
# Environment: HOPBENCH (default build/hopbench; several, space-separated, are timed on the
# same file, e.g. an older build beside this one), WORK (scratch directory, default a new one
# under /tmp; its files are removed).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
read -ra hbs <<<"${HOPBENCH:-$top/build/hopbench}"
hosts=${1:-1000} cells=${2:-1000}
work=${WORK:-$(mktemp -d)}
trap 'rm -rf "$work"' EXIT
cd "$work"
"${hbs[0]}" bw --kernel read,copy --size 4M --reps 5 --min-time 0.01 --threads 1 --quiet \
    --format jsonl -o template.jsonl
awk -v hosts="$hosts" -v cells="$cells" -v slow=17 -v vague=-1 \
    -f "$top/tests/report/fleet_gen.awk" template.jsonl >fleet.jsonl
printf '%-10s %-40s %8s %8s %9s %8s\n' records binary seconds cpu_s peak_MiB out_MiB
for hb in "${hbs[@]}"; do
    /usr/bin/time -f '%e %U %S %M' -o time.txt "$hb" report fleet.jsonl -o out.html 2>err.txt || {
        echo "report with $hb failed: $(cat err.txt)"
        exit 1
    }
    read -r secs user sys kib <time.txt
    printf '%-10s %-40s %8s %8s %9d %8s\n' $((hosts * cells)) "$hb" "$secs" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" $((kib / 1024)) \
        "$(awk -v b="$(stat -c %s out.html)" 'BEGIN { printf "%.2f", b / 1048576 }')"
done
