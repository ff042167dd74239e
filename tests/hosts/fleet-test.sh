#!/usr/bin/env bash
# hopbench matrix across 2 and then 4 real hosts (jobs/hopbench-mpirun.sh --host / --hostfile,
# Open MPI's rsh launcher entering each host's namespaces, TCP between them): the records
# carry each host's own hostname, every host gets one rank per CPU node it has, bound to its
# own CPUs, measures its matrix, and the fleet record lists every host.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
hosts_up 4
study=(matrix --kernel read --size 16M --reps 2 --min-time 0.01 --quiet --format jsonl)
declare -A name cpus nodes
for h in h1 h2 h3 h4; do
    name[$h]=$(on "$h" hostname)
    cpus[$h]=$("$HOSTS_LIB/hosts.sh" list | awk -v h="$h" '$1 == h { print $3 }')
    nodes[$h]=$(on "$h" "$HB" topo --format jsonl | jq '[.nodes[] | select(.has_cpus)] | length')
done

# check_fleet FILE KERNELS HOST...: the records of a fleet run over HOSTs.
check_fleet() {
    local f=$1 kernels=$2 h want_ranks=0 list
    shift 2
    list=$(printf '"%s",' "$@")
    expect_eq "$f: run record hosts" "$(jqs "$f" '[.[] | select(.type=="run")][0].hosts')" "[${list%,}]"
    expect_eq "$f: fleet record lists every host" \
        "$(jqs "$f" '[.[] | select(.type=="fleet")][0].hosts | map(.host)')" "[${list%,}]"
    for h in "$@"; do
        want_ranks=$((want_ranks + nodes[$h]))
        # Per host: [its ranks, their CPU lists, its measurements' statuses, its matrices'
        # kernels, whether every measurement came from one of its ranks].
        expect_eq "$f: $h (${name[$h]}): ranks, binding, records, matrices" \
            "$(jqs "$f" --arg h "${name[$h]}" '([.[] | select(.type=="run")][0].rank_layout | map(select(.host == $h))) as $r
                | [.[] | select(.host == $h)] as $mine
                | [($r | length), ($r | map(.cpus) | unique),
                   ($mine | map(select(.type=="measurement") | .status) | unique),
                   ($mine | map(select(.type=="matrix") | .kernel) | sort),
                   ($mine | map(select(.type=="measurement") | .rank) | unique) == ($r | map(.rank))]')" \
            "[${nodes[$h]},[\"${cpus[$h]}\"],[\"ok\"],$kernels,true]"
    done
    expect_eq "$f: ranks" "$(jqs "$f" '[.[] | select(.type=="run")][0].ranks')" "$want_ranks"
}

fleet --host h1,h2 "${study[@]}" -o two.jsonl 2>two.log || fail "2 hosts: exit $? ($(cat two.log))"
check_fleet two.jsonl '["chase","read"]' h1 h2
expect_has "2 hosts: the printed line" "$(cat two.log)" "--host h1:1,h2:1 -np 2 --map-by numa --bind-to numa"

printf 'h%d\n' 1 2 3 4 >hostfile
start=$(date +%s.%N)
fleet --hostfile hostfile "${study[@]}" -o four.jsonl 2>four.log || fail "4 hosts: exit $? ($(cat four.log))"
echo "4-host fleet matrix (${study[*]:0:9}): $(echo "$(date +%s.%N) - $start" | bc) s wall"
check_fleet four.jsonl '["chase","read"]' h1 h2 h3 h4
finish
