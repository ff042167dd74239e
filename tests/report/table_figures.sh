#!/usr/bin/env bash
# table_figures.sh HOPBENCH SCENARIO - CTest (label numa: real runs): for every measuring
# command of `hopbench --help` that runs on this machine, with tiny figures, the table and CSV
# print what the records say (table_figures.py: one rounding, intervals as [lo, hi] equal to
# ci95, derived figures recomputed from the records' values, no +- and no "GBps"); a command
# this machine refuses (one NUMA node, no MPI launch) is said and skipped, and a hop study
# and a fleet are checked from files. A planted record
# with 22 loads in flight from 8 chains of one thread is flagged under its row, and in the
# record of a real lat --chains run that exceeds its bound.
HB=${1:?usage: table_figures.sh HOPBENCH SCENARIO} SCN=${2:?usage: table_figures.sh HOPBENCH SCENARIO}
. "$(dirname "$0")/expect-lib.sh"
check="$(dirname "$0")/table_figures.py"
tiny=(--min-time 0.005 --reps 1 --repeat 2 --quiet)
ran=0
# The commands, as the command table lists them to a command it does not know.
cmds=$("$HB" no-such-command 2>&1 | sed -n 's/.*valid commands are //p' | tr ', ' '\n\n' |
    grep -Ex '[a-z][a-z0-9-]*')
expect "the command table lists the suites" [ -n "$cmds" ]
for cmd in "" $cmds; do
    args=("${tiny[@]}")
    case "$cmd" in
    topo | report | compare | export | history | help) continue ;; # they measure nothing
    default) continue ;;                                  # "" runs the default suite
    sweep) args+=(--max-size 64K) ;;
    balance) args=(--repeat 2 --quiet --size 4M) ;; # it takes no --min-time, --reps
    c2c | comm | migrate) ;;
    run) args+=("$SCN" --size 4M) ;;
    *) args+=(--size 4M) ;;
    esac
    name=${cmd:-default}
    "$HB" $cmd "${args[@]}" -o "$tmp/$name.jsonl" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] || [ "$rc" = 3 ]; then
        echo "skip: $name: $(head -1 "$tmp/err")"
        continue
    fi
    expect "$name: exit 0" [ "$rc" = 0 ]
    "$HB" report "$tmp/$name.jsonl" -o "$tmp/$name.txt" && "$HB" report "$tmp/$name.jsonl" -o "$tmp/$name.csv"
    expect "$name: its table and CSV print what its records say" \
        python3 "$check" "$tmp/$name.jsonl" "$tmp/$name.txt" "$tmp/$name.csv"
    ran=$((ran + 1))
done
expect "most commands ran here (bw, lat, matrix, loaded, run, policy, peak, sweep, c2c)" [ "$ran" -ge 8 ]
# What this machine cannot run, from files: a hop study of 8 nodes (made-up figures, its
# verdicts), a fleet of matrices, loaded curves and sweeps, and a policy study of every
# placement (its gains recomputed from its throughputs).
here=$(dirname "$0")
bash "$here/hops_fixture.sh" "$HB" "$here/../topo/corpus/16amd64-8n2c-cpusets.xml" >"$tmp/hops.jsonl"
cp "$here/fixtures/multinode.jsonl" "$here/fixtures/policy.jsonl" "$tmp/"
for name in hops multinode policy; do
    "$HB" report "$tmp/$name.jsonl" -o "$tmp/$name.txt" && "$HB" report "$tmp/$name.jsonl" -o "$tmp/$name.csv"
    expect "$name (file): its table and CSV print what its records say" \
        python3 "$check" "$tmp/$name.jsonl" "$tmp/$name.txt" "$tmp/$name.csv"
done
# A concurrency past chains x threads cannot be: planted, it is flagged under its row.
jq -c 'if .type == "measurement" then . + {chains: 8, threads: 1, concurrency: 22,
    concurrency_ci95: [21, 23], experiment: "lat-0-0-chains8"} | del(.out_of_bounds) else . end' \
    "$tmp/lat.jsonl" >"$tmp/planted.jsonl"
"$HB" report "$tmp/planted.jsonl" -o "$tmp/planted.txt"
expect "22 loads in flight from 8 chains of one thread: flagged under the row" \
    grep -q "^ *\^ impossible: concurrency 22.00, which must be at most 8 (chains x threads" "$tmp/planted.txt"
"$HB" lat --chains 1,8 "${tiny[@]}" --size 4M -o "$tmp/chains.jsonl" 2>/dev/null
expect "lat --chains: a record's out_of_bounds exactly when its concurrency exceeds chains x threads" \
    jq -se '[.[] | select(.type == "measurement")] | all(
        ((.concurrency // 0) > .chains * .threads) == (.out_of_bounds != null))' "$tmp/chains.jsonl" \
    >/dev/null
expect_done
