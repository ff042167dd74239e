#!/usr/bin/env bash
# A rank killed mid-run (SIGKILL), then Ctrl-C to mpirun: the job ends within 30 s with a
# message naming the rank, and the records written before stay intact (complete lines).
# Ctrl-C: the ranks that mpirun then stops need its grace before SIGKILL to keep their records.
MPI_GRACE=1
. "$(dirname "$0")/mpi-lib.sh"
kernels=read,write,copy,triad,write-nt,copy-nt,triad-nt,memcpy
long=(bw --kernel "$kernels" --size 64M --reps 200 --min-time 0.02 --repeat 1 --threads 1 --format jsonl)

# The ranks inherit this mark, so another test's hopbench (another run of this one, on a
# shared machine) is never the one killed.
export HB_KILL_TEST=$$

# rank_pid HOST: the pid of this test's hopbench rank started with HOPBENCH_HOST=HOST
rank_pid() {
    local p env
    for p in $(pgrep -x hopbench); do
        env=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null)
        grep -qx "HB_KILL_TEST=$$" <<<"$env" && grep -qx "HOPBENCH_HOST=$1" <<<"$env" && echo "$p"
    done
}

# wait_records N: until the run's temporary output (out.jsonl.partial.XXXXXX) has N
# complete lines (or 60 s)
wait_records() {
    local f
    for _ in $(seq 600); do
        for f in out.jsonl.partial.*; do
            [ -f "$f" ] && [ "$(grep -c '' "$f")" -ge "$1" ] && return 0
        done
        sleep 0.1
    done
    return 1
}

check_intact() {
    local f=$1
    [ -s "$f" ] || { fail "$f is empty"; return; }
    jq -e -s 'length >= 2 and .[0].type == "run"' "$f" >/dev/null || fail "$f: not complete JSON lines"
}

for how in KILL INT; do
    rm -f out.jsonl*
    start=$(date +%s)
    timeout 90 "${TWO_HOSTS[@]}" "${long[@]}" -o out.jsonl >log.txt 2>&1 &
    mpirun_pid=$!
    wait_records 3 || fail "$how: no records appeared"
    killed=$(date +%s)
    if [ "$how" = KILL ]; then
        kill -KILL "$(rank_pid hostB)"
    else
        kill -INT "$mpirun_pid"
    fi
    set +e
    wait "$mpirun_pid"
    rc=$?
    set -e
    took=$(($(date +%s) - killed))
    echo "$how: mpirun ended $took s after the signal, $(($(date +%s) - start)) s after start"
    [ "$rc" != 0 ] || fail "$how: mpirun exited 0"
    [ "$rc" != 124 ] || fail "$how: mpirun hung (killed by timeout)"
    [ "$took" -le 30 ] || fail "$how: mpirun ended $took s after the signal (limit 30)"
    [ ! -e out.jsonl ] || fail "$how: an interrupted run was renamed to the final name"
    check_intact out.jsonl.partial
    if [ "$how" = KILL ]; then
        # What docs/running.md#when-a-run-stops documents: Open MPI's status, 128 + the killed rank's signal.
        expect_eq "KILL status" "$rc" 137
        expect_has "KILL message" "$(cat log.txt)" "rank 1"
        expect_has "KILL cause" "$(cat log.txt)" "signal 9"
    fi
done
finish
