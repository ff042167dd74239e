#!/usr/bin/env bash
# hosts.sh - several real hosts on one Linux machine, for the `hosts` tests: each host is a
# network namespace plus a UTS namespace (its own hostname and address) with its processes
# confined to its CPUs by a cpuset cgroup. Each host's cgroup also gets the highest CPU weight,
# so that load elsewhere on the machine barely reaches the hosts' measurements while load
# started inside a host competes with it as on a real machine. A "head" namespace (hostname head, the login node)
# holds the bridge that joins the hosts; mpirun, slurmctld and the Slurm client commands run
# there. Every link and address lives inside namespaces made here: nothing is added to the
# machine's own network, and nothing can reach beyond the private net 10.117.0.0/24.
#
#   hosts.sh up N [CPULIST...]   make hosts h1..hN (head 10.117.0.1, hI 10.117.0.(10+I)).
#                                Host I gets the I-th CPULIST (e.g. 0-1), by default CPU
#                                (I-1) mod the CPU count: on a 2-CPU machine h1 and h3 share
#                                CPU 0, h2 and h4 CPU 1.
#   hosts.sh down                kill every process of every host, delete what `up` made
#                                (by the names in the state directory). Idempotent.
#   hosts.sh exec HOST CMD...    run CMD on HOST (head, h1..hN), inside its cpuset
#   hosts.sh kill HOST           kill every process of HOST (a host that crashed)
#   hosts.sh cut HOST            take HOST's link down (a host that fell off the network)
#   hosts.sh list                one line per host: name address cpus
# Exit status 77 (CTest skip) with one line when namespaces or cpusets cannot be made here.
#
# State (names, namespace files, cgroup) lives in $HOPBENCH_HOSTS_DIR (default
# /tmp/hopbench-hosts); two sets of hosts need two directories. The names carry a prefix
# unique to the directory, so two sets never touch each other's.
set -euo pipefail

DIR=${HOPBENCH_HOSTS_DIR:-/tmp/hopbench-hosts}
NET=10.117.0
MAX_HOSTS=64
SKIP=77

UP_UNDO=0
die() {
    echo "hosts: $*" >&2
    exit 1
}
skip() {
    echo "SKIP: $*"
    UP_UNDO=0
    cmd_down >/dev/null 2>&1
    exit "$SKIP"
}

# The cpuset hierarchy: cgroup v1's cpuset, or v2 with the cpuset controller.
cpuset_root() {
    if [ -w /sys/fs/cgroup/cpuset/cgroup.procs ]; then
        echo /sys/fs/cgroup/cpuset
    elif grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        echo /sys/fs/cgroup
    fi
}

prefix() { cat "$DIR/prefix"; }

# The cgroup v1 cpu hierarchy, when it is apart from the cpuset one (v2 has both in one).
cpu_root() {
    [ ! -w /sys/fs/cgroup/cpu/cgroup.procs ] || echo /sys/fs/cgroup/cpu
}

# host_field NAME FIELD: from $DIR/hosts, lines "name netns uts address cpus cgroup cpucgroup".
host_field() {
    awk -v h="$1" -v f="$2" '$1 == h { print $f; found = 1 } END { exit !found }' "$DIR/hosts" ||
        die "no host '$1' here; hosts: $(cut -d' ' -f1 "$DIR/hosts" | tr '\n' ' ')"
}

cmd_up() {
    local n=${1:-}
    [[ $n =~ ^[1-9][0-9]*$ ]] && [ "$n" -le $MAX_HOSTS ] ||
        die "up N: N must be 1 to $MAX_HOSTS, got '${1:-}'"
    shift
    [ "$(id -u)" = 0 ] || skip "making hosts needs root (network namespaces, cpusets)"
    local t
    for t in ip nsenter unshare; do
        command -v "$t" >/dev/null || skip "no '$t' to make namespaces"
    done
    local root
    root=$(cpuset_root)
    [ -n "$root" ] || skip "no cpuset cgroup (v1 cpuset or v2 with the cpuset controller)"
    [ ! -e "$DIR/prefix" ] || die "hosts already up in $DIR; run 'hosts.sh down' first"
    mkdir -p "$DIR/uts"
    local pre="hbh$$" cg=$root/hbh$$
    echo "$pre" >"$DIR/prefix"
    : >"$DIR/hosts"
    # Every name is noted in $DIR before it is made, and any failure from here on runs
    # `down`, which deletes exactly the noted names: a failed `up` leaves nothing behind.
    UP_UNDO=1
    trap 'if [ "$UP_UNDO" = 1 ]; then echo "hosts: up failed; undoing it" >&2; cmd_down >/dev/null 2>&1; fi' EXIT
    local cpu_cg=-
    [ -z "$(cpu_root)" ] || cpu_cg=$(cpu_root)/$pre
    printf '%s\n' "$cg" "$cpu_cg" >"$DIR/cgroup"
    mkdir "$cg"
    [ "$cpu_cg" = - ] || mkdir "$cpu_cg"
    local online mems
    online=$(cat /sys/devices/system/cpu/online)
    mems=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
    if [ "$root" = /sys/fs/cgroup ]; then
        echo +cpuset >"$cg/cgroup.subtree_control"
        echo +cpu >"$cg/cgroup.subtree_control" 2>/dev/null || true
    else
        echo "$online" >"$cg/cpuset.cpus"
        echo "$mems" >"$cg/cpuset.mems"
    fi
    note_host head "$pre-head" "$NET.1" "$online" - -
    ip netns add "$pre-head" 2>/dev/null || skip "cannot make a network namespace here (ip netns add failed)"
    make_host head "$pre-head"
    ip -n "$pre-head" link add br0 type bridge
    ip -n "$pre-head" link set br0 up
    ip -n "$pre-head" addr add "$NET.1/24" dev br0
    local cpus_all i cpus host_cpu_cg
    mapfile -t cpus_all < <(tr ',' '\n' <<<"$online" | awk -F- '{ e = $2 == "" ? $1 : $2; for (c = $1; c <= e; c++) print c }')
    for ((i = 1; i <= n; i++)); do
        cpus=${1:-${cpus_all[$(((i - 1) % ${#cpus_all[@]}))]}}
        [ $# -eq 0 ] || shift
        host_cpu_cg=-
        [ "$cpu_cg" = - ] || host_cpu_cg=$cpu_cg/h$i
        note_host "h$i" "$pre-h$i" "$NET.$((10 + i))" "$cpus" "$cg/h$i" "$host_cpu_cg"
        mkdir "$cg/h$i"
        if [ "$cpu_cg" != - ]; then
            mkdir "$cpu_cg/h$i"
            echo 262144 >"$cpu_cg/h$i/cpu.shares"
        elif [ -e "$cg/h$i/cpu.weight" ]; then
            echo 10000 >"$cg/h$i/cpu.weight"
        fi
        echo "$cpus" >"$cg/h$i/cpuset.cpus" 2>/dev/null ||
            die "h$i: CPU list '$cpus' is not usable here (online: $online)"
        echo "$mems" >"$cg/h$i/cpuset.mems"
        ip netns add "$pre-h$i"
        make_host "h$i" "$pre-h$i"
        ip -n "$pre-head" link add "h$i" type veth peer name eth0 netns "$pre-h$i"
        ip -n "$pre-head" link set "h$i" master br0 up
        ip -n "$pre-h$i" addr add "$NET.$((10 + i))/24" dev eth0
        ip -n "$pre-h$i" link set eth0 up
    done
    UP_UNDO=0
    cmd_list
}

# note_host NAME NETNS ADDRESS CPUS CGROUP CPUCGROUP: the line `down` reads.
note_host() {
    echo "$1 $2 $DIR/uts/$1 $3 $4 $5 $6" >>"$DIR/hosts"
}

# make_host NAME NETNS: a UTS namespace with the hostname, lo up.
make_host() {
    touch "$DIR/uts/$1"
    unshare --uts="$DIR/uts/$1" hostname "$1"
    ip -n "$2" link set lo up
}

# pids_of NAME: processes in the host's network namespace or its cgroup.
pids_of() {
    local ns cg cpu_cg p
    ns=/run/netns/$(host_field "$1" 2)
    cg=$(host_field "$1" 6)
    cpu_cg=$(host_field "$1" 7)
    [ -e "$ns" ] || return 0
    # -ef: same device and inode, i.e. the same namespace (a builtin: no fork per process).
    for p in /proc/[0-9]*; do
        [ "$p/ns/net" -ef "$ns" ] && echo "${p#/proc/}"
    done
    [ "$cg" = - ] || cat "$cg/cgroup.procs" 2>/dev/null || true
    [ "$cpu_cg" = - ] || cat "$cpu_cg/cgroup.procs" 2>/dev/null || true
}

# kill_host NAME: SIGKILL its processes, a few rounds for ones forked meanwhile (bounded).
kill_host() {
    local pids
    for _ in 1 2 3 4 5; do
        pids=$(pids_of "$1" | sort -u)
        [ -n "$pids" ] || return 0
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null || true
        sleep 0.2
    done
    pids=$(pids_of "$1" | sort -u)
    [ -z "$pids" ] || echo "hosts: $1: processes $pids survived SIGKILL" >&2
}

cmd_down() {
    [ -e "$DIR/prefix" ] || return 0
    local name ns uts cpus cg cpu_cg
    if [ -e "$DIR/hosts" ]; then
        while read -r name ns uts _ cpus cg cpu_cg; do
            kill_host "$name"
        done <"$DIR/hosts"
        while read -r name ns uts _ cpus cg cpu_cg; do
            umount "$uts" 2>/dev/null || true
            rm -f "$uts"
            ip netns del "$ns" 2>/dev/null || true
            [ "$cg" = - ] || rmdir "$cg" 2>/dev/null || true
            [ "$cpu_cg" = - ] || rmdir "$cpu_cg" 2>/dev/null || true
        done <"$DIR/hosts"
    fi
    if [ -e "$DIR/cgroup" ]; then
        while read -r cg; do
            [ "$cg" = - ] || rmdir "$cg" 2>/dev/null || true
        done <"$DIR/cgroup"
    fi
    rm -rf -- "${DIR:?}/uts" "$DIR/hosts" "$DIR/cgroup" "$DIR/prefix"
    rmdir "$DIR" 2>/dev/null || true
}

cmd_exec() {
    local name=${1:?usage: hosts.sh exec HOST CMD...}
    shift
    [ $# -gt 0 ] || die "exec $name: no command"
    local ns uts cg cpu_cg
    ns=$(host_field "$name" 2)
    uts=$(host_field "$name" 3)
    cg=$(host_field "$name" 6)
    cpu_cg=$(host_field "$name" 7)
    [ "$cg" = - ] || echo $$ >"$cg/cgroup.procs"
    [ "$cpu_cg" = - ] || echo $$ >"$cpu_cg/cgroup.procs"
    exec nsenter --net="/run/netns/$ns" --uts="$uts" -- "$@"
}

cmd_cut() {
    local name=${1:?usage: hosts.sh cut HOST}
    ip -n "$(prefix)-head" link set "$name" down
    ip -n "$(host_field "$name" 2)" link set eth0 down
}

cmd_list() {
    awk '{ print $1, $4, $5 }' "$DIR/hosts"
}

case ${1:-} in
up) shift; cmd_up "$@" ;;
down) cmd_down ;;
exec) shift; cmd_exec "$@" ;;
kill) kill_host "${2:?usage: hosts.sh kill HOST}" ;;
cut) cmd_cut "${2:-}" ;;
list) cmd_list ;;
*) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 2 ;;
esac
