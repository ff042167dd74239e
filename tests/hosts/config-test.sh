#!/usr/bin/env bash
# The fleet names configuration drift: three hosts, h3 with THP set to never (a file
# bind-mounted over the knob in a private mount namespace around h3's hopbench: its
# processes see it, the machine and the other hosts do not). Every host's configuration is
# in the run record, only h3 is listed as differing from the majority (in the fleet record
# and in the run record's config_drift, for peak as for matrix), and when a memory
# load on h3 makes it the outlier (as in outlier-test.sh), its flag's reason names the knob.
# The table shows the drift on h3's line only. check names h3's knob against its peers.
# shellcheck source=hosts-lib.sh
. "$(dirname "$0")/hosts-lib.sh"
hosts_up 3 0-1 0-1 0-1
THP=/sys/kernel/mm/transparent_hugepage/enabled
real=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
[ "$real" != never ] || { echo "SKIP: THP is already never here: nothing to change"; exit 77; }
printf 'always madvise [never]\n' >"$work/never"
knob_on h3 "$work/never" "$THP"
quick=(matrix --kernel read --size 16M --reps 2 --min-time 0.01 --threads 1 --quiet)
# The outlier run as outlier-test.sh makes it: nine repeats, so the load is beyond the noise.
study=(matrix --kernel read --size 64M --reps 9 --min-time 0.02 --threads 1 --quiet)

fleet --host h1,h2,h3 "${quick[@]}" --format jsonl -o idle.jsonl 2>idle.log || fail "idle run: exit $? ($(cat idle.log))"
expect_eq "every host's configuration is in the run record" \
    "$(jqs idle.jsonl '[.[] | select(.type=="run")][0].host_configs | map([.host, .config.thp_enabled])')" \
    "[[\"h1\",\"$real\"],[\"h2\",\"$real\"],[\"h3\",\"never\"]]"
expect_eq "only h3 differs from the majority, in thp_enabled" \
    "$(jqs idle.jsonl '[.[] | select(.type=="fleet")][0].hosts | map([.host, .config_differs])')" \
    '[["h1",{}],["h2",{}],["h3",{"thp_enabled":"never"}]]'
expect_eq "the run record lists each host's drift too" \
    "$(jqs idle.jsonl '[.[] | select(.type=="run")][0].config_drift')" '{"h1":{},"h2":{},"h3":{"thp_enabled":"never"}}'
# Any multi-host study, not only matrix's fleet: peak's run record names h3's drift.
fleet --host h1,h2,h3 peak --kernel read --size 4M --reps 1 --repeat 1 --min-time 0.001 --threads 1 \
    --quiet --format jsonl -o peak.jsonl 2>peak.log || fail "peak run: exit $? ($(cat peak.log))"
expect_eq "peak over three hosts: h3's drift in the run record" \
    "$(jqs peak.jsonl '[.[] | select(.type=="run")][0].config_drift')" '{"h1":{},"h2":{},"h3":{"thp_enabled":"never"}}'
expect_eq "the machine's own THP is untouched" "$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")" "$real"
# check judges each host against its peers of the same hardware in the run: h3's knob names
# h3 alone, in the issue's words, and the run is degraded (exit 1).
rc=0
fleet --host h1,h2,h3 check --size 16M --max-time 6 --quiet --format jsonl -o check.jsonl >check.out 2>check.log || rc=$?
cat check.out
expect_eq "check: degraded (exit 1)" "$rc" 1
expect_eq "check: h3's THP against its peers', the only config line" \
    "$(grep 'config differs' check.out)" "hopbench check: h3: config differs from peers: thp_enabled never (peers: $real)"
expect_has "check: h3 degraded" "$(cat check.out)" "hopbench check: h3: degraded ("

"$HB" report idle.jsonl -o idle.html || fail "report: exit $?"
expect_eq "report: the hosts side by side, h3's THP marked and nothing else" \
    "$(grep -o '<tr><th>thp_enabled</th><td>[a-z]*</td><td>[a-z]*</td><td class="differs">never</td></tr>' idle.html | wc -l)/$(grep -o 'class="differs"' idle.html | wc -l)" 1/1
fleet --host h1,h2,h3 "${quick[@]}" --format table -o idle.txt 2>idle-table.log || fail "table run: exit $? ($(cat idle-table.log))"
grep -A5 '^fleet:' idle.txt
expect_eq "the table names the drift on h3's line only" "$(grep -o '^ *h[123] .*thp_enabled=never' idle.txt | awk '{print $1}' | sort -u)" h3
expect_eq "the table's header names h3's drift, once" \
    "$(grep -c "^# config of h3 differs from the other hosts': thp_enabled=never$" idle.txt)/$(grep -c '^# config of' idle.txt)" 1/1

# loaded_run N: the study with a memory load on h3, into loaded$N.jsonl.
loaded_run() {
    on h3 timeout 120 "$HB" bw --kernel copy --size 512M --threads 1 --reps 1000 --min-time 0.1 \
        --quiet --format jsonl -o /dev/null >"load$1.log" 2>&1 &
    local load=$!
    sleep 2
    fleet --host h1,h2,h3 "${study[@]}" --format jsonl -o "loaded$1.jsonl" 2>"loaded$1.log" ||
        fail "loaded run $1: exit $? ($(cat "loaded$1.log"))"
    kill "$load" 2>/dev/null || true
    wait "$load" 2>/dev/null || true
    echo "loaded run $1: $(jqs "loaded$1.jsonl" '[.[] | select(.type=="fleet")][0].hosts | map([.host, .outlier, .reason])')"
}
# On a machine that others load too, the noise can hide the load once: a second try.
flags='[.[] | select(.type=="fleet")][0].hosts | map([.host, .outlier])'
loaded_run 1
try=1
[ "$(jqs loaded1.jsonl "$flags")" = '[["h1",false],["h2",false],["h3",true]]' ] || { loaded_run 2; try=2; }
expect_eq "loaded: h3 flagged, h1 and h2 not" "$(jqs "loaded$try.jsonl" "$flags")" '[["h1",false],["h2",false],["h3",true]]'
expect_eq "h3's flag names the knob, after what is worse" \
    "$(jqs "loaded$try.jsonl" -r '[.[] | select(.type=="fleet")][0].hosts[2].reason | sub("^.*(above|below) median[^;]*; "; "")')" \
    "differs in thp_enabled=never; "
finish
