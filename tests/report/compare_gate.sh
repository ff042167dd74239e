#!/usr/bin/env bash
# compare_gate.sh HOPBENCH FIXTURES - CTest test (label cli): the regression gate on inputs
# that must not pass: measurements missing from NEW (exit 4, listed), records that cannot be
# judged, a metric or unit that changed, an identity given twice, several runs in one file,
# runs of different machines (refused; allowed with the flag, said first). Each case is a
# jq edit of the golden files, the exit code and a text the output must hold.
set -u
hb=$1 fx=$2
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
# edit FILE JQ: a copy of the fixture with JQ applied to every record (-c keeps JSON Lines).
edit() { jq -c "$2" "$fx/$1"; }
# case NAME WANT_RC TEXT BASE NEW [ARGS...]: compare and check the exit code and the text.
case_() {
    local name=$1 want=$2 text=$3 base=$4 new=$5
    shift 5
    out=$("$hb" compare "$base" "$new" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || [[ $out != *"$text"* ]]; then
        echo "FAIL: $name: exit $rc (want $want), output lacks '$text':"
        echo "$out" | sed 's/^/    /'
        fail=1
    else
        echo "ok: $name"
    fi
}
cp "$fx/base.jsonl" base.jsonl
# Missing: NEW lost measurements (a crashed or empty run).
edit new.jsonl 'select(.experiment != "lat-regress" and .experiment != "lat-same")' >lost.jsonl
case_ missing 4 "MISSING from new (only in base): lat lat-regress" base.jsonl lost.jsonl
case_ missing-count 4 "2 measurement(s) of base.jsonl are missing from lost.jsonl" base.jsonl lost.jsonl
edit new.jsonl 'select(.type != "measurement")' >empty.jsonl
case_ missing-all 4 "6 measurement(s) of base.jsonl are missing" base.jsonl empty.jsonl
# Another suite's run: the identity includes the suite, and the message says so.
edit new.jsonl 'if .type == "measurement" then .suite = "peak" else . end' >suite.jsonl
case_ other-suite 4 "base.jsonl is a run of suite lat and suite.jsonl of suite peak: a measurement's identity includes its suite, so 6 of base.jsonl's are missing from suite.jsonl; compare runs of one suite" base.jsonl suite.jsonl
# Unusable records are errors, never "only in base".
for bad in 'null' '-5' '"fast"' '0' '1e300'; do
    edit new.jsonl "if .experiment == \"lat-same\" then .value = $bad else . end" >bad.jsonl
    case_ "unusable value $bad" 2 "error unusable: bad.jsonl:5: lat lat-same" base.jsonl bad.jsonl
done
edit new.jsonl 'if .experiment == "lat-same" then del(.value, .lat_ns_median) else . end' >bad.jsonl
case_ "unusable no headline" 2 "its headline value is missing" base.jsonl bad.jsonl
edit new.jsonl 'if .experiment == "lat-same" then .repeat_values[2] = null else . end' >bad.jsonl
case_ "unusable repeat" 2 "repeat 3 of repeat_values is not a positive figure" base.jsonl bad.jsonl
# The samples behind the figure: none, not a list, or not times.
for bad in '[]:its samples_s is empty' 'null:its samples_s is not a list' '"x":its samples_s is not a list' \
    '[0.1,"x"]:sample 2 of samples_s is not a positive time' '[0.1,-1]:sample 2 of samples_s is not a positive time'; do
    edit new.jsonl "if .experiment == \"lat-same\" then .samples_s = ${bad%%:*} else . end" >bad.jsonl
    case_ "unusable samples ${bad%%:*}" 2 "error unusable: bad.jsonl:5: lat lat-same 0.0.r.0 cpu=0 mem=0 chase threads=1 bytes=67108864: ${bad#*:}" base.jsonl bad.jsonl
done
# A measurement that failed its checks or was skipped has no figure to judge.
for st in failed skipped; do
    edit new.jsonl "if .experiment == \"lat-same\" then .status = \"$st\" | .note = \"why\" else . end" >bad.jsonl
    case_ "unusable status $st" 2 "error unusable: bad.jsonl:5: lat lat-same 0.0.r.0 cpu=0 mem=0 chase threads=1 bytes=67108864: its measurement has status $st (why)" base.jsonl bad.jsonl
done
edit base.jsonl 'if .experiment == "bw-improve" then .value = -20 else . end' >badbase.jsonl
case_ "unusable in base" 2 "error unusable: badbase.jsonl:3: bw bw-improve" badbase.jsonl \
    "$fx/new.jsonl"
# A changed metric or unit: not the same figure.
edit new.jsonl 'if .experiment == "lat-same" then .unit = "s" else . end' >unit.jsonl
case_ "unit changed" 2 "BASE measures latency in ns, NEW latency in s" base.jsonl unit.jsonl
edit new.jsonl 'if .experiment == "lat-same" then .metric = "bandwidth" else . end' >metric.jsonl
case_ "metric changed" 2 "BASE measures latency in ns, NEW bandwidth in ns" base.jsonl metric.jsonl
# One identity twice in one file.
{ cat "$fx/new.jsonl"; grep lat-noise "$fx/new.jsonl"; } >dup.jsonl
case_ duplicate 2 "error duplicate: dup.jsonl:9: lat lat-noise" base.jsonl dup.jsonl
case_ duplicate-line 2 "the same measurement as line 4" base.jsonl dup.jsonl
# Two runs in one file (files concatenated): refused at the second run record.
cat "$fx/new.jsonl" "$fx/new.jsonl" >two.jsonl
case_ "two runs" 2 "two.jsonl:9: a second run record" base.jsonl two.jsonl
# Different machines or builds: refused, or compared with the flag and said first.
for fact in '.hosts = ["h2"]' '.simd = "avx2"' '.hopbench_version = "0.2.0"' \
    '.build = {"type": "Debug"}' '.git_sha = "abc"'; do
    edit new.jsonl "if .type == \"run\" then $fact else . end" >other.jsonl
    jq -c 'if .type == "run" then .build = {"type": "Release"} | .git_sha = "def" else . end' \
        "$fx/base.jsonl" >base2.jsonl
    case_ "machine $fact" 2 "come from different machines or builds" base2.jsonl other.jsonl
done
# The CPU count, from each run record's topology (2 against 4 CPUs).
jq -c 'if .type == "run" then .topology = {"nodes": [{"cpus": [0, 1]}]} else . end' \
    "$fx/base.jsonl" >base2.jsonl
edit new.jsonl 'if .type == "run" then .topology = {"nodes": [{"cpus": [0, 1]}, {"cpus": [2, 3]}]} else . end' >other.jsonl
case_ "machine CPUs" 2 "come from different machines or builds (CPUs 2 -> 4)" base2.jsonl other.jsonl
# A fact one run records and the other does not: not the same machine by evidence either.
edit new.jsonl 'if .type == "run" then del(.simd) else . end' >other.jsonl
case_ "machine fact not recorded" 2 'come from different machines or builds (simd "avx512" -> (not recorded))' \
    base.jsonl other.jsonl
# A measurement of a host its run record does not list (records of two runs mixed).
edit new.jsonl 'if .experiment == "lat-same" then .host = "h9" else . end' >mixed.jsonl
case_ "host not of the run" 2 "error unusable: mixed.jsonl:5: lat lat-same 0.0.r.0 cpu=0 mem=0 chase threads=1 bytes=67108864: its host h9 is not one of the run record's hosts" \
    base.jsonl mixed.jsonl
edit new.jsonl 'if .type == "run" then .hosts = ["h2"] elif .type == "measurement" then .host = "h2" else . end' >other.jsonl
case_ "machines allowed" 1 'note: different machines or builds: hosts ["vm"] -> ["h2"]' \
    base.jsonl other.jsonl --allow-different-machines
out=$("$hb" compare base.jsonl other.jsonl --allow-different-machines 2>&1 | sed -n 2p)
[[ $out == "note: different machines"* ]] || { echo "FAIL: the machines' note is not said first: $out"; fail=1; }
# Files from before repeats: undetermined with the reason, never a verdict.
edit base.jsonl 'del(.value, .ci95, .repeat_values, .repeats, .unit)' >old-base.jsonl
edit new.jsonl 'del(.value, .ci95, .repeat_values, .repeats, .unit)' >old-new.jsonl
case_ "old files" 5 "6 undetermined" old-base.jsonl old-new.jsonl
n=$("$hb" compare old-base.jsonl old-new.jsonl --format jsonl 2>/dev/null |
    jq -s '[.[] | select(.type == "comparison" and .verdict != "undetermined")] | length')
[ "$n" = 0 ] || { echo "FAIL: old files gave $n verdicts"; fail=1; }
# The family's control, and what the gate refuses of it: one line naming the value, exit 2,
# nothing on stdout.
refuse() { # refuse NAME TEXT ARGS...: exit 2, TEXT in the one line on stderr, no stdout
    local name=$1 text=$2
    shift 2
    err=$("$hb" compare "$@" 2>&1 >out.txt)
    rc=$?
    if [ "$rc" != 2 ] || [[ $err != *"$text"* ]] || [ "$(echo "$err" | wc -l)" != 1 ] || [ -s out.txt ]; then
        echo "FAIL: $name: exit $rc, '$err', stdout $(wc -c <out.txt) bytes"
        fail=1
    else
        echo "ok: $name"
    fi
}
for q in 0 1 -1 x 0.6; do
    refuse "--fdr $q" "--fdr '$q' is not valid: give a number from 1e-06 to 0.5" base.jsonl "$fx/new.jsonl" --fdr "$q"
done
refuse "--fwer with --fdr" "--fdr '0.1' and --fwer control the family two ways" base.jsonl "$fx/new.jsonl" --fdr 0.1 --fwer
refuse "--fdr with --alpha" "both set the level" base.jsonl "$fx/new.jsonl" --fdr 0.1 --alpha 0.1
refuse "--expect-same with one file" "compare --expect-same needs the two runs of one command (A.jsonl B.jsonl); got base.jsonl" base.jsonl --expect-same
refuse "--base without --new" "--base 'base.jsonl' without --new" --base base.jsonl
refuse "--new without --base" "--new 'base.jsonl' without --base" --new base.jsonl
refuse "--base beside operands" "give BASE NEW, or --base and --new, not both" base.jsonl --base base.jsonl --new base.jsonl
refuse "--threshold twice" "--threshold given twice ('5', then '6')" base.jsonl base.jsonl --threshold 5 --threshold 6
# Holm (--fwer) is never more permissive than BH; the family and both p are in every row.
n=$("$hb" compare base.jsonl "$fx/new.jsonl" --format jsonl | jq -s '[.[] | select(.type == "comparison" and .p_adjusted != null and .p_adjusted < .p)] | length')
[ "$n" = 0 ] || { echo "FAIL: $n rows with an adjusted p below the raw one"; fail=1; }
sum=$("$hb" compare base.jsonl "$fx/new.jsonl" --fwer --format jsonl | jq -r 'select(.type == "compare_summary") | "\(.rule) \(.family) \(.expected_false_uncorrected)"')
[ "$sum" = "Holm FWER 4 0.2" ] || { echo "FAIL: --fwer summary '$sum', want 'Holm FWER 4 0.2'"; fail=1; }
# Files pooled per side: each figure's repeats from both, said in a note; the pooled lat-noise
# has 10 repeats a side.
case_ "pooled" 1 "BASE pools 2 files (base.jsonl, base.jsonl)" --base base.jsonl --base base.jsonl --new "$fx/new.jsonl" --new "$fx/new.jsonl"
n=$("$hb" compare --base base.jsonl --base base.jsonl --new "$fx/new.jsonl" --new "$fx/new.jsonl" --format jsonl |
    jq -r 'select(.type == "comparison" and (.record | startswith("lat lat-noise"))) | "\(.base_repeats) \(.new_repeats)"')
[ "$n" = "10 10" ] || { echo "FAIL: pooled repeats '$n', want '10 10'"; fail=1; }
# Pooled files must be runs of one machine.
edit base.jsonl 'if .type == "run" then .hosts = ["h2"] else . end' >otherhost.jsonl
refuse "pooled machines" "pooled on one side, come from different machines" --base base.jsonl --base otherhost.jsonl --new "$fx/new.jsonl"
# --expect-same: a better record is a false alarm too (exit 1); each row says what it can detect.
edit new.jsonl 'select(.experiment != "lat-regress")' >nobad.jsonl
edit base.jsonl 'select(.experiment != "lat-regress")' >nobadbase.jsonl
case_ "expect-same better" 1 "1 better" nobadbase.jsonl nobad.jsonl --expect-same
case_ "better alone" 5 "1 better" nobadbase.jsonl nobad.jsonl
n=$("$hb" compare base.jsonl "$fx/new.jsonl" --format jsonl | jq -r 'select(.type == "comparison" and .record == "lat lat-same 0.0.r.0 cpu=0 mem=0 chase threads=1 bytes=67108864") | .detectable_pct > 0')
[ "$n" = true ] || { echo "FAIL: no detectable_pct on a row"; fail=1; }
case_ "noise floor" 1 "this machine can detect changes of" base.jsonl "$fx/new.jsonl"
# A knob one side lacks is absent, not unreadable; CSV carries the differences too.
edit base.jsonl 'if .type == "run" then .config = {"hugepages": {"node0": 1}, "thp_enabled": "madvise"} else . end' >cfgb.jsonl
edit base.jsonl 'if .type == "run" then .config = {"hugepages": {"node0": 1, "node1": 1}, "thp_enabled": null} else . end' >cfgn.jsonl
case_ "knob absent" 5 "config differs: hugepages.node1 absent -> 1" cfgb.jsonl cfgn.jsonl
case_ "knob unreadable" 5 "config differs: thp_enabled madvise -> unreadable" cfgb.jsonl cfgn.jsonl
n=$("$hb" compare cfgb.jsonl cfgn.jsonl --format csv | grep -c '^config_diff,')
[ "$n" = 2 ] || { echo "FAIL: CSV holds $n config_diff rows, want 2"; fail=1; }
[ "$fail" = 0 ] && echo PASS
exit "$fail"
