#!/usr/bin/env bash
# The hosts harness itself: each host has its own hostname, its address on the private
# network and its CPUs; hosts reach each other and nothing else; the machine's own network is
# untouched; and every name it made is gone after a test that failed half way.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
before=$(ip -o link show | cut -d: -f2 | sort | tr -d ' \n'; ip -o addr show | awk '{ print $2, $4 }' | sort)
hosts_up 2 1 0
prefix=$(cat "$HOPBENCH_HOSTS_DIR/prefix")
for h in h1 h2; do
    expect_eq "$h: hostname" "$(on "$h" hostname)" "$h"
done
expect_eq "addresses and CPUs" "$(on h1 sh -c 'ip -o -4 addr show eth0 | awk "{ print \$4 }"; grep Cpus_allowed_list /proc/self/status | cut -f2'; on h2 sh -c 'ip -o -4 addr show eth0 | awk "{ print \$4 }"; grep Cpus_allowed_list /proc/self/status | cut -f2')" \
    "10.117.0.11/24
1
10.117.0.12/24
0"
expect_eq "h1: one route, the private network on its link" "$(on h1 ip -4 route)" \
    "10.117.0.0/24 dev eth0 proto kernel scope link src 10.117.0.11 "
# A refused connection proves the far host answered; nothing leaves the private network.
expect_has "h1 reaches h2" "$(on h1 bash -c 'exec 3<>/dev/tcp/10.117.0.12/9' 2>&1)" "Connection refused"
expect_has "h1 reaches nothing else" "$(on h1 bash -c 'exec 3<>/dev/tcp/10.118.0.1/9' 2>&1)" "Network is unreachable"
expect_eq "the machine's own links and addresses are untouched" \
    "$(ip -o link show | cut -d: -f2 | sort | tr -d ' \n'; ip -o addr show | awk '{ print $2, $4 }' | sort)" "$before"
expect_eq "namespaces made" "$(ip netns list | grep -c "^$prefix-")" 3

# A test that fails after making its hosts: its EXIT trap removes every name it made.
child=$work/child-hosts
rc=0
HOPBENCH_CHILD=$child bash -c '. "$1/hosts-lib.sh"; hosts_up 2 >/dev/null
    cp "$HOPBENCH_HOSTS_DIR/prefix" "$HOPBENCH_CHILD"; false' _ "$HOSTS_LIB" >/dev/null 2>&1 || rc=$?
cprefix=$(cat "$child" 2>/dev/null)
expect_eq "failed test: it failed" "$rc" 1
expect_eq "failed test: its namespaces are gone" "$(ip netns list | grep -c "^${cprefix:-none}-")" 0
expect_eq "failed test: its cgroups are gone" "$(ls -d /sys/fs/cgroup/*/"${cprefix:-none}" 2>/dev/null)" ""
finish
