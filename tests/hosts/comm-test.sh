#!/usr/bin/env bash
# comm across two real hosts (network namespaces, TCP over the veth links): one rank per
# host, the pair both ways, each record naming both hosts, the transport Open MPI was given
# (btl tcp) and no hop class (nodes of two hosts have none between them); pages verified.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
hosts_up 2
a=$(on h1 hostname)
b=$(on h2 hostname)
fleet --host h1,h2 comm --size 1K --reps 2 --min-time 0.002 --repeat 2 --quiet -o c.jsonl \
    2>c.log || fail "comm on 2 hosts: exit $? ($(cat c.log))"
m='[.[] | select(.type=="measurement")]'
expect_eq "records: 3 metrics x 5 sizes (8 B x4 to 512 B, then 1 KiB) x 2 directions" "$(jqs c.jsonl "$m | length")" 30
expect_eq "host pairs" "$(jqs c.jsonl "$m | map([.src_host, .dst_host, .src_rank, .dst_rank]) | unique")" \
    "[[\"$a\",\"$b\",0,1],[\"$b\",\"$a\",1,0]]"
# The pml is whatever the MCA parameters say (Debian's file sets ^ucx): only the btl is fixed.
expect_eq "transport, no hop class, pages, status" \
    "$(jqs c.jsonl "$m | map([(.transport | startswith(\"btl tcp; pml \")), .hops, .pages_on_target_pct, .status]) | unique")" \
    '[[true,null,100,"ok"]]'
expect_eq "values and repeats" \
    "$(jqs c.jsonl "$m | map(.value > 0 and .repeats == 2 and (.ci95 | length) == 2) | all")" true
expect_eq "no node matrix: no host has a pair of its own" "$(jqs c.jsonl '[.[] | select(.type=="comm_matrix")] | length')" 0
finish
