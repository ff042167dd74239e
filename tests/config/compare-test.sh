#!/usr/bin/env bash
# compare names the configuration drift: two real runs, the second with THP set to never
# for that run only (a bind mount in a private mount namespace): the table says "config
# differs: thp_enabled W -> never" before any verdict, JSONL gives one config_diff record,
# identical configurations say nothing. Which verdicts a knob is marked on (THP: latency
# only; the governor: every metric) is checked on copies of a real run scaled 100-fold
# so that the verdict is certain; fleets are compared host by host. A config that is not an
# object: exit 2, one line.
# shellcheck source=config-lib.sh
. "$(dirname "$0")/config-lib.sh"
THP=/sys/kernel/mm/transparent_hugepage/enabled
real=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
LAT=(lat --size 1M --reps 1 --repeat 5 --min-time 0.001 --quiet --format jsonl)
"$HB" "${LAT[@]}" -o "$work/base.jsonl" || { echo "FAIL: base run: exit $?"; fail=1; }
with_knobs "$(knob never 'always madvise [never]\n')" "$THP" -- \
    "$HB" "${LAT[@]}" -o "$work/never.jsonl" || { echo "FAIL: THP-never run: exit $?"; fail=1; }

out=$("$HB" compare "$work/base.jsonl" "$work/never.jsonl" 2>&1)
echo "$out"
expect "the drift is said first, in one line" "$(sed -n 2p <<<"$out")" "config differs: thp_enabled $real -> never"
expect "one drift line only" "$(grep -c '^config differs' <<<"$out")" 1
json=$("$HB" compare "$work/base.jsonl" "$work/never.jsonl" --format jsonl 2>/dev/null)
expect "JSONL: one config_diff record per knob" \
    "$(jq -c 'select(.type == "config_diff")' <<<"$json")" "{\"type\":\"config_diff\",\"key\":\"thp_enabled\",\"base\":\"$real\",\"new\":\"never\"}"
expect "it comes before the verdicts" "$(jq -r .type <<<"$json" | head -1)" config_diff
# The report: one configuration table with a column per file, THP's cell marked in the second
"$HB" report "$work/base.jsonl" "$work/never.jsonl" -o "$work/two.html" || { echo "FAIL: report: exit $?"; fail=1; }
expect "report: a column per file" \
    "$(grep -o '<table class="config"><tr><th>configuration</th><th>base.jsonl</th><th>never.jsonl</th></tr>' "$work/two.html" | wc -l)" 1
expect "report: THP's cell of never.jsonl marked, as a word" \
    "$(grep -o '<tr><th>thp_enabled</th><td>[a-z]*</td><td class="differs">never</td></tr>' "$work/two.html" | wc -l)" 1
expect "report: nothing else marked" "$(grep -o 'class="differs"' "$work/two.html" | wc -l)" 1
"$HB" report "$work/base.jsonl" -o "$work/one.html" || { echo "FAIL: report: exit $?"; fail=1; }
expect "report of one run: its configuration in words, nothing marked" \
    "$(grep -c "<tr><th>thp_enabled</th><td>$real</td></tr>" "$work/one.html")/$(grep -c 'class="differs"' "$work/one.html")" 1/0
same=$("$HB" compare "$work/base.jsonl" "$work/base.jsonl" --format jsonl)
expect "identical configurations: no config_diff" "$(jq -s '[.[] | select(.type == "config_diff")] | length' <<<"$same")" 0
expect "identical configurations: no drift line" "$("$HB" compare "$work/base.jsonl" "$work/base.jsonl" | grep -c 'config differs')" 0

# Marks: a latency 100 times longer with THP changed; a bandwidth 100 times higher with
# THP, then with the governor changed.
scaled='if .type == "measurement" then .value *= 100 | .repeat_values |= map(. * 100) | .ci95 |= map(. * 100) else . end'
jq -c "$scaled | if .type == \"run\" then .config.thp_enabled = \"never\" else . end" "$work/base.jsonl" >"$work/slow.jsonl"
expect "a worse latency is marked with THP" \
    "$("$HB" compare "$work/base.jsonl" "$work/slow.jsonl" --format jsonl | jq -c 'select(.type == "comparison") | [.verdict, .config_may_explain]')" '["worse",["thp_enabled"]]'
expect_has "the table marks it" "$("$HB" compare "$work/base.jsonl" "$work/slow.jsonl")" "ns [config differs: thp_enabled]"
"$HB" bw --kernel read --size 1M --reps 1 --repeat 5 --min-time 0.001 --threads 1 --quiet --format jsonl -o "$work/bw.jsonl" ||
    { echo "FAIL: bandwidth run: exit $?"; fail=1; }
jq -c "$scaled | if .type == \"run\" then .config.thp_enabled = \"never\" else . end" "$work/bw.jsonl" >"$work/bw-thp.jsonl"
expect "THP is not marked on bandwidth" \
    "$("$HB" compare "$work/bw.jsonl" "$work/bw-thp.jsonl" --format jsonl | jq -c 'select(.type == "comparison") | [.verdict, .config_may_explain]')" '["better",null]'
jq -c "$scaled | if .type == \"run\" then .config.governor = [{value: \"powersave\", cpus: \"0-1\"}] else . end" "$work/bw.jsonl" >"$work/bw-gov.jsonl"
expect "the governor is marked on bandwidth" \
    "$("$HB" compare "$work/bw.jsonl" "$work/bw-gov.jsonl" --format jsonl | jq -c 'select(.type == "comparison") | .config_may_explain')" '["governor"]'

# Fleets on both sides: host by host; a knob is marked on the records of its host only.
fleetify='if .type == "run" then .hosts = ["a", "b"] | .host_configs = [{host: "a", config: .config}, {host: "b", config: .config}] elif .type == "measurement" then .host = "b" else . end'
jq -c "$fleetify" "$work/base.jsonl" >"$work/fleet.jsonl"
for h in 0 1; do
    jq -c "$fleetify | $scaled | if .type == \"run\" then .host_configs[$h].config.thp_enabled = \"never\" else . end" \
        "$work/base.jsonl" >"$work/fleet$h.jsonl"
done
expect "fleets: the drift of host b, marked on b's latency" \
    "$("$HB" compare "$work/fleet.jsonl" "$work/fleet1.jsonl" --format jsonl | jq -c 'select(.type == "config_diff" or .type == "comparison") | [.host, .key, .config_may_explain]' | paste -sd' ')" \
    '["b","thp_enabled",null] [null,null,["thp_enabled"]]'
expect "fleets: host a's drift is not marked on b's records" \
    "$("$HB" compare "$work/fleet.jsonl" "$work/fleet0.jsonl" --format jsonl | jq -c 'select(.type == "config_diff" or .type == "comparison") | [.host, .key, .config_may_explain]' | paste -sd' ')" \
    '["a","thp_enabled",null] [null,null,null]'
expect_has "fleets: the table names the host" "$("$HB" compare "$work/fleet.jsonl" "$work/fleet1.jsonl")" \
    "config differs: host b: thp_enabled $real -> never"

# A config block that is not an object: the file and line, exit 2.
jq -c 'if .type == "run" then .config = "fast" else . end' "$work/base.jsonl" >"$work/bad.jsonl"
err=$("$HB" compare "$work/base.jsonl" "$work/bad.jsonl" 2>&1 >/dev/null)
expect "config not an object: exit 2" "$("$HB" compare "$work/base.jsonl" "$work/bad.jsonl" >/dev/null 2>&1; echo $?)" 2
expect "one line naming file:line" "$err" "hopbench: $work/bad.jsonl:1: the run record's config is a string, not an object of knobs: the file was changed or damaged"
jq -c 'if .type == "run" then .config_unreadable = [1] else . end' "$work/base.jsonl" >"$work/bad2.jsonl"
expect_has "config_unreadable a list: named too" "$("$HB" compare "$work/bad2.jsonl" "$work/base.jsonl" 2>&1)" "bad2.jsonl:1: the run record's config_unreadable is a list"
# Files from before the capture have no config: nothing to say, no error.
jq -c 'del(.config, .config_unreadable)' "$work/base.jsonl" >"$work/old.jsonl"
expect "a file without config: no drift, no error" "$("$HB" compare "$work/old.jsonl" "$work/never.jsonl" --format jsonl | jq -s '[.[] | select(.type == "config_diff" or .type == "error")] | length')" 0
config_finish
