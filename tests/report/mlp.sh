#!/usr/bin/env bash
# mlp.sh HOPBENCH - CTest (label cli): the report's memory-level parallelism figure. Chase
# records of two node pairs at chains 1, 4 and 8: one figure, one curve per pair named with
# its memory node's kind and kernel tier, a point per chain count at (loads_per_s in millions,
# latency per load), the chain count in the numbers table. A file of one chain count draws none.
HB=${1:?usage: mlp.sh HOPBENCH}
. "$(dirname "$0")/expect-lib.sh"
run='{"type":"run","schema_version":1,"hosts":["h"],"topology":{"nodes":[
  {"os_index":0,"kind":"DRAM","kernel_tier":4},{"os_index":2,"kind":"CXL-DRAM","kernel_tier":19}]}}'
chase() { # chase MEM CHAINS NS: a lat record with its loads a second
    jq -nc --argjson m "$1" --argjson c "$2" --argjson ns "$3" '{type: "measurement",
        suite: "lat", role: "foreground", host: "h", metric: "latency", kernel: "chase",
        cpu_node: 0, mem_node: $m, threads: 1, chains: $c, value: $ns, unit: "ns",
        ci95: [$ns * 0.9, $ns * 1.1], repeats: 5, loads_per_s: ($c * 1e9 / $ns)}'
}
{
    echo "$run" | jq -c .
    chase 0 1 100; chase 0 4 125; chase 0 8 160
    chase 2 1 250; chase 2 4 270; chase 2 8 320
} >"$tmp/mlp.jsonl"
"$HB" report "$tmp/mlp.jsonl" -o "$tmp/r.html"
expect "report exits 0" [ $? = 0 ]
fig=$(sed -n '/<section id="mlp">/,/<\/section>/p' "$tmp/r.html")
expect "one latency-per-load figure" [ "$(grep -c 'data-metric="latency per load"' <<<"$fig")" = 1 ]
expect "two curves" [ "$(grep -c '<polyline' <<<"$fig")" = 2 ]
expect "six points, one per chain count and pair" [ "$(grep -c 'class="pt"' <<<"$fig")" = 6 ]
expect "8 chains at 160 ns: 50 million loads a second" grep -q 'data-x="50" data-y="160" data-level="8"' <<<"$fig"
expect "the CXL pair's 8 chains at 25 million loads a second" grep -q 'data-x="25" data-y="320" data-level="8"' <<<"$fig"
expect "axes in words" grep -q '>million loads per second (all chains)<' <<<"$fig"
expect "the legend names the pair with its kind and kernel tier" \
    grep -q '<text [^>]*>h: CPU node 0 → memory node 2 (CXL-DRAM, kernel memory_tier19)</text>' <<<"$fig"
expect "the table gives the chain count" grep -q '<th>chains</th>' <<<"$fig"
{
    echo "$run" | jq -c .
    chase 0 1 100; chase 2 1 250
} >"$tmp/one.jsonl"
"$HB" report "$tmp/one.jsonl" -o "$tmp/one.html"
expect "one chain count: no figure" [ "$(grep -c 'id="mlp"' "$tmp/one.html")" = 0 ]
expect_done
