#!/usr/bin/env bash
# Inputs that are no records at all, for every reader (report, compare, export) under an
# address-space limit: /dev/zero, /dev/urandom, one 300 MiB line, a byte-order mark; each
# refused at FILE:LINE as soon as it is seen, never read to the end of memory. The run
# record's schema_version of a wrong type or value named as such. Launchers that own their
# output refuse -o and --dry-run without touching the user's file.
. "$(dirname "$0")/faults-lib.sh"
FX=$TOP/tests/report/fixtures

# readers CASE FILE TEXT: report, compare (as BASE) and export of FILE, each under 1 GiB of
# address space, exit 2 with TEXT.
readers() {
    local what=$1 file=$2 text=$3 cmd
    for cmd in "report $file -o r.html" "compare $file $FX/base.jsonl" "export $file -o e.xml"; do
        # shellcheck disable=SC2086
        out=$(ulimit -v 1048576 && timeout 60 "$HB" $cmd 2>&1)
        rc=$?
        expect "$what: ${cmd%% *}" 2 "$text"
    done
    [ ! -e r.html ] && [ ! -e e.xml ] || fail "$what: an output file was left"
}
readers "/dev/zero" /dev/zero "/dev/zero:1: a NUL byte"
head -c 1000000 /dev/urandom | tr -d '\n\0' >random.bin
printf '\0' >>random.bin
readers "random bytes" random.bin "random.bin:"
yes x | tr -d '\n' | head -c 300M >long.jsonl
readers "a 300 MiB line" long.jsonl "long.jsonl:1: a line longer than 256 MiB"
rm -f long.jsonl
# A 2 GiB single line through a pipe (no disk): refused at 256 MiB, under 1 GiB of address
# space, for each reader.
for cmd in "report" "compare" "export"; do
    case $cmd in report) tail=(-o r.html) ;; compare) tail=("$FX/base.jsonl") ;; export) tail=(-o e.xml) ;; esac
    out=$(ulimit -v 1048576 && timeout 120 "$HB" "$cmd" <(yes x | tr -d '\n' | head -c 2G) "${tail[@]}" 2>&1)
    rc=$?
    expect "2 GiB line: $cmd" 2 ":1: a line longer than 256 MiB"
done
{ printf '\xEF\xBB\xBF'; cat "$FX/base.jsonl"; } >bom.jsonl
readers "byte-order mark" bom.jsonl "bom.jsonl:1: a byte-order mark (U+FEFF)"
{ head -n 1 "$FX/base.jsonl"; printf '\0\n'; } >nulline.jsonl
readers "NUL line" nulline.jsonl "nulline.jsonl:2: a NUL byte"

# A measurement of a metric no section draws: said with its line, never dropped silently.
jq -c 'if .experiment == "lat-same" then .metric = "furlongs" else . end' "$FX/base.jsonl" >unk.jsonl
run_hb report unk.jsonl -o unk.html
expect "report unknown metric" 0 "unk.jsonl:5: 1 measurement record(s) of a metric the report does not draw (the first: 'furlongs'"

# Figures no axis can hold: left out of the charts with their line named, never NaN or inf
# in the SVG coordinates.
for v in 5e-324 1e308 -1e308; do
    jq -c --argjson v "$v" 'if .experiment == "lat-same" then .value = $v | .lat_ns_median = $v |
        .ci95 = [$v, $v] else . end' "$FX/base.jsonl" >ext.jsonl
    run_hb report ext.jsonl -o ext.html
    expect "report figure $v" 0 "ext.jsonl:5: 1 measurement record(s) with a figure no chart can hold"
    ! grep -qiE 'nan|[^a-z]inf[^a-z]' ext.html || fail "report figure $v: NaN or inf in the page"
done

# schema_version: the wrong type or value is named, never "use a newer hopbench".
for v in '"1":a string' '1.5:a fraction' 'true:true' 'null:null' '[1]:a list' \
    '0:schema_version 0 is not valid' '-1:schema_version -1 is not valid'; do
    jq -c "if .type == \"run\" then .schema_version = ${v%%:*} else . end" "$FX/base.jsonl" >sv.jsonl
    run_hb compare sv.jsonl "$FX/base.jsonl"
    expect "schema_version ${v%%:*}" 2 "${v#*:}"
    grep -q "newer hopbench" <<<"$out" && fail "schema_version ${v%%:*}: told to use a newer hopbench"
done
jq -c 'if .type == "run" then del(.schema_version) else . end' "$FX/base.jsonl" >sv.jsonl
run_hb report sv.jsonl -o r.html
expect "schema_version missing" 2 "schema_version is missing: expected a whole number"

# The launchers own their output: -o and --dry-run refused, the user's file untouched.
echo mine >mine.jsonl
for args in "lat -o mine.jsonl" "lat --output=mine.jsonl" "lat --dry-run" "--format csv lat"; do
    # shellcheck disable=SC2086
    out=$(HOPBENCH=$HB RESULTS_ROOT=$work/res "$TOP/jobs/run-local.sh" $args 2>&1)
    rc=$?
    expect "run-local.sh $args" 2 "run-local.sh writes"
    [ "$(cat mine.jsonl)" = mine ] || fail "run-local.sh $args: the user's file was written"
    [ ! -e res ] || fail "run-local.sh $args: a results directory was made"
done
# The same check for the Slurm jobs, and topo (which takes no --dry-run) passes it.
out=$(bash -c '. "$1/jobs/lib/launch.sh"; hb_launch_check "the job" "$2" lat -o mine.jsonl' _ "$TOP" "$HB" 2>&1)
rc=$?
expect "job -o" 2 "the job writes the results itself; leave out '-o'"
out=$(bash -c '. "$1/jobs/lib/launch.sh"; hb_launch_check "the job" "$2" topo && echo checked' _ "$TOP" "$HB" 2>&1)
rc=$?
expect "job topo" 0 "checked"
[ "$(cat mine.jsonl)" = mine ] || fail "the launch check wrote the user's file"
out=$("$TOP/jobs/hopbench-mpirun.sh" --host "" lat 2>&1)
rc=$?
expect "hopbench-mpirun.sh --host ''" 2 "--host '' names no host"

# A progress pipe whose reader is gone: the run goes on and completes its results.
"$HB" lat --size 1M --reps 2 --min-time 0.01 --progress -o prog.jsonl 2>&1 >/dev/null | head -c 1 >/dev/null
[ "$(jq -s '[.[] | select(.type == "summary")] | length' prog.jsonl 2>/dev/null)" = 1 ] ||
    fail "dead progress pipe: the run did not complete its results"
[ ! -e prog.jsonl.partial ] || fail "dead progress pipe: a .partial was left"

# hwloc's three variables alike: one that does not load is named, never a silent fallback.
for v in "HWLOC_SYNTHETIC=nonsense" "HWLOC_FSROOT=/nonexistent" "HWLOC_XMLFILE=/nonexistent.xml"; do
    out=$(env "$v" "$HB" topo 2>&1)
    rc=$?
    [ "$rc" = 2 ] || [ "$rc" = 3 ] || fail "$v: exit $rc: $out"
    grep -qF "hwloc cannot load $v" <<<"$out" || fail "$v: not named: $out"
done
# A dry run checks what the run will need: the temporary file of the repeats.
out=$(TMPDIR=/nonexistent "$HB" lat --dry-run 2>&1)
rc=$?
expect "TMPDIR=/nonexistent --dry-run" 3 "cannot make a temporary file in /nonexistent"
out=$(TMPDIR=/nonexistent "$HB" lat --repeat 1 --dry-run 2>&1)
rc=$?
expect "TMPDIR=/nonexistent --repeat 1 --dry-run (nothing waits)" 0 ""
finish
