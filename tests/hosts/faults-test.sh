#!/usr/bin/env bash
# Faults across real hosts: hosts of different sizes in one fleet are measured, reported and
# exported (--export-hwloc) each with its own cores; a host lost mid-run (every process of it
# killed, or its link cut) ends the run within 30 s with one line naming it and the records
# measured before kept; a host that cannot be reached at the start fails the run before
# anything is created.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
hosts_up 2 0-1 0

# Different topologies: h1 has 2 CPUs, h2 one.
fleet --host h1,h2 matrix --kernel read --size 16M --reps 2 --min-time 0.01 --repeat 2 --quiet \
    --format jsonl -o mixed.jsonl --export-hwloc mixed.xml 2>mixed.log ||
    fail "mixed fleet: exit $? ($(cat mixed.log))"
expect_eq "mixed: each rank bound to its host's CPUs" \
    "$(jqs mixed.jsonl '[.[] | select(.type=="run")][0].rank_layout | map([.host, .cpus])')" '[["h1","0-1"],["h2","0"]]'
expect_eq "mixed: bandwidth threads and CPUs per host" \
    "$(jqs mixed.jsonl '[.[] | select(.type=="measurement" and .kernel=="read") | [.host, .threads, .thread_cpus, .threads_on_node, .status]]')" \
    '[["h1",2,[0,1],2,"ok"],["h2",1,[0],1,"ok"]]'
expect_eq "mixed: fleet rows per host with their own thread counts" \
    "$(jqs mixed.jsonl '[.[] | select(.type=="fleet")][0].hosts | map([.host, .bw_threads, (.bw_GBps_local_read > 0)])')" \
    '[["h1",2,true],["h2",1,true]]'
# The fleet's export: one file per host, each with that host's own topology and matrix.
pus() { lstopo-no-graphics --input "$1" --only pu 2>/dev/null | grep -c '^PU'; }
measured() { hwloc-info --input "$1" -p root 2>/dev/null | grep -o 'host [a-z0-9]*: latency chase'; }
expect_eq "mixed: --export-hwloc writes each host's own topology (PUs), its matrix named" \
    "$(pus mixed.h1.xml) $(pus mixed.h2.xml) $(measured mixed.h1.xml), $(measured mixed.h2.xml)" \
    "2 1 host h1: latency chase, host h2: latency chase"
expect_eq "mixed: bandwidth is not compared across sizes" \
    "$(jqs mixed.jsonl '[.[] | select(.type=="fleet")][0].hosts | map(.reason | test("bandwidth")) | any')" false

# A host lost mid-run, HOW = kill (its processes die) or cut (its link goes down, its
# processes live on, unreachable): the run ends within 30 s, one line names h2, the records
# measured before are kept under NAME.jsonl.partial.
lost() {
    local how=$1 name=$2 run rc took n
    fleet --host h1,h2 bw --kernel "read,write,copy,triad,write-nt,copy-nt,triad-nt,memcpy" --size 16M \
        --reps 200 --min-time 0.02 --repeat 1 --threads 1 --quiet --format jsonl -o "$name.jsonl" \
        >"$name.log" 2>&1 &
    run=$!
    # While the run lasts its records are in NAME.jsonl.partial (a second name of its
    # temporary NAME.jsonl.partial.XXXXXX: count one name only). Strike at two measurements.
    for _ in $(seq 600); do
        n=$(grep -c '"type":"measurement"' "$name.jsonl.partial" 2>/dev/null) || true
        [ "${n:-0}" -lt 2 ] || break
        sleep 0.1
    done
    local struck
    struck=$(date +%s)
    "$HOSTS_LIB/hosts.sh" "$how" h2
    rc=0
    wait "$run" || rc=$?
    took=$(($(date +%s) - struck))
    local done_to=killed
    [ "$how" = kill ] || done_to="cut off"
    echo "$name: the run ended $took s after h2 was $done_to, status $rc"
    [ "$rc" != 0 ] || fail "$name: exit 0"
    [ "$took" -le 30 ] || fail "$name: ended $took s after the host was lost (limit 30)"
    # Rank 0, stopped by mpirun's SIGTERM, may say where its records are; the one line of why
    # names h2.
    expect_eq "$name: one hopbench line, naming h2" \
        "$(grep '^hopbench:' "$name.log" | grep -c 'lost host h2 mid-run')/$(grep '^hopbench:' "$name.log" | grep -vc '^hopbench: stopped by SIGTERM; the [0-9]* records written before are kept in ')" 1/1
    expect_eq "$name: no final file" "$(ls "$name.jsonl" 2>/dev/null)" ""
    expect_eq "$name: records kept, complete lines from the run's start" \
        "$(jq -s '.[0].type == "run" and ([.[] | select(.type == "measurement")] | length >= 2)' "$name.jsonl.partial")" true
}
lost kill lost
lost cut cut-off
# h2's processes outlived the cut: stop them (h2 stays cut for the next case).
"$HOSTS_LIB/hosts.sh" kill h2

# A host that cannot be reached at the start (h2's link is still cut).
rc=0
fleet --host h1,h2 matrix --size 16M -o cut.jsonl 2>cut.log || rc=$?
expect_eq "unreachable: exit 3" "$rc" 3
expect_has "unreachable: one line naming h2" "$(grep '^hopbench:' cut.log)" "hopbench: host(s) h2 could not be reached"
expect_eq "unreachable: nothing created" "$(ls cut.jsonl* 2>/dev/null)" ""
finish
