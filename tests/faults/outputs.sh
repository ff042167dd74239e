#!/usr/bin/env bash
# Every command that writes -o (the list hopbench --help gives, suites by their dry run),
# each with: a descriptor (/dev/stdout appended to a log, /dev/fd/N, /proc/self/fd/N) written
# through and never replaced; a link of the user's own, followed; a link that belongs to
# someone else, refused with the file it points to untouched; a second writer of one path,
# refused while the first holds it. Then every pair of outputs of one command that name one
# file. Each case checks the exit code, the message and what the files hold: every command x
# output-case pair, in every run.
# shellcheck disable=SC2317  # the output cases are functions called by name from $cases
. "$(dirname "$0")/faults-lib.sh"
cp "$TOP/tests/report/fixtures/base.jsonl" in.jsonl
"$HB" matrix "${QUICK[@]}" --repeat 1 --format jsonl -o m.jsonl || fail "matrix for export: exit $?"
scn=$TOP/jobs/scenarios/one-node-load.scn
other=$(id -u nobody 2>/dev/null || echo 65534)
commands=$("$HB" --help | sed -n '/^commands:/,/^options:/s/^  \([a-z0-9]\{2,\}\)\( .*\)\{0,1\}$/\1/p')
# args_for COMMAND: the cheapest invocation of COMMAND that writes its -o.
args_for() {
    case $1 in
    topo) echo topo --format jsonl ;;
    report) echo report in.jsonl ;;
    export) echo export m.jsonl ;;
    compare) ;; # exits 1, 4 or 5 on these fixtures, never 0: tests/cli/compare-output.sh takes its -o
    run) echo run "$scn" --dry-run ;;
    # what this one-node machine cannot plan: two memory nodes, two ranks (another machine's)
    migrate | comm | coll | balance | hops) echo "$1" --dry-run --topology "$FIX/2n-nodist.xml" ;;
    *) echo "$1" --dry-run ;;
    esac
}
# to_log C DEV: appended to a log through standard output or standard error, by each of their
# names: earlier lines stay.
to_log() {
    echo "earlier line" >app.log
    inode=$(stat -c %i app.log)
    case $2 in
    *err | */2) "$HB" "${args[@]}" -o "$2" 2>>app.log >err.txt ;;
    *) "$HB" "${args[@]}" -o "$2" >>app.log 2>err.txt ;;
    esac
    rc=$?
    [ "$rc" = 0 ] || fail "$1 -o $2: exit $rc: $(cat err.txt)"
    [ "$(head -n 1 app.log)" = "earlier line" ] || fail "$1 -o $2 >>log: the log's first line is gone"
    [ "$(wc -l <app.log)" -gt 1 ] || fail "$1 -o $2 >>log: nothing written"
    [ "$(stat -c %i app.log)" = "$inode" ] || fail "$1 -o $2 >>log: the log was replaced"
}
# full C: standard output on a full device: the failed write is said, exit 3.
full() {
    [ -w /dev/full ] || return 0
    out=$("$HB" "${args[@]}" -o /dev/stdout 2>&1 >/dev/full)
    rc=$?
    expect "$1 -o /dev/stdout >/dev/full" 3 "output written straight through to '/dev/stdout' stopped after 0 complete records: No space left on device"
}
# fd7 C, fd8 C: a descriptor other than 1 and 2, and one not open for writing.
fd7() {
    echo "earlier line" >app.log
    "$HB" "${args[@]}" -o /dev/fd/7 7>>app.log 2>err.txt >/dev/null
    rc=$?
    [ "$rc" = 0 ] && [ "$(head -n 1 app.log)" = "earlier line" ] || fail "$1 -o /dev/fd/7: exit $rc: $(cat err.txt)"
}
fd8() {
    run_hb "${args[@]}" -o /dev/fd/8 8<in.jsonl
    expect "$1 -o /dev/fd/8 (read-only)" 2 "is descriptor 8, which is not open for writing"
}
# own C: the user's own link: followed (also to a file still to be made), the link kept.
own() {
    rm -f real.out own.out && ln -s real.out own.out
    run_hb "${args[@]}" -o own.out
    expect "$1 -o own link" 0 ""
    [ -L own.out ] && [ -s real.out ] || fail "$1 -o own link: link replaced or target empty"
    rm -f real.out own.out
}
# theirs C: someone else's link, and the user's own link to it: refused, the target untouched.
theirs() {
    echo victim >victim.txt
    rm -f theirs.out && ln -s victim.txt theirs.out && chown -h "$other" theirs.out 2>/dev/null
    if [ "$(stat -c %u theirs.out)" != "$(id -u)" ]; then
        run_hb "${args[@]}" -o theirs.out
        expect "$1 -o someone else's link" 2 "the symbolic link 'theirs.out' belongs to uid $other, not to you (uid $(id -u)); hopbench follows only your own links"
        [ "$(cat victim.txt)" = victim ] || fail "$1 -o someone else's link: the target was written"
        ln -sf theirs.out chain.out
        run_hb "${args[@]}" -o chain.out
        expect "$1 -o own link to someone else's" 2 "the symbolic link 'theirs.out' belongs to uid $other"
    fi
    rm -f theirs.out chain.out victim.txt
}
cases=(/dev/stdout /dev/fd/1 /proc/self/fd/1 /dev/stderr /dev/fd/2 /proc/self/fd/2 full fd7 fd8 own theirs)
declare -A met
tried=0
for c in $commands; do
    read -r -a args <<<"$(args_for "$c")"
    [ "${#args[@]}" -gt 0 ] || continue
    tried=$((tried + 1))
    echo "earlier line" >app.log && : >err.txt
    for j in "${!cases[@]}"; do
        k=${cases[$j]}
        met[$k]=1
        case $k in
        /*) to_log "$c" "$k" ;;
        *) "$k" "$c" ;;
        esac
    done
    expect_files "$c: files left" . app.log err.txt in.jsonl m.jsonl
done
for k in "${cases[@]}"; do [ -n "${met[$k]:-}" ] || fail "output case $k met no command"; done
[ "$tried" -ge 13 ] || fail "only $tried commands tried"
if [ -w /dev/full ]; then
    out=$("$HB" compare in.jsonl in.jsonl 2>&1 >/dev/full)
    rc=$?
    expect "compare >/dev/full" 3 "output written straight through to 'stdout' stopped after 0 complete records: No space left on device"
fi

# After --, a word that starts with - is an operand: a file for the commands that read one,
# an unexpected argument for the others; never an option.
cp in.jsonl ./-in.jsonl && cp m.jsonl ./-m.jsonl && cp "$scn" ./-s.scn
dashed=0
for c in $commands; do
    case $c in
    run) run_hb run --dry-run -o dd.out -- -s.scn; expect "run -- -s.scn" 0 "" ;;
    report) run_hb report -o dd.out -- -in.jsonl; expect "report -- -in.jsonl" 0 "" ;;
    export) run_hb export -o dd.out -- -m.jsonl; expect "export -- -m.jsonl" 0 "" ;;
    compare) run_hb compare -- -in.jsonl -in.jsonl; expect "compare -- -in.jsonl -in.jsonl" 5 "" ;;
    *)
        read -r -a args <<<"$(args_for "$c")"
        run_hb "${args[@]}" -o dd.out -- -x
        expect "$c -- -x" 2 "unexpected argument '-x'"
        ;;
    esac
    # An unknown option in a cluster is named by itself, never by the word before it.
    read -r -a args <<<"$(args_for "$c")"
    [ "${#args[@]}" -gt 0 ] && args+=(-o dd.out) || args=(compare in.jsonl in.jsonl)
    run_hb "${args[@]}" -zzz
    expect "${args[*]} -zzz" 2 "unknown option '-z'"
    dashed=$((dashed + 1))
    rm -f dd.out
done
[ "$dashed" -ge 14 ] || fail "only $dashed commands tried with --"
rm -f ./-in.jsonl ./-m.jsonl ./-s.scn

# A second writer of one path fails at once (exit 3) while the first holds it; the first
# completes its file alone.
mkdir two
"$HB" bw --kernel read,write,copy,triad --size 16M --reps 50 --min-time 0.02 --repeat 1 \
    --threads 1 --quiet --format jsonl -o two/out.jsonl &
first=$!
for _ in $(seq 100); do [ -e two/out.jsonl.lock ] && break; sleep 0.05; done
run_hb lat "${QUICK[@]}" --format jsonl -o two/out.jsonl
expect "second writer" 3 "output 'two/out.jsonl' is being written by another run (it holds 'two/out.jsonl.lock')"
wait "$first" || fail "first writer: exit $?"
expect_files "two writers" two out.jsonl
expect_jsonl "two writers" two/out.jsonl
[ "$(jq -s '[.[] | select(.type == "measurement")] | length' two/out.jsonl)" = 4 ] ||
    fail "two writers: not the first run's 4 measurements"
rm -rf two

# Two outputs of one command that are one file: refused before anything runs.
ln -s same.xml alias.xml
for pair in "-o same.xml --export-hwloc same.xml" "-o same.xml --export-hwloc alias.xml" \
    "--export-hwloc /dev/stdout" "-o /dev/stdout --export-hwloc /dev/fd/1"; do
    # shellcheck disable=SC2086  # the pair is words
    run_hb matrix "${QUICK[@]}" $pair
    expect "matrix $pair" 2 "are the same file: one output would be lost; give each its own"
done
expect_files "same-path outputs" . alias.xml err.txt in.jsonl app.log m.jsonl
# An output that is an input of the same command (the file itself, or through the user's own
# link): refused before anything runs, the input unchanged. Every command that writes -o,
# with --topology's file; report, export and run with their operand too.
cp "$FIX/2n-nodist.xml" t.xml && cp "$scn" s.scn && ln -s t.xml t-alias.xml
sums=$(md5sum t.xml in.jsonl m.jsonl s.scn)
inputs=0
for c in $commands; do
    case $c in
    compare) continue ;;
    report) pairs=("in.jsonl in.jsonl") ;;
    export) pairs=("m.jsonl m.jsonl" "m.jsonl --topology t.xml t.xml" "m.jsonl --topology t.xml t-alias.xml") ;;
    run) pairs=("s.scn --dry-run s.scn" "s.scn --dry-run --topology t.xml t.xml") ;;
    topo) pairs=("--topology t.xml t.xml" "--topology t.xml t-alias.xml") ;;
    *) pairs=("--dry-run --topology t.xml t.xml" "--dry-run --topology t.xml t-alias.xml") ;;
    esac
    for pair in "${pairs[@]}"; do
        read -r -a words <<<"$pair"
        out_name=${words[-1]}
        unset 'words[-1]'
        run_hb "$c" "${words[@]}" -o "$out_name"
        expect "$c ${words[*]} -o $out_name" 2 "output '$out_name' is also an input of this command"
        inputs=$((inputs + 1))
    done
done
[ "$(md5sum t.xml in.jsonl m.jsonl s.scn)" = "$sums" ] || fail "input as output: an input changed"
[ "$inputs" -ge 27 ] || fail "only $inputs input-as-output cases tried"
rm -f t.xml s.scn t-alias.xml
echo "$tried commands tried, $inputs input-as-output cases"
finish
