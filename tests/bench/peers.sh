#!/usr/bin/env bash
# Compare hopbench's kernels with likwid-bench's on the same working set and threads (a
# benchmark, not a test). Runs of the two tools alternate so that drifting machine state hits
# both alike; the best of ROUNDS counts for each. Prints one row per kernel and thread count.
#
#   tests/bench/peers.sh [BUILD_DIR]
# Environment: HOPBENCH (a hopbench binary with `bw`; else the hb_kernel_bench driver of
# BUILD_DIR is used), ROUNDS (default 3), SIZE_BYTES (default 1 GiB), THREADS_LIST
# (default "1 <all cores>"), KERNELS (default "read copy triad write write-nt").
set -euo pipefail

build=${1:-build}
driver=$build/tests/kernels/hb_kernel_bench
rounds=${ROUNDS:-3}
size=${SIZE_BYTES:-1073741824}
threads_list=${THREADS_LIST:-"1 $(nproc)"}
kernels=${KERNELS:-"read copy triad write write-nt"}
export OMP_PLACES=cores OMP_PROC_BIND=close

command -v likwid-bench >/dev/null || { echo "peers.sh: likwid-bench not found (Debian package likwid)" >&2; exit 3; }

# likwid-bench's counterpart of each kernel: load only, A=B, A=B*s+C, stores, NT stores.
likwid_base() {
    case $1 in
    read) echo load ;;
    copy) echo copy ;;
    triad) echo stream ;;
    write) echo store ;;
    write-nt) echo store_mem ;;
    *) echo "peers.sh: no likwid counterpart for kernel '$1'" >&2; return 1 ;;
    esac
}

# Widest variant this CPU runs and this likwid has.
likwid_test() {
    local base=$1 have suffix
    have=$(likwid-bench -a | awk '{print $1}')
    for suffix in _avx512 _avx ""; do
        case $suffix in
        _avx512) grep -qw avx512f /proc/cpuinfo || continue ;;
        _avx) grep -qw avx /proc/cpuinfo || continue ;;
        esac
        if grep -qx "$base$suffix" <<<"$have"; then
            echo "$base$suffix"
            return
        fi
    done
    echo "peers.sh: likwid-bench has no test named $base" >&2
    return 1
}

use_hopbench=0
if [[ -n ${HOPBENCH:-} ]] && "$HOPBENCH" bw --kernel read --threads 1 --size 64MiB --format csv >/dev/null 2>&1; then
    use_hopbench=1
elif [[ ! -x $driver ]]; then
    echo "peers.sh: neither \$HOPBENCH (with 'bw') nor $driver works; build target hb_kernel_bench" >&2
    exit 3
fi

# GB/s of one hopbench run.
hb_gbps() {
    local kernel=$1 threads=$2
    if ((use_hopbench)); then
        # Quoted fields hold commas (JSON lists), so read the CSV properly.
        "$HOPBENCH" bw --kernel "$kernel" --threads "$threads" --size "$size" --format csv |
            python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if r.get("bw_GBps_best")]
print(rows[-1]["bw_GBps_best"] if rows else sys.exit("peers.sh: no bw_GBps_best in hopbench output"))'
    else
        "$driver" --kernel "$kernel" --threads "$threads" --size "$size" --reps 10 |
            awk '{ print $5 }'
    fi
}

# GB/s of one likwid-bench run (it prints MByte/s, 10^6 bytes).
likwid_gbps() {
    local test=$1 threads=$2
    likwid-bench -t "$test" -w "S0:${size}B:$threads" 2>&1 |
        awk '/^MByte\/s:/ { printf "%.3f\n", $2 / 1000; found = 1 } END { exit !found }'
}

max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }

printf '%-9s %7s %13s %-18s %11s %6s\n' kernel threads hopbench_GBps likwid_test likwid_GBps ratio
for kernel in $kernels; do
    test=$(likwid_test "$(likwid_base "$kernel")")
    for threads in $threads_list; do
        hb=0 lk=0
        for ((r = 0; r < rounds; r++)); do
            hb=$(max "$hb" "$(hb_gbps "$kernel" "$threads")")
            lk=$(max "$lk" "$(likwid_gbps "$test" "$threads")")
        done
        printf '%-9s %7d %13.2f %-18s %11.2f %6.2f\n' "$kernel" "$threads" "$hb" "$test" "$lk" \
            "$(awk -v a="$hb" -v b="$lk" 'BEGIN { print (b > 0 ? a / b : 0) }')"
    done
done
