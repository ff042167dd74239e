#!/usr/bin/env bash
# The run record's command_line re-runs the run: a shell (bash) reads it back as the same argv,
# whatever the arguments hold (spaces, quotes, $, *, !, a backslash, a tab, a C1 control, a
# byte that is not UTF-8) and wherever the binary is (a path with a space and a quote), and
# running it again writes a record with the same line. JSON keeps the line: it is UTF-8.
set -uo pipefail
HB=${HOPBENCH:?HOPBENCH must name the hopbench binary}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
mkdir "$work/b'in dir" "$work/first" "$work/again"
bin="$work/b'in dir/hopbench"
ln -s "$(readlink -f "$HB")" "$bin"
out="o'u t é"$'\t\xff\xc2\x85'"\$(x) * ! \\ \".jsonl"
args=(bw --size 64K --repeat 1 --reps 1 --min-time 0.001 --quiet --seed 9223372036854775807
    --format jsonl -o "$out")
(cd "$work/first" && "$bin" "${args[@]}") || { echo "FAIL: the run failed"; exit 1; }
rec="$work/first/$out"
[ -f "$rec" ] || { echo "FAIL: no output file named by the awkward -o"; exit 1; }
line=$(jq -r 'select(.type == "run") | .command_line' "$rec")
echo "command_line: $line"
[ -n "$line" ] || { echo "FAIL: command_line is empty (not UTF-8 for jansson?)"; exit 1; }

# The words a shell makes of it are the argv, byte for byte.
bash -c 'eval "set -- $1"; printf "%s\0" "$@"' _ "$line" >"$work/got"
printf '%s\0' "$bin" "${args[@]}" >"$work/want"
if ! cmp -s "$work/got" "$work/want"; then
    echo "FAIL: the line reads back as other words:"
    diff <(od -c "$work/want") <(od -c "$work/got")
    fail=1
fi
# The seed is kept exactly, the largest one too (jq reads numbers as doubles: the text).
grep -q '"seed":9223372036854775807,' "$rec" ||
    { echo "FAIL: the record's seed: $(grep -o '"seed":[^,]*' "$rec")"; fail=1; }
# Plain words stay plain; the rest is quoted as promised.
for want in " bw --size 64K --repeat 1 " "b'\\''in dir/hopbench' bw" \
    "-o \$'o\\'u t é\\x09\\xff\\xc2\\x85\$(x) * ! \\\\ \".jsonl'"; do
    [[ "$line" == *"$want"* ]] || { echo "FAIL: the line lacks: $want"; fail=1; }
done
# Run it again: the same run, the same line in its record.
(cd "$work/again" && bash -c "$line") || { echo "FAIL: the line does not run"; fail=1; }
again=$(jq -r 'select(.type == "run") | .command_line' "$work/again/$out" 2>/dev/null)
[ "$again" = "$line" ] || { echo "FAIL: the re-run's command_line: $again"; fail=1; }
[ "$fail" = 0 ] && echo PASS
exit "$fail"
