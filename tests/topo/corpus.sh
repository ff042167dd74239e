#!/usr/bin/env bash
# corpus.sh HOPBENCH CORPUS [FILE...] - CTest (label topo; a subset under label cli):
# invariants of `hopbench topo` and of every suite's --dry-run on real machines' hwloc
# topologies (tests/topo/corpus, origins in its README), every file or the FILEs named:
#  - exit 0, 2 (the file) or 3 (this machine); not 0: one line on stderr, nothing on stdout,
#    and the same answer from topo and from every suite;
#  - an hwloc 3.0 XML, where the installed hwloc refuses one, is refused with hwloc's reason
#    and how to write a file this hwloc reads; its content is then checked through a copy
#    labelled version 2.0;
#  - hop classes on CPU-node pairs only: the diagonal 0, no remote pair in class 0, classes
#    ranked as the distances are; a pair with a node without CPUs of its own is class -1
#    (CPUs that exist but are not allowed still count: the interconnect is the machine's);
#  - each CPU node's CPUs fit its cores x SMT (packages may be absent from a file), its caches' levels are
#    distinct and cover its CPUs, a cache over 32 MiB per core is marked not believable;
#    a node without CPUs has none of these;
#  - topo's CPU lists are real ranges; the launch lines are complete, one rank per CPU node;
#  - tasks run on CPU nodes only, memory goes to nodes with memory only, every node set is
#    what its policy means (interleave and os: every node with memory, remote: the farthest
#    node of the CPU node's own kind, one-node: the first node with memory); a task's hop
#    class is the topology's; strict binds of one experiment fit their node together;
#  - crossfire wherever two CPU nodes are linked at class 1, or a line saying why not;
#  - a plan that is empty says why in one line;
#  - every network and OpenFabrics device is in the record and the table, near the NUMA
#    nodes hwloc-calc gives it (os=NAME -I numa --po);
#  - memory-side caches in the file are shown by topo; default sizes are above every
#    memory-side cache of the memory they use, or a line on stderr says why not (sweep's sizes
#    and c2c's cache lines are small on purpose; migrate moves pages, whatever caches them).
# Each file's topology is checked whole; of a file topo reads, every other suite's plan is
# checked (tests/sample-lib.sh: each suite on half the files, the half changing with the
# commit; HB_TEST_FULL=1: every suite on every file).
# jq programs name jq variables in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
HB=${1:?usage: corpus.sh HOPBENCH CORPUS [FILE...]}
DIR=${2:?usage: corpus.sh HOPBENCH CORPUS [FILE...]}
shift 2
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
command -v hwloc-calc >/dev/null || { echo "SKIP: hwloc-calc is not installed (Debian package hwloc)"; exit 77; }
. "$(dirname "$0")/../sample-lib.sh"
hb_sample_init topo.corpus 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
}
# Suites as command words; "" is the quick default suite.
suites=(matrix hops loaded policy sweep peak lat bw c2c migrate balance "")
# run NAME ARGS...: stdout, stderr and exit code of one hopbench call in $tmp/NAME.{out,err,rc}
run() {
    local name=$1
    shift
    "$HB" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
# one_line NAME WHAT: a failed call says why in exactly one line and writes no records
one_line() {
    local rc
    rc=$(<"$tmp/$1.rc")
    case $rc in
    0) return 0 ;;
    2 | 3) ;;
    *) fail "$2: exit $rc, not 0, 2 or 3: $(head -c 300 "$tmp/$1.err")" ;;
    esac
    [ "$(wc -l <"$tmp/$1.err")" = 1 ] || fail "$2: exit $rc with $(wc -l <"$tmp/$1.err") lines on stderr, not one"
    [ -s "$tmp/$1.out" ] && fail "$2: exit $rc but records on stdout"
    return 0
}

# Checks of the topology record T (jq, one failure per output line).
topo_checks='
def cpu: [.nodes[] | select(.has_cpus) | .os_index];
def machine_cpu: .has_cpus or .cpus_state == "not-allowed";
def ix($os): [.nodes[].os_index] | index($os);
. as $t | cpu as $c | [range(0; .nodes | length)] as $all |
(.nodes[] | . as $n | "node \(.os_index)" as $w |
 if .has_cpus then
   (select(.smt < 1 or .cores * .smt < (.cpus | length)) |
      "\($w): \(.cpus | length) CPUs on \(.cores) cores x \(.smt) threads"),
   (select([.caches[].level] != ([.caches[].level] | unique)) | "\($w): cache levels \([.caches[].level])"),
   (.caches[] | select(.bytes < 1 or .count < 1 or .cpus_each < 1 or .count * .cpus_each < ($n.cpus | length)) |
      "\($w): L\(.level) \(.bytes) B x\(.count), \(.cpus_each) CPUs each, for \($n.cpus | length) CPUs"),
   (.caches[] | select(.believable != (.bytes <= 33554432 * ([1, (.cpus_each / $n.smt | floor)] | max))) |
      "\($w): L\(.level) of \(.bytes) B for \(.cpus_each) CPUs marked believable \(.believable)")
 else
   select(.packages != [] or .smt != 0 or .caches != []) |
     "\($w) without CPUs: packages \(.packages), smt \(.smt), caches \(.caches | length)"
 end),
(if .hop_class then
   ($all[] | select($t.hop_class[.][.] != 0) | "node \($t.nodes[.].os_index): diagonal hop class \($t.hop_class[.][.]), not 0"),
   ($all[] as $i | $all[] as $j | select($i != $j) |
      ($t.nodes[$i] | machine_cpu) as $ci | ($t.nodes[$j] | machine_cpu) as $cj | ($ci and $cj) as $cc |
      select(($cc and $t.hop_class[$i][$j] < 1) or ((($cc | not)) and $t.hop_class[$i][$j] != -1)) |
      "nodes \($t.nodes[$i].os_index)->\($t.nodes[$j].os_index): hop class \($t.hop_class[$i][$j]) (\(if $cc then "a remote CPU-node pair" else "a node without CPUs: -1" end))"),
   ([$all[] as $i | $all[] as $j | select($i != $j and ($t.nodes[$i] | machine_cpu) and ($t.nodes[$j] | machine_cpu)) |
      [$t.distances[$i][$j], $t.hop_class[$i][$j]]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | unique)]) |
    (.[] | select(.[1] | length > 1) | "distance \(.[0]) is in hop classes \(.[1])"),
    (. as $g | range(1; $g | length) | select($g[.][1][0] <= $g[. - 1][1][0]) |
      "hop classes not ranked as distances: \($g[. - 1][0]) is class \($g[. - 1][1][0]), \($g[.][0]) is class \($g[.][1][0])"))
 else empty end),
(.mpirun as $m | ($c | length) as $n |
 (if ($m | test("HOPBENCH_RANK_CPUS")) then
   ($m | capture("--bind-to none -x HOPBENCH_RANK_CPUS=(?<l>[0-9,:-]+) hopbench").l // "" | split(":")) as $got |
    [.nodes[] | select(.has_cpus) | .cpus | ranges] as $want |
    select($got != $want) | "mpirun line: HOPBENCH_RANK_CPUS lists \($got), CPU nodes have \($want)"
  else empty end),
 (select($m | test(" : ")) | "mpirun line: several app contexts (Open MPI 5.0.7 crashes): \($m)"),
 (($m | capture("-np (?<n>[0-9]+) ").n | tonumber) as $np |
   select($np != $n) | "mpirun line: -np \($np), \($n) CPU nodes")),
(.srun as $s | ($c | length) as $n |
 ($s | capture("ntasks-per-node=(?<n>[0-9]+)").n | tonumber) as $k |
 (select($k != $n) | "srun line: \($k) tasks, \($n) CPU nodes"),
 (if ($s | test("mask_cpu:")) then
    ($s | capture("mask_cpu:(?<m>[0-9a-fx,]+)").m | split(",") | length) as $masks |
    select($masks != $n) | "srun line: \($masks) masks, \($n) CPU nodes"
  else empty end))
'
# ranges of an ascending CPU list as hwloc writes them: [0,1,2,5] -> "0-2,5"
ranges='def ranges: reduce .[] as $x ([]; if length > 0 and .[-1][1] == $x - 1 then .[-1][1] = $x else . + [[$x, $x]] end)
  | map(if .[0] == .[1] then "\(.[0])" else "\(.[0])-\(.[1])" end) | join(",");'

# Lookups from the topology record, computed once per file: $ix (OS index -> position),
# $mem (nodes with memory), $ncpu (CPU nodes), $msc (largest memory-side cache per node).
lookups='. as $t | {ix: (reduce range(0; .nodes | length) as $i ({}; .["\($t.nodes[$i].os_index)"] = $i)),
  mem: [.nodes[] | select(.has_memory) | .os_index], ncpu: ([.nodes[] | select(.has_cpus)] | length),
  msc: ([.nodes[] | [.memory_side_caches[]?.size_bytes] | max // 0])}'

# Checks of one experiment of a suite's plan (streamed: one experiment per input line)
# against the topology $t and its lookups $l.
plan_checks='
def at($os): $l.ix["\($os)"];
def node($os): $t.nodes[at($os)];
def same_kind($a; $b): node($a).kind == node($b).kind and (node($a).tier == null or node($b).tier == null or node($a).tier == node($b).tier);
select(.type == "experiment") | . as $e | $e.tasks[] as $k |
(select(node($k.cpu_node).has_cpus | not) | "\($e.name): task on node \($k.cpu_node), which has no CPUs"),
(select($k.mem_node != null and (node($k.mem_node).has_memory | not)) | "\($e.name): memory on node \($k.mem_node), which has none"),
(($k.mem_nodes - $l.mem) | select(length > 0) | "\($e.name): memory nodes \(.) have no memory"),
(select($k.policy == "interleave" and $k.mem_nodes != $l.mem) | "\($e.name): interleave over \($k.mem_nodes), nodes with memory are \($l.mem)"),
(select($e.policy == "os" and $k.mem_nodes != $l.mem) | "\($e.name): os accepts \($k.mem_nodes), nodes with memory are \($l.mem)"),
(select($e.policy == "one-node" and $k.mem_node != $l.mem[0]) | "\($e.name): one-node on \($k.mem_node), first node with memory is \($l.mem[0])"),
(select($e.policy == "remote") |
  [$l.mem[] | select(same_kind(.; $k.cpu_node))] as $same |
  ([$same[] | $t.distances[at($k.cpu_node)][at(.)]?] | max) as $far |
  (select(($same | index($k.mem_node)) == null) | "\($e.name): remote node \($k.mem_node) is not of CPU node \($k.cpu_node)s kind \(node($k.cpu_node).kind)"),
  (select($t.distances != null and $t.distances[at($k.cpu_node)][at($k.mem_node)] != $far) | "\($e.name): remote node \($k.mem_node) is not the farthest of its kind from \($k.cpu_node)"),
  (select($e.remote_kind != node($k.mem_node).kind) | "\($e.name): remote_kind \($e.remote_kind), node \($k.mem_node) is \(node($k.mem_node).kind)")),
(select($k.mem_node != null and $t.hop_class != null) | $t.hop_class[at($k.cpu_node)][at($k.mem_node)] as $h |
  select(($k.hops // -1) != $h) | "\($e.name): task hops \($k.hops), topology class \($h) for \($k.cpu_node)->\($k.mem_node)"),
(select($e.suite | IN("sweep", "c2c", "migrate") | not) |
  (if $k.mem_node != null then $l.msc[at($k.mem_node)] else $l.msc | max end) as $m |
  select($m > 0 and $k.bytes <= $m and ($note | test("memory-side cache") | not)) |
  "\($e.name): \($k.bytes) bytes inside a \($m)-byte memory-side cache, and no line says why"),
(select($e.mode == "rate" and $k == $e.tasks[0]) |
  (select(($e.tasks | length) != $l.ncpu) | "\($e.name): \($e.tasks | length) tasks in rate mode, not one per CPU node"),
  ([$e.tasks[] | select(.policy == "bind")] | group_by(.mem_node)[] |
    select((map(.bytes) | add) > node(.[0].mem_node).mem_bytes) |
    "\($e.name): \(length) tasks bind \(map(.bytes) | add) bytes to node \(.[0].mem_node) of \(node(.[0].mem_node).mem_bytes)"))
'
# crossfire: every class-1 link of two CPU nodes with memory planned ($got: the planned links)
crossfire_checks='
[range(0; $t.nodes | length) as $i | range($i + 1; $t.nodes | length) as $j |
  select($t.nodes[$i].has_cpus and $t.nodes[$i].has_memory and $t.nodes[$j].has_cpus and $t.nodes[$j].has_memory
         and $t.hop_class[$i][$j] == 1 and $t.hop_class[$j][$i] == 1) |
  "\($t.nodes[$i].os_index)-\($t.nodes[$j].os_index)"] - $got | .[] | "hops: class-1 link \(.) has no crossfire"
'

check_file() { # check_file FILE LABEL
    local f=$1 label=$2 s name rc0 msg0 t
    run topo topo --topology "$f" --format jsonl
    one_line topo "$label: topo"
    rc0=$(<"$tmp/topo.rc")
    msg0=$(<"$tmp/topo.err")
    if [ "$rc0" != 0 ]; then
        for s in "${suites[@]}"; do
            name=${s:-default}
            run "$name" ${s:+"$s"} --dry-run --topology "$f"
            one_line "$name" "$label: $name"
            if [ "$(<"$tmp/$name.rc")" != "$rc0" ] || [ "$(<"$tmp/$name.err")" != "$msg0" ]; then
                fail "$label: $name answers '$(<"$tmp/$name.err")' (exit $(<"$tmp/$name.rc")), topo '$msg0' (exit $rc0)"
            fi
        done
        echo "ok: $label: exit $rc0: $msg0"
        return
    fi
    t=$(<"$tmp/topo.out")
    l=$(jq -c "$lookups" <<<"$t")
    # memory-side caches the file has (MemCache, or an early export's MemorySideCache) are shown
    if grep -Eq 'type="MemCache"|subtype="MemorySideCache"' "$f" &&
        ! jq -e 'any(.nodes[]; .memory_side_caches != [])' <<<"$t" >/dev/null; then
        fail "$label: the file has memory-side caches, topo shows none"
    fi
    jq -r "$ranges $topo_checks" <<<"$t" | while read -r line; do echo "FAIL: $label: $line"; done
    # the table's CPU lists are the record's, as ranges
    "$HB" topo --topology "$f" >"$tmp/table" 2>/dev/null
    jq -r "$ranges"' .nodes[] | "\(.os_index) \(if .has_cpus then .cpus | ranges else "(none)" end)"' <<<"$t" |
        while read -r os want; do
            # node cpus cores smt packages memory (2 words) free (2 words) "cpu list"
            got=$(awk -v n="$os" '$1 == n && NF >= 10 { print $10; exit }' "$tmp/table")
            [ "$got" = "$want" ] || echo "FAIL: $label: table shows node $os CPUs as '$got', not '$want'"
        done
    # every network and OpenFabrics device, near the NUMA nodes hwloc's own tool gives it
    if [[ $label != *"(as 2.0)"* ]]; then
        want=$(grep -Ec '<object type="OSDev"[^>]* osdev_type="[23]"' "$f")
        got=$(jq '.nics | length' <<<"$t")
        [ "$got" = "$want" ] || fail "$label: $got NICs in the record, the file has $want"
    fi
    jq -r '.nics[] | "\(.name) \(.nodes | map(tostring) | join(","))"' <<<"$t" | while read -r nic near; do
        calc=$(hwloc-calc --input "$f" "os=$nic" -I numa --po 2>&1)
        [ "$near" = "$calc" ] || echo "FAIL: $label: NIC $nic near nodes '$near', hwloc-calc says '$calc'"
        grep -q "^  $nic: .* near nodes\? $near\$" "$tmp/table" ||
            echo "FAIL: $label: the table does not show NIC $nic near $near"
    done
    # a launch line near NICs puts the rank on a CPU node that each NIC it names is near
    jq -r "$ranges"' . as $t | .nic_launch[] | . as $l | .nics[] as $n
        | ($t.nodes[] | select(.os_index == $l.node)) as $node
        | ($t.nics[] | select(.name == $n)) as $nic
        | if ($nic.nodes | index($l.node)) == null then "NIC \($n) is not near node \($l.node)"
          elif ($l.mpirun | contains("taskset -c \($node.cpus | ranges) hopbench comm")) | not
          then "node \($l.node)'"'"'s launch line is not on its CPUs: \($l.mpirun)" else empty end' \
        <<<"$t" | sed "s|^|FAIL: $label: |"
    local refused=() answers j picked=0
    for j in "${!suites[@]}"; do
        hb_sample_pick "$i" "$j" || continue
        picked=$((picked + 1))
        s=${suites[$j]}
        name=${s:-default}
        # The full hops study grows with nodes^2 x levels (over 100000 experiments on 64
        # nodes): big machines get the representative subset, crossfire included.
        quick=()
        [ "$name" = hops ] && [ "$(jq .ncpu <<<"$l")" -gt 16 ] && quick=(--quick)
        run "$name" ${s:+"$s"} "${quick[@]}" --dry-run --topology "$f"
        one_line "$name" "$label: $name"
        if [ "$(<"$tmp/$name.rc")" != 0 ]; then
            refused+=("$(<"$tmp/$name.rc") $(<"$tmp/$name.err")")
            continue
        fi
        if ! grep -q '"type":"experiment"' "$tmp/$name.out"; then
            [ "$(wc -l <"$tmp/$name.err")" -ge 1 ] || fail "$label: $name plans nothing and says nothing"
            continue
        fi
        jq -r --argjson t "$t" --argjson l "$l" --arg note "$(<"$tmp/$name.err")" "$plan_checks" \
            "$tmp/$name.out" >"$tmp/pcheck" || fail "$label: $name: the plan checks could not run"
        sort -u "$tmp/pcheck" | sed "s|^|FAIL: $label: |"
        if [ "$name" = hops ]; then
            got=$(jq -c 'select(.case == "crossfire") | .link' "$tmp/hops.out" | jq -sc 'unique')
            jq -nr --argjson t "$t" --argjson got "$got" "$crossfire_checks" |
                sed "s|^|FAIL: $label: |"
            grep -q '"case":"crossfire"' "$tmp/hops.out" || [ -s "$tmp/hops.err" ] ||
                fail "$label: hops plans no crossfire and says nothing"
        fi
    done
    # a topology that lacks something gets one answer from every suite, not one each
    if [ ${#refused[@]} = "$picked" ]; then
        answers=$(printf '%s\n' "${refused[@]}" | sort -u | wc -l)
        [ "$answers" = 1 ] || fail "$label: every suite refuses it, with $answers different answers"
    fi
    echo "ok: $label: $(jq -r '[.nodes[] | select(.has_cpus)] | length' <<<"$t") CPU nodes, $(jq -r '.nodes | length' <<<"$t") nodes"
}

# check_path FILE: an hwloc 3.0 XML that the installed hwloc refuses (2.9 does; 2.12 reads
# it: hwloc-info, on the same library, says which) is refused with hwloc's reason first, then
# checked as 2.0; one it reads is checked as it is.
check_path() {
    local f=$1 label
    label=$(basename "$f")
    if grep -q '<topology version="3' "$f" && ! hwloc-info --input "$f" >/dev/null 2>&1; then
        run v3 topo --topology "$f"
        one_line v3 "$label: topo"
        if ! grep -q 'version 3' "$tmp/v3.err" || ! grep -q -- '--export-xml-flags v2' "$tmp/v3.err" ||
            [ "$(<"$tmp/v3.rc")" != 2 ]; then
            fail "$label: hwloc 3.0 XML: exit $(<"$tmp/v3.rc"), '$(<"$tmp/v3.err")' (want exit 2, hwloc's reason and --export-xml-flags v2)"
        fi
        sed 's/<topology version="3\.[0-9]*">/<topology version="2.0">/' "$f" >"$tmp/as-v2.xml"
        f=$tmp/as-v2.xml
        label="$label (as 2.0)"
    fi
    check_file "$f" "$label"
}

if [ $# -eq 0 ]; then
    set -- "$DIR"/*.xml
else
    set -- "${@/#/$DIR/}"
fi
# Files are independent: one at a time per CPU, each in its own scratch folder and log
# (FAIL lines counted from the logs, printed in file order).
logs=$tmp/logs
mkdir -p "$logs"
width=$(nproc 2>/dev/null || echo 1)
i=0
for f in "$@"; do
    i=$((i + 1))
    (
        tmp=$tmp/$i
        mkdir -p "$tmp"
        check_path "$f"
    ) >"$logs/$i" 2>&1 &
    while [ "$(jobs -rp | wc -l)" -ge "$width" ]; do wait -n; done
done
wait
for n in $(seq "$i"); do
    cat "$logs/$n"
    # a check that stopped before its last line failed too
    grep -q '^ok: ' "$logs/$n" || echo "FAIL: check $n of $i stopped early" | tee -a "$logs/$n"
done
fails=$(cat "$logs"/* | grep -c '^FAIL:')
echo "$i topologies, $fails failures"
[ "$fails" = 0 ]
