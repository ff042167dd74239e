#!/usr/bin/env bash
# policy plans on hwloc XML fixtures (--dry-run): which node holds each policy's memory,
# one task per CPU node in rate mode, one in single mode, and the intensity steps.
# usage: policy-plan.sh HOPBENCH FIXTURES_DIR
set -euo pipefail
hb=$1 fx=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
plan() { "$hb" --topology "$fx/$1" policy --dry-run "${@:2}"; }
# jq over the plan; prints the result compactly.
# The plan's experiment records (its last, the plan_summary, is checked in cli.plan-summary).
q() { local file=$1; shift; jq -c 'select(.type == "experiment")' "$file" | jq -cs "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

plan 4n-quartet.xml --kernel triad,chase --size 64M > "$tmp/q.jsonl"
[ "$(q "$tmp/q.jsonl" 'length')" = 20 ] || fail "quartet: $(q "$tmp/q.jsonl" 'length') experiments, want 2 workloads x 5 policies x 2 modes"
# rate: a task on every CPU node; single: one, on the first CPU node.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.mode=="rate") | .tasks | length] | unique')" = "[4]" ] || fail "rate tasks"
[ "$(q "$tmp/q.jsonl" '[.[] | select(.mode=="single") | .tasks[].cpu_node] | unique')" = "[0]" ] || fail "single cpu node"
# interleave spreads over every node with memory.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.policy=="interleave") | .tasks[] | .mem_nodes] | unique')" = "[[0,1,2,3]]" ] || fail "interleave set"
# one-node: everything on node 0, strict bind.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.policy=="one-node") | .tasks[] | [.policy, .mem_node]] | unique')" = '[["bind",0]]' ] || fail "one-node"
# remote: the farthest node by distance (quartet: 0<->3 and 1<->2 are 2 hops).
[ "$(q "$tmp/q.jsonl" '[.[] | select(.policy=="remote" and .mode=="rate") | .tasks[] | [.cpu_node, .mem_node, .hops]] | unique')" = '[[0,3,2],[1,2,2],[2,1,2],[3,0,2]]' ] || fail "remote: $(q "$tmp/q.jsonl" '[.[] | select(.policy=="remote" and .mode=="rate") | .tasks[] | [.cpu_node, .mem_node, .hops]] | unique')"
# local: first touch by the task's threads; os: first touch by its master, any node accepted.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.policy=="local") | .tasks[] | [.policy, .touch]] | unique')" = '[["firsttouch",null]]' ] || fail "local"
[ "$(q "$tmp/q.jsonl" '[.[] | select(.policy=="os") | .tasks[] | [.policy, .touch, .mem_nodes]] | unique')" = '[["firsttouch","master",[0,1,2,3]]]' ] || fail "os"
# chase: one thread; triad: every core of the node.
[ "$(q "$tmp/q.jsonl" '[.[] | select(.workload=="chase") | .tasks[].threads] | unique')" = "[1]" ] || fail "chase threads"

# memory-only nodes get no task but are memory targets: remote picks them, interleave spans them.
plan 4n-memonly.xml --kernel read --mode rate --size 16M > "$tmp/m.jsonl"
[ "$(q "$tmp/m.jsonl" '[.[] | .tasks[].cpu_node] | unique')" = "[0,1]" ] || fail "memonly cpu nodes"
[ "$(q "$tmp/m.jsonl" '[.[] | select(.policy=="interleave") | .tasks[].mem_nodes] | unique')" = "[[0,1,2,3]]" ] || fail "memonly interleave"
[ "$(q "$tmp/m.jsonl" '[.[] | select(.policy=="remote") | .tasks[].mem_node] | sort')" = "[2,3]" ] || fail "memonly remote: $(q "$tmp/m.jsonl" '[.[] | select(.policy=="remote") | .tasks[].mem_node]')"

# --intensity: 1/8 .. 64 in 10 octave steps under local, remote and interleave.
plan 4n-quartet.xml --intensity --mode single --size 16M > "$tmp/i.jsonl"
[ "$(q "$tmp/i.jsonl" '[.[].intensity] | unique')" = "[0.125,0.25,0.5,1,2,4,8,16,32,64]" ] || fail "intensities"
[ "$(q "$tmp/i.jsonl" '[.[].policy] | unique')" = '["interleave","local","remote"]' ] || fail "intensity policies"
[ "$(q "$tmp/i.jsonl" '[.[].tasks[0].param] | unique | length')" = 10 ] || fail "task param"

# bad input: a workload that does not exist, a mode that does not exist, --intensity with --kernel.
set +e
out=$(plan 4n-quartet.xml --kernel nosuch 2>&1); rc=$?
[ $rc = 2 ] && grep -q "unknown kernel 'nosuch'" <<<"$out" || fail "unknown workload: rc $rc: $out"
out=$(plan 4n-quartet.xml --mode fast 2>&1); rc=$?
[ $rc = 2 ] && grep -q "invalid --mode 'fast'" <<<"$out" || fail "bad mode: rc $rc: $out"
out=$(plan 4n-quartet.xml --intensity --kernel triad 2>&1); rc=$?
[ $rc = 2 ] && grep -q "drop --kernel" <<<"$out" || fail "--intensity --kernel: rc $rc: $out"
echo ok
