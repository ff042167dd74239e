#!/usr/bin/env bash
# one-node.sh HOPBENCH HB_GENDOC FIXTURES SCENARIO - CTest (label cli): the studies between memory nodes
# on a machine with too few, generated over the suite table (hb_gendoc commands, and each
# command's --help, which says what it needs). A suite that needs N nodes with memory: on a
# one-node fixture its dry run is refused with exit 3 in one line naming the count and what
# it needs, within a second, leaving no file; so is its run on this machine when it has fewer;
# where it takes --nodes, some that leave too few on a machine with enough are a usage error
# (2). Every other suite
# plans on the one-node fixture. policy and loaded plan their scoped study with its note.
set -u
hb=$1 gendoc=$2 fx=$3 scenario=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
bad() {
    echo "FAIL: $*"
    fail=1
}
mem_nodes=$("$hb" topo --format jsonl | jq '[.nodes[] | select(.has_memory)] | length')

# refused WHAT WANT_RC WANT_TEXT ARGS...: one line with WANT_TEXT, exit WANT_RC, no file, < 1 s.
refused() {
    local what=$1 want_rc=$2 want_text=$3
    shift 3
    local t0 t1 rc=0
    t0=$(date +%s%N)
    "$hb" "$@" -o out.jsonl >out.txt 2>&1 || rc=$?
    t1=$(date +%s%N)
    [ "$rc" = "$want_rc" ] || bad "$what: exit $rc, expected $want_rc: $(cat out.txt)"
    [ "$(grep -c . out.txt)" = 1 ] || bad "$what: not one line: $(cat out.txt)"
    grep -qF -- "$want_text" out.txt || bad "$what: lacks '$want_text': $(cat out.txt)"
    [ -z "$(ls -A | grep -v '^out\.txt$')" ] || bad "$what: left $(ls -A)"
    [ $(((t1 - t0) / 1000000)) -lt 1000 ] || bad "$what: took $(((t1 - t0) / 1000000)) ms"
    rm -f out.txt
}

needing=0
while read -r cmd; do
    [ "$cmd" = default ] && continue
    help=$("$hb" "$cmd" --help 2>&1)
    grep -q "run options (every suite's)" <<<"$help" || continue # not a suite
    n=$(grep -oE 'needs [0-9]+ or more NUMA nodes with memory' <<<"$(tr '\n' ' ' <<<"$help" | tr -s ' ')" |
        grep -oE '[0-9]+' | head -1)
    if [ -z "$n" ]; then
        # A suite for any machine plans on one node (comm: for the ranks it will have; run: a
        # one-node scenario).
        args=("$cmd")
        [ "$cmd" != run ] || args+=("$scenario")
        rc=0
        "$hb" "${args[@]}" --dry-run --quiet --topology "$fx/1n-single.xml" -o plan.jsonl \
            >out.txt 2>&1 || rc=$?
        [ "$rc" = 0 ] || bad "$cmd on one node: exit $rc: $(cat out.txt)"
        rm -f plan.jsonl out.txt
        continue
    fi
    needing=$((needing + 1))
    why="$cmd needs $n or more NUMA nodes with memory (it "
    refused "$cmd --dry-run on a one-node fixture" 3 "$why" "$cmd" --dry-run \
        --topology "$fx/1n-single.xml"
    if [ "$mem_nodes" -lt "$n" ]; then
        refused "$cmd on this machine ($mem_nodes node)" 3 "$why" "$cmd"
        refused "$cmd on this machine ($mem_nodes node): the message" 3 \
            "this machine has $mem_nodes: run it on a machine with more" "$cmd"
    fi
    grep -q '^  --nodes ' <<<"$help" || continue
    refused "$cmd --nodes 0 on a four-node fixture" 2 \
        "--nodes 0: $cmd needs $n or more nodes with memory (it " "$cmd" --dry-run --nodes 0 \
        --topology "$fx/4n-quartet.xml"
done < <("$gendoc" commands)
[ "$needing" -ge 3 ] || bad "only $needing suites say they need several nodes (hops, migrate, balance)"

# The scoped studies on one node: their note before anything runs, and only what means
# something planned.
rc=0
"$hb" policy --dry-run --topology "$fx/1n-single.xml" -o p.jsonl 2>p.err || rc=$?
[ "$rc" = 0 ] || bad "policy on one node: exit $rc: $(cat p.err)"
grep -q "policy: one node with memory: only the local placement runs" p.err ||
    bad "policy on one node: no note: $(cat p.err)"
[ "$(jq -c -s '[.[] | select(.type == "experiment") | .policy] | unique' p.jsonl)" = '["local"]' ] ||
    bad "policy on one node plans more than local: $(jq -c -s '[.[] | select(.type == "experiment") | .policy] | unique' p.jsonl)"
"$hb" policy --dry-run --topology "$fx/4n-quartet.xml" -o p4.jsonl 2>p4.err ||
    bad "policy on four nodes: exit $?"
[ "$(jq -c -s '[.[] | select(.type == "experiment") | .policy] | unique' p4.jsonl)" = \
    '["interleave","local","one-node","os","remote"]' ] || bad "policy on four nodes: not every placement"
! grep -q "one node with memory" p4.err || bad "policy on four nodes: the one-node note"
"$hb" loaded --quick --dry-run --topology "$fx/1n-single.xml" -o l.jsonl 2>l.err ||
    bad "loaded on one node: exit $?"
grep -q "loaded: one NUMA node: the load comes from node 0's own other CPUs into its own memory" l.err ||
    bad "loaded on one node: no note: $(cat l.err)"
[ "$fail" = 0 ] && echo PASS
exit "$fail"
