#!/usr/bin/env bash
# coll under a real mpirun on this one-node machine: two ranks on node 0 form the world (the
# only communicator here). The records' fields, pages, per-rank split and the collective
# component are checked, the component again with one forced through an MCA parameter, then
# --root, buffer placements, --bg and the launches coll refuses.
. "$(dirname "$0")/mpi-lib.sh"
node=$("$HB" topo --format jsonl | jq -r '.nodes[0].os_index')
quick=(--reps 2 --min-time 0.002 --quiet)
run() { timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" coll "${quick[@]}" "$@"; }
m='[.[] | select(.type=="measurement")]'

run --op allreduce,bcast,barrier --size 8,1K --repeat 2 -o c.jsonl || fail "coll: exit $?"
expect_eq "records: allreduce and bcast x 2 sizes, one barrier" "$(jq -s "$m | length" c.jsonl)" 5
expect_eq "ops, sizes, roots" \
    "$(jq -c -s "$m | map([.op, .message_bytes, .root_node, .root_rank])" c.jsonl)" \
    "[[\"allreduce\",8,null,null],[\"allreduce\",1024,null,null],[\"bcast\",8,$node,0],[\"bcast\",1024,$node,0],[\"barrier\",0,null,null]]"
expect_eq "the world of two ranks on node $node" \
    "$(jq -c -s "$m | map([.coll_class, .ranks, .nodes, .span_hops, .buffers, .mem_nodes]) | unique" c.jsonl)" \
    "[[\"world\",2,[$node],null,\"own-node\",[$node]]]"
expect_eq "pages verified, every rank" \
    "$(jq -s "$m | map(.status == \"ok\" and .pages_on_target_pct == 100 and (.per_rank | map(.pages_on_target_pct == 100) | all)) | all" c.jsonl)" true
expect_eq "per rank, hops from the root" \
    "$(jq -c -s "$m | map(.per_rank | map([.rank, .node, .hops])) | unique" c.jsonl)" "[[[0,$node,0],[1,$node,0]]]"
expect_eq "hop split: both ranks at hop 0, the slowest's time its max" \
    "$(jq -s "$m | map(.hop_split == [{hops: 0, ranks: 2, median_us: .hop_split[0].median_us, max_us: .slowest_us}] and .hop_split[0].median_us > 0) | all" c.jsonl)" true
expect_eq "percentiles, value the p50 of its repeat" \
    "$(jq -s "$m | map(.p50_us > 0 and .p50_us <= .p99_us and .p99_us <= .max_us and .unit == \"us\" and .repeats == 2 and (. as \$r | \$r.repeat_values | any(. == \$r.p50_us)) and .mean_us > 0 and .iterations >= 1 and .reps == 2) | all" c.jsonl)" true
expect_eq "slowest rank is one of the two" "$(jq -c -s "$m | map(.slowest_rank) | map(. == 0 or . == 1) | all" c.jsonl)" true
expect_eq "dirty buffers by default" \
    "$(jq -c -s "[(.[0].messages.send_buffer), ($m | map(.send_buffer) | unique)]" c.jsonl)" \
    '["rewritten before every iteration",["dirty (rewritten every iteration)"]]'
expect_eq "component: tuned, its algorithm not exposed" \
    "$(jq -c -s "$m | map([.coll_component, .coll_algorithm]) | unique" c.jsonl)" '[["tuned",null]]'
expect_eq "summary" "$(jq -c -s '[.[] | select(.type=="summary")][0] | [.suite, .measurements, .ok]' c.jsonl)" '["coll",5,5]'
expect_eq "one placement: no placement record" "$(jq -s '[.[] | select(.type=="coll_placement")] | length' c.jsonl)" 0

# A component forced through MCA parameters: the records name it (Open MPI).
if [ "$(hb_mpi_flavor)" != mpich ]; then
    OMPI_MCA_coll=basic,self,libnbc run --op allreduce --size 8 --repeat 1 -o b.jsonl || fail "coll basic: exit $?"
    expect_eq "OMPI_MCA_coll=basic,self,libnbc: basic" "$(jq -r -s "$m | .[0].coll_component" b.jsonl)" basic
    expect_has "why basic" "$(jq -r -s "$m | .[0].coll_component_source" b.jsonl)" "coll list 'basic,self,libnbc'"
    OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=4 \
        run --op allreduce --size 8 --repeat 1 --clean-buffers -o r.jsonl || fail "coll ring: exit $?"
    expect_eq "tuned's allreduce forced to ring" "$(jq -c -s "$m | .[0] | [.coll_component, .coll_algorithm]" r.jsonl)" '["tuned","ring"]'
    expect_eq "--clean-buffers" "$(jq -c -s "[.[0].messages.send_buffer, ($m | .[0].send_buffer)]" r.jsonl)" \
        '["reused (--clean-buffers)","clean (reused)"]'
fi

# --root: rank 1 as bcast's root; buffers on --mem-node, then interleaved.
run --op bcast --size 8 --root 1 --repeat 1 --mem-node "$node" -o root.jsonl || fail "coll --root 1: exit $?"
expect_eq "--root 1 --mem-node $node" \
    "$(jq -c -s "$m | map([.root_rank, .ref_rank, .root_node, .buffers, .mem_node, .pages_on_target_pct == 100])" root.jsonl)" \
    "[[1,1,null,\"mem-node\",$node,true]]"
run --op alltoall,allgather --size 16K,64K --repeat 1 --policy interleave -o il.jsonl || fail "coll interleave: exit $?"
expect_eq "interleaved buffers, verified" \
    "$(jq -c -s "$m | map([.op, .policy, .buffers, .pages_on_target_pct == 100, .status]) | unique" il.jsonl)" \
    '[["allgather","interleave","interleave",true,"ok"],["alltoall","interleave","interleave",true,"ok"]]'

# --bg: each experiment idle, then under the hops suite's load on node 0 (ranks bound to the
# whole node: a core for each rank's calls, the others for the load).
cores=$("$HB" topo --format jsonl | jq -r 'select(.type=="topology") | .nodes[0].cores')
if [ "$cores" -ge 2 ]; then
    err=$(timeout 120 mpirun "${OVERSUB[@]}" --bind-to numa -np 2 "$HB" coll "${quick[@]}" --op allreduce \
        --size 8 --bg high --repeat 1 -o bg.jsonl 2>&1) || fail "coll --bg high: exit $?"
    expect_eq "--bg high: idle then loaded, the load on node $node read" \
        "$(jq -c -s "$m | map([.bg_level, .bg_nodes, (.bg_GBps // [0] | .[0] > 0), .status])" bg.jsonl)" \
        "[[\"idle\",null,false,\"ok\"],[\"high\",[$node],true,\"ok\"]]"
    if [ "$cores" -le 2 ]; then
        expect_has "--bg: the load shares a core, said as coll's" "$err" \
            "hopbench: note: coll --bg: on host $(hostname), node $node's 2 ranks message from 2 of its $cores cores"
    fi
    # Ranks bound to one core each (mpirun's default for two): no core for the load.
    out=$(timeout 60 mpirun "${OVERSUB[@]}" --bind-to core -np 2 "$HB" coll --bg high --size 8 -o bgcore.jsonl 2>&1) && rc=0 || rc=$?
    expect_eq "--bg, one core per rank: exit" "$rc" 3
    expect_has "--bg, one core per rank: coll's message" "$out" "is bound to 1 core of node $node (CPUs "
    expect_has "... naming coll" "$out" "but coll --bg runs a rank's messages on one core"
    expect_eq "... and no output file" "$(ls bgcore.jsonl* 2>/dev/null | wc -l)" 0
fi

# More ranks than cores: two would time the scheduler's turns, not the collective: refused
# before measuring (exit 3), as comm refuses, naming coll's launch that fits.
cpus=$(nproc)
out=$(timeout 120 mpirun "${OVERSUB[@]}" -np $((cpus + 1)) "$HB" coll "${quick[@]}" --op barrier \
    --repeat 1 -o over.jsonl 2>&1) && rc=0 || rc=$?
expect_eq "ranks over cores: exit" "$rc" 3
expect_has "ranks over cores: coll's message" "$out" "hopbench: coll: ranks "
expect_has "ranks over cores: one core" "$out" "message from one core"
expect_has "ranks over cores: the launch that fits" "$out" "mpirun -np $cpus --bind-to core hopbench coll)"

# Two emulated hosts (HOPBENCH_HOST): hop classes are one host's, so the other host's rank has
# no hops from the root and a group of its own in the split.
timeout 120 "${TWO_HOSTS[@]}" coll "${quick[@]}" --op bcast --size 8 --repeat 1 -o two.jsonl ||
    fail "coll on two hosts: exit $?"
expect_eq "two hosts: rank 1's hops unknown" \
    "$(jq -c -s "$m | map([.host, (.per_rank | map([.rank, .hops])), (.hop_split | map([.hops, .ranks]))])" two.jsonl)" \
    '[["hostA",[[0,0],[1,null]],[[0,1],[null,1]]]]'

# The dry run plans under the launch its run needs: rank 0 prints it, --root checked there.
plan=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" coll --dry-run --op bcast --size 8 --root 1 --quiet) ||
    fail "coll --dry-run under mpirun: exit $?"
expect_eq "dry run: one plan, bcast with rank 1 as root" \
    "$(jq -c -s 'map(select(.type == "experiment") | .name)' <<<"$plan")" '["coll-bcast-8-world-rank1"]'

# Refused before anything exists: a root outside the ranks, one rank.
out=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" coll --op bcast --root 2 -o bad.jsonl 2>&1) && rc=0 || rc=$?
expect_eq "--root 2: exit" "$rc" 2
expect_eq "--root 2: one line" "$(grep -c '^hopbench:' <<<"$out")" 1
expect_has "--root 2: the line" "$out" "hopbench: --root 2: this launch has 2 ranks; give a rank from 0 to 1"
out=$(timeout 60 mpirun "${OVERSUB[@]}" -np 1 "$HB" coll -o bad.jsonl 2>&1) && rc=0 || rc=$?
expect_eq "one rank: exit" "$rc" 2
expect_has "one rank: the mpirun line" "$out" "coll needs two or more ranks (this launch has 1); run one rank per NUMA node: mpirun --map-by numa --bind-to numa hopbench coll -o bad.jsonl"
expect_eq "no output file" "$(ls bad.jsonl* 2>/dev/null | wc -l)" 0
finish
