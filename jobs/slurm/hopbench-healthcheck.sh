#!/usr/bin/env bash
# hopbench-healthcheck.sh [--drain] [CHECK OPTIONS...]: Slurm's HealthCheckProgram (or a
# prolog's body, hopbench-prolog.sh): `hopbench check` on this node, under mpirun with one rank
# per NUMA node when it has several (hopbench-mpirun.sh), judged against this node's baseline.
# hopbench-healthcheck.sh --make-baseline [RUNS] [CHECK OPTIONS...]: that baseline, RUNS checks
# (default 3, a few minutes apart is better still) pooled into one file, on a node known to be
# good: one check catches the node at one moment, several its normal spread.
# On `degraded` (exit 1) it prints, per degraded host,
#   scontrol update nodename=N state=drain reason="hopbench: <its first failing line>"
# and with --drain runs it. The exit status is check's: 0 healthy, 1 degraded, 5 cannot tell,
# 2 bad input (nothing drained), 3 the environment (docs/running.md#health-checks).
#
# Settings: HOPBENCH_CHECK_DIR [/var/lib/hopbench]: the baseline is
# $HOPBENCH_CHECK_DIR/baseline-$NODE.jsonl when it exists (--make-baseline), the last check goes
# to $HOPBENCH_CHECK_DIR/last-$NODE.jsonl;
# HOPBENCH_HISTORY [none]: judge against the run history instead (--history), and add each check
# to it afterwards (hopbench history add keeps a host's points only when its check was healthy,
# or had nothing to judge against yet: --make-baseline's checks start the history); NODE is
# $SLURMD_NODENAME, else the short host name. CHECK OPTIONS go to hopbench check as they are
# (--max-time, --threshold, --baseline FILE ...).
set -u
HB_JOBS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../lib/launch.sh
. "$HB_JOBS_DIR/lib/launch.sh"

drain=0 baseline_runs=0
if [ "${1:-}" = --drain ]; then
    drain=1
    shift
elif [ "${1:-}" = --make-baseline ]; then
    baseline_runs=3
    shift
    if [[ ${1:-} =~ ^[0-9]+$ ]]; then
        baseline_runs=$1
        shift
    fi
    if [ "$baseline_runs" -lt 1 ] || [ "$baseline_runs" -gt 100 ]; then
        echo "hopbench-healthcheck: --make-baseline $baseline_runs: give 1 to 100 runs" >&2
        exit 2
    fi
fi
if [ "$drain" = 1 ] && ! command -v scontrol >/dev/null 2>&1; then
    echo "hopbench-healthcheck: --drain needs scontrol on PATH (PATH=$PATH); install Slurm's client or drop --drain" >&2
    exit 2
fi
node=${SLURMD_NODENAME:-$(hostname -s)}
dir=${HOPBENCH_CHECK_DIR:-/var/lib/hopbench}
if ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ]; then
    echo "hopbench-healthcheck: cannot write to HOPBENCH_CHECK_DIR=$dir; set it to a writable directory" >&2
    exit 3
fi
hb=$(hb_find_hopbench "$HB_JOBS_DIR") || exit $?
nodes=$(hb_topo_cpu_nodes "$(hb_topo_record "$hb")")
cmd=("$hb")
[ "${nodes:-1}" -le 1 ] || cmd=("$HB_JOBS_DIR/hopbench-mpirun.sh")
if [ "$baseline_runs" -gt 0 ]; then
    # Each run's file is complete or absent (check writes FILE.partial until done); the
    # baseline appears under its name only when every run gave one.
    base=$dir/baseline-$node.jsonl
    rm -f "$base.partial"
    for r in $(seq "$baseline_runs"); do
        HOPBENCH="$hb" "${cmd[@]}" check --quiet --format jsonl -o "$dir/baseline-$node.run.jsonl" "$@" >/dev/null
        rc=$?
        # 5: cannot tell, nothing to judge against yet (as expected); 0 and 1 judged against
        # --baseline or --history given here.
        if [ ! -s "$dir/baseline-$node.run.jsonl" ] || ! [[ $rc =~ ^[015]$ ]]; then
            echo "hopbench-healthcheck: --make-baseline: check run $r of $baseline_runs failed (exit $rc); no baseline written" >&2
            rm -f "$base.partial" "$dir/baseline-$node.run.jsonl"
            exit "$rc"
        fi
        cat "$dir/baseline-$node.run.jsonl" >>"$base.partial"
        [ -z "${HOPBENCH_HISTORY:-}" ] ||
            "$hb" history add --db "$HOPBENCH_HISTORY" "$dir/baseline-$node.run.jsonl" >/dev/null || exit $?
    done
    rm -f "$dir/baseline-$node.run.jsonl"
    mv "$base.partial" "$base"
    echo "hopbench-healthcheck: $base: $baseline_runs checks of $node pooled"
    exit 0
fi
judge=()
if [ -n "${HOPBENCH_HISTORY:-}" ]; then
    judge=(--history "$HOPBENCH_HISTORY")
elif [ -f "$dir/baseline-$node.jsonl" ]; then
    judge=(--baseline "$dir/baseline-$node.jsonl")
fi
out=$(HOPBENCH="$hb" "${cmd[@]}" check --format jsonl -o "$dir/last-$node.jsonl" \
    "${judge[@]}" "$@")
rc=$?
printf '%s\n' "$out"
if [ -n "${HOPBENCH_HISTORY:-}" ] && [[ $rc =~ ^[015]$ ]]; then
    "$hb" history add --db "$HOPBENCH_HISTORY" "$dir/last-$node.jsonl" >&2 ||
        echo "hopbench-healthcheck: could not add this check to HOPBENCH_HISTORY=$HOPBENCH_HISTORY" >&2
fi
[ "$rc" = 1 ] || exit "$rc"
# One drain line per degraded host, its reason the host's first failing line.
for host in $(printf '%s\n' "$out" | sed -n 's/^hopbench check: \([^:]*\): degraded.*/\1/p'); do
    why=$(printf '%s\n' "$out" | grep -m1 "^hopbench check: $host: " | sed "s/^hopbench check: $host: //; s/\"/'/g")
    line=(scontrol update "nodename=$host" state=drain "reason=hopbench: $why")
    echo "scontrol update nodename=$host state=drain reason=\"hopbench: $why\""
    [ "$drain" = 0 ] || "${line[@]}" || echo "hopbench-healthcheck: scontrol could not drain $host" >&2
done
exit 1
