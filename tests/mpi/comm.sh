#!/usr/bin/env bash
# comm under a real mpirun on this one-node machine: two ranks share node 0, so the pairs are
# the same-node pair both ways; the records' fields, pages and repeats are checked, then two
# emulated hosts (HOPBENCH_HOST) and the launches comm refuses.
. "$(dirname "$0")/mpi-lib.sh"
node=$("$HB" topo --format jsonl | jq -r '.nodes[0].os_index')
args=(comm --reps 2 --min-time 0.002 --repeat 2 --quiet)
timeout 180 mpirun "${OVERSUB[@]}" -np 2 "$HB" "${args[@]}" --size 4K -o c.jsonl
m='[.[] | select(.type=="measurement")]'
expect_eq "records: 3 metrics x 6 sizes x 2 ordered pairs" "$(jq -s "$m | length" c.jsonl)" 36
expect_eq "pairs" "$(jq -c -s "$m | map([.src_rank, .dst_rank]) | unique" c.jsonl)" '[[0,1],[1,0]]'
expect_eq "sizes" "$(jq -c -s "$m | map(.message_bytes) | unique" c.jsonl)" '[8,32,128,512,2048,4096]'
expect_eq "metrics and units" "$(jq -c -s "$m | map([.metric, .unit]) | unique" c.jsonl)" \
    '[["bandwidth","GBps"],["bibandwidth","GBps"],["latency","us"]]'
expect_eq "same-node pair on node $node, hop class 0" \
    "$(jq -c -s "$m | map([.suite, .src_node, .dst_node, .hops, .src_mem_node, .dst_mem_node, .mem_nodes]) | unique" c.jsonl)" \
    "[[\"comm\",$node,$node,0,$node,$node,[$node,$node]]]"
expect_eq "pages verified" "$(jq -s "$m | map(.pages_on_target_pct == 100 and .status == \"ok\") | all" c.jsonl)" true
expect_eq "repeats" "$(jq -s "$m | map(.repeats == 2 and (.repeat_values | length) == 2 and (.ci95 | length) == 2 and .reps == 2) | all" c.jsonl)" true
expect_eq "values" "$(jq -s "$m | map(.value > 0 and .value >= (.repeat_values | min) and .value <= (.repeat_values | max) and .iterations >= 1 and .src_host == .dst_host) | all" c.jsonl)" true
expect_eq "latency percentiles" \
    "$(jq -s "$m | map(select(.metric == \"latency\") | .p50_us > 0 and .p50_us <= .p99_us and .p99_us <= .max_us and (. as \$r | \$r.repeat_values | any(. == \$r.p50_us))) | all" c.jsonl)" true
expect_eq "bandwidth window" "$(jq -s "$m | map(select(.metric != \"latency\") | .window == 64 and .p50_us == null and (. as \$r | \$r.repeat_values | any(. == \$r.bw_GBps_best))) | all" c.jsonl)" true
# Open MPI 5 renamed the shared-memory btl vader to sm.
shm=vader
[ "$(hb_mpi_flavor)" != ompi5 ] || shm=sm
expect_has "transport" "$(jq -r -s "$m | .[0].transport" c.jsonl)" "btl $shm, single copy"
expect_eq "summary" "$(jq -c -s '[.[] | select(.type=="summary")][0] | [.suite, .measurements, .ok]' c.jsonl)" '["comm",36,36]'

expect_eq "node matrices: latency at 8 B, bandwidth at 4 KiB, one node" \
    "$(jq -c -s '[.[] | select(.type=="comm_matrix") | [.metric, .message_bytes, .unit, .rows, (.values[0][0] > 0), .hop_class]]' c.jsonl)" \
    "[[\"latency\",8,\"us\",[$node],true,[[0]]],[\"bandwidth\",4096,\"GBps\",[$node],true,[[0]]]]"
# Two ranks bound to the whole node message from cores of their own (the OpenMP runtime pins
# both main threads to the binding's first core otherwise), and the records say which. (No
# oversubscribe words: Open MPI 5 spells them as a --map-by modifier, and two ranks on a node
# of two cores or more need no more slots than it has.)
cpus=$("$HB" topo --format jsonl | jq -c '.nodes[0].cpus')
if [ "$(jq length <<<"$cpus")" -ge 2 ]; then
    timeout 120 mpirun -np 2 --map-by ppr:2:numa --bind-to numa "$HB" comm --size 8 --reps 1 \
        --min-time 0.001 --repeat 1 --quiet -o n.jsonl || fail "comm --bind-to numa: exit $?"
    expect_eq "bound to the node: each end on its own CPU of node $node, the sender's in thread_cpus" \
        "$(jq -s --argjson cpus "$cpus" "$m | map(.src_cpu != .dst_cpu and ([.src_cpu, .dst_cpu] - \$cpus == []) and .thread_cpus == [.src_cpu]) | all" n.jsonl)" true
    expect_eq "... rank 0 on the binding's first CPU, rank 1 on its last" \
        "$(jq -c -s "$m | map([.src_rank, .src_cpu]) | unique" n.jsonl)" "[[0,$(jq '.[0]' <<<"$cpus")],[1,$(jq '.[-1]' <<<"$cpus")]]"
fi

# A list of sizes: those messages, and the matrices' bandwidth at the largest.
timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 2K,8,100 --reps 1 --min-time 0.001 \
    --repeat 1 --quiet -o l.jsonl || fail "comm --size 2K,8,100: exit $?"
expect_eq "a size list: its sizes, in order" \
    "$(jq -c -s "$m | map(.message_bytes) | unique" l.jsonl)" '[8,100,2048]'
expect_eq "a size list: bandwidth matrix at its largest" \
    "$(jq -c -s '[.[] | select(.type=="comm_matrix") | .message_bytes]' l.jsonl)" '[8,2048]'
# compare and export read comm's records.
# Nothing worse; a noisy figure cannot be shown the same against itself: 0 or 5 (rerun).
rc=0
out=$("$HB" compare c.jsonl c.jsonl 2>&1) || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 5 ] || fail "compare of a file with itself: exit $rc"
expect_has "compare: nothing worse" "$out" "0 worse, 0 better"
expect_has "compare: every record matched" "$out" "0 only in base, 0 only in new, 0 errors"
"$HB" export c.jsonl -o c.xml 2>/dev/null || fail "export: exit $?"
expect_has "export: the MPI latency" "$(cat c.xml)" "MPI latency comm"
# The table, as OSU prints it: a block per rank pair and metric, headed by the pair in words,
# size against p50 [lo, hi], p99 and max (latency) or GB/s [lo, hi]; its figures are the
# records' (the table of c.jsonl's own records, as report -o NAME.txt prints them), to the
# 4 significant digits shown.
"$HB" report c.jsonl -o c.txt 2>/dev/null || fail "report c.jsonl -o c.txt: exit $?"
blocks=$(grep -c "$(printf ' \xe2\x86\x92 rank ')" c.txt || true)
expect_eq "table: one block per rank pair and metric" "$blocks" \
    "$(jq -s "$m | map([.src_rank, .dst_rank, .metric]) | unique | length" c.jsonl)"
expect_eq "table: each block names its pair in words" \
    "$(grep -c "^rank [01] (node $node) $(printf '\xe2\x86\x92') rank [01] (node $node), same node, shared memory (btl $shm, single copy " c.txt)" "$blocks"
expect_eq "table: each block's pages in one line, all on their nodes" \
    "$(grep -c "^  pages: all on their nodes: the sender's buffers on node $node, the receiver's on node $node$" c.txt)" "$blocks"
# Each row as JSON: its block's ranks and metric, the size in bytes and the figures shown.
rows=$(awk -v arrow="$(printf '\xe2\x86\x92')" '
    $1 == "rank" && $5 == arrow { src = $2; dst = $7; next }
    /^  latency/ { metric = "latency"; next }
    /^  bandwidth/ { metric = "bandwidth"; next }
    /^  bidirectional/ { metric = "bibandwidth"; next }
    /^  [0-9]+ (B|KiB|MiB) / {
        b = $1 * ($2 == "KiB" ? 1024 : $2 == "MiB" ? 1048576 : 1)
        gsub(/[\[\],]/, "")
        dot = index($3, ".")
        printf "{\"src\":%s,\"dst\":%s,\"metric\":\"%s\",\"bytes\":%d,\"head\":%s,\"lo\":%s,\"hi\":%s,\"tol\":%s",
            src, dst, metric, b, $3, $4, $5, 0.5 * 10 ^ -(dot ? length($3) - dot : 0)
        if (metric == "latency") printf ",\"p99\":%s,\"max\":%s", $6, $7
        print "}"
    }' c.txt)
expect_eq "table: a row per record" "$(jq -s length <<<"$rows")" "$(jq -s "$m | length" c.jsonl)"
# Shown to 4 significant digits, the interval's ends at the figure's decimals: each within
# half the last digit shown of the record's field.
expect_eq "table: p50 [lo, hi], p99 and max (latency), GB/s [lo, hi] (bandwidth) equal the records' fields" \
    "$(jq -s --argjson rows "$(jq -s . <<<"$rows")" '
        def near(a; b): (a - b | fabs) <= 0.0005 * (b | fabs) + 1e-12;
        def within(a; b; tol): (a - b | fabs) <= tol * 1.001;
        [.[] | select(.type == "measurement") | . as $r |
         ($rows | map(select(.src == $r.src_rank and .dst == $r.dst_rank and .metric == $r.metric and
             .bytes == $r.message_bytes)) | first) as $t |
         $t != null and within($t.lo; $r.ci95[0]; $t.tol) and within($t.hi; $r.ci95[1]; $t.tol) and
         if $r.metric == "latency"
         then within($t.head; $r.p50_us; $t.tol) and near($t.p99; $r.p99_us) and near($t.max; $r.max_us)
         else within($t.head; $r.value; $t.tol) end] | all' c.jsonl)" true
out=$(cat c.txt)
for word in "$(printf '\xc2\xb1')" GBps "working set" "pages%"; do
    ! grep -qF -- "$word" c.txt || fail "table: '$word' in: $(grep -F -- "$word" c.txt)"
done
expect_has "table: the header says what comm uses" "$out" \
    "messages 8 B to 4 KiB (6 sizes, the largest from --size), each end a send and a receive buffer of the message's size, on its rank's node"
expect_has "table: the matrices say what a cell is" "$out" \
    "MPI message latency at 8 B (us), each cell the median over the rank pairs of its node pair"
# Pages off their nodes (--allow-misplaced kept the pair) are flagged in the block's line, with
# the sizes and their share; pages never located, too.
jq -c 'if .type == "measurement" and .metric == "latency" and .src_rank == 0 and .message_bytes == 8
       then .pages_on_target_pct = 87.5 elif .type == "measurement" and .metric == "latency" and
       .src_rank == 0 and .message_bytes == 32 then .pages_on_target_pct = null else . end' c.jsonl >off.jsonl
"$HB" report off.jsonl -o off.txt 2>/dev/null || fail "report off.jsonl -o off.txt: exit $?"
expect_eq "table: pages off their nodes flagged in their block alone" \
    "$(grep -c '^  pages: NOT ALL ON THEIR NODES: ' off.txt) $(grep -c '^  pages: all on their nodes: ' off.txt)" "1 $((blocks - 1))"
expect_has "table: the sizes off their nodes and their share" "$(cat off.txt)" \
    "  pages: NOT ALL ON THEIR NODES: 8 B 87.50%, 32 B not located; of the sender's buffers on node $node, the receiver's on node $node"
# Records that end midway (a run stopped: no derived records, no summary) still print their
# last group's blocks when the table ends.
jq -c 'select(.type == "run" or .type == "measurement")' c.jsonl >part.jsonl
"$HB" report part.jsonl -o part.txt 2>/dev/null || fail "report part.jsonl -o part.txt: exit $?"
expect_eq "table of records ending midway: every block, the last group's too" \
    "$(grep -c "$(printf ' \xe2\x86\x92 rank ')" part.txt)" "$blocks"
# The same under a live run's --format table.
out=$(timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 8 --reps 1 --min-time 0.001 \
    --repeat 1 --quiet --format table 2>&1) || fail "comm --format table: exit $?"
expect_has "live table: a latency block" "$out" "$(printf '  size       p50 [lo, hi]                   p99          max')"
expect_has "live table: latency matrix" "$out" "MPI message latency at 8 B (us), each cell the median"
expect_has "live table: bandwidth matrix" "$out" "MPI message bandwidth at 8 B (GB/s), each cell the median"

# Progress under mpirun: asked for, a line per step on stderr (rank 0's is a pipe to mpirun);
# not asked for, none; a terminal on another rank's stderr (rank 1 under script(1)) shows it
# in place on rank 0's.
timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 8 --reps 1 --min-time 0.001 \
    --repeat 1 --progress -o p.jsonl 2>p.err || fail "comm --progress: exit $?"
expect_eq "--progress under mpirun: a line per experiment" \
    "$(grep -cE '^\[[1-3]/3\] comm-(latency|bandwidth|bibandwidth)-[0-9]+-[0-9]+-8, [0-9]+ s elapsed' p.err)" 3
timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 8 --reps 1 --min-time 0.001 \
    --repeat 1 -o q.jsonl 2>q.err || fail "comm: exit $?"
expect_eq "no --progress, no terminal: no progress" "$(grep -c '\[1/3\]' q.err)" 0
if command -v script >/dev/null; then
    # shellcheck disable=SC2016  # expanded by each rank's shell
    timeout 120 mpirun "${OVERSUB[@]}" -np 2 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
        exec script -qec "$(printf "%q " "$0" "$@")" /dev/null >/dev/null; fi; exec "$0" "$@"' \
        "$HB" comm --size 8 --reps 1 --min-time 0.001 --repeat 1 -o t.jsonl 2>t.err ||
        fail "comm, rank 1 on a terminal: exit $?"
    grep -q $'\r\033\[K\[1/3\] comm-latency' t.err ||
        fail "rank 1's stderr a terminal: no progress in place on rank 0's: $(od -c t.err | head)"
fi

# Two emulated hosts: the pair crosses hosts (names), the transport is still this machine's.
timeout 120 "${TWO_HOSTS[@]}" "${args[@]}" --size 8 -o h.jsonl
expect_eq "host pairs" "$(jq -c -s "$m | map([.src_host, .dst_host, .src_rank]) | unique" h.jsonl)" \
    '[["hostA","hostB",0],["hostB","hostA",1]]'
expect_has "one machine's transport" "$(jq -r -s "$m | .[0].transport" h.jsonl)" "btl $shm"

# One rank: refused before anything is written.
rc=0
out=$(timeout 60 mpirun "${OVERSUB[@]}" -np 1 "$HB" comm --size 8 -o one.jsonl 2>&1) || rc=$?
expect_eq "one rank: exit" "$rc" 2
expect_has "one rank: message" "$out" "comm needs two or more ranks (this launch has 1); run mpirun -np 2"
[ ! -e one.jsonl ] || fail "one rank: one.jsonl was written"

# The dry run under the launch the run takes: rank 0 alone writes the plan, whose estimate
# counts both ordered pairs of each experiment; alone it is refused as the run is.
rc=0
timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 8 --dry-run --quiet -o plan.jsonl || rc=$?
expect_eq "launched dry run: exit" "$rc" 0
expect_eq "launched dry run: one plan, two records an experiment" \
    "$(jq -c -s '[(map(select(.type=="experiment")) | length), (map(select(.type=="plan_summary")) | map(.measurements))]' plan.jsonl)" '[3,[6]]'
rc=0
out=$("$HB" comm --size 8 --dry-run -o alone.jsonl 2>&1) || rc=$?
expect_eq "dry run alone: exit" "$rc" 2
expect_has "dry run alone: message" "$out" "comm needs two or more ranks (this launch has 1)"
[ ! -e alone.jsonl ] || fail "dry run alone: alone.jsonl was written"

# More ranks than cores: two would message from one core, timing the scheduler. Refused
# before measuring (exit 3), naming the ranks and the launch that fits.
cores=$(nproc)
rc=0
out=$(timeout 120 mpirun "${OVERSUB[@]}" -np $((cores + 1)) "$HB" comm --size 8 --reps 1 \
    --min-time 0.001 --repeat 1 -o over.jsonl 2>&1) || rc=$?
expect_eq "ranks over cores: exit" "$rc" 3
expect_has "ranks over cores: message" "$out" "message from one core"
expect_has "ranks over cores: the launch that fits" "$out" "mpirun -np $cores --bind-to core"
# TCP by --mca (and by the environment): the record says the btl that was allowed, never the
# shared-memory default it did not use.
timeout 120 mpirun "${OVERSUB[@]}" --mca btl tcp,self -np 2 "$HB" comm --size 8 --reps 1 \
    --min-time 0.001 --repeat 1 --quiet -o tcp.jsonl
expect_has "--mca btl tcp,self: transport" "$(jq -r -s "$m | map(.transport) | unique | join(\";\")" tcp.jsonl)" \
    "btl tcp,self; pml "
OMPI_MCA_btl=self,tcp timeout 120 mpirun "${OVERSUB[@]}" -np 2 "$HB" comm --size 8 --reps 1 \
    --min-time 0.001 --repeat 1 --quiet -o tcp2.jsonl
expect_has "OMPI_MCA_btl: transport" "$(jq -r -s "$m | map(.transport) | unique | join(\";\")" tcp2.jsonl)" \
    "btl self,tcp; pml "
finish
