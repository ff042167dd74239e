#!/usr/bin/env bash
# hopbench check against its own baseline, for real: one quick check (--size 16M, --max-time
# 3) alone cannot tell; the Slurm wrapper's --make-baseline 2 pools two into the baseline
# (written whole, two run records); a check through the wrapper, with THP set to never for that run
# only (a bind mount in a private mount namespace) is degraded, exit 1, and names the knob in
# the issue's words ("config differs from baseline: thp_enabled never (baseline: W)"); the
# wrapper prints the drain line for it and, with --drain, runs scontrol (a stand-in that logs
# its words).
# --history: the baseline added to a history judges a check; a degraded check is not added;
# the wrapper with HOPBENCH_HISTORY starts a history with --make-baseline and adds a check to it
# only when healthy. The prolog example fails a degraded node's prolog and lets the job run
# where the check cannot. Bad input, each one line and exit 2 before anything is measured: a
# baseline of another CPU model and of another node count, a baseline or a history without
# check's cells (another --size), a --max-time too short (the line gives the least), --repeat,
# a history that is not there, --baseline with --history, --drain without scontrol on PATH
# (nothing drained) and --make-baseline 0.
# shellcheck source=config-lib.sh
. "$(dirname "$0")/config-lib.sh"
THP=/sys/kernel/mm/transparent_hugepage/enabled
real=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
TOP=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=(check --size 16M --max-time 3 --quiet --format jsonl)
"$HB" "${CHECK[@]}" -o "$work/base.jsonl" >"$work/base.out"
expect "a check alone, nothing to judge against: cannot tell (5)" "$?" 5
expect_has "... and says why" "$(cat "$work/base.out")" "cannot tell (no peer of the same hardware in this run: give --baseline or --history)"
expect "its health record: cannot tell, no reference, every cell unjudged" \
    "$(jq -c 'select(.type == "health") | [.verdict, .exit, .reference, .source, ([.cells[].call] | unique)]' "$work/base.jsonl")" \
    '["cannot tell",5,"peers",null,["unjudged"]]'
expect "its records: check's cells with their repeats" \
    "$(jq -c 'select(.type == "measurement") | [.experiment, .kernel, .threads, (.repeat_values | length >= 4)]' "$work/base.jsonl" | head -1)" \
    '["check-latency","chase",1,true]'

# THP never for one run, through the Slurm wrapper: degraded (exit 1), the knob named in words,
# the drain line, and with --drain scontrol run with it.
host=$(jq -r 'select(.type == "run") | .hosts[0]' "$work/base.jsonl")
mkdir -p "$work/bin" "$work/dir"
printf '#!/bin/sh\necho "$@" >>%s/scontrol.log\n' "$work" >"$work/bin/scontrol"
chmod +x "$work/bin/scontrol"
env HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/dir" SLURMD_NODENAME="$host" \
    "$TOP/jobs/slurm/hopbench-healthcheck.sh" --make-baseline 2 --size 16M --max-time 3 >"$work/mb.out" 2>&1
expect "wrapper --make-baseline 2: exit 0" "$?" 0
expect "... the baseline holds both checks" \
    "$(jq -r 'select(.type == "run") | .command' "$work/dir/baseline-$host.jsonl" | tr '\n' ' ')" "check check "
expect "... and nothing else is left in the directory" "$(ls "$work/dir")" "baseline-$host.jsonl"
out=$(with_knobs "$(knob never 'always madvise [never]\n')" "$THP" -- \
    env PATH="$work/bin:$PATH" HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/dir" SLURMD_NODENAME="$host" \
    "$TOP/jobs/slurm/hopbench-healthcheck.sh" --drain --size 16M --max-time 3 2>&1)
rc=$?
echo "$out"
expect "THP never: degraded, check's exit 1" "$rc" 1
expect "THP never: the knob named, in words" \
    "$(grep -c "^hopbench check: $host: config differs from baseline: thp_enabled never (baseline: $real)\$" <<<"$out")" 1
expect_has "THP never: the verdict line" "$out" "hopbench check: $host: degraded ("
expect_has "wrapper: the drain line" "$out" "scontrol update nodename=$host state=drain reason=\"hopbench: "
expect "wrapper --drain: scontrol ran once, with the node and a hopbench reason" \
    "$(sed 's/reason=hopbench: .*/reason=hopbench: .../' "$work/scontrol.log")" "update nodename=$host state=drain reason=hopbench: ..."
expect "wrapper: the last check kept" "$(jq -r 'select(.type == "run") | .command' "$work/dir/last-$host.jsonl")" check
# The verdict as data: the health record says what the lines say, each cell with its figures.
expect "THP never: the health record, after the summary: degraded, exit 1, against the baseline file" \
    "$(jq -sc '[.[-2].type, .[-1].type, .[-1].verdict, .[-1].exit, .[-1].reference, (.[-1].source | endswith("baseline-'"$host"'.jsonl"))]' "$work/dir/last-$host.jsonl")" \
    '["summary","health","degraded",1,"baseline",true]'
expect "... its failing line is the knob's, as printed" \
    "$(jq -r 'select(.type == "health") | .failing[]' "$work/dir/last-$host.jsonl" | grep -c "^config differs from baseline: thp_enabled never")" 1
expect "... every cell judged against both baseline checks' repeats, with its figures and call" \
    "$(jq -c 'select(.type == "health") | [.cells[] | (.call | IN("no_worse", "better", "worse", "unclear")) and .repeats >= 4
        and .ref_repeats == 2 * .repeats and (.value > 0) and (.ci95 | length) == 2 and (.p_adjusted >= .p)] | unique' "$work/dir/last-$host.jsonl")" '[true]'


# --history: the baseline added to a run history is the reference ("... history ..." lines).
"$HB" history add --db "$work/h.sqlite" "$work/base.jsonl" >/dev/null
# The degraded check (THP never) is left out: the history keeps healthy points (and the first
# checks, which had nothing to judge against) for check --history to judge by.
out=$("$HB" history add --db "$work/h.sqlite" "$work/dir/last-$host.jsonl")
expect "history add of a degraded check: exit 0" "$?" 0
expect "... says its host was left out" "$out" \
    "$work/dir/last-$host.jsonl: 1 host left out: its check was not healthy (check --history judges against healthy points only)"
expect "... and stores no run of it" "$(sqlite3 "$work/h.sqlite" 'SELECT count(*) FROM runs')" 1
out=$("$HB" "${CHECK[@]}" --history "$work/h.sqlite" -o "$work/hist.jsonl" 2>/dev/null)
rc=$?
echo "$out"
case $rc in 0 | 1 | 5) echo "ok: --history: a verdict (exit $rc)" ;; *) echo "FAIL: --history: exit $rc"; fail=1 ;; esac
expect "--history: judged against the history" "$(grep -cE "^hopbench check: $host: (healthy|cannot tell|degraded) \(.*history" <<<"$out")" 1

# The wrapper with HOPBENCH_HISTORY: --make-baseline's checks start the history, a check is
# judged against it and then added to it only when it was healthy.
wrap() { env HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/hdir" HOPBENCH_HISTORY="$work/w.sqlite" \
    SLURMD_NODENAME="$host" "$TOP/jobs/slurm/hopbench-healthcheck.sh" "$@" --size 16M --max-time 3; }
wrap --make-baseline 2 >/dev/null 2>&1
expect "wrapper --make-baseline with HOPBENCH_HISTORY: its two checks in the history" \
    "$(sqlite3 "$work/w.sqlite" 'SELECT count(*) FROM runs')" 2
out=$(wrap 2>/dev/null)
rc=$?
echo "$out"
expect "wrapper with HOPBENCH_HISTORY: judged against the history" \
    "$(grep -cE "^hopbench check: $host: (healthy|cannot tell|degraded) \(.*history" <<<"$out")" 1
expect "... and added to it only when healthy (exit $rc)" "$(sqlite3 "$work/w.sqlite" 'SELECT count(*) FROM runs')" \
    "$([ "$rc" = 0 ] && echo 3 || echo 2)"

# The prolog example: a degraded node fails the prolog (exit 1, Slurm requeues the job) and is
# drained; a check that cannot run at all (here an unwritable HOPBENCH_CHECK_DIR, exit 3) lets
# the job run (exit 0) and says why.
out=$(with_knobs "$(knob never 'always madvise [never]\n')" "$THP" -- \
    env PATH="$work/bin:$PATH" HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/dir" SLURMD_NODENAME="$host" \
    HOPBENCH_PROLOG_MAX_TIME=3 "$TOP/jobs/slurm/hopbench-prolog.sh" --size 16M 2>&1)
expect "prolog on a degraded node: exit 1" "$?" 1
expect "... and the node drained (scontrol's second call)" "$(wc -l <"$work/scontrol.log")" 2
out=$(env PATH="$work/bin:$PATH" HOPBENCH="$HB" HOPBENCH_CHECK_DIR=/proc/hopbench-none SLURMD_NODENAME="$host" \
    "$TOP/jobs/slurm/hopbench-prolog.sh" 2>&1)
expect "prolog where the check cannot run: exit 0, the job runs" "$?" 0
expect_has "... saying why" "$out" "hopbench-prolog: check exit 3: the job runs"
expect "... nothing drained" "$(wc -l <"$work/scontrol.log")" 2

# Bad input: one line, exit 2, before anything is measured.
bad() { # bad WHAT WANT ARGS...
    local what=$1 want=$2 got rc
    shift 2
    got=$("$HB" "$@" 2>&1)
    rc=$?
    expect "$what: exit 2" "$rc" 2
    expect "$what: one line" "$(wc -l <<<"$got")" 1
    expect_has "$what: says so" "$got" "$want"
}
jq -c 'if .type == "run" then .config.cpu_model = "Other CPU 9000" else . end' "$work/base.jsonl" >"$work/other-cpu.jsonl"
bad "baseline of another CPU model" "comes from another machine: CPU model 'Other CPU 9000'" \
    "${CHECK[@]}" --baseline "$work/other-cpu.jsonl"
jq -c 'if .type == "run" then .topology.nodes += .topology.nodes else . end' "$work/base.jsonl" >"$work/other-nodes.jsonl"
bad "baseline of another node count" "comes from another machine: 2 NUMA nodes, this machine has 1" \
    "${CHECK[@]}" --baseline "$work/other-nodes.jsonl"
bad "baseline without the cells" "lacks the cell 'latency 0 threads=1 bytes=33554432'" \
    check --size 32M --max-time 3 --quiet --baseline "$work/base.jsonl"
bad "a history without the cells" "--history $work/h.sqlite lacks the cell 'latency 0 threads=1 bytes=33554432'" \
    check --size 32M --max-time 3 --quiet --history "$work/h.sqlite"
bad "--max-time too short" "is too short: one repeat of its plan takes about" check --max-time 2
bad "--repeat" "--repeat" check --repeat 5
bad "a history without this host" "no history there" "${CHECK[@]}" --history "$work/none.sqlite"
bad "--baseline and --history" "both name a reference: give one" \
    "${CHECK[@]}" --baseline "$work/base.jsonl" --history "$work/h.sqlite"
mkdir -p "$work/noscontrol"
for t in bash dirname hostname mkdir sed grep cat; do ln -s "$(command -v $t)" "$work/noscontrol/$t"; done
got=$(PATH=$work/noscontrol HOPBENCH="$HB" "$TOP/jobs/slurm/hopbench-healthcheck.sh" --drain 2>&1)
expect "--drain without scontrol: exit 2, one line" "$?/$(wc -l <<<"$got")" 2/1
expect_has "--drain without scontrol: says so" "$got" "--drain needs scontrol on PATH"
got=$(HOPBENCH="$HB" HOPBENCH_CHECK_DIR="$work/dir" "$TOP/jobs/slurm/hopbench-healthcheck.sh" --make-baseline 0 2>&1)
expect "--make-baseline 0: exit 2, one line" "$?/$(wc -l <<<"$got")" 2/1
expect_has "--make-baseline 0: says what is valid" "$got" "--make-baseline 0: give 1 to 100 runs"
config_finish
