#!/usr/bin/env bash
# Schema of a real run's JSON Lines: every key docs/records.md promises, with its type, in the
# run record and in every measurement record; CSV carries the same keys in the same order.
set -euo pipefail
HB=${HOPBENCH:?HOPBENCH must name the hopbench binary}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
common=(--size 8M --reps 3 --min-time 0.005 --repeat 3)
"$HB" bw --kernel read,triad --threads 1 "${common[@]}" --format jsonl -o r.jsonl
"$HB" lat "${common[@]}" --format jsonl >>r.jsonl
"$HB" bw --kernel read,triad --threads 1 "${common[@]}" --format csv -o r.csv

fails=0
check() { # check WHAT JQ-FILTER (must print true for the file)
    if [ "$(jq -s "$2" r.jsonl)" != true ]; then
        echo "FAIL: $1"
        fails=$((fails + 1))
    fi
}
check "first record is the run record" '.[0].type == "run"'
check "run record keys and types" '[.[] | select(.type == "run")] | all(
    (.schema_version | type) == "number" and (.hopbench_version | type) == "string" and
    (.git_sha | type) == "string" and (.command_line | test("hopbench")) and
    (.start_time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T")) and (.hosts | length) == 1 and
    .ranks == 1 and (.rank_layout[0] | has("rank") and has("host") and has("node") and has("cpus")) and
    (.versions | has("hwloc") and has("mpi") and has("mpi_library") and has("compiler") and has("jansson")) and
    (.build | has("type") and has("c_flags")) and (.simd | IN("avx512", "avx2", "sse2", "c")) and
    (.omp | has("places") and has("proc_bind") and has("set_by_hopbench")) and
    (.thp | has("enabled") and has("defrag")) and has("numa_balancing") and
    (.config | type) == "object" and (.config_unreadable | type) == "object" and
    .config.thp_enabled == .thp.enabled and .config.numa_balancing == .numa_balancing and
    (.topology.nodes | length) >= 1 and (.topology | has("distances") and has("hop_class")) and
    (.sizes | has("llc_bytes") and has("default_bytes") and has("size_source")) and
    .timer.clock == "CLOCK_MONOTONIC" and .timer.granularity_s > 0 and
    .seed == 1 and .statistics.repeats == 3 and .statistics.reps == 3 and .statistics.noise_pct == 5 and
    .statistics.ci_level == 0.95 and (.statistics.ci_method | test("order statistics")))'
check "measurement keys and types" '[.[] | select(.type == "measurement")] | length == 3 and all(
    (.suite | type) == "string" and (.experiment | type) == "string" and
    (.label | test("^[0-9]+\\.[0-9]+\\.(r|w|rw)\\.[0-9]+$")) and (.host | type) == "string" and
    .rank == 0 and (.metric | IN("latency", "bandwidth")) and (.kernel | type) == "string" and
    (.access | IN("r", "w", "rw")) and .role == "foreground" and .cpu_node == 0 and
    .mem_node == 0 and .policy == "bind" and .mem_nodes == [0] and .hops == 0 and
    .threads == 1 and (.thread_cpus | length) == 1 and .threads_on_node == 1 and
    .bytes == 8388608 and .array_bytes > 0 and .pages == "4k" and
    .pages_on_target_pct == 100 and .pages_share_pct == {"0": 100} and .reps == 3 and
    (.samples_s | length) == 3 and .sweeps_per_sample >= 1 and
    .t_min_s > 0 and .t_min_s <= .t_median_s and .t_median_s <= .t_p95_s and
    .t_p95_s <= .t_max_s and .t_mean_s > 0 and .t_cv >= 0 and
    (if .metric == "latency" then .lat_ns_median > 0 and .lat_ns_min <= .lat_ns_median and
       .chase_stride == 256 and .chase_group_bytes == 262144
     else .bw_GBps_best >= .bw_GBps_median and .bw_GBps_median > 0 and
       (.bw_GBps_best_wa_model / .bw_GBps_best * 1e6 | round) ==
         (if .kernel == "triad" then 1333333 else 1000000 end) and
       .chase_stride == null and .chase_group_bytes == null end) and
    has("relative") and .fg_start_s < .fg_end_s and .background == [] and
    .bg_overlap == null and (.simd | type) == "string" and .elapsed_s > 0 and
    .status == "ok" and .note == "")'
# Three repeats: the headline is their median, the interval their range (coverage 1 - 2/8),
# and the samples are those of the median repeat.
check "repeats, value and interval" '[.[] | select(.type == "measurement")] | all(
    .repeats == 3 and (.repeat_values | length) == 3 and (.repeat_values | all(. > 0)) and
    .value == (.repeat_values | sort | .[1]) and
    .ci95 == [(.repeat_values | min), (.repeat_values | max)] and .ci_coverage == 0.75 and
    .unit == (if .metric == "latency" then "ns" else "GBps" end) and
    .value == (if .metric == "latency" then .lat_ns_median else .bw_GBps_best end) and
    .noisy == ((.ci95[1] - .ci95[0]) / 2 > 0.05 * .value) and
    ([.repeat_values[] | log] as $l | ($l | add / length) as $m |
     (($l | map((. - $m) * (. - $m)) | add) / 2 | sqrt * 100) as $sd |
     (.spread_pct - $sd | fabs) < 1e-6 * ($sd + 1)))'
check "summary counts the noisy figures" '[.[] | select(.type == "summary")] | all(.noisy >= 0)'
check "summary has the median spread and the estimate" '[.[] | select(.type == "summary")] |
    all((.spread_pct_median | type) == "number" and .estimate_s > 0)'
check "summary closes each run" '[.[] | select(.type == "summary")] | length == 2'
header=$(head -1 r.csv)
# an interval (KEY ending ci95) is two CSV columns, KEY_lo and KEY_hi
keys=$(jq -r -s '[.[] | select(.type == "measurement")][0] | keys_unsorted |
    map(if endswith("ci95") then "\(.)_lo", "\(.)_hi" else . end) | join(",")' r.jsonl)
if [ "$header" != "$keys" ]; then
    echo "FAIL: CSV header differs from the JSON keys"
    echo "  csv:  $header"
    echo "  json: $keys"
    fails=$((fails + 1))
fi
[ "$(wc -l <r.csv)" = 3 ] || { echo "FAIL: CSV should have a header and 2 rows"; fails=$((fails + 1)); }
# A stride list is swept by lat, each record with its own stride; --tlb-group all records
# one thread's share of the buffer as the group.
"$HB" lat "${common[@]}" --stride 64,256 --tlb-group all --format jsonl -o s.jsonl
if [ "$(jq -c -s '[.[] | select(.type == "measurement") | [.chase_stride, .chase_group_bytes, .status]]' s.jsonl)" != \
    '[[64,8388608,"ok"],[256,8388608,"ok"]]' ]; then
    echo "FAIL: lat --stride 64,256 --tlb-group all: $(jq -c -s '[.[] | select(.type == "measurement") | [.chase_stride, .chase_group_bytes, .status]]' s.jsonl)"
    fails=$((fails + 1))
fi
# One repeat bounds nothing: no interval, and the figure counts as noisy.
"$HB" lat --size 8M --reps 2 --min-time 0.005 --repeat 1 --format jsonl -o one.jsonl
if [ "$(jq -c -s '[.[] | select(.type == "measurement") | [.repeats, (.repeat_values | length), .ci95, .ci_coverage, .noisy, .value == .lat_ns_median]]' one.jsonl)" != \
    '[[1,1,null,null,true,true]]' ] || [ "$(jq -s -c '[.[] | .spread_pct, .spread_pct_median | select(. != null)]' one.jsonl)" != '[]' ]; then
    echo "FAIL: --repeat 1: $(jq -c -s '[.[] | select(.type == "measurement") | [.repeats, .ci95, .noisy]]' one.jsonl)"
    fails=$((fails + 1))
fi
[ "$fails" = 0 ] && echo PASS
exit "$fails"
