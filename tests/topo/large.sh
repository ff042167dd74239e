#!/usr/bin/env bash
# large.sh HOPBENCH FIXTURES [FILE...] - CTest (label topo): the large synthetic machines
# (fixtures/make-large.sh: 64 CPU nodes with memory-only nodes 252-267, and 8 nodes numbered
# up to 73) planned by every suite's --dry-run:
#  - exit 0; the launch lines complete, one rank per CPU node;
#  - tasks on CPU nodes only, memory on nodes with memory only, interleave and os sets equal
#    to every node with memory (OS indexes past 63 and 255 included);
#  - --nodes LIST: plans only on those nodes; a bad list is one line naming the value and
#    the valid nodes, exit 2;
#  - the time each plan takes (printed; only a gross slowdown fails, timings are noisy).
# Checks stream the plan line by line (jq without slurping): a hops plan here is 19k
# experiments of up to 65 tasks.
# shellcheck disable=SC2016
set -uo pipefail
HB=${1:?usage: large.sh HOPBENCH FIXTURES [FILE...]}
DIR=${2:?usage: large.sh HOPBENCH FIXTURES [FILE...]}
shift 2
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
# A plan that takes this long is broken, not slow (a plan here takes well under 5 s).
SLOW_S=60
[ $# -gt 0 ] || set -- 64c16m-hi-numbers.xml 8n-amd-numbers.xml

# Per-task checks; $cpu and $mem map OS index -> true, $all is the sorted list with memory.
task_checks='
select(.type == "experiment") | .name as $n | .policy as $p | .tasks[] |
(select($cpu[.cpu_node | tostring] | not) | "\($n): task on node \(.cpu_node), not a CPU node"),
(select(.mem_node != null and ($mem[.mem_node | tostring] | not)) | "\($n): memory on node \(.mem_node), which has none"),
(select(.policy == "interleave" and .mem_nodes != $all) | "\($n): interleave over \(.mem_nodes)"),
(select($p == "os" and .mem_nodes != $all) | "\($n): os set \(.mem_nodes)"),
(. as $k | select($only != null and (($only | index($k.cpu_node)) == null or
   ($k.mem_node != null and ($only | index($k.mem_node)) == null)))
   | "\($n): task \($k.cpu_node)->\($k.mem_node) outside --nodes \($only)")
'

for name in "$@"; do
    f=$DIR/$name
    "$HB" topo --topology "$f" --format jsonl >"$tmp/topo" 2>"$tmp/topo.err" || {
        fail "$name: topo exit $?: $(<"$tmp/topo.err")"
        continue
    }
    ncpu=$(jq '[.nodes[] | select(.has_cpus)] | length' "$tmp/topo")
    nmem=$(jq '[.nodes[] | select(.has_memory)] | length' "$tmp/topo")
    cpu=$(jq -c '[.nodes[] | select(.has_cpus) | {key: (.os_index | tostring), value: true}] | from_entries' "$tmp/topo")
    mem=$(jq -c '[.nodes[] | select(.has_memory) | {key: (.os_index | tostring), value: true}] | from_entries' "$tmp/topo")
    all=$(jq -c '[.nodes[] | select(.has_memory) | .os_index]' "$tmp/topo")
    # one rank per CPU node: -np N in one app context (HOPBENCH_RANK_CPUS: one list per CPU
    # node); srun's task count/masks
    mpirun=$(jq -r .mpirun "$tmp/topo")
    srun=$(jq -r .srun "$tmp/topo")
    got=$(sed -n 's/^mpirun -np \([0-9]*\) .*/\1/p' <<<"$mpirun")
    [ "$got" = "$ncpu" ] || fail "$name: mpirun line starts $got ranks for $ncpu CPU nodes"
    [[ $mpirun != *" : "* ]] || fail "$name: mpirun line has several app contexts: ${mpirun:0:120}"
    if [[ $mpirun == *HOPBENCH_RANK_CPUS=* ]]; then
        lists=${mpirun#*HOPBENCH_RANK_CPUS=}
        lists=$(tr ':' '\n' <<<"${lists%% *}" | wc -l)
        [ "$lists" = "$ncpu" ] || fail "$name: mpirun line binds $lists lists for $ncpu CPU nodes"
    fi
    [[ $srun == *"--ntasks-per-node=$ncpu "* ]] || fail "$name: srun line is not $ncpu tasks: ${srun:0:120}"
    if [[ $srun == *mask_cpu:* ]]; then
        list=${srun#*mask_cpu:}
        list=${list%% *}
        masks=$(tr ',' '\n' <<<"$list" | wc -l)
        [ "$masks" = "$ncpu" ] || fail "$name: srun line has $masks masks for $ncpu CPU nodes"
    fi
    for s in matrix hops loaded policy sweep peak c2c ""; do
        label="$name: ${s:-default}"
        start=$(date +%s.%N)
        "$HB" ${s:+"$s"} --dry-run --topology "$f" >"$tmp/plan" 2>"$tmp/err"
        rc=$?
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        [ "$rc" = 0 ] || { fail "$label: exit $rc: $(head -c 300 "$tmp/err")"; continue; }
        printf 'plan: %s: %s s, %s experiments\n' "$label" "$secs" "$(wc -l <"$tmp/plan")"
        (($(echo "$secs > $SLOW_S" | bc))) && fail "$label: planning took $secs s"
        jq -r --argjson cpu "$cpu" --argjson mem "$mem" --argjson all "$all" --argjson only null \
            "$task_checks" "$tmp/plan" | sort -u | head -5 | sed "s|^|FAIL: $label: |" | tee "$tmp/f"
        fails=$((fails + $(wc -l <"$tmp/f")))
    done
    echo "ok: $name: $ncpu CPU nodes, $nmem nodes with memory"
done

# --nodes on the 64-CPU-node machine: CPU nodes 2-3 and 62, memory-only 252 and 267.
f=$DIR/64c16m-hi-numbers.xml
only='[2,3,62,252,267]'
"$HB" topo --topology "$f" --format jsonl >"$tmp/topo"
for s in matrix hops loaded policy sweep peak c2c; do
    "$HB" "$s" --dry-run --topology "$f" --nodes 2-3,62,252,267 >"$tmp/plan" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 0 ] || { fail "--nodes: $s: exit $rc: $(<"$tmp/err")"; continue; }
    grep -q '"type":"experiment"' "$tmp/plan" || fail "--nodes: $s plans nothing"
    jq -r --argjson cpu "$(jq -c '[.nodes[] | select(.has_cpus) | {key: (.os_index | tostring), value: true}] | from_entries' "$tmp/topo")" \
        --argjson mem '{"2":true,"3":true,"62":true,"252":true,"267":true}' --argjson all "$only" \
        --argjson only "$only" "$task_checks" "$tmp/plan" | sort -u | head -5 | sed "s|^|FAIL: --nodes: $s: |" | tee "$tmp/f"
    fails=$((fails + $(wc -l <"$tmp/f")))
done
# bad lists: exit 2, one line naming the value and what is valid
expect() { # expect WANT ARGS...: exit 2 and one line on stderr containing WANT
    local want=$1
    shift
    "$HB" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" = 2 ] || fail "$*: exit $rc, not 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$*: $(wc -l <"$tmp/err") lines on stderr"
    grep -qF -- "$want" "$tmp/err" || fail "$*: '$(<"$tmp/err")' lacks '$want'"
    [ -s "$tmp/out" ] && fail "$*: output on stdout"
}
expect "--nodes 0-3,999: node 999 does not exist; valid nodes: 0,1,2," matrix --dry-run --topology "$f" --nodes 0-3,999
expect ",63,252,253," matrix --dry-run --topology "$f" --nodes 999
expect "--nodes '0-3,x': not a node list" hops --dry-run --topology "$f" --nodes 0-3,x
expect "--nodes 252-267: no node with CPUs among them; nodes with CPUs: 0,1," peak --dry-run --topology "$f" --nodes 252-267
expect "bw takes no --nodes; its own options are --kernel --cpu-node --mem-node" bw --dry-run --topology "$f" --nodes 0
echo "$fails failures"
[ "$fails" = 0 ]
