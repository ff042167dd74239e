#!/usr/bin/env bash
# plan-summary.sh HOPBENCH FIXTURES - CTest test (label cli): every command's dry run, on this
# machine and on the fixture topologies, ends with one plan_summary whose counts are those
# of the plan's own records (experiments; measurements = the records a repeat writes: a
# foreground task's, c2c's pair's one, coll's one a communicator, comm's one a rank pair: with another machine's
# topology one rank a node, so the pairs across nodes; repeats = --repeat), whose nodes are those the tasks use (a first-touch task's memory: its CPU node) and whose estimate is positive and grows
# with --repeat (and with --min-time, --reps and --size); stderr says the same in one line (a real run's line: format-name.sh).
hb=$1 fx=$2
. "$(dirname "$0")/cli-lib.sh"
scn=$(cd "$(dirname "$0")/../.." && pwd)/jobs/scenarios/one-node-load.scn
cd "$work" || exit 1
commands=$("$hb" --help | sed -n '/^commands:/,/^options:/s/^  \([a-z0-9]\{2,\}\)\( .*\)\{0,1\}$/\1/p')
checked=0
for topo in "" "$fx/4n-memonly-cxl.xml"; do
    [ -z "$topo" ] || [ -e "$topo" ] || continue
    for c in "" $commands; do
        case $c in topo | report | compare | export | history) continue ;; esac
        args=(${c:+"$c"})
        [ "$c" = run ] && args+=("$scn")
        [ -z "$topo" ] || args+=(--topology "$topo")
        for r in 1 3; do
            "$hb" "${args[@]}" --dry-run --repeat "$r" >plan.jsonl 2>err.txt || continue
            want=$(jq -s -c --argjson r "$r" '[.[] | select(.type == "experiment")] as $e |
                {experiments: ($e | length),
                 measurements: (if $e[0].suite == "c2c" or $e[0].suite == "coll" then ($e | length)
                                elif $e[0].suite == "comm" then ([$e[] | select(.src_node != .dst_node)] | length)
                                else ([$e[].tasks[] | select(.role == "foreground")] | length) end),
                 repeats: $r,
                 cpu_nodes: ([$e[].tasks[].cpu_node] | unique),
                 mem_nodes: ([$e[].tasks[] | if .mem_node != null then [.mem_node]
                              elif (.mem_nodes | type) == "array" and (.mem_nodes | length) > 0
                              then .mem_nodes
                              else [.cpu_node] end] | add | unique)}' plan.jsonl)
            got=$(jq -s -c 'last | select(.type == "plan_summary") |
                {experiments, measurements, repeats, cpu_nodes, mem_nodes}' plan.jsonl)
            [ "$got" = "$want" ] || { echo "FAIL: ${args[*]} --repeat $r: $got, expected $want"; fail=1; }
            est=$(jq -s 'last | .estimated_s' plan.jsonl)
            hosts=$(jq -s -c 'last | .hosts | length' plan.jsonl)
            [ "$hosts" = 1 ] || { echo "FAIL: ${args[*]}: hosts $hosts"; fail=1; }
            [ "$(jq -n "$est > 0")" = true ] || { echo "FAIL: ${args[*]}: estimated_s $est"; fail=1; }
            [ "$r" = 1 ] && est1=$est
            [ "$r" = 3 ] && { [ "$(jq -n "$est > $est1")" = true ] || { echo "FAIL: ${args[*]}: 3 repeats ($est s) not longer than 1 ($est1 s)"; fail=1; }; }
            n=$(jq -s 'last | .experiments' plan.jsonl)
            grep -qE "^hopbench: plan: $n experiments?, [0-9]+ measurements? x $r repeats?, about [0-9.]+ (s|min|h)$" err.txt ||
                { echo "FAIL: ${args[*]}: stderr: $(cat err.txt)"; fail=1; }
            checked=$((checked + 1))
        done
    done
done
# The estimate follows what a run costs: more time per sample, more samples, a larger set.
est() { "$hb" bw "$@" --dry-run 2>/dev/null | jq -s 'last | .estimated_s'; }
base=$(est --size 64M)
for more in "--size 64M --min-time 0.5" "--size 64M --reps 10" "--size 4G"; do
    read -ra m <<<"$more"
    e=$(est "${m[@]}")
    [ "$(jq -n "$e > $base")" = true ] || { echo "FAIL: bw $more: estimated_s $e, not above $base"; fail=1; }
done
[ "$checked" -ge 40 ] || { echo "FAIL: only $checked dry runs checked"; fail=1; }
echo "$checked dry runs checked"
cli_finish
