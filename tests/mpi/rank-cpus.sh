#!/usr/bin/env bash
# HOPBENCH_RANK_CPUS, the one-app-context line topo prints where CPU nodes are neither all
# nodes nor packages: under mpirun --bind-to none each rank binds itself to the list of its
# local rank (here two CPUs of node 0, in both orders), alone the first list; too few lists, a
# word that is not a CPU list and CPUs the machine lacks are refused (exit 2, no file).
. "$(dirname "$0")/mpi-lib.sh"
cpus=$("$HB" topo --format jsonl | jq -r '[.nodes[] | select(.has_cpus) | .cpus[]] | .[0:2] | map(tostring) | join(" ")')
read -r a b <<<"$cpus"
[ -n "${b:-}" ] || { echo "SKIP: one CPU"; exit 77; }
layout() { jq -c -s '[.[] | select(.type == "run")][0].rank_layout | map(.cpus)' "$1"; }
for order in "$a:$b" "$b:$a"; do
    timeout 120 mpirun "${OVERSUB[@]}" -np 2 --bind-to none -x HOPBENCH_RANK_CPUS="$order" "$HB" \
        comm --size 8 --reps 1 --min-time 0.001 --repeat 1 --quiet -o c.jsonl 2>c.err ||
        fail "HOPBENCH_RANK_CPUS=$order: exit $? ($(cat c.err))"
    expect_eq "ranks bound to $order" "$(layout c.jsonl)" "[\"${order%%:*}\",\"${order##*:}\"]"
    expect_eq "comm measured" "$(jq -s '[.[] | select(.type == "measurement" and .status == "ok")] | length' c.jsonl)" 6
done
HOPBENCH_RANK_CPUS="$b:$a" "$HB" bw --kernel read --threads 1 "${QUICK[@]}" --quiet -o l.jsonl 2>l.err ||
    fail "alone: exit $? ($(cat l.err))"
expect_eq "alone: the first list" "$(jq -c -s '[.[] | select(.type == "measurement")][0].thread_cpus' l.jsonl)" "[$b]"

# refused VALUE TEXT: exit 2, TEXT said once, no output file
refused() {
    rm -f bad.jsonl
    local out rc=0
    out=$(timeout 120 mpirun "${OVERSUB[@]}" -np 2 --bind-to none -x HOPBENCH_RANK_CPUS="$1" "$HB" \
        comm --size 8 --quiet -o bad.jsonl 2>&1) || rc=$?
    expect_eq "HOPBENCH_RANK_CPUS=$1: exit" "$rc" 2
    expect_has "HOPBENCH_RANK_CPUS=$1: says why" "$out" "$2"
    expect_eq "HOPBENCH_RANK_CPUS=$1: said once" "$(grep -c '^hopbench: HOPBENCH_RANK_CPUS' <<<"$out")" 1
    [ ! -e bad.jsonl ] || fail "HOPBENCH_RANK_CPUS=$1: wrote bad.jsonl"
}
refused "$a" "HOPBENCH_RANK_CPUS='$a' names 1 CPU list, but mpirun started 2 ranks on this host: give one list per rank"
refused "$a:x" "'x' is not a CPU list; expected one CPU list per rank of a host, separated by ':'"
refused "$a::$b" "expected one CPU list per rank of a host, separated by ':', e.g. 0-7:8-15"
refused "$a:100000" "CPUs 100000 (list 2) are not all CPUs of this machine that this process may use"
finish
