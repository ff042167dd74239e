#!/usr/bin/env bash
# check-idle.sh [RUNS] [CHECK OPTIONS...]: issue 42's proof that an idle machine passes against
# its own baseline: three `hopbench check` runs (default profile and --max-time) make the
# baseline, as hopbench-healthcheck.sh --make-baseline does, then RUNS (default 10) checks are
# judged against it. Prints each run's verdict, exit code, wall
# time and the load average before it, then the count of each verdict; the proof wants healthy
# in at least 9 of 10 (exit 0 when it is so, 1 otherwise). Not a CTest test: about 20 s a run.
set -u
HB=${HOPBENCH:-$(cd "$(dirname "$0")/../.." && pwd)/build/hopbench}
runs=${1:-10}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for b in 1 2 3; do
    "$HB" check --quiet --format jsonl -o "$work/base-$b.jsonl" "$@" >/dev/null
    [ -s "$work/base-$b.jsonl" ] || { echo "check-idle: baseline run $b failed" >&2; exit 3; }
done
cat "$work"/base-[123].jsonl >"$work/base.jsonl"
healthy=0 degraded=0 unclear=0 other=0
for i in $(seq "$runs"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    out=$("$HB" check --quiet --format jsonl -o "$work/run-$i.jsonl" --baseline "$work/base.jsonl" "$@" 2>/dev/null)
    rc=$?
    took=$(echo "$(date +%s.%N) - $t0" | bc)
    printf 'run %2d: exit %d, %5.1f s, load %s: %s\n' "$i" "$rc" "$took" "$load" "$(tail -n 1 <<<"$out")"
    [ "$rc" = 0 ] || sed "\$d; s/^/        /" <<<"$out"
    case $rc in 0) healthy=$((healthy + 1)) ;; 1) degraded=$((degraded + 1)) ;; 5) unclear=$((unclear + 1)) ;; *) other=$((other + 1)) ;; esac
done
echo "healthy $healthy, degraded $degraded, cannot tell $unclear, errors $other of $runs runs (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
[ $((healthy * 10)) -ge $((runs * 9)) ]
