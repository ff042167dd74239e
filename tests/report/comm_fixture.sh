#!/usr/bin/env bash
# comm_fixture.sh HOPBENCH TOPOLOGY.xml REAL.jsonl - writes to stdout a comm run of the machine
# in the hwloc XML, for drawing only (this machine has one NUMA node): the pairs, hop classes
# and sizes are the real plan of `comm --dry-run`, each pair's figures those of REAL (a real
# comm run of two ranks on one node, the same --size) at its metric and size, made up by
# scaling with the hop class (latency x (1 + hops / 2) x a per-pair 1.00..1.08, bandwidth
# divided by that); the pairs from node 0 once more to a second host (4x latency, a quarter
# of the bandwidth); and per host of its own pairs the comm_matrix records hb_comm_derive.c
# makes (median per node pair, latency at the smallest size, bandwidth at the largest).
set -eu
hb=$1 xml=$2 real=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
size=$(jq -s '[.[] | select(.type == "measurement") | .message_bytes] | max' "$real")
"$hb" comm --dry-run --quiet --size "$size" --topology "$xml" -o "$tmp/plan.jsonl"
jq -c --slurp '
  def nodes: [.[] | select(.type=="experiment") | .src_node] | unique;
  {type:"run", schema_version:1, command:"comm", hosts:["snc4", "snc4-b"], ranks:(nodes|length),
   command_line:"hopbench comm (plan of 2s-4n-snc.xml; figures of a same-node pair of this machine, scaled by hop class: made up)",
   topology:{nodes:[nodes[] | {os_index:., cpus:[2*., 2*.+1], mem_bytes:8589934592}]}}' \
    "$tmp/plan.jsonl" >"$tmp/run.jsonl"
jq -c --slurpfile real "$real" '
  ($real | map(select(.type == "measurement")) | INDEX("\(.metric) \(.message_bytes)")) as $fig |
  def scaled($k; $lat): . as $v | if $v == null then null
    elif ($v | type) == "array" then map(scaled($k; $lat)) elif $lat then $v * $k else $v / $k end;
  def pair($src_host; $dst_host; $hops; $k):
    . as $e | $fig["\($e.metric) \($e.message_bytes)"] | ($e.metric == "latency") as $lat |
    . + {host:$src_host, src_host:$src_host, dst_host:$dst_host, src_node:$e.src_node,
         dst_node:$e.dst_node, cpu_node:$e.src_node, mem_node:$e.src_mem_node, hops:$hops,
         src_mem_node:$e.src_mem_node, dst_mem_node:$e.dst_mem_node,
         label:"r\($e.src_node).n\($e.src_node)-r\($e.dst_node).n\($e.dst_node)",
         value:(.value | scaled($k; $lat)), ci95:(.ci95 | scaled($k; $lat)),
         repeat_values:(.repeat_values | scaled($k; $lat)), p50_us:(.p50_us | scaled($k; $lat))};
  select(.type == "experiment") |
  ((1 + .hops / 2) * (1 + ((.src_node * 3 + .dst_node) % 5) / 50)) as $k |
  pair("snc4"; "snc4"; .hops; $k), (select(.src_node == 0) | pair("snc4"; "snc4-b"; null; 4))' \
    "$tmp/plan.jsonl" >"$tmp/pairs.jsonl"
jq -c --slurp '
  def median: sort | length as $n | if $n % 2 == 1 then .[($n - 1) / 2]
    else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
  [.[] | select(.src_host == .dst_host)] as $p | ($p | map(.src_node) | unique) as $nodes |
  ($p | map(.message_bytes)) as $sizes | $p[0].src_host as $host |
  (["latency", "us", ($sizes | min)], ["bandwidth", "GBps", ($sizes | max)]) as [$m, $u, $b] |
  {type:"comm_matrix", suite:"comm", host:$host, metric:$m, unit:$u, message_bytes:$b,
   rows:$nodes, cols:$nodes,
   values:[$nodes[] as $s | [$nodes[] as $d | [$p[] | select(.metric == $m and
     .message_bytes == $b and .src_node == $s and .dst_node == $d) | .value] |
     if length > 0 then median else null end]],
   hop_class:[$nodes[] as $s | [$nodes[] as $d |
     first($p[] | select(.src_node == $s and .dst_node == $d) | .hops)]]}' \
    "$tmp/pairs.jsonl" >"$tmp/matrices.jsonl"
cat "$tmp/run.jsonl" "$tmp/pairs.jsonl" "$tmp/matrices.jsonl"
