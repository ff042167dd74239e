#!/usr/bin/env bash
# config.sh HOPBENCH FIXTURES - CTest (label cli): the report's configuration tables (and what
# compare calls a difference) on copies of the golden run with a config block: each knob in words (a governor per CPU set, huge
# pages per node, an unreadable knob with its reason); files that differ get a column each
# with only the differing cells marked, as compare sees them (free huge pages are state, not
# a difference; a file from before the capture is absent, not different); a fleet's hosts
# side by side with the odd host's knob marked; a knob only a newer hopbench reads is no
# difference either; a block of the wrong shape: FILE:LINE, exit 2, no report (report,
# compare and export alike: the reader checks every run record).
set -uo pipefail
HB=${1:?usage: config.sh HOPBENCH FIXTURES}
FX=${2:?usage: config.sh HOPBENCH FIXTURES}
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# expect WHAT GOT WANT
expect() {
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got '$2', expected '$3'"; fails=$((fails + 1)); fi
}
# run_with NAME JQ: the golden base run, its run record edited by JQ, into $tmp/NAME.jsonl
run_with() {
    jq -c "if .type == \"run\" then $2 else . end" "$FX/base.jsonl" >"$tmp/$1.jsonl"
}
# report NAME FILE...: the report of FILEs into $tmp/NAME.html
report() {
    local name=$1
    shift
    "$HB" report "$@" -o "$tmp/$name.html" || { echo "FAIL: report $name: exit $?"; fails=$((fails + 1)); }
}
marks() { grep -o 'class="differs"' "$tmp/$1.html" | wc -l; }
config='.config = {thp_enabled: "madvise", governor: [{value: "performance", cpus: "0-1"},
    {value: "powersave", cpus: "2-3"}], hugepages: {node0: {"2048kB": {free: 3, total: 512}}},
    memory_speed: null} | .config_unreadable = {memory_speed: "/sys/firmware/dmi/entries: No such file or directory"}'
run_with one "$config"
report one "$tmp/one.jsonl"
expect "one file: one column, nothing marked" \
    "$(grep -c '<table class="config"><tr><th>configuration</th><th>value</th></tr>' "$tmp/one.html")/$(marks one)" 1/0
expect "the governor per CPU set, in words" \
    "$(grep -c '<tr><th>governor</th><td>performance on 0-1, powersave on 2-3</td></tr>' "$tmp/one.html")" 1
expect "huge pages per node and size, in words" \
    "$(grep -c '<tr><th>hugepages</th><td>node 0: 2 MiB pages: 3 of 512 free</td></tr>' "$tmp/one.html")" 1
expect "an unreadable knob: not available, its reason in words, no errno text" \
    "$(grep -c '<tr><th>memory_speed</th><td>not available (this kernel or machine does not provide it)</td></tr>' "$tmp/one.html")/$(grep -c 'No such file' "$tmp/one.html")" 1/0

run_with never "$config | .config.thp_enabled = \"never\" | .config.hugepages.node0[\"2048kB\"].free = 0"
report two "$tmp/one.jsonl" "$tmp/never.jsonl"
expect "two files that differ: a column each" \
    "$(grep -c '<table class="config"><tr><th>configuration</th><th>one.jsonl</th><th>never.jsonl</th></tr>' "$tmp/two.html")" 1
expect "THP's cell marked in the second, nothing else (free huge pages are no difference)" \
    "$(grep -c '<tr><th>thp_enabled</th><td>madvise</td><td class="differs">never</td></tr>' "$tmp/two.html")/$(marks two)" 1/1
run_with free "$config | .config.hugepages.node0[\"2048kB\"].free = 0"
report free "$tmp/one.jsonl" "$tmp/free.jsonl"
expect "files that differ in free huge pages only: one column, nothing marked" \
    "$(grep -c '<th>every file</th>' "$tmp/free.html")/$(marks free)" 1/0
run_with total "$config | .config.hugepages.node0[\"2048kB\"].total = 0"
report total "$tmp/one.jsonl" "$tmp/total.jsonl"
expect "a reservation that differs is marked" \
    "$(grep -c '<tr><th>hugepages</th><td>[^<]*</td><td class="differs">node 0: 2 MiB pages: 3 of 0 free</td></tr>' "$tmp/total.html")/$(marks total)" 1/1
report old "$tmp/one.jsonl" "$FX/base.jsonl"
expect "a file from before the capture: its own column, absent, nothing marked" \
    "$(grep -c '<tr><th>thp_enabled</th><td>madvise</td><td>absent</td></tr>' "$tmp/old.html")/$(marks old)" 1/0

# compare agrees: free huge pages, and a knob that only the newer file's hopbench read, are
# no configuration drift; a reservation is.
drift() { "$HB" compare "$tmp/one.jsonl" "$tmp/$1.jsonl" | grep '^config differs'; }
run_with newer "$config | .config.acpi_max_cstate = 8"
expect "compare: free huge pages and a newer knob are no drift" "$(drift free)$(drift newer)" ""
expect "compare: a reservation is" "$(drift total)" "config differs: hugepages.node0.2048kB.total 512 -> 0"

# A fleet: three hosts, h3 with another governor.
run_with fleet "$config | .host_configs = [range(3) as \$i | {host: \"h\(\$i + 1)\", config: .config,
    config_unreadable: .config_unreadable}] | .host_configs[2].config.governor = [{value: \"powersave\", cpus: \"0-3\"}]"
report fleet "$tmp/fleet.jsonl"
expect "a fleet: its hosts side by side" \
    "$(grep -c '<table class="config"><tr><th>configuration per host</th><th>h1</th><th>h2</th><th>h3</th></tr>' "$tmp/fleet.html")" 1
expect "h3's governor marked, nothing else" \
    "$(grep -c '<tr><th>governor</th><td>performance on 0-1, powersave on 2-3</td><td>performance on 0-1, powersave on 2-3</td><td class="differs">powersave</td></tr>' "$tmp/fleet.html")/$(marks fleet)" 1/1

# A fleet of 40 hosts, h7 and h30 with another governor: the first host and those two shown.
run_with fleet40 "$config | .host_configs = [range(40) as \$i | {host: \"h\(\$i + 1)\", config: .config,
    config_unreadable: .config_unreadable}] | .host_configs[6,29].config.governor = [{value: \"powersave\", cpus: \"0-3\"}]"
report fleet40 "$tmp/fleet40.jsonl"
expect "40 hosts: the first and the two that differ side by side, the others said to agree" \
    "$(grep -c '<table class="config"><tr><th>configuration per host</th><th>h1</th><th>h7</th><th>h30</th></tr>' "$tmp/fleet40.html")/$(grep -c '40 hosts: shown, the first and the first of the 2 that differ from the majority in a knob (3 of them)' "$tmp/fleet40.html")/$(marks fleet40)" 1/1/2

# Blocks of the wrong shape: one line naming the file and the run record's line, exit 2.
for bad in '.config = [1]' '.config_unreadable = "x"' '.host_configs = {}' '.host_configs = [{host: "h1"}]'; do
    run_with bad "$bad"
    err=$("$HB" report "$tmp/bad.jsonl" -o "$tmp/bad.html" 2>&1)
    rc=$?
    expect "$bad: exit 2, one line naming $tmp/bad.jsonl:1, no report" \
        "$rc/$(wc -l <<<"$err")/$(grep -c "^hopbench: $tmp/bad.jsonl:1: the run record's " <<<"$err")/$([ -e "$tmp/bad.html" ] && echo written)" 2/1/1/
    "$HB" compare "$tmp/one.jsonl" "$tmp/bad.jsonl" >/dev/null 2>&1
    expect "$bad: compare exits 2 too" $? 2
    # export shows no knob, yet reads the same file: it refuses it the same way.
    err=$("$HB" export "$tmp/bad.jsonl" -o "$tmp/bad.xml" 2>&1)
    rc=$?
    expect "$bad: export exits 2 naming $tmp/bad.jsonl:1, no output" \
        "$rc/$(grep -c "^hopbench: $tmp/bad.jsonl:1: the run record's " <<<"$err")/$([ -e "$tmp/bad.xml" ] && echo written)" 2/1/
done
[ "$fails" = 0 ] && echo PASS
exit "$fails"
