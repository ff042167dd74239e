#!/usr/bin/env bash
# sweep plans on hwloc XML fixtures (--dry-run): sizes doubling from 1 KiB (the chase: from 16
# strides), capped by --max-size and 2 GiB, 4k and THP series for chase and memcpy, cache
# marks where each kernel's footprint outgrows a level (the chase: a 128-byte line pair per
# stride, docs/method.md#cache-levels).
# usage: sweep-plan.sh HOPBENCH FIXTURES_DIR
set -euo pipefail
hb=$1 fx=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
plan() { "$hb" --topology "$fx/$1" sweep --dry-run "${@:2}"; }
# The plan's experiment records (its last, the plan_summary, is checked in cli.plan-summary).
q() { local file=$1; shift; jq -c 'select(.type == "experiment")' "$file" | jq -cs "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# quartet: L1 48 KiB, L2 1 MiB, L3 16 MiB per core; 16 GiB per node.
plan 4n-quartet.xml --max-size 64M --cpu-node 1 --mem-node 2 > "$tmp/q.jsonl"
sizes='[1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864]'
chase_sizes='[4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864]'
for k in chase memcpy; do
  want=$sizes; [ $k = chase ] && want=$chase_sizes
  for p in 4k thp; do
    got=$(q "$tmp/q.jsonl" --arg k "$k" --arg p "$p" '[.[] | select(.tasks[0].kernel==$k and .tasks[0].pages==$p) | .ws_bytes]')
    [ "$got" = "$want" ] || fail "$k $p sizes: $got"
  done
done
[ "$(q "$tmp/q.jsonl" 'length')" = 64 ] || fail "quartet: $(q "$tmp/q.jsonl" 'length') experiments, want (15 chase + 17 memcpy sizes) x 2 pages"
[ "$(q "$tmp/q.jsonl" '[.[] | select(.tasks[0].kernel=="chase") | [.tasks[0].chase_stride, .tasks[0].chase_group_bytes, .touched_bytes * 2 == .ws_bytes]] | unique')" = '[[256,262144,true]]' ] || fail "chase method: default stride and group, half the set held (a line pair per 256 bytes)"
[ "$(q "$tmp/q.jsonl" '[.[] | .ws_bytes == .tasks[0].bytes] | unique')" = "[true]" ] || fail "ws_bytes is the task's working set"
[ "$(q "$tmp/q.jsonl" '[.[] | [.tasks[0].cpu_node, .tasks[0].mem_node, .tasks[0].policy, .tasks[0].threads]] | unique')" = '[[1,2,"bind",1]]' ] || fail "placement"
[ "$(q "$tmp/q.jsonl" '[.[] | [.suite, .metric, .tasks[0].kernel]] | unique')" = '[["sweep","bandwidth","memcpy"],["sweep","latency","chase"]]' ] || fail "metrics"
[ "$(q "$tmp/q.jsonl" '[.[].cache_bytes] | unique')" = "[[49152,1048576,16777216,0]]" ] || fail "cache sizes: $(q "$tmp/q.jsonl" '[.[].cache_bytes] | unique')"
# a mark on the largest size that fits each level: 32 KiB (L1 48 KiB), 1 MiB, 16 MiB; the
# chase, holding half the set at stride 256, fits each level up to 2x that size.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.cache_end and .tasks[0].kernel=="memcpy") | [.ws_bytes, .cache_end]] | unique')" = '[[32768,"L1"],[1048576,"L2"],[16777216,"L3"]]' ] || fail "memcpy cache marks: $(q "$tmp/q.jsonl" '[.[] | select(.cache_end) | [.ws_bytes, .cache_end]] | unique')"
[ "$(q "$tmp/q.jsonl" '[.[] | select(.cache_end and .tasks[0].kernel=="chase") | [.ws_bytes, .cache_end]] | unique')" = '[[65536,"L1"],[2097152,"L2"],[33554432,"L3"]]' ] || fail "chase cache marks: $(q "$tmp/q.jsonl" '[.[] | select(.cache_end and .tasks[0].kernel=="chase") | [.ws_bytes, .cache_end]] | unique')"
# a stride list: one chase curve per stride; stride 64 holds every line, marks as memcpy's.
plan 4n-quartet.xml --max-size 64M --stride 64,512 > "$tmp/l.jsonl"
[ "$(q "$tmp/l.jsonl" '[.[] | select(.tasks[0].kernel=="chase") | .tasks[0].chase_stride] | unique')" = '[64,512]' ] || fail "stride list"
[ "$(q "$tmp/l.jsonl" '[.[] | select(.tasks[0].chase_stride==64) | .ws_bytes] | min')" = 1024 ] || fail "stride 64 starts at 1 KiB"
[ "$(q "$tmp/l.jsonl" '[.[] | select(.tasks[0].chase_stride==512) | .ws_bytes] | min')" = 8192 ] || fail "stride 512 starts at 16 lines"
[ "$(q "$tmp/l.jsonl" '[.[] | select(.cache_end and .tasks[0].chase_stride==64) | [.ws_bytes, .cache_end]] | unique')" = '[[32768,"L1"],[1048576,"L2"],[16777216,"L3"]]' ] || fail "stride 64 marks"
[ "$(q "$tmp/l.jsonl" '[.[].name | select(startswith("sweep-chase512-4k"))] | length')" = 14 ] || fail "stride 512 names"

# default top: 2 GiB on a 16 GiB node; --max-size rounds down to a doubling step.
plan 4n-quartet.xml > "$tmp/d.jsonl"
[ "$(q "$tmp/d.jsonl" '[.[].ws_bytes] | max')" = 2147483648 ] || fail "default top"
plan 4n-quartet.xml --max-size 3M > "$tmp/m.jsonl"
[ "$(q "$tmp/m.jsonl" '[.[].ws_bytes] | max')" = 2097152 ] || fail "3M cap: $(q "$tmp/m.jsonl" '[.[].ws_bytes] | max')"
# one cache level only (1n-single: L3 8 MiB).
plan 1n-single.xml --max-size 16M > "$tmp/s.jsonl"
[ "$(q "$tmp/s.jsonl" '[.[] | select(.cache_end) | [.tasks[0].kernel, .ws_bytes, .cache_end]] | unique')" = '[["chase",16777216,"L3"],["memcpy",8388608,"L3"]]' ] || fail "single marks"

set +e
out=$(plan 4n-quartet.xml --mem-node 7 2>&1); rc=$?
[ $rc = 2 ] && grep -q -- "--mem-node 7: no such NUMA node" <<<"$out" || fail "bad node: rc $rc: $out"
out=$(plan 4n-quartet.xml --max-size 512 2>&1); rc=$?
[ $rc = 2 ] && grep -q "at least 1K" <<<"$out" || fail "tiny max: rc $rc: $out"
out=$(plan 4n-quartet.xml --size 64M 2>&1); rc=$?
[ $rc = 2 ] && grep -q "no --size" <<<"$out" || fail "--size: rc $rc: $out"
echo ok
