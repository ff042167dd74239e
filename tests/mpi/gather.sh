#!/usr/bin/env bash
# Rank 0 writes a fleet's records as they come and holds one experiment's at a time: four
# ranks acting as four hosts run sweep (many experiments, repeats round the whole plan);
# every record is there once, in plan order, host by host, merged over all its repeats, and
# the most records rank 0 held at once (HOPBENCH_DEBUG_HELD) is one task's repeats and their
# merge, whatever the hosts; so too under matrix, whose derive reads the run's records. A TMPDIR that cannot take the repeats that wait
# is named, and no result file is left under its final name.
. "$(dirname "$0")/mpi-lib.sh"
n=4 repeats=3
args=(sweep --max-size 256K --reps 1 --min-time 0.0005 --repeat "$repeats" --quiet --format jsonl)
# shellcheck disable=SC2016  # expanded by each rank's shell
hosts=(mpirun "${OVERSUB[@]}" -np "$n" bash -c
    'r=$OMPI_COMM_WORLD_RANK; export HOPBENCH_HOST=h$r;
     [ "$r" = 0 ] && export HOPBENCH_DEBUG_HELD=held.txt; exec "$0" "$@"' "$HB")
timeout 300 "${hosts[@]}" "${args[@]}" -o f.jsonl
m='[.[] | select(.type == "measurement")]'
total=$(jq -s "$m | length" f.jsonl)
nexp=$(jq -s '.[] | select(.type == "summary") | .experiments' f.jsonl)
per=$(jq -s "$m | group_by(.experiment) | map(length) | max" f.jsonl)
expect_eq "records" "$total" "$((nexp * per))"
expect_eq "one record per host and experiment" "$(jq -s "$m | map([.experiment, .host]) | unique | length" f.jsonl)" "$total"
# Output order: experiments as the summary lists them, each host by host.
expect_eq "order" "$(jq -c -s "$m | map([.experiment, .host])" f.jsonl)" \
    "$(jq -c -s '.[] | select(.type == "summary") | [.cell_s[].experiment as $e | range('"$n"') as $h | [$e, "h\($h)"]]' f.jsonl)"
expect_eq "merged over every repeat" "$(jq -s "$m | map(.repeats == $repeats and (.repeat_values | length) == $repeats) | all" f.jsonl)" true
expect_eq "summary counts" "$(jq -c -s '.[] | select(.type == "summary") | [.measurements, .ok + .failed + .skipped]' f.jsonl)" "[$total,$total]"
held=$(cat held.txt 2>/dev/null || true)
bound=$((repeats + 1))
[[ $held =~ ^[0-9]+$ ]] || fail "rank 0 wrote no count to HOPBENCH_DEBUG_HELD's file (got '$held')"
[ "${held:-0}" -le "$bound" ] || fail "rank 0 held $held records at once, more than one task's $repeats repeats + their merge = $bound"
[ "$total" -gt $((2 * bound)) ] || fail "the run wrote $total records: too few to tell a bounded window ($bound) from the whole run"

# A suite whose derive reads the run's records (matrix: each host's matrix and the fleet's
# outliers) keeps only their part it reads, on disk, never whole records: rank 0 still holds
# one task's repeats at a time, and every host's matrix and the fleet record come out.
# (HOPBENCH_DEBUG_KEEP, set for the tests, would keep whole ones beside to check that part.)
margs=(matrix --kernel read,write,copy,triad,chase,mix2:1 --size 1M --reps 1 --min-time 0.0005 --repeat "$repeats" --quiet --format jsonl)
rm -f held.txt
HOPBENCH_DEBUG_KEEP=0 timeout 300 "${hosts[@]}" "${margs[@]}" -o mx.jsonl
mtotal=$(jq -s "$m | length" mx.jsonl)
mper=$(jq -s "$m | group_by(.experiment) | map(length) | max" mx.jsonl)
expect_eq "matrix: one record per host and experiment" "$mper" "$n"
expect_eq "matrix: a matrix per host and kernel" \
    "$(jq -s '[.[] | select(.type == "matrix")] | group_by(.host) | map(length) | unique | [length, (.[0] > 0)]' mx.jsonl | jq -c .)" "[1,true]"
expect_eq "matrix: hosts with a matrix" "$(jq -s '[.[] | select(.type == "matrix") | .host] | unique | length' mx.jsonl)" "$n"
expect_eq "matrix: the fleet record" "$(jq -s '[.[] | select(.type == "fleet")] | length' mx.jsonl)" 1
held=$(cat held.txt 2>/dev/null || true)
[[ $held =~ ^[0-9]+$ ]] || fail "matrix: rank 0 wrote no count to HOPBENCH_DEBUG_HELD's file (got '$held')"
[ "$held" -le "$bound" ] || fail "matrix: rank 0 held $held whole records at once, more than one task's $repeats repeats + their merge = $bound"
[ "$mtotal" -gt $((2 * bound)) ] || fail "matrix: the run wrote $mtotal records: too few to tell a bounded window from the whole run"

# The repeats that wait need a temporary file: a TMPDIR that cannot take it stops the run.
# One rank without mpirun (the same executor): mpirun would make TMPDIR for its own files.
out=$(TMPDIR=$PWD/none timeout 300 "$HB" "${args[@]}" -o g.jsonl 2>&1) && rc=0 || rc=$?
expect_eq "unwritable TMPDIR exit" "$rc" 3
expect_has "unwritable TMPDIR message" "$out" "cannot make a temporary file in $PWD/none"
[ ! -e g.jsonl ] || fail "an incomplete result was left as g.jsonl"
finish
