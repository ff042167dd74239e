#!/usr/bin/env bash
# Time and peak memory of `hopbench report` and `hopbench compare` on files of N real
# measurement records (a benchmark, not a test): both must grow linearly with N and the
# report stay bounded. Records are copies of a real run's, each with its own experiment name,
# so compare matches every one. Prints one row per N and command.
#
#   tests/bench/report_scale.sh [N...]          (default: 100000 1000000)
# Wall seconds depend on the machine's load; cpu_s (user + system) much less.
# Environment: HOPBENCH (default build/hopbench), WORK (scratch directory, default a new one
# under /tmp; its files are removed).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hb=${HOPBENCH:-$top/build/hopbench}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
work=${WORK:-$(mktemp -d)}
trap 'rm -rf "$work"' EXIT
cd "$work"
"$hb" bw --kernel read,copy --size 4M --reps 5 --min-time 0.01 --threads 1 --quiet \
    --format jsonl -o template.jsonl
printf '%-8s %-8s %10s %10s %12s %12s\n' records command seconds cpu_s peak_MiB out_MiB
for n in "${sizes[@]}"; do
    jq -c --argjson n "$n" -s '
        (.[] | select(.type == "run")),
        ([.[] | select(.type == "measurement")] as $m | range($n) as $i |
            ($m[$i % ($m | length)] | .experiment = "e\($i)"))' template.jsonl >"in-$n.jsonl"
    for cmd in report compare; do
        if [ "$cmd" = report ]; then
            args=(report "in-$n.jsonl" -o out.html)
        else
            args=(compare "in-$n.jsonl" "in-$n.jsonl" --format jsonl)
        fi
        /usr/bin/time -f '%e %U %S %M' -o time.txt "$hb" "${args[@]}" >out.txt 2>err.txt || {
            echo "$cmd on $n records failed: $(cat err.txt)"
            exit 1
        }
        read -r secs user sys kib <time.txt
        out=$([ "$cmd" = report ] && stat -c %s out.html || stat -c %s out.txt)
        printf '%-8s %-8s %10s %10s %12d %12s\n' "$n" "$cmd" "$secs" \
            "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" $((kib / 1024)) \
            "$(awk -v b="$out" 'BEGIN { printf "%.1f", b / 1048576 }')"
    done
    rm -f "in-$n.jsonl" out.html out.txt
done
