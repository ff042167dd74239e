#!/usr/bin/env bash
# c2c bad input: exit 2 and one line naming the value and what is valid. The plan (--dry-run)
# on fixtures: every experiment a pinned pair whose line is where --home says, one cell per
# node pair that can be measured, the pairs --cores adds, and a note-free refusal of none.
# usage: c2c-cli.sh HOPBENCH FIXTURES
set -uo pipefail
hb=$1 fx=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # CODE TEXT ARGS...
  local code=$1 text=$2; shift 2
  out=$(env -u OMPI_COMM_WORLD_SIZE "$@" 2>&1); rc=$?
  [ "$rc" = "$code" ] || fail "$* -> exit $rc, expected $code: $out"
  grep -qF -- "$text" <<<"$out" || fail "$* -> '$out' lacks '$text'"
}
expect 2 "--home 5: no such NUMA node; nodes with memory: " "$hb" c2c --home 5
expect 2 "invalid --home 'x': expected writer, reader or a node number" "$hb" c2c --home x
expect 2 "invalid --home '-1'" "$hb" c2c --home -1
expect 2 "run it without mpirun/srun" env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$hb" c2c
expect 2 "--home 1: node 1 has no memory" "$hb" c2c --dry-run --topology "$fx/2n-memless.xml" --home 1
expect 2 "describes another machine" "$hb" c2c --topology "$fx/4n-quartet.xml"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in 1n-single 2n-memless 4n-memonly 4n-quartet 8n-ladder; do
  for home in writer reader; do
    "$hb" c2c --dry-run --cores --topology "$fx/$f.xml" --home $home >"$tmp/all" 2>"$tmp/err" ||
      fail "$f --home $home: $(cat "$tmp/err")"
    # The experiments; the last record, the plan_summary, is checked in cli.plan-summary.
    jq -c 'select(.type != "plan_summary")' "$tmp/all" >"$tmp/plan"
    "$hb" topo --topology "$fx/$f.xml" --format jsonl >"$tmp/topo" || fail "$f: topo"
    # Every experiment is two one-thread tasks of one pair kernel on two different CPUs.
    bad=$(jq -c 'select(.type != "experiment" or .suite != "c2c" or (.tasks | length) != 2
                 or ([.tasks[].threads] != [1, 1]) or .tasks[0].kernel != .tasks[1].kernel
                 or (.tasks[0].kernel | IN("pingpong", "fs_shared", "fs_padded", "spinlock", "mutex") | not)
                 or .cpus[0] == .cpus[1]) | .name' "$tmp/plan")
    [ -z "$bad" ] || fail "$f: not pinned pairs: $bad"
    # The line lives on the writer's (or the reader's) node, which has memory.
    t=$([ $home = writer ] && echo 0 || echo 1)
    bad=$(jq -c --slurpfile topo "$tmp/topo" '
          ($topo[0].nodes | map(select(.has_memory) | .os_index)) as $mem
          | select(.home != "'$home'" or ([.tasks[].mem_node] | unique) != [.tasks['$t'].cpu_node]
                   or (.tasks[0].mem_node | IN($mem[]) | not)) | .name' "$tmp/plan")
    [ -z "$bad" ] || fail "$f --home $home: line not on the $home's node: $bad"
    # Node cells: every pair of CPU nodes whose home node has memory, the diagonal when the
    # node has two CPUs; core cells: every ordered pair of CPUs whose home node has memory.
    want=$(jq -c '[.nodes[] | select(.has_cpus)] as $n | [$n[] as $r | $n[] as $k
                  | select(if "'$home'" == "writer" then $r else $k end | .has_memory)
                  | select($r.os_index != $k.os_index or ($r.cpus | length) > 1)
                  | "pingpong.node.\($r.os_index)-\($k.os_index)"] | sort' "$tmp/topo")
    got=$(jq -cs '[.[] | select(.axis == "node") | .name] | sort' "$tmp/plan")
    [ "$got" = "$want" ] || fail "$f --home $home: node cells $got, expected $want"
    want=$(jq -c '[.nodes[] | .has_memory as $m | .cpus[] | {cpu: ., m: $m}] as $c
                  | [$c[] as $r | $c[] as $k | select($r.cpu != $k.cpu)
                  | select(if "'$home'" == "writer" then $r.m else $k.m end)] | length' "$tmp/topo")
    got=$(jq -s '[.[] | select(.axis == "core")] | length' "$tmp/plan")
    [ "$got" = "$want" ] || fail "$f --home $home: $got core cells, expected $want"
  done
done
# A node given with --home holds every line.
[ "$("$hb" c2c --dry-run --topology "$fx/4n-memonly.xml" --home 2 | jq -cs '[.[] | select(.tasks) | .tasks[].mem_node] | unique')" = "[2]" ] ||
  fail "--home 2 does not place every line on node 2"
echo ok
