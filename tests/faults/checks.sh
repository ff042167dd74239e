#!/usr/bin/env bash
# Honest checks: two threads of one task on one CPU, OpenMP settings the runtime ignores,
# sizes whose product overflows, control bytes in messages, the 1 MiB scenario limit,
# resource limits that would make MPI_Init fail, and MPI_Init failing. Exit code, message
# and files left each time.
. "$(dirname "$0")/faults-lib.sh"

# Duplicated CPUs: a placement failure (exit 1, record failed), never a silent "ok".
if [ "$(nproc)" -ge 2 ]; then
    for env in "OMP_PLACES={0}" "OMP_PLACES={0},{0} OMP_PROC_BIND=close"; do
        out=$(env $env "$HB" bw --threads 2 --size 16M --reps 2 --min-time 0.01 --quiet \
            --format jsonl -o dup.jsonl 2>&1)
        rc=$?
        expect "$env" 1 "threads 0 and 1 of task 0.0.r.0 are both bound to CPU"
        expect_jsonl "$env" dup.jsonl
        jq -e -s '[.[] | select(.type == "measurement")] | length == 1 and
            (.[0].status == "failed") and (.[0].note | contains("both bound to CPU"))' \
            dup.jsonl >/dev/null || fail "$env: the record does not say failed"
        rm -f dup.jsonl
    done
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

# Resource limits MPI_Init cannot start under: hopbench's line and exit 3, nothing written.
out=$(ulimit -n 16 && "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
rc=$?
expect "ulimit -n 16" 3 "only 16 file descriptors allowed (ulimit -n): MPI_Init needs at least 64"
[ "$(grep -c '' <<<"$out")" = 1 ] || fail "ulimit -n 16: not one line: $out"
out=$(ulimit -v 300000 && "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
rc=$?
expect "ulimit -v" 3 "address space limited to 292 MiB (ulimit -v)"
out=$(ulimit -n 16 && "$HB" lat "${QUICK[@]}" --dry-run 2>&1)
rc=$?
expect "ulimit -n 16 --dry-run" 3 "only 16 file descriptors allowed"
# Any other MPI_Init failure (here a transport Open MPI cannot load): after Open MPI's own
# messages, one hopbench line last and 3, never 1 (a failed measurement).
out=$(OMPI_MCA_pml=nosuch "$HB" lat "${QUICK[@]}" -o out.jsonl 2>&1)
rc=$?
expect "MPI_Init failing" 3 "hopbench: MPI_Init failed (Open MPI's messages above say why"
if [ "$(grep -c '^hopbench:' <<<"$out")" != 1 ] || [[ $(tail -n 1 <<<"$out") != "hopbench: MPI_Init"* ]]; then
    fail "MPI_Init failing: not one hopbench line, last: $out"
fi
expect_files "resource limits" .
finish
