#!/usr/bin/env bash
# hopbench-test.sh GUEST [MIGRATOR] - CTest test (label vm): one boot of the
# numa-vm guest GUEST (two, two-612, two-smp, quartet, quartet-mem, eight) runs
# guest-hopbench.sh, then the records it wrote are checked with jq (placement
# and coordination only; guest timings mean nothing under TCG):
#  - the matrix over mpirun (not on two and two-612: two-smp is their shape with two
#    CPUs a node): its run record: SLIT and hop classes of the guest, one rank per CPU
#    node in order, SIMD path avx2 (the normal build runs on the AVX2-only guest CPU);
#  - its every measurement: status ok, threads on their node and on its CPUs,
#    100% of the pages on the memory node;
#  - its matrix/cell records: rows = CPU nodes, cols = nodes with memory, one
#    cell per pair (eight: matrix --nodes 0,1,3,7, a node at each of the cube's
#    distances from node 0, and rows and cols are those nodes);
#  - rank layout errors exit 3 and print the launch line that works (too few ranks,
#    one and two: quartet, whose message and line are those of any guest with its
#    count of nodes; quartet-mem's line is checked on its own errors); with a
#    memory-only node, that line is run and must work;
#  - quartet: hops --quick crossfire on exactly the square's links with
#    no-crossfire twins of the same hop classes, background load only on
#    nodes without foreground threads and covering the foreground; policy
#    --mode rate pages: interleave ~25% per node, one-node on node 0, local
#    on the thread's node;
#  - quartet and eight: coll's communicators by the SLIT's hop classes, every node as root,
#    buffers verified, the component named, best/worst placement records; quartet: interleaved;
#  - quartet: comm over every ordered pair of the four ranks' nodes, hop classes from
#    the SLIT, its node matrices and the hwloc export of its latency; quartet-mem: comm
#    with both ends' buffers on the memory-only node, pairs as the rank layout has them;
#  - two (Linux 6.1): bw --policy weighted refused in one line naming 6.9 and 6.1, exit 2,
#    no output; two-612 (Linux 6.12): weighted interleave 3:1 gives pages within 5 points
#    of 75/25, the kernel's weights are put back after the run and after a SIGTERM mid-run;
#    balance refused while NUMA balancing is off, then (the guest turns it on) 32 MiB first
#    touched on node 1 brought to node 0's thread: a series rising to >= 90% local;
#  - two-smp: comm --bg, idle then loaded, node 1 loaded by its rank during each pair;
#  - with MIGRATOR (hb_vm_migrator): pages moved off the target by the kernel
#    while bw runs fail the run (exit 1), and --allow-misplaced reports them;
#  - with PROBE (hb_vm_probe, two-smp): the guest's own binding, page placement, SLIT
#    and AVX2-only CPU, the same boot (selftest/probe-checks.sh).
# Exit 77 (skip) when the VM cannot run here or jq is missing.
# jq programs below name jq variables ($r, $slit) in single quotes on purpose.
# shellcheck disable=SC2016
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/vm-lib.sh"
GUEST=${1:?usage: hopbench-test.sh GUEST [MIGRATOR]}
MIGRATOR=${2:+$(realpath -- "$2")}
PROBE=${PROBE:+$(realpath -- "$PROBE")}
OUT=${VM_TEST_OUT:-$PWD/vm-hopbench-$GUEST}
: "${HOPBENCH:?HOPBENCH (the hopbench binary) is not set}"
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }

# shellcheck disable=SC2046  # guest options are words without spaces
vm_prepare_or_skip $(vm_guest_opts "$GUEST")
rm -rf "$OUT"
start=$SECONDS
# The rank layout errors of too few ranks (quartet: one rank and two, 2-3 s a launch here;
# the same message on two or eight proved nothing more); the matrix's nodes (eight: the
# cube's four distances from node 0, not its 64 cells, which a TCG guest takes minutes over).
# No matrix on two and two-612: two-smp runs it on their shape (two nodes, SLIT 10/21) with
# two CPUs a node, quartet and eight with one; their own runs check their placement.
layout=0 matrix_nodes='' with_matrix=1
case $GUEST in
  quartet) layout=1 ;;
  eight) matrix_nodes=0,1,3,7 ;;
  two | two-612) with_matrix=0 ;;
esac
extra=(-e "GUEST=$GUEST" -e "LAYOUT=$layout" -e "MATRIX_NODES=$matrix_nodes" -e "WITH_MATRIX=$with_matrix")
[[ -z $MIGRATOR ]] || extra+=(-f "$MIGRATOR" -e "MIGRATOR=$MIGRATOR")
[[ -z $PROBE ]] || extra+=(-f "$PROBE" -e "PROBE=$PROBE" -f "$HERE/selftest/guest-probe.sh"
  -e "PROBE_SH=$HERE/selftest/guest-probe.sh")
rc=0
# shellcheck disable=SC2046  # guest options are words without spaces
vm_run_script $(vm_guest_opts "$GUEST") "${extra[@]}" "$HERE/guest-hopbench.sh" "$OUT" || rc=$?
echo "guest $GUEST: status $rc, wall time $((SECONDS - start)) s"
[[ $rc -eq 0 ]] || { echo "FAIL: the guest run ended with status $rc"; exit 1; }

fails=0
expect() {   # expect DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
status_is() { [[ -f $OUT/$1.rc && $(cat "$OUT/$1.rc") == "$2" ]]; }
err_has() { grep -Eq -- "$2" "$OUT/$1.err"; }
# recs FILE FILTER: jq -e over all records of FILE as one array, $slit bound
recs() { [[ -f $OUT/$1 ]] && jq -e -s --argjson slit "$slit" "$2" "$OUT/$1" >/dev/null; }

slit=$(vm_expected_slit_json "$GUEST")
guest_opts=$(vm_guest_opts "$GUEST")
nodes=$(jq 'length' <<<"$slit")
memonly=0
[[ $guest_opts == *--memonly-nodes* ]] && memonly=$(awk '{for (i = 1; i < NF; i++) if ($i == "--memonly-nodes") print $(i + 1)}' <<<"$guest_opts")
cpu_nodes=$((nodes - memonly))
if [[ $memonly -eq 0 ]]; then
  good_line="mpirun -np $cpu_nodes --map-by numa --bind-to numa"
  matrix=matrix.jsonl
else
  good_line="mpirun -np $cpu_nodes --map-by ppr:1:socket --bind-to socket"
  matrix=suggested.jsonl
fi

# --- the guest's own mechanisms, as hb_vm_probe saw them ---
if [[ -n $PROBE ]]; then
  # shellcheck source=selftest/probe-checks.sh
  . "$HERE/selftest/probe-checks.sh"
  probe_checks "$OUT"
fi

# --- the launch line hopbench suggests ---
expect "topo exits 0" status_is topo 0
expect "topo suggests '$good_line hopbench ...'" [ "$(cat "$OUT/suggested.txt")" = "$good_line" ]

# --- run record ---
run='(map(select(.type == "run")) | if length == 1 then .[0] else error("not one run record") end)'
cpus='($r.topology.nodes | map(select(.has_cpus) | .os_index))'
mems='($r.topology.nodes | map(select(.has_memory) | .os_index))'
# the matrix's measured rows and cols: every CPU node and every node with memory, or --nodes
mrows=$cpus mcols=$mems
[[ -z $matrix_nodes ]] || mrows="[$matrix_nodes]" mcols="[$matrix_nodes]"
if [[ $with_matrix == 1 ]]; then
  expect "$matrix: run record topology.distances = guest SLIT $slit" \
    recs "$matrix" "$run | .topology.distances == \$slit"
  if [[ $GUEST == two* ]]; then
    expect "hop_class 0 local, 1 remote" recs "$matrix" "$run | .topology.hop_class == [[0,1],[1,0]]"
  else
    # the guests' SLITs are 10 + 6 * hops between CPU nodes; a pair with a memory-only node
    # has no interconnect class (-1), the diagonal is local (0)
    expect "hop_class = (distance - 10) / 6 between CPU nodes, -1 with a memory-only node" \
      recs "$matrix" "$run | (.topology.nodes | map(.has_cpus)) as \$c | .topology.hop_class ==
        [range(\$slit | length) as \$i | [range(\$slit | length) as \$j |
          if \$i == \$j then 0 elif (\$c[\$i] and \$c[\$j]) then (\$slit[\$i][\$j] - 10) / 6 else -1 end]]"
  fi
fi
if [[ $GUEST == two-smp ]]; then
  expect "unbound threads (OMP_PROC_BIND=false): exit 3 before measuring" status_is unbound 3
  expect "... saying why" err_has unbound "OMP_PROC_BIND='false' leaves threads unbound"
  expect "... and nothing was measured" [ ! -s "$OUT/unbound.out" ]
  expect "unbound ranks: exit 3 before measuring" status_is unbound-ranks 3
  expect "... saying which rank is not bound inside one node, and the line that works" \
    err_has unbound-ranks "rank [01] is not bound inside one NUMA node; run: $good_line hopbench lat"
  expect "... and nothing was measured" [ ! -s "$OUT/unbound-ranks.out" ]
  expect "HOPBENCH_RANK_CPUS=2-3:0-1: exit 0" status_is rank-cpus 0
  expect "... rank 0 bound to node 1's CPUs, rank 1 to node 0's: node 0's latency is rank 1's" \
    recs rank-cpus.jsonl '([.[] | select(.type == "run")][0].rank_layout | map([.rank, .node, .cpus])) ==
        [[0,1,"2-3"],[1,0,"0-1"]] and [.[] | select(.type == "measurement") | [.rank, .cpu_node, .pages_on_target_pct]] == [[1,0,100]]'
  c2c_matrix='[.[] | select(.type == "matrix" and .metric == "c2c")][0]'
  expect "c2c exits 0 with a 2x2 node matrix, every value > 0" status_is c2c 0
  expect "... rows and cols are nodes 0 and 1, all values positive" \
    recs c2c.jsonl "$c2c_matrix | .rows == [0,1] and .cols == [0,1] and ([.values[][]] | all(. > 0))"
  expect "... each pair ran on CPUs of its own nodes (node 1 = CPUs 2-3)" \
    recs c2c.jsonl "$c2c_matrix | .cpus[0][1] == [0,2] and .cpus[1][0] == [2,0] and .cpus[1][1] == [2,3]"
  expect "... the line homed at the writer's node, pages on target" \
    recs c2c.jsonl "$c2c_matrix | .home_nodes == [[0,0],[1,1]] and .pages_on_target_pct == 100"
  expect "--home 1: every line on node 1, pages on target" \
    recs c2c-home1.jsonl "$c2c_matrix | .home_nodes == [[1,1],[1,1]] and .pages_on_target_pct == 100"
  expect "cross-node false sharing and lock hand-offs ran on nodes 0 and 1, counts exact (ok)" \
    recs c2c-home1.jsonl '[.[] | select(.placement == "cross-node")] | length == 3 and all(.status == "ok" and .cpu_nodes == [0,1] and .mem_node == 1)'
  cm='map(select(.type == "measurement" and .suite == "comm"))'
  expect "comm --bg low --load-nodes 1 exits 0" status_is comm-bg 0
  expect "... pairs 0->1 and 1->0, three metrics each, idle then loaded" \
    recs comm-bg.jsonl "$cm | length == 12 and (map([.src_node, .dst_node]) | unique) == [[0,1],[1,0]] and
      map(.bg_level) == [range(12) | if . % 2 == 0 then \"idle\" else \"low\" end]"
  expect "... each loaded pair: node 1 loaded by its rank on one thread, read > 0 GB/s" \
    recs comm-bg.jsonl "$cm | map(select(.bg_level == \"low\")) | all(.bg_nodes == [1] and .bg_threads == [1] and
      .bg_GBps[0] > 0 and .status == \"ok\" and .pages_on_target_pct == 100)"
  expect "... comm_bg per rank pair across the link (hop class 1), latency and bandwidth ratios" \
    recs comm-bg.jsonl 'map(select(.type == "comm_bg")) | length == 2 and all(.hops == 1 and .src_node != .dst_node and
      .latency.ratio > 0 and .bandwidth.ratio > 0)'
fi
if [[ $GUEST == two || $GUEST == quartet-mem ]]; then
  # the memory nodes migrate ran over: both of the 2-node guest's, or node 0 and memory-only 4
  mig_nodes='[0,1]'
  [[ $GUEST == two ]] || mig_nodes='[0,4]'
  mig='[.[] | select(.type == "measurement" and .suite == "migrate")]'
  expect "migrate exits 0" status_is migrate 0
  expect "... one record per ordered pair of $mig_nodes x {move_pages, mbind} x {4k, thp}" \
    recs migrate.jsonl "$mig | map([.src_node, .dst_node, .method, .pages]) | sort ==
      ([$mig_nodes[] as \$s | $mig_nodes[] as \$d | select(\$s != \$d) |
        [\"move_pages\", \"mbind\"][] as \$m | [\"4k\", \"thp\"][] as \$p | [\$s, \$d, \$m, \$p]] | sort)"
  expect "... every move complete: status ok, all pages on dst_node afterwards" \
    recs migrate.jsonl "$mig | all(.status == \"ok\" and .pages_on_target_pct == 100 and
      .mem_node == .src_node and .pages_share_pct[.dst_node | tostring] == 100)"
  expect "... GB/s and us per page, each with its interval, from the thread on CPU node 0" \
    recs migrate.jsonl "$mig | all(.unit == \"GBps\" and .value > 0 and .us_per_page > 0 and
      (.ci95 | length) == 2 and (.us_per_page_ci95 | length) == 2 and .cpu_node == 0 and
      .threads_on_node == 1)"
fi
if [[ $GUEST == quartet ]]; then
  expect "quartet: links 0-1, 0-2, 1-3, 2-3 are class 1; 0-3, 1-2 class 2" \
    recs "$matrix" "$run | .topology.hop_class as \$h |
      [\$h[0][1], \$h[0][2], \$h[1][3], \$h[2][3]] == [1,1,1,1] and [\$h[0][3], \$h[1][2]] == [2,2]"
fi
if [[ $GUEST == eight ]]; then
  expect "eight: four hop classes" \
    recs "$matrix" "$run | [.topology.hop_class[][]] | unique == [0,1,2,3]"
  expect "eight: the matrix's cells meet every distance of the cube (10, 16, 22, 28)" \
    recs "$matrix" "[.[] | select(.type == \"cell\") | \$slit[.cpu_node][.mem_node]] | unique == [10,16,22,28]"
fi
meas='map(select(.type == "measurement"))'
if [[ $with_matrix == 1 ]]; then
  expect "$cpu_nodes CPU nodes, $nodes nodes with memory in the run record" \
    recs "$matrix" "$run as \$r | ($cpus | length) == $cpu_nodes and ($mems | length) == $nodes"
  expect "rank_layout: rank r on the r-th CPU node, one rank per node" \
    recs "$matrix" "$run as \$r | \$r.ranks == $cpu_nodes and
      (\$r.rank_layout | map(.node)) == $cpus and (\$r.rank_layout | map(.rank)) == [range($cpu_nodes)]"
  expect "simd is avx2 (normal build on the AVX2-only guest CPU)" recs "$matrix" "$run | .simd == \"avx2\""

  # --- measurement records ---
  expect "measurements: one per CPU node x memory node x kernel, all status ok" \
    recs "$matrix" "$run as \$r | $meas | length > 0 and
      length % (($mrows | length) * ($mcols | length)) == 0 and all(.status == \"ok\")"
  expect "measurements: threads_on_node == threads, every thread on a CPU of cpu_node" \
    recs "$matrix" "$run as \$r | all(${meas}[]; .threads_on_node == .threads and .threads > 0 and
      (.thread_cpus | length) == .threads and
      (.cpu_node as \$n | (\$r.topology.nodes[] | select(.os_index == \$n) | .cpus)) as \$ok |
      all(.thread_cpus[]; IN(\$ok[])))"
  expect "measurements: ran on the rank of cpu_node" \
    recs "$matrix" "$run as \$r | all(${meas}[]; \$r.rank_layout[.rank].node == .cpu_node)"
  expect "measurements: pages_on_target_pct 100, pages_share_pct {mem_node: 100}" \
    recs "$matrix" "all(${meas}[]; .pages_on_target_pct == 100 and
      .pages_share_pct == {(.mem_node | tostring): 100})"

  # --- matrix and cell records ---
  expect "matrix records: rows = CPU nodes, cols = memory nodes, rows x cols values, measured${matrix_nodes:+ for nodes $matrix_nodes} only" \
    recs "$matrix" "$run as \$r | map(select(.type == \"matrix\")) | length > 0 and all(.[]; . as \$m |
      .rows == $cpus and .cols == $mems and (.values | length) == (.rows | length) and
      all(.values[]; length == ($mems | length)) and
      all(range(.rows | length) as \$i | range(.cols | length) as \$j | [\$i, \$j];
        (\$m.values[.[0]][.[1]] != null) == ((\$m.rows[.[0]] | IN(${mrows}[])) and (\$m.cols[.[1]] | IN(${mcols}[])))))"
  expect "cell records: one per (metric, kernel, CPU node, memory node), every pair" \
    recs "$matrix" "$run as \$r | [${mrows}[] as \$c | ${mcols}[] as \$m | [\$c, \$m]] as \$pairs |
      map(select(.type == \"cell\")) | group_by([.metric, .kernel]) | length > 0 and
      all(.[]; (map([.cpu_node, .mem_node]) | sort) == \$pairs and all(.[]; .status == \"ok\"))"
  if [[ $memonly -gt 0 ]]; then
    expect "memory-only node $cpu_nodes is a column, never a row or a rank" \
      recs "$matrix" "$run as \$r | (\$r.rank_layout | all(.node != $cpu_nodes)) and
        (map(select(.type == \"matrix\")) | all(.[]; (.cols | index($cpu_nodes)) != null and
        (.rows | index($cpu_nodes)) == null))"
  fi
fi

# --- rank layout errors ---
if [[ $memonly -eq 0 && $with_matrix == 1 ]]; then
  expect "mpirun --map-by numa --bind-to numa -np $cpu_nodes matrix exits 0" status_is matrix 0
elif [[ $memonly -gt 0 ]]; then
  expect "mpirun --map-by numa --bind-to numa -np $cpu_nodes exits 3 (a rank on the memory-only node's CPUs)" \
    status_is matrix 3
  expect "... and says two ranks share a node and prints '$good_line'" \
    err_has matrix "ranks [0-9]+ and [0-9]+ both on node [0-9]+; run: $good_line hopbench matrix"
  expect "the suggested line '$good_line' runs the matrix (exit 0)" status_is suggested 0
  expect "mpirun --map-by numa -np $nodes (a rank per node, memory-only included) exits 3" \
    status_is layout-all 3
  expect "... and names the memory-only node(s) and '$good_line'" \
    err_has layout-all "memory-only node.*run: $good_line hopbench lat"
fi
if [[ $layout == 1 ]]; then
  expect "mpirun -np 1 lat exits 3 (layout)" status_is layout-np1 3
  expect "... saying 1 rank for $cpu_nodes CPU nodes, no rank on node 1, and '$good_line'" \
    err_has layout-np1 "1 rank on host [^ ]+ for $cpu_nodes NUMA nodes with CPUs; no rank on node 1; run: $good_line hopbench lat"
fi
if [[ $layout == 1 && $cpu_nodes -gt 2 ]]; then
  expect "mpirun -np 2 lat on $cpu_nodes CPU nodes exits 3" status_is layout-np2 3
  expect "... naming 2 ranks, $cpu_nodes nodes and '$good_line'" \
    err_has layout-np2 "2 ranks on host [^ ]+ for $cpu_nodes NUMA nodes with CPUs; .*run: $good_line hopbench lat"
fi

# --- quartet: hops (crossfire, background load) and policy placements ---
if [[ $GUEST == quartet ]]; then
  ok='all(.status == "ok" and .pages_on_target_pct == 100)'
  expect "hops --quick over mpirun exits 0" status_is hops 0
  expect "hops: measurements present, every one status ok with 100% of the pages on mem_node" \
    recs hops.jsonl "$meas | length > 0 and $ok and
      all(.[]; .pages_share_pct == {(.mem_node | tostring): 100})"
  cf='map(select(.type == "measurement" and .case == "crossfire"))'
  expect "hops: crossfire pairs are the square's links 0-1, 0-2, 1-3, 2-3, both directions" \
    recs hops.jsonl "$cf | (map([.cpu_node, .mem_node]) | unique) ==
      [[0,1],[0,2],[1,0],[1,3],[2,0],[2,3],[3,1],[3,2]] and (map(.link) | unique) == [\"0-1\",\"0-2\",\"1-3\",\"2-3\"]"
  expect "hops: each crossfire experiment is two threads across its link, hop class 1 (SLIT 16)" \
    recs hops.jsonl "$cf | group_by(.experiment) | length > 0 and all(.[]; length == 2 and
      (map([.cpu_node, .mem_node]) | sort) as \$p | \$p[0] == (\$p[1] | reverse) and
      (.[0].link == ((\$p[0] | map(tostring)) | join(\"-\"))) and
      all(.[]; .hops == 1 and \$slit[.cpu_node][.mem_node] == 16))"
  expect "hops: every crossfire has a no-crossfire twin, same threads and hop classes, second writer turned away" \
    recs hops.jsonl "$meas | group_by(.experiment) | map({key: .[0].experiment, value: sort_by(.cpu_node)}) |
      from_entries as \$x | [\$x | keys[] | select(startswith(\"hops-crossfire-\"))] as \$cfs |
      (\$cfs | length) == 8 and ([\$x[] | select(.[0].case == \"no-crossfire\")] | length) == 8 and
      all(\$cfs[]; \$x[.] as \$c | \$x[sub(\"^hops-\"; \"hops-no-\")] as \$t | \$t != null and
        (\$t | map(.cpu_node)) == (\$c | map(.cpu_node)) and (\$t | map(.hops)) == (\$c | map(.hops)) and
        (\$t | map(.access)) == (\$c | map(.access)) and all(\$t[]; .case == \"no-crossfire\" and .link == \$c[0].link) and
        ([range(2)] | map(select(\$t[.].mem_node != \$c[.].mem_node)) | length) == 1)"
  bgexp='map(select(.type == "measurement" and (.subscription == "under" or .subscription == "high"))) | group_by(.experiment)'
  expect "hops: under/high load: background threads only on nodes without foreground threads, reading their own node" \
    recs hops.jsonl "$bgexp | length > 0 and all(.[];
      (map(select(.role == \"foreground\") | .cpu_node)) as \$fg | (\$fg | length) > 0 and
      (map(select(.role == \"background\")) | length > 0 and all(.[]; .mem_node == .cpu_node and (IN(.cpu_node; \$fg[]) | not))) and
      all(.[] | select(.role == \"foreground\") | .background[]; .mem_node == .cpu_node and (IN(.cpu_node; \$fg[]) | not)))"
  expect "hops: every background entry achieved_GBps > 0; every loaded foreground has bg_overlap == 1" \
    recs hops.jsonl "$meas | map(select(.role == \"foreground\" and (.background | length) > 0)) | length > 0 and
      all(.[]; .bg_overlap == 1 and all(.background[]; .achieved_GBps > 0))"

  pol='map(select(.type == "measurement" and .suite == "policy" and .mode == "rate"))'
  expect "policy --mode rate over mpirun exits 0" status_is policy 0
  expect "policy: one task per CPU node per placement, every one status ok, pages verified" \
    recs policy.jsonl "$pol | length > 0 and $ok and
      all(group_by(.policy)[]; (map(.cpu_node) | sort) == [range($cpu_nodes)])"
  expect "policy: interleave pages spread over all $nodes nodes, each share 25 +/- 3 %" \
    recs policy.jsonl "$pol | map(select(.policy == \"interleave\")) | length == $cpu_nodes and
      all(.[]; (.pages_share_pct | keys) == ([range($nodes)] | map(tostring)) and
        all(.pages_share_pct[]; . >= 22 and . <= 28))"
  expect "policy: one-node pages all on node 0" \
    recs policy.jsonl "$pol | map(select(.policy == \"one-node\")) | length == $cpu_nodes and
      all(.[]; .mem_node == 0 and .pages_share_pct == {\"0\": 100})"
  expect "policy: local pages all on the thread's node" \
    recs policy.jsonl "$pol | map(select(.policy == \"local\")) | length == $cpu_nodes and
      all(.[]; .pages_share_pct == {(.cpu_node | tostring): 100})"
  pk='map(select(.type == "measurement" and .suite == "peak"))'
  expect "peak over mpirun exits 0 (bound and interleaved)" \
    [ "$(cat "$OUT/peak.rc") $(cat "$OUT/peak-il.rc")" = "0 0" ]
  expect "peak: per mix one record per CPU node, each from its own rank, on its own node's memory, ok" \
    recs peak.jsonl "$pk | (map(.kernel) | unique) == [\"mix1:1-nt\", \"read\"] and $ok and
      all(group_by(.experiment)[]; (map(.cpu_node) | sort) == [range($cpu_nodes)] and
        (map(.rank) | unique | length) == $cpu_nodes and
        all(.[]; .mem_node == .cpu_node and .pages_share_pct == {(.cpu_node | tostring): 100}))"
  # The guest's clocks say nothing of overlap; the record must only say what it saw.
  expect "peak: one total per mix, the sum of its nodes' figures; an overlap under 0.9 is said" \
    recs peak.jsonl "($pk) as \$m | map(select(.type == \"peak\")) | length == 2 and all(.[]; . as \$p |
      (.nodes | sort) == [range($cpu_nodes)] and .fg_overlap >= 0 and .fg_overlap <= 1 and
      ((.fg_overlap < 0.9) == (.note | test(\"overlapped too little\"))) and
      (([\$m[] | select(.experiment == \$p.experiment) | .bw_GBps_best] | add) - .total_GBps | fabs) < 0.01)"
  expect "peak --policy interleave: every node's pages spread over all $nodes nodes" \
    recs peak-il.jsonl "$pk | length == $cpu_nodes and all(.[]; .policy == \"interleave\" and
      (.pages_share_pct | keys) == ([range($nodes)] | map(tostring)))"
  # The report of these real multi-node records: one value cell per matrix cell.
  "$HOPBENCH" report "$OUT/matrix.jsonl" "$OUT/hops.jsonl" "$OUT/policy.jsonl" \
    -o "$OUT/report.html" >"$OUT/report.log" 2>&1 && report_rc=0 || report_rc=$?
  expect "report of the guest's matrix, hops and policy records exits 0" [ "$report_rc" = 0 ]
  expect "... with a heatmap cell for each of the $((2 * cpu_nodes * nodes)) matrix cells" \
    [ "$(grep -o 'data-kind="value"' "$OUT/report.html" | wc -l)" = $((2 * cpu_nodes * nodes)) ]
fi

# --- comm: MPI messages between the ranks' nodes ---
if [[ $GUEST == quartet ]]; then
  cm='map(select(.type == "measurement" and .suite == "comm"))'
  expect "comm over mpirun exits 0" status_is comm 0
  expect "comm: all 12 ordered node pairs, each with latency, bandwidth and bibandwidth" \
    recs comm.jsonl "$cm | length == 36 and (map([.src_node, .dst_node]) | unique) ==
      [[0,1],[0,2],[0,3],[1,0],[1,2],[1,3],[2,0],[2,1],[2,3],[3,0],[3,1],[3,2]] and
      all(group_by([.src_node, .dst_node])[]; (map(.metric) | sort) == [\"bandwidth\",\"bibandwidth\",\"latency\"])"
  expect "comm: hop class from the guest's SLIT (10 + 6 x hops), rank r on node r, pages verified" \
    recs comm.jsonl "$cm | all(.hops == ((\$slit[.src_node][.dst_node] - 10) / 6) and
      .src_rank == .src_node and .dst_rank == .dst_node and .mem_nodes == [.src_node, .dst_node] and
      .pages_on_target_pct == 100 and .status == \"ok\" and .message_bytes == 8 and .value > 0)"
  expect "comm: latency and bandwidth matrices, 4 x 4, measured off the diagonal, hop classes of the SLIT" \
    recs comm.jsonl "map(select(.type == \"comm_matrix\")) | length == 2 and
      (map(.metric) | sort) == [\"bandwidth\",\"latency\"] and all(.[]; . as \$m | .rows == [0,1,2,3] and
        all(range(4) as \$i | range(4) as \$j | [\$i, \$j]; (\$m.values[.[0]][.[1]] == null) == (.[0] == .[1]) and
          \$m.hop_class[.[0]][.[1]] == ((\$slit[.[0]][.[1]] - 10) / 6)))"
  expect "comm: export writes the MPI latency as hwloc distances hopbench-mpi-latency" \
    bash -c "[ \"\$(cat '$OUT/comm-export.rc')\" = 0 ] && grep -q 'name=\"hopbench-mpi-latency\"' '$OUT/comm.xml'"
  expect "comm: the same-node pairs (no two ranks share a node) are named as not measured" \
    err_has comm "no two ranks on node pair\\(s\\) 0-0 1-1 2-2 3-3"
fi
# --- coll: collectives over communicators by hop class, every node as root ---
if [[ $GUEST == quartet || $GUEST == eight ]]; then
  cl='map(select(.type == "measurement" and .suite == "coll"))'
  # the hop class of two nodes from the guest's SLIT (10 + 6 x hops)
  hop='def hop(a; b): ($slit[a][b] - 10) / 6;'
  classes='["hops-1","world"]' spans='[1,2]'
  [[ $GUEST == quartet ]] || classes='["hops-1","hops-2","world"]' spans='[1,2,3]'
  expect "coll over mpirun exits 0" status_is coll 0
  expect "coll: placement classes $classes, spans $spans hops, as the SLIT's hop classes" \
    recs coll.jsonl "$hop $cl | (map(.coll_class) | unique) == $classes and
      (map(.span_hops) | unique) == $spans and
      all(. as \$r | .span_hops == ([\$r.nodes[] as \$a | \$r.nodes[] as \$b | hop(\$a; \$b)] | max) and
        (.coll_class == \"world\" or .coll_class == \"hops-\\(.span_hops)\"))"
  expect "coll: the world holds every node, one rank each; a hops-k set is the largest within k" \
    recs coll.jsonl "$cl | all(.ranks == (.nodes | length)) and
      (map(select(.coll_class == \"world\") | .nodes) | unique) == [[range($nodes)]]"
  expect "coll: bcast's roots cover every node of each communicator, ranks' hops from the root" \
    recs coll.jsonl "$hop $cl | map(select(.op == \"bcast\")) | group_by(.coll_class) |
      all((map(.root_node) | sort) == .[0].nodes) and
      all(.[][]; . as \$r | \$r.per_rank | all(.hops == hop(.node; \$r.root_node)) and
        (\$r.per_rank | map(select(.node == \$r.root_node)) | .[0].rank) == \$r.root_rank)"
  expect "coll: buffers on each rank's node, every rank's pages verified" \
    recs coll.jsonl "$cl | all(.status == \"ok\" and .buffers == \"own-node\" and .mem_nodes == .nodes and
      .pages_on_target_pct == 100 and (.per_rank | all(.pages_on_target_pct == 100 and .mean_us > 0)))"
  expect "coll: Open MPI's tuned named as the component" \
    recs coll.jsonl "$cl | all(.coll_component == \"tuned\")"
  expect "coll: a best/worst placement record per op, over every placement timed" \
    recs coll.jsonl "($cl | group_by(.op) | map([.[0].op, length])) as \$n |
      [.[] | select(.type == \"coll_placement\") | [.op, .placements]] == \$n and
      all(.[] | select(.type == \"coll_placement\"); .ratio >= 1 and .best.p50_us.value <= .worst.p50_us.value)"
fi
if [[ $GUEST == quartet ]]; then
  expect "coll --policy interleave --nodes 0,1: buffers interleaved over nodes 0 and 1, verified" \
    eval 'status_is coll-il 0 && recs coll-il.jsonl "$cl | length == 2 and all(.policy == \"interleave\" and
      .buffers == \"interleave\" and .nodes == [0,1] and .mem_node == null and
      .pages_on_target_pct == 100 and .status == \"ok\")"'
fi
if [[ $GUEST == quartet-mem ]]; then
  cm='map(select(.type == "measurement" and .suite == "comm"))'
  expect "comm --mem-node 4 (memory-only) over mpirun exits 0" status_is comm-mem 0
  # Open MPI's --map-by numa counts node 4 too: two ranks share node 0's one core, refused.
  expect "comm: two ranks on one core refused (exit 3), naming the launch that fits" \
    eval 'status_is comm-shared 3 && err_has comm-shared "message from one core .*--bind-to core"'
  # The pairs follow the run record's layout (one rank per core: none share a node here).
  pairs='(map(select(.type == "run"))[0].rank_layout | map(select(.node <= 1))) as $l |
    [$l[] as $a | $l[] as $b | select($a.rank != $b.rank) | [$a.rank, $b.rank, $a.node, $b.node]] | sort'
  expect "comm --mem-node 4: every ordered pair of ranks on nodes 0 and 1, three metrics each" \
    recs comm-mem.jsonl "($pairs) as \$want | \$want != [] and
      ($cm | map([.src_rank, .dst_rank, .src_node, .dst_node]) | unique) == \$want and ($cm | length) == 3 * (\$want | length)"
  expect "comm --mem-node 4: both ends' pages on the memory-only node 4" \
    recs comm-mem.jsonl "$cm | all(.mem_nodes == [4,4] and .src_mem_node == 4 and .dst_mem_node == 4 and
      .pages_on_target_pct == 100 and .status == \"ok\")"
  expect "comm: same-node pairs exactly where two ranks share a node" \
    recs comm-mem.jsonl "($pairs | map(select(.[2] == .[3])) | length) as \$same |
      ($cm | map(select(.src_node == .dst_node)) | length) == 3 * \$same"

fi

# --- weighted interleave: refused on 6.1, 3:1 pages and the weights put back on 6.12 ---
if [[ $GUEST == two ]]; then
  expect "6.1: bw --policy weighted exits 2, one line naming 6.9 and the running 6.1, no output" \
    eval 'status_is weighted-61 2 && [[ $(wc -l <"$OUT/weighted-61.err") == 1 ]] &&
      err_has weighted-61 "^hopbench: --policy weighted needs Linux 6\.9 or later \(MPOL_WEIGHTED_INTERLEAVE, /sys/kernel/mm/mempolicy/weighted_interleave/\); this machine runs Linux 6\.1\." &&
      [[ ! -e $OUT/weighted-61.jsonl && ! -e $OUT/weighted-61.jsonl.partial ]]'
  expect "6.1: policy --weights auto exits 2 naming 6.9 and 6.1, no output" \
    eval 'status_is weights-auto-61 2 && [[ $(wc -l <"$OUT/weights-auto-61.err") == 1 ]] &&
      err_has weights-auto-61 "^hopbench: policy --weights auto needs Linux 6\.9 or later .*; this machine runs Linux 6\.1\." &&
      [[ ! -e $OUT/weights-auto-61.jsonl ]]'
fi
if [[ $GUEST == two-612 ]]; then
  wil='map(select(.type == "measurement" and .policy == "weighted"))'
  expect "the guest runs Linux 6.12 ($(cat "$OUT/uname.txt" 2>/dev/null))" grep -q '^6\.12\.' "$OUT/uname.txt"
  expect "weighted bw exits 0" status_is weighted 0
  expect "weighted record: nodes [0,1], weights 3:1 set, share 75/25 expected, all pages on the set" \
    recs weighted.jsonl "$wil | length == 1 and all(.status == \"ok\" and .mem_nodes == [0,1] and
      .weights == {\"0\": 3, \"1\": 1} and .weights_set == true and
      .weights_share_pct == {\"0\": 75, \"1\": 25} and .pages_on_target_pct == 100)"
  expect "weighted pages within 5 points of 75/25 ($(jq -c 'select(.policy == "weighted") | .pages_share_pct' "$OUT/weighted.jsonl" 2>/dev/null))" \
    recs weighted.jsonl "$wil | all((.pages_share_pct[\"0\"] - 75 | fabs) <= 5 and
      (.pages_share_pct[\"1\"] - 25 | fabs) <= 5)"
  expect "the kernel's weights put back after the run ($(tr '\n' ' ' <"$OUT/weights-after.txt"))" \
    cmp -s "$OUT/weights-before.txt" "$OUT/weights-after.txt"
  expect "weights 3 1 while the run that gets SIGTERM runs" \
    [ "$(tr '\n' ' ' <"$OUT/weights-during.txt")" = "3 1 " ]
  expect "SIGTERM mid-run: not 0 ($(cat "$OUT/weighted-term.rc")), weights put back ($(tr '\n' ' ' <"$OUT/weights-after-term.txt"))" \
    eval '! status_is weighted-term 0 && cmp -s "$OUT/weights-before.txt" "$OUT/weights-after-term.txt"'
  steps='map(select(.type == "measurement" and .mode == "weights"))'
  expect "policy --weights auto exits 0" status_is weights-auto 0
  expect "weight search: the two binds and 8 ladder steps, all ok, each step's pages within 5 points of its weights" \
    recs weights-auto.jsonl "$steps | length == 10 and all(.status == \"ok\" and .weight_nodes == [0,1]) and
      (map(select(.policy == \"weighted\")) | length == 8 and all(
        (.pages_share_pct[\"0\"] - 100 * .weights[0] / (.weights[0] + .weights[1]) | fabs) <= 5))"
  expect "weights record: nodes [0,1], the best step is the ladder's fastest, ratios consistent ($(jq -c 'select(.type == "weights") | {best_weights, bw_ratio, best_vs_bw_ratio, best_vs_next}' "$OUT/weights-auto.jsonl" 2>/dev/null))" \
    recs weights-auto.jsonl "map(select(.type == \"weights\")) | length == 1 and (.[0] |
      .nodes == [0,1] and (.ladder | length) == 8 and .bw_ratio > 0 and
      .best.value == (.ladder | map(.value) | max) and
      .best_ratio == .best_weights[0] / .best_weights[1] and
      (.best_vs_bw_ratio / (.best_ratio / .bw_ratio) - 1 | fabs) < 1e-6)"
  expect "the kernel's weights put back after the search ($(tr '\n' ' ' <"$OUT/weights-after-auto.txt"))" \
    cmp -s "$OUT/weights-before.txt" "$OUT/weights-after-auto.txt"
fi

if [[ $GUEST == two-612 ]]; then
  bal='map(select(.type == "measurement" and .suite == "balance")) | .[0]'
  expect "balance with NUMA balancing off (boot: $(cat "$OUT/numa-balancing-boot.txt")): exit 2, one line naming numa_balancing and the sysctl that turns it on, no records" \
    eval 'status_is balance-off 2 && [[ $(wc -l <"$OUT/balance-off.err") == 1 ]] &&
      err_has balance-off "^hopbench: balance .*numa_balancing is 0 .*sysctl kernel\.numa_balancing=1. \(2 for memory tiering\)" &&
      [[ ! -e $OUT/balance-off.jsonl && ! -e $OUT/balance-off.jsonl.partial ]]'
  expect "balance exits 0" status_is balance 0
  expect "... one record: threads on node 0, 32 MiB first touched on node 1 (all of it), balancing mode 1, 4 KiB pages" \
    recs balance.jsonl "[$bal] | length == 1 and all(.status == \"ok\" and .cpu_node == 0 and
      .mem_node == 1 and .bytes == 33554432 and .first_touch_pct == 100 and .numa_balancing == 1 and
      .page_bytes == 4096 and .threads_on_node == .threads and .max_time_s == 30)"
  expect "... series: >= 5 points, the k-th no earlier than k intervals, local share rising from under 90% to >= 90% ($(jq -c 'select(.suite == "balance") | [.series[] | [(.t_s * 100 | round / 100), .local_pct, (.GBps * 1000 | round / 1000)]]' "$OUT/balance.jsonl" 2>/dev/null))" \
    recs balance.jsonl "$bal | .interval_s as \$i | .series | length >= 5 and
      all(range(length) as \$k | .[\$k].t_s - (\$k + 1) * \$i; . >= -1e-6) and
      .[0].local_pct < 90 and .[-1].local_pct >= 90 and (map(.GBps) | max > 0)"
  expect "... time_to_90pct_s: the first point at >= 90%, within max_time_s ($(jq -c 'select(.suite == "balance") | .time_to_90pct_s' "$OUT/balance.jsonl" 2>/dev/null) s)" \
    recs balance.jsonl "$bal | .time_to_90pct_s == (.series | map(select(.local_pct >= 90)) | .[0].t_s) and
      .time_to_90pct_s <= .max_time_s and .time_to_90pct_why == null"
  expect "... the kernel moved the pages: numa_pages_migrated and numa_hint_faults moved ($(jq -c 'select(.suite == "balance") | .vmstat_moved' "$OUT/balance.jsonl" 2>/dev/null))" \
    recs balance.jsonl "$bal | .vmstat_moved.numa_pages_migrated > 0 and .vmstat_moved.numa_hint_faults > 0"
  expect "... and a note for people: when 90% of the pages were on node 0 ($(jq -r 'select(.type == "note") | .text' "$OUT/balance.jsonl" 2>/dev/null))" \
    recs balance.jsonl "map(select(.type == \"note\" and .suite == \"balance\")) | length == 1 and
      (.[0].text | test(\"^balance-0-1: 90% of the pages on node 0 after [0-9.]+ s \\\\([0-9]+ samples; numa_pages_migrated [1-9][0-9]*\\\\)$\"))"
  expect "... GB/s with its repeat, the pages on node 0 at the end" \
    recs balance.jsonl "$bal | .unit == \"GBps\" and .value > 0 and .repeats == 1 and
      .pages_on_target_pct >= 90 and .pages_share_pct[\"0\"] == .pages_on_target_pct"
  expect "balance --pages thp: exit 0, 2 MiB pages brought to node 0: >= 90% local within max-time, numa_pages_migrated moved ($(jq -c 'select(.suite == "balance") | [.time_to_90pct_s, .vmstat_moved.numa_pages_migrated, .vmstat_moved.thp_migration_success]' "$OUT/balance-thp.jsonl" 2>/dev/null))" \
    eval 'status_is balance-thp 0 && recs balance-thp.jsonl "$bal | .pages == \"thp\" and
      .page_bytes == 2097152 and .first_touch_pct == 100 and .series[-1].local_pct >= 90 and
      .time_to_90pct_s <= .max_time_s and .vmstat_moved.numa_pages_migrated > 0"'
  expect "balance under mode 2 (tiering alone; both nodes DRAM): exit 0, >= 5 points on to --max-time 2, all at 0% local, time_to_90pct_s null and why, no page migrated, value null ($(jq -c 'select(.suite == "balance") | [.time_to_90pct_why, .vmstat_moved]' "$OUT/balance-tiering.jsonl" 2>/dev/null))" \
    eval 'status_is balance-tiering 0 && recs balance-tiering.jsonl "$bal | .numa_balancing == 2 and
      (.series | length >= 5 and .[-1].t_s > 1.75 and all(.[]; .local_pct == 0)) and
      .time_to_90pct_s == null and
      (.time_to_90pct_why | test(\"^the local share reached 0.0%, not 90%, in [0-9.]+ s$\")) and
      (.vmstat_moved.numa_pages_migrated // 0) == 0 and .value == null and .status == \"ok\"" &&
      recs balance-tiering.jsonl "map(select(.type == \"note\")) | .[0].text | test(\"^balance-0-1: the local share reached 0.0%\")"'
fi
# --- pages moved off the target by the kernel while bw runs ---
if [[ -n $MIGRATOR ]]; then
  fg='map(select(.type == "measurement" and .cpu_node == 1 and .mem_node == 1))'
  expect "migrator ran (migrate_pages accepted)" err_has misplaced '^MIGRATOR passes [0-9]+ calls_ok [1-9]'
  expect "misplaced pages: bw exits 1" status_is misplaced 1
  expect "misplaced pages: record status failed, note names the pages on the target, pct < 100" \
    recs misplaced.jsonl "$fg | length == 1 and all(.status == \"failed\" and
      (.note | test(\"pages on the target\")) and .pages_on_target_pct < 100 and
      (.pages_share_pct[\"0\"] // 0) > 0)"
  expect "--allow-misplaced: bw exits 0" status_is allowed 0
  expect "--allow-misplaced: status ok, pages_on_target_pct < 100, the rest on node 0" \
    recs allowed.jsonl "$fg | length == 1 and all(.status == \"ok\" and
      .pages_on_target_pct < 100 and (.pages_share_pct[\"0\"] // 0) > 0)"
fi

echo "$GUEST: $fails failed check(s); total $((SECONDS - start)) s"
[[ $fails -eq 0 ]]
