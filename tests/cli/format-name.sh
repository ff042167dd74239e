#!/usr/bin/env bash
# format-name.sh HOPBENCH - CTest test (label numa: real runs): -o FILE's name chooses the
# format when --format is not given (.jsonl, .json: JSON Lines; .csv: CSV; any case; anything
# else, and descriptors: a table); --format wins, with one warning line when it contradicts
# the name. And a run's plan line, shown where progress shows.
hb=$1
. "$(dirname "$0")/cli-lib.sh"
cd "$work" || exit 1
quick=(lat --size 64K --reps 1 --min-time 0.001 --repeat 1 --quiet)
# starts FILE: what the file's first line is: run record, CSV header or table comment.
starts() {
    case $(head -c 1 "$1") in
    '{') echo jsonl ;;
    '#') echo table ;;
    t) echo csv ;;
    *) echo "?" ;;
    esac
}
for case in "r.jsonl jsonl" "r.json jsonl" "R.JSONL jsonl" "r.csv csv" "r.Csv csv" "r.txt table" \
    "results table" "r.jsonl.bak table"; do
    read -r name want <<<"$case"
    err=$("$hb" "${quick[@]}" -o "$name" 2>&1 >/dev/null)
    got=$(starts "$name")
    [ "$got" = "$want" ] || { echo "FAIL: -o $name: $got, expected $want"; fail=1; }
    [ -z "$err" ] || { echo "FAIL: -o $name: said: $err"; fail=1; }
done
# An explicit --format that agrees says nothing; one that contradicts wins, and warns once.
err=$("$hb" "${quick[@]}" --format jsonl -o a.jsonl 2>&1 >/dev/null)
[ -z "$err" ] && [ "$(starts a.jsonl)" = jsonl ] || { echo "FAIL: agreeing --format: $err"; fail=1; }
for case in "csv b.jsonl jsonl" "table c.csv csv" "jsonl d.csv csv"; do
    read -r fmt name says <<<"$case"
    err=$("$hb" "${quick[@]}" --format "$fmt" -o "$name" 2>&1 >/dev/null)
    [ "$(starts "$name")" = "$fmt" ] || { echo "FAIL: --format $fmt -o $name: $(starts "$name")"; fail=1; }
    [ "$err" = "hopbench: warning: --format $fmt writes $fmt into '$name', whose name says $says" ] ||
        { echo "FAIL: --format $fmt -o $name: said: $err"; fail=1; }
done
# A descriptor has no name to read: a table, as on stdout.
"$hb" "${quick[@]}" -o /dev/stdout >out.txt 2>/dev/null
[ "$(starts out.txt)" = table ] || { echo "FAIL: -o /dev/stdout: $(starts out.txt)"; fail=1; }
# A real run (128 MiB: its chase, a 128-byte line pair per 256 bytes, holds 64 MiB, past any
# L3 here) says its plan before it starts where progress shows (--progress here, or a
# terminal); otherwise, and with --quiet, stderr stays silent.
"$hb" lat --size 128M --reps 1 --min-time 0.001 --repeat 1 --progress -o r.jsonl 2>err.txt
grep -qE "^hopbench: plan: 1 experiment, 1 measurement x 1 repeat, about [0-9]+ s$" err.txt ||
    { echo "FAIL: run with --progress: $(cat err.txt)"; fail=1; }
# (4 repeats: fewer say that compare could never decide on them; a busy machine may make the
# run unstable, which it says in one line: not progress.)
for quiet in "" --quiet; do
    "$hb" lat --size 128M --reps 1 --min-time 0.001 --repeat 4 $quiet -o r.jsonl 2>err.txt
    grep -v '^hopbench: warning: this run is unstable: ' err.txt >said.txt
    [ ! -s said.txt ] || { echo "FAIL: run ${quiet:-without --progress} said: $(cat said.txt)"; fail=1; }
done
# --quiet says nothing, not even that 1 repeat is too few for compare.
"$hb" lat --size 128M --reps 1 --min-time 0.001 --repeat 1 --quiet -o r.jsonl 2>err.txt
[ ! -s err.txt ] || { echo "FAIL: --quiet --repeat 1 said: $(cat err.txt)"; fail=1; }
cli_finish
