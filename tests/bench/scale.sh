#!/usr/bin/env bash
# Time and peak memory of `hopbench report`, `compare` and `export` on two files of N
# measurement records each (a benchmark, not a test; issue 27 asks report and compare of a
# million records within 5 s and 512 MiB). Each file is one real `bw` run's run record and
# its measurement records copied N times, each copy under its own experiment name and one of
# 1000 host names (all in the run record), so compare matches every record. export
# converts only the few keys it reads: its time is close to reading the file alone.
#
#   tests/bench/scale.sh [N]          (default: 1000000, about 1.3 GiB a file)
# Environment: HOPBENCH (binaries to time, space-separated; default build/hopbench), WORK
# (scratch directory, default a new one under /tmp; its files are removed), KEEP=1 keeps them.
# Wall seconds depend on the machine's load; cpu_s (user + system) much less.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
read -r -a bins <<<"${HOPBENCH:-$top/build/hopbench}"
n=${1:-1000000}
work=${WORK:-$(mktemp -d)}
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
cd "$work"
# shellcheck source=../../jobs/lib/deps.sh
source "$top/jobs/lib/deps.sh"
hb_mpi_root_env
for side in a b; do
    [ -s "$side.jsonl" ] && [ "$(wc -l <"$side.jsonl")" -gt "$n" ] && continue
    "${bins[0]}" bw --kernel read,copy --size 4M --reps 5 --min-time 0.01 --threads 1 --quiet \
        --format jsonl -o "template-$side.jsonl"
    # The run record, then the measurement records again and again, renamed: each cut once
    # around its experiment and host names (awk's regex on every line would take minutes).
    awk -v n="$n" '
        /^\{"type":"run"/ {
            hosts = "\"hosts\":[\"h0\""
            for (i = 1; i < 1000; i++) hosts = hosts ",\"h" i "\""
            if (!sub(/"hosts":\[[^]]*\]/, hosts "]")) {
                print "no hosts in the run record" >"/dev/stderr"
                exit 1
            }
            print; next
        }
        /^\{"type":"measurement"/ {
            e = index($0, "\"experiment\":\""); h = index($0, "\"host\":\"")
            if (!e || !h || h < e) { print "no experiment, host in " $0 > "/dev/stderr"; exit 1 }
            ee = e + 14 + index(substr($0, e + 14), "\"") - 1
            he = h + 8 + index(substr($0, h + 8), "\"") - 1
            j = k++
            a[j] = substr($0, 1, e + 13); b[j] = substr($0, ee, h + 8 - ee); c[j] = substr($0, he)
        }
        END {
            for (i = 0; i < n; i++) {
                j = i % k
                printf "%se%d%sh%d%s\n", a[j], i, b[j], i % 1000, c[j]
            }
        }' "template-$side.jsonl" >"$side.jsonl"
done
echo "files: $(stat -c %s a.jsonl | awk '{ printf "%.2f GiB", $1 / 2^30 }') each, $n records"
printf '%-44s %-8s %8s %8s %9s %8s %4s\n' binary command wall_s cpu_s peak_MiB out_MiB exit
for hb in "${bins[@]}"; do
    for cmd in report compare export; do
        case $cmd in
        report) args=(report a.jsonl -o out.html) ;;
        compare) args=(compare a.jsonl b.jsonl --format jsonl) ;;
        export) args=(export a.jsonl --host h0 -o out.xml) ;;
        esac
        rm -f out.html out.xml
        set +e
        /usr/bin/time -f '%e %U %S %M' -o time.txt "$hb" "${args[@]}" >out.txt 2>err.txt
        rc=$?
        set -e
        read -r secs user sys kib < <(tail -n 1 time.txt)
        out=$({ cat out.html out.xml out.txt 2>/dev/null || true; } | wc -c)
        printf '%-44s %-8s %8s %8.2f %9d %8.1f %4d\n' "$hb" "$cmd" "$secs" \
            "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" $((kib / 1024)) \
            "$(awk -v b="$out" 'BEGIN { print b / 1048576 }')" "$rc"
        # compare exits 1 on a regression; export 2 where the file has no matrix to export
        if [ "$rc" -gt 2 ]; then
            echo "$cmd failed: $(head -c 500 err.txt)"
            exit 1
        fi
    done
done
