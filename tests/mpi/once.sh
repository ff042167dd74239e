#!/usr/bin/env bash
# Launched as several ranks, what runs once (report, compare, export, c2c, any dry run but
# comm's and coll's, topo with -o; topo itself once per host) refuses in one line, exit 2, nothing
# written (comm's and coll's dry runs run under the launch their runs need: comm.sh, coll.sh); a rank bound to fewer cores than its threads
# (mpirun's default binding for 1-2 ranks is one core each) refuses before measuring, exit 3,
# with the launch line that works. The commands are those hopbench --help lists.
. "$(dirname "$0")/mpi-lib.sh"
set +e
commands=$("$HB" --help | sed -n '/^commands:/,/^options:/s/^  \([a-z0-9]\{2,\}\)\( .*\)\{0,1\}$/\1/p' | tr '\n' ' ')
[ -n "$commands" ] || fail "no commands in hopbench --help"
tried=0
for c in $commands; do
    case $c in
    comm | coll) continue ;;
    topo) args=("$c") what="topo -o" ;;
    report | compare | export | history | c2c) args=("$c") what=$c ;;
    run) args=("$c" "$(cd "$(dirname "$0")/../.." && pwd)/jobs/scenarios/one-node-load.scn" --dry-run) what="$c --dry-run" ;;
    *) args=("$c" --dry-run) what="$c --dry-run" ;;
    esac
    # report/compare/export read files: give them names that need not exist (refused first).
    case $c in
    report) args+=(in.jsonl -o out.html) ;;
    compare) args+=(a.jsonl b.jsonl) ;;
    export) args+=(in.jsonl -o out.xml) ;;
    history) args+=(add in.jsonl --db out.sqlite) ;;
    *) args+=(-o out.jsonl) ;;
    esac
    err=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" "${args[@]}" 2>&1)
    rc=$?
    expect_eq "$c: exit under 2 ranks" "$rc" 2
    expect_has "$c: message" "$err" "'hopbench $what' runs in one process, but mpirun started this one as one of 2 ranks (OMPI_COMM_WORLD_SIZE=2); run it without mpirun/srun"
    expect_eq "$c: one hopbench line" "$(grep -c '^hopbench:' <<<"$err")" 1
    tried=$((tried + 1))
done
if ls out.* >/dev/null 2>&1; then fail "an output was written: $(ls out.*)"; fi
# topo prints each host's machine with one rank per host; two on this host are refused.
err=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" topo 2>&1)
expect_has "topo, 2 ranks on one host" "$err" "'hopbench topo' runs once per host, but mpirun started 2 ranks on this one (OMPI_COMM_WORLD_LOCAL_SIZE=2)"
# The default suite's dry run too.
err=$(timeout 60 mpirun "${OVERSUB[@]}" -np 2 "$HB" --dry-run 2>&1)
expect_has "default --dry-run" "$err" "'hopbench --dry-run' runs in one process"
[ "$tried" -ge 14 ] || fail "only $tried commands tried"

# mpirun -np 1 binds its rank to one core: two threads would share it.
if [ "$(nproc)" -ge 2 ]; then
    err=$(timeout 60 mpirun -np 1 "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 -o bw.jsonl 2>&1)
    rc=$?
    expect_eq "mpirun -np 1 (bound to a core): exit" "$rc" 3
    expect_has "mpirun -np 1: why" "$err" "is bound to 1 core of node 0 (CPUs 0), but the plan runs 2 threads there, one per core (mpirun binds a rank to one core unless told to bind it to its NUMA node)"
    expect_has "mpirun -np 1: the line that works" "$err" "mpirun -np 1 --map-by numa --bind-to numa hopbench bw --threads 2 --size 16M --reps 2 --min-time 0.01 -o bw.jsonl"
    [ ! -e bw.jsonl ] || fail "mpirun -np 1: wrote bw.jsonl"
    err=$(timeout 120 mpirun -np 1 --map-by numa --bind-to numa "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 --repeat 1 --format jsonl -o bw.jsonl 2>&1)
    rc=$?
    expect_eq "mpirun -np 1 --bind-to numa: exit ($err)" "$rc" 0
    expect_eq "... launcher" "$(jq -r 'select(.type=="run") | .launcher' bw.jsonl)" mpirun
    expect_eq "... two CPUs" "$(jq -c 'select(.type=="measurement") | .thread_cpus | length' bw.jsonl)" 2
fi
echo "$tried commands refused under 2 ranks"
finish
