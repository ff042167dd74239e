#!/usr/bin/env bash
# Honest checks: two threads of one task on one CPU, OpenMP settings the runtime ignores,
# sizes whose product overflows, control bytes in messages, the 1 MiB scenario limit,
# resource limits that would make MPI_Init fail, and MPI_Init failing. Exit code, message
# and files left each time.
. "$(dirname "$0")/faults-lib.sh"

# run_env VAR=VALUE... COMMAND...: like run_hb, in that environment.
run_env() {
    out=$(env "$@" 2>&1)
    rc=$?
}
# ran_as CASE JQ WANT COMMAND...: COMMAND, a quick run writing ran.jsonl, exits 0 and its
# measurement's JQ is WANT.
ran_as() {
    local what=$1 filter=$2 want=$3
    shift 3
    out=$("$@" --size 16M --reps 2 --min-time 0.01 --quiet --repeat 1 --format jsonl \
        -o ran.jsonl 2>&1)
    rc=$?
    expect "$what" 0 ""
    [ "$(jq -c "select(.type == \"measurement\") | $filter" ran.jsonl)" = "$want" ] ||
        fail "$what: $(jq -c 'select(.type == "measurement")' ran.jsonl)"
    rm -f ran.jsonl
}

# Fewer cores than threads (places, affinity, a launcher's binding): refused before anything
# is measured (exit 3), naming what narrowed it, never a silent "ok" nor a failed measurement.
if [ "$(nproc)" -ge 2 ]; then
    for env in "OMP_PLACES={0}" "OMP_PLACES={0},{0} OMP_PROC_BIND=close"; do
        out=$(env $env "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 --quiet \
            --format jsonl -o dup.jsonl 2>&1)
        rc=$?
        expect "$env" 3 "rank 0 (host $(hostname)) is bound to 1 core of node 0 (CPUs 0), but the plan runs 2 threads there, one per core (OMP_PLACES="
        [ ! -e dup.jsonl ] || fail "$env: wrote dup.jsonl"
    done
    out=$(GOMP_CPU_AFFINITY=0 "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 --quiet \
        --format jsonl -o dup.jsonl 2>&1)
    rc=$?
    expect "GOMP_CPU_AFFINITY=0" 3 "is bound to 1 core of node 0 (CPUs 0), but the plan runs 2 threads there, one per core (GOMP_CPU_AFFINITY='0' lists only these)"
    out=$(taskset -c 1 "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 --quiet \
        --format jsonl -o dup.jsonl 2>&1)
    rc=$?
    expect "taskset -c 1" 3 "is bound to 1 core of node 0 (CPUs 1), but the plan runs 2 threads there, one per core (this process's CPU affinity allows no more"
    ran_as "taskset -c 1, one thread" .thread_cpus "[1]" taskset -c 1 "$HB" bw --threads 1
    # One of OMP_PLACES and OMP_PROC_BIND given: the runtime binds the first thread before
    # hopbench sets the other and restarts; the restarted run still has every CPU it had.
    for env in OMP_PLACES=threads OMP_PLACES=cores OMP_PROC_BIND=close OMP_PROC_BIND=spread \
        OMP_PROC_BIND=true; do
        ran_as "$env alone" '[.threads, (.thread_cpus | unique | length), .status]' '[2,2,"ok"]' \
            env "$env" "$HB" bw --threads 2
    done
    # Places wider than a core: each thread may move between cores while it is timed (and meet
    # the other on one): the measurement fails (exit 1) and says why, never a silent "ok".
    if [ "$(hwloc-calc --number-of core all 2>/dev/null)" -ge 2 ]; then
        for env in OMP_PLACES=numa_domains OMP_PLACES=sockets; do
            out=$(env "$env" OMP_PROC_BIND=close "$HB" bw --threads 2 --size 16M --reps 2 \
                --min-time 0.01 --quiet --repeat 1 --format jsonl -o wide.jsonl 2>&1)
            rc=$?
            expect "$env: the run fails its checks" 1 ""
            jq -e -s '[.[] | select(.type == "measurement")][0] | .status == "failed" and
                (.note | test("may run on [0-9]+ CPUs of several cores \\(an OpenMP place wider"))' \
                wide.jsonl >/dev/null || fail "$env: $(jq -c 'select(.type == "measurement") | [.status, .note]' wide.jsonl)"
            rm -f wide.jsonl
        done
    fi
    # OMP_NUM_THREADS means --threads (which wins); the records say what ran.
    for n in 1 2; do
        ran_as "OMP_NUM_THREADS=$n" "[.threads, (.thread_cpus | length)]" "[$n,$n]" \
            env OMP_NUM_THREADS=$n "$HB" bw
    done
    ran_as "--threads 1 beats OMP_NUM_THREADS=2" .threads 1 env OMP_NUM_THREADS=2 "$HB" bw --threads 1
    run_env OMP_NUM_THREADS=$(($(nproc) + 1)) "$HB" bw --size 16M --dry-run
    expect "OMP_NUM_THREADS past the CPUs" 2 "OMP_NUM_THREADS=$(($(nproc) + 1)) is more than node 0 has CPUs ($(nproc)); use 1-$(nproc)"
    run_env OMP_NUM_THREADS=5000 "$HB" bw --size 16M --dry-run
    expect "OMP_NUM_THREADS=5000" 2 "OMP_NUM_THREADS='5000' is taken as --threads: use a thread count from 1 to 4096"
    run_env OMP_PROC_BIND=false "$HB" bw --size 16M --dry-run
    expect "OMP_PROC_BIND=false" 3 "OMP_PROC_BIND='false' leaves threads unbound"
    run_hb bw --threads 2 --size 16M --reps 2 --min-time 0.01 --quiet --format jsonl -o ok.jsonl
    expect "two threads, two CPUs" 0 ""
    jq -e -s '[.[] | select(.type == "measurement")][0] | .status == "ok" and
        (.thread_cpus | unique | length) == 2' ok.jsonl >/dev/null ||
        fail "two threads, two CPUs: not ok on two distinct CPUs"
    rm -f ok.jsonl
fi

# OpenMP settings the runtime would ignore are refused (exit 2), by the dry run too.
for env in OMP_PLACES=garbage OMP_PROC_BIND=sideways OMP_NUM_THREADS=two; do
    for dry in "" --dry-run; do
        out=$(env "$env" "$HB" lat "${QUICK[@]}" -o out.jsonl $dry 2>&1)
        rc=$?
        expect "$env $dry" 2 "${env%%=*}='${env#*=}' is not a value the OpenMP runtime takes"
    done
done
expect_files "OpenMP settings" .

# Products of user numbers: 8 EiB per thread of a node's threads overflows 16 EiB.
printf 'experiment big\nfg 0.*.r.0 size=8388608T\n' >big.scn
for dry in "" --dry-run; do
    run_hb run big.scn "${QUICK[@]}" -o out.jsonl $dry
    if [ "$(nproc)" -ge 2 ]; then
        expect "scenario overflow $dry" 2 "big.scn:2:17: size=8388608T: 8 EiB x 2 comes to 16 EiB or more"
    fi
done
run_hb loaded --size 8388608T --dry-run
[ "$rc" = 2 ] || [ "$rc" = 3 ] || fail "loaded --size 8 EiB: exit $rc: $out"
! grep -q "243\|status\":\"ok" <<<"$out" || fail "loaded --size 8 EiB: planned anyway"
expect_files "overflow" . big.scn
rm -f big.scn

# Control bytes in values are escaped in the one-line message.
run_hb lat --size $'1\x01\x1b[31mM'
expect "control bytes" 2 "invalid size '1\\x01\\x1b[31mM'"
! grep -q $'\x1b' <<<"$out" || fail "control bytes: a raw escape byte in the message"
[ "$(grep -c '' <<<"$out")" = 1 ] || fail "control bytes: not one line"
printf 'experiment a\x07b\n' >ctl.scn
run_hb run ctl.scn --dry-run
! grep -q $'\x07' <<<"$out" || fail "scenario control bytes: raw BEL in: $out"
rm -f ctl.scn

# The scenario limit: exactly 1 MiB is read, one byte more is refused with the right words.
{ printf 'experiment e\nfg 0.0.r.0\n'; yes '# padding' | head -c $((1048576 - 24)); } >mib.scn
[ "$(stat -c %s mib.scn)" = 1048576 ] || fail "1 MiB scenario: fixture is $(stat -c %s mib.scn) bytes"
run_hb run mib.scn --dry-run
expect "1 MiB scenario" 0 '"name":"e"'
printf '#' >>mib.scn
run_hb run mib.scn --dry-run
expect "1 MiB + 1 scenario" 2 "is larger than 1 MiB"
rm -f mib.scn

# Resource limits MPI_Init cannot start under, for a rank that mpirun started (a process
# started alone never starts MPI): hopbench's line and exit 3, nothing written.
if command -v mpirun >/dev/null; then
    if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
    # The limits are refused before MPI_Init: no 2 s grace after each (jobs/lib/mpi.sh).
    # shellcheck source=../../jobs/lib/mpi.sh
    . "$TOP/jobs/lib/mpi.sh"
    hb_mpi_no_grace_env
    MPIRUN=(mpirun -np 1 --bind-to none)
    out=$("${MPIRUN[@]}" bash -c 'ulimit -n 16 && exec "$0" "$@"' "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
    rc=$?
    expect "ulimit -n 16" 3 "only 16 file descriptors allowed (ulimit -n): MPI_Init needs at least 64"
    [ "$(grep -c '^hopbench:' <<<"$out")" = 1 ] || fail "ulimit -n 16: not one hopbench line: $out"
    out=$("${MPIRUN[@]}" bash -c 'ulimit -v 300000 && exec "$0" "$@"' "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
    rc=$?
    expect "ulimit -v" 3 "address space limited to 292 MiB (ulimit -v)"
    # Any other MPI_Init failure (here a transport Open MPI cannot load): after Open MPI's own
    # messages, one hopbench line and 3, never 1 (a failed measurement). Open MPI stops the
    # rank: the grace before SIGKILL is what lets it print that line.
    unset OMPI_MCA_odls_base_sigkill_timeout PRTE_MCA_odls_base_sigkill_timeout
    out=$(OMPI_MCA_pml=nosuch "${MPIRUN[@]}" "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
    rc=$?
    # mpirun itself ends with 1 when a rank's MPI_Init fails; the rank ends with 3.
    [ "$rc" != 0 ] || fail "MPI_Init failing: exit 0"
    [ "$(grep -c '^hopbench: MPI_Init failed (Open MPI.s messages above say why' <<<"$out")" = 1 ] ||
        fail "MPI_Init failing: not one hopbench line: $out"
    unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
# hwloc's variables that load another machine: it never passes for this one. topo and the
# dry run show and plan it; a run refuses before anything is measured (exit 3).
other=$TOP/tests/topo/corpus/64intel64-fakeKNL-SNC4-hybrid.xml
run_env HWLOC_XMLFILE="$other" "$HB" bw "${QUICK[@]}" --format jsonl -o xml.jsonl
expect "HWLOC_XMLFILE run" 3 "HWLOC_XMLFILE=$other gives hwloc another machine's topology: nothing can run on it"
[ ! -e xml.jsonl ] || fail "HWLOC_XMLFILE run: wrote xml.jsonl"
run_env HWLOC_SYNTHETIC="node:2 core:2 pu:1" "$HB" lat "${QUICK[@]}"
expect "HWLOC_SYNTHETIC run" 3 "HWLOC_SYNTHETIC=node:2 core:2 pu:1 gives hwloc another machine's topology"
run_env HWLOC_XMLFILE="$other" "$HB" bw "${QUICK[@]}" --dry-run
expect "HWLOC_XMLFILE --dry-run" 0 '"cpu_node":0'
run_env HWLOC_XMLFILE="$other" "$HB" topo --format jsonl
expect "HWLOC_XMLFILE topo" 0 '"type":"topology"'
[ "$(jq -s '[.[] | select(.type=="topology")][0].nodes | length' <<<"$out")" -gt 1 ] ||
    fail "HWLOC_XMLFILE topo: not the file's nodes: $out"
run_env HWLOC_XMLFILE=/nonexistent.xml "$HB" lat "${QUICK[@]}"
expect "HWLOC_XMLFILE missing" 2 "hwloc cannot load HWLOC_XMLFILE=/nonexistent.xml"

# Started alone, nothing of MPI's start-up is needed: the same limits, no ssh on PATH, an
# empty environment, no usable TMPDIR, a small stack: a run that measures, one rank, no MPI.
solo_ok() {
    local what=$1
    expect "$what" 0 ""
    [ -z "$out" ] || fail "$what: printed: $out"
    [ "$(jq -r 'select(.type=="run") | "\(.launcher) \(.ranks)"' out.jsonl)" = "none 1" ] ||
        fail "$what: run record: $(jq -c 'select(.type=="run") | {launcher, ranks}' out.jsonl)"
    [ "$(jq -r 'select(.type=="measurement") | .status' out.jsonl)" = ok ] ||
        fail "$what: measurement: $(jq -c 'select(.type=="measurement")' out.jsonl)"
    rm -f out.jsonl
}
out=$(ulimit -n 16 && "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
rc=$?
solo_ok "alone, ulimit -n 16"
for suite in lat bw; do
    out=$(env PATH=/nonexistent "$HB" "$suite" "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
    rc=$?
    solo_ok "$suite alone, no ssh (no PATH)"
    out=$(env -i "$HB" "$suite" "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
    rc=$?
    solo_ok "$suite alone, env -i"
done
out=$(TMPDIR=/nonexistent/tmp "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
rc=$?
solo_ok "alone, TMPDIR missing"
out=$(ulimit -s 256 && "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
rc=$?
solo_ok "alone, ulimit -s 256"
# A stack too small for hopbench's own start-up: one line and exit 3, not SIGSEGV (a 64 KiB
# stack crashed now and then inside the C library, before anything was said).
for kib in 32 64 127; do
    out=$(ulimit -s "$kib" && "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl 2>&1)
    rc=$?
    expect "alone, ulimit -s $kib" 3 "hopbench: stack limited to $kib KiB (ulimit -s $kib): hopbench needs at least 128 KiB; raise it with ulimit -s 128"
    [ "$(wc -l <<<"$out")" = 1 ] || fail "alone, ulimit -s $kib: not one line: $out"
done
expect_files "resource limits" .
finish
