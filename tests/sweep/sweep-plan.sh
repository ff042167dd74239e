#!/usr/bin/env bash
# sweep plans on hwloc XML fixtures (--dry-run): sizes doubling from 1 KiB, capped by
# --max-size and 2 GiB, 4k and THP series for chase and memcpy, cache marks from hwloc.
# usage: sweep-plan.sh HOPBENCH FIXTURES_DIR
set -euo pipefail
hb=$1 fx=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
plan() { "$hb" --topology "$fx/$1" sweep --dry-run "${@:2}"; }
q() { local file=$1; shift; jq -cs "$@" "$file"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# quartet: L1 48 KiB, L2 1 MiB, L3 16 MiB per core; 16 GiB per node.
plan 4n-quartet.xml --max-size 64M --cpu-node 1 --mem-node 2 > "$tmp/q.jsonl"
sizes='[1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864]'
for k in chase memcpy; do
  for p in 4k thp; do
    got=$(q "$tmp/q.jsonl" --arg k "$k" --arg p "$p" '[.[] | select(.tasks[0].kernel==$k and .tasks[0].pages==$p) | .ws_bytes]')
    [ "$got" = "$sizes" ] || fail "$k $p sizes: $got"
  done
done
[ "$(q "$tmp/q.jsonl" 'length')" = 68 ] || fail "quartet: $(q "$tmp/q.jsonl" 'length') experiments, want 17 sizes x 2 pages x 2 kernels"
[ "$(q "$tmp/q.jsonl" '[.[] | .ws_bytes == .tasks[0].bytes] | unique')" = "[true]" ] || fail "ws_bytes is the task's working set"
[ "$(q "$tmp/q.jsonl" '[.[] | [.tasks[0].cpu_node, .tasks[0].mem_node, .tasks[0].policy, .tasks[0].threads]] | unique')" = '[[1,2,"bind",1]]' ] || fail "placement"
[ "$(q "$tmp/q.jsonl" '[.[] | [.suite, .metric, .tasks[0].kernel]] | unique')" = '[["sweep","bandwidth","memcpy"],["sweep","latency","chase"]]' ] || fail "metrics"
[ "$(q "$tmp/q.jsonl" '[.[].cache_bytes] | unique')" = "[[49152,1048576,16777216,0]]" ] || fail "cache sizes: $(q "$tmp/q.jsonl" '[.[].cache_bytes] | unique')"
# a mark on the largest size that fits each level: 32 KiB (L1 48 KiB), 1 MiB, 16 MiB.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.cache_end) | [.ws_bytes, .cache_end]] | unique')" = '[[32768,"L1"],[1048576,"L2"],[16777216,"L3"]]' ] || fail "cache marks: $(q "$tmp/q.jsonl" '[.[] | select(.cache_end) | [.ws_bytes, .cache_end]] | unique')"

# default top: 2 GiB on a 16 GiB node; --max-size rounds down to a doubling step.
plan 4n-quartet.xml > "$tmp/d.jsonl"
[ "$(q "$tmp/d.jsonl" '[.[].ws_bytes] | max')" = 2147483648 ] || fail "default top"
plan 4n-quartet.xml --max-size 3M > "$tmp/m.jsonl"
[ "$(q "$tmp/m.jsonl" '[.[].ws_bytes] | max')" = 2097152 ] || fail "3M cap: $(q "$tmp/m.jsonl" '[.[].ws_bytes] | max')"
# one cache level only (1n-single: L3 8 MiB).
plan 1n-single.xml --max-size 16M > "$tmp/s.jsonl"
[ "$(q "$tmp/s.jsonl" '[.[] | select(.cache_end) | [.ws_bytes, .cache_end]] | unique')" = '[[8388608,"L3"]]' ] || fail "single marks"

set +e
out=$(plan 4n-quartet.xml --mem-node 7 2>&1); rc=$?
[ $rc = 2 ] && grep -q -- "--mem-node 7: no such NUMA node" <<<"$out" || fail "bad node: rc $rc: $out"
out=$(plan 4n-quartet.xml --max-size 512 2>&1); rc=$?
[ $rc = 2 ] && grep -q "at least 1K" <<<"$out" || fail "tiny max: rc $rc: $out"
out=$(plan 4n-quartet.xml --size 64M 2>&1); rc=$?
[ $rc = 2 ] && grep -q "no --size" <<<"$out" || fail "--size: rc $rc: $out"
echo ok
