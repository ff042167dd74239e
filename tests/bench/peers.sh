#!/usr/bin/env bash
# Compare hopbench with independent tools on the same working set and threads (a benchmark,
# not a test). Runs of the tools alternate so that drifting machine state hits both alike;
# the best of ROUNDS counts for each. Sections (SECTIONS, default all):
#   latency  idle latency at SIZE_BYTES: hopbench lat at stride 64 and at the default (256)
#            against chase_ref, google/multichase's default chase written again
#            (tests/bench/chase_ref.c), with the ratios
#   nt       copy-nt and triad-nt against glibc memcpy, write-nt against glibc memset, at
#            the same threads and working set (tests/bench/libc_ref.c), hopbench's own
#            memcpy kernel beside them
#   mixes    the read:write mixes against likwid-bench's kernel of the same kind
#   bw       kernels against likwid-bench's of the same kind
#   comm     (only when named) two ranks on one node: hopbench comm's 8 B latency (p50 of
#            the exchanges) and 4 MiB streaming bandwidth (best sample, window 64) against
#            osu_latency and osu_bw of OSU Micro-Benchmarks, built under /tmp from a copy of
#            its sources in OSU_DIR (none of it enters hopbench); runs alternate, the best of
#            ROUNDS counts, both under the same mpirun line (MPIRUN_ARGS adds to it);
#            COMM_MIN_TIME (default 0.05) is hopbench's --min-time: a batch of about that long
#            (OSU's loop of 10000 8 B exchanges lasts a few ms: on a busy machine a long batch
#            holds more preemptions, which the batch mean shows and the p50 does not)
#   mlp      (only when named) memory-level parallelism at SIZE_BYTES: hopbench lat --chains
#            against google/multichase's simple and parallelN chases (N chases interleaved in
#            one thread), built under /tmp from a copy of its sources in MULTICHASE_DIR;
#            loads a second of each chain count (multichase prints ns per load over all
#            chains; its best sample against hopbench's lat_ns_min, like with like) and the
#            ratio, then N chains / 1 chain for each; MLP_CHAINS (default "1 2 4 8", at most
#            10: multichase's widest)
#   migrate  (only when named) page migration from the first node with memory to the second:
#            hopbench migrate's mbind MPOL_MF_MOVE and move_pages GB/s against numactl's
#            migspeed (mbind MPOL_MF_MOVE of as many bytes, timed once; hopbench moves THP
#            pages where THP is "always", as migspeed's buffer then does, else 4 KiB), built under
#            /tmp from a copy of numactl's sources in NUMACTL_DIR; MIGRATE_BYTES (default
#            64 MiB). A machine with one node with memory has nothing to migrate: one line
#            says so and the section is skipped
#
#   tests/bench/peers.sh [BUILD_DIR]
# Environment: HOPBENCH (a hopbench binary; default BUILD_DIR/hopbench; without `bw` the
# hb_kernel_bench driver of BUILD_DIR runs the bw section), ROUNDS (default 3), SIZE_BYTES
# (default 1 GiB), THREADS_LIST (default "1 <all cores>"), KERNELS (default "read copy triad
# write write-nt"), SECTIONS (default "latency nt mixes bw"; add mlp, migrate, comm). likwid-bench and numactl are
# the Debian packages likwid and numactl (jobs/lib/deps.sh HB_PKGS_BENCH).
set -euo pipefail

build=${1:-build}
driver=$build/tests/kernels/hb_kernel_bench
rounds=${ROUNDS:-3}
size=${SIZE_BYTES:-1073741824}
threads_list=${THREADS_LIST:-"1 $(nproc)"}
kernels=${KERNELS:-"read copy triad write write-nt"}
sections=${SECTIONS:-"latency nt mixes bw"}
HOPBENCH=${HOPBENCH:-$build/hopbench}
export OMP_PLACES=cores OMP_PROC_BIND=close
# shellcheck source=jobs/lib/deps.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../jobs/lib/deps.sh"
# shellcheck disable=SC2086 # a list of package names
hb_deps_ensure $HB_PKGS_BENCH || exit 3

max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == 0 || b < a ? b : a) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# The reference runs on the CPU and memory hopbench lat uses by default: node 0's first CPU.
pin_ref() {
    local cpu
    cpu=$("$HOPBENCH" topo --format jsonl 2>/dev/null | jq -r 'select(.type=="topology") | .nodes[0].cpus[0]' 2>/dev/null || echo 0)
    if command -v numactl >/dev/null; then
        numactl --physcpubind="${cpu:-0}" --membind=0 "$@"
    else
        taskset -c "${cpu:-0}" "$@"
    fi
}

latency_section() {
    local ref=$build/tests/kernels/hb_chase_ref
    [[ -x $ref ]] || { echo "peers.sh: $ref missing; build target hb_chase_ref" >&2; exit 3; }
    # Like with like: multichase prints its best sample (hopbench's lat_ns_min); the median
    # (hopbench's headline) goes with chase_ref's average. Each the best of ROUNDS runs.
    echo "# idle latency, $size bytes, 4k pages, ns per load: hopbench median (min) vs chase_ref best (avg)"
    printf '%-7s %12s %12s %12s %12s %10s %11s\n' stride hb_median hb_min ref_best ref_avg \
        best/best median/avg
    local stride hb_med hb_lo rb ra line
    declare -A med lo best avg
    for ((r = 0; r < rounds; r++)); do
        for stride in 64 256; do
            line=$("$HOPBENCH" lat --size "$size" --stride "$stride" --reps 5 --min-time 0.5 \
                --format csv --quiet | python3 -c 'import csv, sys
r = [r for r in csv.DictReader(sys.stdin) if r.get("lat_ns_median")][-1]
print(r["lat_ns_median"], r["lat_ns_min"])')
            hb_med=${line% *} hb_lo=${line#* }
            med[$stride]=$(min "${med[$stride]:-0}" "$hb_med")
            lo[$stride]=$(min "${lo[$stride]:-0}" "$hb_lo")
            line=$(pin_ref "$ref" -m "$size" -s "$stride")
            rb=$(awk '{ print $2 }' <<<"$line") ra=$(awk '{ print $4 }' <<<"$line")
            best[$stride]=$(min "${best[$stride]:-0}" "$rb")
            avg[$stride]=$(min "${avg[$stride]:-0}" "$ra")
        done
    done
    for stride in 64 256; do
        printf '%-7s %12.2f %12.2f %12.2f %12.2f %10s %11s\n' "$stride" "${med[$stride]}" \
            "${lo[$stride]}" "${best[$stride]}" "${avg[$stride]}" \
            "$(ratio "${lo[$stride]}" "${best[$stride]}")" "$(ratio "${med[$stride]}" "${avg[$stride]}")"
    done
    echo "# default (256) / stride 64: hopbench $(ratio "${med[256]}" "${med[64]}"), chase_ref $(ratio "${best[256]}" "${best[64]}")"
}

# likwid-bench's counterpart of each kernel: load only, A=B, A=B*s+C, stores, NT stores.
likwid_base() {
    case $1 in
    read) echo load ;;
    copy) echo copy ;;
    triad) echo stream ;;
    write) echo store ;;
    write-nt) echo store_mem ;;
    # Plain mixes are in place (hopbench counts no write-allocate, likwid's triad moves it
    # and counts it not either); -nt mixes read sources only and stream A, as likwid's _mem do.
    mix3:1) echo triad ;;         # A = B * C + D: 3 reads, 1 write
    mix3:1-nt) echo triad_mem ;;  # the same with NT stores, as a = b + c + d
    mix2:1) echo daxpy ;;         # A = A + s * B, in place as mix2:1
    mix2:1-nt) echo stream_mem ;; # A = B * s + C with NT stores, as a = b + s * c
    mix1:1) echo update ;;        # A = s * A, in place as mix1:1
    mix1:1-nt) echo copy_mem ;;   # A = B with NT stores, as a = b + s
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

# GB/s of one likwid-bench run (it prints MByte/s, 10^6 bytes).
likwid_gbps() {
    local test=$1 threads=$2
    likwid-bench -t "$test" -w "S0:${size}B:$threads" 2>&1 |
        awk '/^MByte\/s:/ { printf "%.3f\n", $2 / 1000; found = 1 } END { exit !found }'
}

# GB/s of one hopbench bw run.
hb_bw() {
    local kernel=$1 threads=$2
    "$HOPBENCH" bw --kernel "$kernel" --threads "$threads" --size "$size" --reps 10 \
        --format csv --quiet | python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if r.get("bw_GBps_best")]
print(rows[-1]["bw_GBps_best"] if rows else sys.exit("peers.sh: no bw_GBps_best in hopbench output"))'
}

nt_section() {
    local ref=$build/tests/kernels/hb_libc_ref threads kernel r op
    [[ -x $ref ]] || { echo "peers.sh: $ref missing; build target hb_libc_ref" >&2; exit 3; }
    echo "# non-temporal kernels vs glibc, $size bytes in all arrays, GB/s counted the STREAM way"
    printf '%-9s %7s %13s %-8s %11s %6s\n' kernel threads hopbench_GBps glibc glibc_GBps ratio
    for threads in $threads_list; do
        declare -A best=()
        for ((r = 0; r < rounds; r++)); do
            for kernel in copy-nt triad-nt write-nt memcpy; do
                best[$kernel]=$(max "${best[$kernel]:-0}" "$(hb_bw "$kernel" "$threads")")
            done
            for op in memcpy memset; do
                best[libc-$op]=$(max "${best[libc-$op]:-0}" \
                    "$(OMP_NUM_THREADS=$threads "$ref" "$op" "$size" 10 | awk '{ print $4 }')")
            done
        done
        for kernel in copy-nt triad-nt write-nt memcpy; do
            op=memcpy
            [[ $kernel == write-nt ]] && op=memset
            printf '%-9s %7d %13.2f %-8s %11.2f %6s\n' "$kernel" "$threads" "${best[$kernel]}" "$op" \
                "${best[libc-$op]}" "$(ratio "${best[$kernel]}" "${best[libc-$op]}")"
        done
        unset best
    done
}

# The mixes are kernels like the others: the bw section over them.
mixes_section() {
    echo "# read:write mixes vs likwid-bench's kernel of the same kind, $size bytes, GB/s"
    kernels="read mix3:1 mix2:1 mix1:1 mix3:1-nt mix2:1-nt mix1:1-nt" bw_section
}

bw_section() {
    command -v likwid-bench >/dev/null || { echo "peers.sh: likwid-bench not found (Debian package likwid)" >&2; exit 3; }
    use_hopbench=0
    if "$HOPBENCH" bw --kernel read --threads 1 --size 64MiB --format csv >/dev/null 2>&1; then
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
}

# google/multichase, built once under /tmp from MULTICHASE_DIR's sources.
multichase_build() {
    local src=${MULTICHASE_DIR:?peers.sh: mlp needs MULTICHASE_DIR, a copy of google/multichase sources}
    local out=/tmp/hopbench-peers-multichase
    [[ -f $src/multichase.c ]] || { echo "peers.sh: MULTICHASE_DIR=$src has no multichase.c" >&2; exit 3; }
    if [[ ! -x $out/multichase ]]; then
        rm -rf "$out" && cp -r "$src" "$out" && make -C "$out" multichase >&2 || exit 3
    fi
    echo "$out/multichase"
}

# Loads a second of one multichase run of N chains (its best sample, ns per load of all chains).
multichase_loads() {
    local mc=$1 n=$2 chase=simple
    ((n > 1)) && chase=parallel$n
    pin_ref "$mc" -m "$size" -c "$chase" -n 5 | awk '{ printf "%.0f\n", 1e9 / $1 }'
}

mlp_section() {
    local mc n r line hb hb_best m
    mc=$(multichase_build)
    local counts=${MLP_CHAINS:-"1 2 4 8"}
    declare -A hbl hbb mcl
    # hopbench's loads a second from its median (the headline) and from its best sample.
    for ((r = 0; r < rounds; r++)); do
        while read -r n hb hb_best; do
            hbl[$n]=$(max "${hbl[$n]:-0}" "$hb") hbb[$n]=$(max "${hbb[$n]:-0}" "$hb_best")
        done < <("$HOPBENCH" lat --size "$size" --chains "${counts// /,}" --quiet --format jsonl |
            jq -r 'select(.type == "measurement" and .chains) |
                [.chains, .loads_per_s, .chains * 1e9 / .lat_ns_min] | @tsv')
        for n in $counts; do
            m=$(multichase_loads "$mc" "$n")
            mcl[$n]=$(max "${mcl[$n]:-0}" "$m")
        done
    done
    echo "# memory-level parallelism, $size bytes, million loads a second (all chains), best of $rounds alternating runs"
    printf '%-7s %14s %14s %14s %10s\n' chains hb_median hb_best multichase best/best
    for n in $counts; do
        printf '%-7s %14.2f %14.2f %14.2f %10s\n' "$n" "$(awk -v a="${hbl[$n]}" 'BEGIN { print a / 1e6 }')" \
            "$(awk -v a="${hbb[$n]}" 'BEGIN { print a / 1e6 }')" "$(awk -v a="${mcl[$n]}" 'BEGIN { print a / 1e6 }')" \
            "$(ratio "${hbb[$n]}" "${mcl[$n]}")"
    done
    local first=${counts%% *}
    for n in $counts; do
        [[ $n == "$first" ]] && continue
        echo "# $n chains / $first: hopbench $(ratio "${hbl[$n]}" "${hbl[$first]}") (best $(ratio "${hbb[$n]}" "${hbb[$first]}")), multichase $(ratio "${mcl[$n]}" "${mcl[$first]}")"
    done
    echo "# target: 8 chains complete at least 2x the loads a second of 1"
}

# numactl's migspeed, built once under /tmp from NUMACTL_DIR's sources (autotools, as numactl
# builds itself; its own libnuma).
migspeed_build() {
    local src=${NUMACTL_DIR:?peers.sh: migrate needs NUMACTL_DIR, a copy of numactl sources}
    local out=/tmp/hopbench-peers-numactl
    [[ -f $src/migspeed.c ]] || { echo "peers.sh: NUMACTL_DIR=$src has no migspeed.c" >&2; exit 3; }
    if [[ ! -x $out/migspeed ]]; then
        rm -rf "$out" && cp -r "$src" "$out" &&
            (cd "$out" && ./autogen.sh && ./configure && make migspeed) >&2 || exit 3
    fi
    echo "$out/migspeed"
}

migrate_section() {
    local nodes
    nodes=$("$HOPBENCH" topo --format jsonl | jq -r 'select(.type == "topology") | [.nodes[] | select(.has_memory) | .os_index] | @tsv')
    read -ra nodes <<<"$nodes"
    if ((${#nodes[@]} < 2)); then
        echo "# migrate: skipped: this machine has ${#nodes[@]} node(s) with memory; migspeed and hopbench migrate move pages between two"
        return 0
    fi
    local ms a=${nodes[0]} b=${nodes[1]} bytes=${MIGRATE_BYTES:-67108864} r line mb mp m
    local hb_mbind=0 hb_mp=0 mig=0 pages=4k thp0 thp_moved=0
    ms=$(migspeed_build)
    # migspeed's buffer takes whatever THP gives it: under THP "always" most of it moves as
    # 2 MiB pages (a 6.1 guest: 62 of 64 MiB). hopbench moves the same kind of pages, and the
    # THP migrations counted during migspeed's runs are printed as evidence.
    grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && pages=thp
    for ((r = 0; r < rounds; r++)); do
        line=$("$HOPBENCH" migrate --nodes "$a,$b" --pages "$pages" --size "$bytes" --quiet --format jsonl |
            jq -r -s --argjson a "$a" --argjson b "$b" '[.[] | select(.type == "measurement" and
                .src_node == $a and .dst_node == $b)] |
                [(.[] | select(.method == "mbind") | .value), (.[] | select(.method == "move_pages") | .value)] | @tsv')
        read -r mb mp <<<"$line"
        hb_mbind=$(max "$hb_mbind" "$mb") hb_mp=$(max "$hb_mp" "$mp")
        # migspeed prints MiB/s: GB/s as hopbench counts them.
        thp0=$(awk '$1 == "thp_migration_success" { print $2 }' /proc/vmstat)
        m=$("$ms" -p $((bytes / 4096)) "$a" "$b" | awk '/Mbytes\/second/ { printf "%.3f\n", $(NF-1) * 1048576 / 1e9 }')
        thp_moved=$((thp_moved + $(awk '$1 == "thp_migration_success" { print $2 }' /proc/vmstat) - ${thp0:-0}))
        mig=$(max "$mig" "$m")
    done
    echo "# page migration node $a -> node $b, $bytes bytes, hopbench --pages $pages (THP $(grep -o '\[[a-z]*\]' /sys/kernel/mm/transparent_hugepage/enabled)), GB/s, best of $rounds alternating runs"
    echo "# migspeed's runs moved $thp_moved THP page(s) of $((rounds * bytes / 2097152)) 2 MiB spans"
    printf '%-26s %10s %10s %6s\n' measure hopbench migspeed ratio
    printf '%-26s %10.3f %10.3f %6s\n' "mbind MPOL_MF_MOVE" "$hb_mbind" "$mig" "$(ratio "$hb_mbind" "$mig")"
    printf '%-26s %10.3f %10.3f %6s\n' "move_pages" "$hb_mp" "$mig" "$(ratio "$hb_mp" "$mig")"
}

# OSU's osu_latency and osu_bw, built once under /tmp from OSU_DIR's sources.
osu_build() {
    local src=${OSU_DIR:?peers.sh: comm needs OSU_DIR, a copy of OSU Micro-Benchmarks sources}
    local out=/tmp/hopbench-peers-osu b
    [[ -f $src/mpi/pt2pt/osu_latency.c ]] || { echo "peers.sh: OSU_DIR=$src has no mpi/pt2pt/osu_latency.c" >&2; exit 3; }
    mkdir -p "$out"
    for b in osu_latency osu_bw; do
        [[ -x $out/$b ]] || mpicc -O2 -I"$src/mpi/pt2pt" -I"$src" -DPACKAGE_VERSION='"peer"' \
            -o "$out/$b" "$src/mpi/pt2pt/$b.c" "$src/mpi/pt2pt/osu_pt2pt.c" >&2 || exit 3
    done
    echo "$out"
}

comm_section() {
    local osu hb_lat=0 hb_mean=0 hb_bw=0 hb_bwmed=0 osu_lat=0 osu_bw=0 r line lat mean bw bwmed
    osu=$(osu_build)
    hb_mpi_root_env
    # shellcheck disable=SC2206 # extra mpirun words
    local mpi=(mpirun -np 2 --bind-to core --map-by core ${MPIRUN_ARGS:-})
    # hopbench's headline (the median exchange; the best sample's bandwidth) and, like with
    # like, what OSU prints: the mean over a batch (its median batch) and the median sample.
    for ((r = 0; r < rounds; r++)); do
        line=$("${mpi[@]}" "$HOPBENCH" comm --size 4M --reps 5 --min-time "${COMM_MIN_TIME:-0.05}" --repeat 1 \
            --quiet --format jsonl | jq -r -s '[.[] | select(.type == "measurement" and .src_rank == 0)] |
            (.[] | select(.metric == "latency" and .message_bytes == 8)) as $l |
            (.[] | select(.metric == "bandwidth" and .message_bytes == 4194304)) as $b |
            [$l.value, $l.t_median_s / $l.iterations / 2 * 1e6, $b.value, $b.bw_GBps_median] | @tsv')
        read -r lat mean bw bwmed <<<"$line"
        hb_lat=$(min "$hb_lat" "$lat") hb_mean=$(min "$hb_mean" "$mean")
        hb_bw=$(max "$hb_bw" "$bw") hb_bwmed=$(max "$hb_bwmed" "$bwmed")
        osu_lat=$(min "$osu_lat" "$("${mpi[@]}" "$osu/osu_latency" | awk '$1 == 8 { print $2 }')")
        osu_bw=$(max "$osu_bw" "$("${mpi[@]}" "$osu/osu_bw" | awk '$1 == 4194304 { print $2 / 1000 }')")
    done
    echo "# two ranks on one node, best of $rounds alternating runs; osu: its mean over the loop"
    printf '%-28s %10s %10s %6s\n' measure hopbench osu ratio
    printf '%-28s %10.3f %10.3f %6s\n' "latency 8 B, p50 (us)" "$hb_lat" "$osu_lat" "$(ratio "$hb_lat" "$osu_lat")"
    printf '%-28s %10.3f %10.3f %6s\n' "latency 8 B, batch mean (us)" "$hb_mean" "$osu_lat" "$(ratio "$hb_mean" "$osu_lat")"
    printf '%-28s %10.3f %10.3f %6s\n' "bandwidth 4 MiB, best (GB/s)" "$hb_bw" "$osu_bw" "$(ratio "$hb_bw" "$osu_bw")"
    printf '%-28s %10.3f %10.3f %6s\n' "bandwidth 4 MiB, median" "$hb_bwmed" "$osu_bw" "$(ratio "$hb_bwmed" "$osu_bw")"
    echo "# targets: latency ratio <= 1.10, bandwidth ratio >= 0.95"
}

for section in $sections; do
    "${section}_section"
done
