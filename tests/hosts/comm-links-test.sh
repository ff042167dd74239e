#!/usr/bin/env bash
# comm across three real hosts with one host's link made slow for real: both ends of h3's veth
# (eth0 inside h3, h3 on the head's bridge) go through a token bucket of 2 Mbit/s. This kernel
# has no netem to delay packets; a bucket lets a ping-pong through on its burst but holds a
# window of messages to the rate, so the link is slow in bandwidth, both ways. The comm_links
# record flags h3's two links and not h1-h2's, and every comm_nic record says why nothing is
# compared: each host's ranks all sit on the one node its NIC is local to. h3 also runs with
# THP set otherwise (a file bind-mounted over the knob around h3's hopbench): the flagged
# links' reasons name that drift, h1-h2's has none. Prints the links.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
hosts_up 3 0-1 0-1 0-1
slow_down() {
    on h3 tc qdisc del dev eth0 root || echo "comm-links: h3 eth0 qdisc not deleted" >&2
    on head tc qdisc del dev h3 root || echo "comm-links: head h3 qdisc not deleted" >&2
}
# Delete what this test adds, by its names, before the hosts go.
trap 'slow_down; hosts_cleanup' EXIT
for end in "h3 eth0" "head h3"; do
    # shellcheck disable=SC2086  # "host device"
    on ${end% *} tc qdisc add dev ${end#* } root tbf rate 2mbit burst 1600 latency 500ms ||
        { echo "SKIP: cannot add a tbf qdisc on $end"; exit 77; }
done
THP=/sys/kernel/mm/transparent_hugepage/enabled
thp=never
[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")" != never ] || thp=always
sed "s/\[\(.*\)\]/\1/; s/\b$thp\b/[$thp]/" "$THP" >"$work/thp"
knob_on h3 "$work/thp" "$THP"
a=$(on h1 hostname)
b=$(on h2 hostname)
c=$(on h3 hostname)
fleet --host h1,h2,h3 comm --size 8 --reps 2 --min-time 0.002 --repeat 5 --quiet -o c.jsonl \
    2>c.log || fail "comm on 3 hosts: exit $? ($(cat c.log))"
links='[.[] | select(.type=="comm_links")][0].links'
echo "links: $(jqs c.jsonl "$links | map([.hosts, .latency_us, .bandwidth_GBps, .outlier, .reason, .inconclusive])")"
expect_eq "one comm_links record of 3 links" "$(jqs c.jsonl "$links | length")" 3
expect_eq "h3's links flagged, h1-h2 not" \
    "$(jqs c.jsonl "$links | map([(.hosts | sort), .outlier]) | sort")" \
    "[[[\"$a\",\"$b\"],false],[[\"$a\",\"$c\"],true],[[\"$b\",\"$c\"],true]]"
expect_eq "h3's links: the reason is the bandwidth" \
    "$(jqs c.jsonl "$links | map(select(.outlier) | .reason | test(\"8 B bandwidth [0-9]+% below the reference\"))")" '[true,true]'
expect_eq "the flagged links name h3's drift, h1-h2 names none" \
    "$(jqs c.jsonl "$links | map([(.hosts | sort), (.reason | sub(\"^.*reference; \"; \"\"))]) | sort")" \
    "[[[\"$a\",\"$b\"],\"\"],[[\"$a\",\"$c\"],\"$c differs in thp_enabled=$thp; \"],[[\"$b\",\"$c\"],\"$c differs in thp_enabled=$thp; \"]]"
nic='[.[] | select(.type=="comm_nic")]'
expect_eq "comm_nic: 3 links x 2 ends x 1 NIC" "$(jqs c.jsonl "$nic | length")" 6
expect_eq "comm_nic: nothing compared, the note says why" \
    "$(jqs c.jsonl "$nic | map(.latency == null and (.note | test(\"every rank of host .* sits on a node local to its NIC .*: no far rank to compare\"))) | all")" true
expect_has "the note on stderr" "$(cat c.log)" "hopbench: comm: every rank of host $a sits on a node local to its NIC"
expect_has "... the NIC's node in words" "$(cat c.log)" " (node 0): no far rank to compare"
expect_eq "the note said once per host" "$(grep -c 'hopbench: comm: every rank of host' c.log)" 3
finish
