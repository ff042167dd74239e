#!/usr/bin/env bash
# Output paths: a symlink at the temporary's old fixed name, a symlink as the target, a
# device (/dev/full, written through and never replaced), a FIFO, a directory, an input as
# output, a name near NAME_MAX, missing and unwritable directories, a path beyond PATH_MAX,
# SIGTERM mid-run (faults/outputs.sh: descriptors, links, two writers; faults/signals.sh:
# every signal). Each case checks the exit code, the message and the exact files left behind.
. "$(dirname "$0")/faults-lib.sh"

# A symlink at FILE.partial: replaced (never followed) while the run writes, its target
# never written.
mkdir sym && echo keep >sym/victim && ln -s victim sym/out.jsonl.partial
run_hb lat "${QUICK[@]}" --format jsonl -o sym/out.jsonl
expect "symlink at FILE.partial" 0 ""
[ "$(cat sym/victim)" = keep ] || fail "symlink at FILE.partial: its target was written"
expect_files "symlink at FILE.partial" sym out.jsonl victim
expect_jsonl "symlink at FILE.partial" sym/out.jsonl

# A symlink as the target keeps pointing at the (new) file.
mkdir link && echo old >link/real.jsonl && ln -s real.jsonl link/out.jsonl
run_hb lat "${QUICK[@]}" --format jsonl -o link/out.jsonl
expect "symlink target" 0 ""
[ -L link/out.jsonl ] || fail "symlink target: the link was replaced"
expect_jsonl "symlink target" link/real.jsonl
expect_files "symlink target" link out.jsonl real.jsonl

# /dev/full: written straight through, never replaced (as root a rename would remove it).
before=$(stat -c '%F %t:%T' /dev/full)
run_hb lat "${QUICK[@]}" --format jsonl -o /dev/full
expect "/dev/full" 3 "output written straight through to '/dev/full' stopped after 0 complete records: No space left on device"
[ "$(stat -c '%F %t:%T' /dev/full)" = "$before" ] || fail "/dev/full was replaced: $(stat -c '%F' /dev/full)"
[ -z "$(find /dev -maxdepth 1 -name 'full.partial*')" ] || fail "/dev/full: a temporary was made in /dev"

# /dev/null takes everything: exit 0, still a device (when it was one: another program run
# as root with an older hopbench may have replaced it).
if [ -c /dev/null ]; then
    run_hb lat "${QUICK[@]}" --format jsonl -o /dev/null
    expect "/dev/null" 0 ""
    [ -c /dev/null ] || fail "/dev/null is no longer a device"
fi

# A FIFO is written to, not replaced.
mkdir fifo && mkfifo fifo/pipe
cat fifo/pipe >fifo.txt &
reader=$!
run_hb lat "${QUICK[@]}" --format jsonl -o fifo/pipe
wait "$reader"
expect "FIFO" 0 ""
[ -p fifo/pipe ] || fail "FIFO was replaced"
expect_jsonl "FIFO" fifo.txt
expect_files "FIFO" fifo pipe

# A directory is refused before anything is measured (the dry run refuses it too).
mkdir dir
for dry in "" --dry-run; do
    start=$(date +%s%N)
    run_hb lat --size 64M --reps 50 --quiet -o dir $dry
    took=$((($(date +%s%N) - start) / 1000000))
    expect "directory $dry" 2 "output 'dir' is a directory; give a file name"
    [ "$took" -lt 3000 ] || fail "directory $dry: refused only after $took ms (measured first?)"
    expect_files "directory $dry" dir
done

# An input of the same command as its output: refused, the input unchanged.
cp "$TOP/tests/report/fixtures/base.jsonl" in.jsonl
sum=$(md5sum <in.jsonl)
run_hb report in.jsonl -o in.jsonl
expect "report X -o X" 2 "output 'in.jsonl' is also an input of this command ('in.jsonl')"
[ "$(md5sum <in.jsonl)" = "$sum" ] || fail "report X -o X: the input changed"
ln -s in.jsonl alias.jsonl
run_hb report in.jsonl -o alias.jsonl
expect "report X -o link-to-X" 2 "is also an input of this command"
printf 'experiment e\nfg 0.0.r.0\n' >s.scn
run_hb run s.scn -o s.scn --dry-run
expect "run S -o S" 2 "output 's.scn' is also an input of this command ('s.scn')"
cp "$FIX/4n-quartet.xml" t.xml
run_hb --topology t.xml --dry-run -o t.xml
expect "--topology T -o T" 2 "output 't.xml' is also an input of this command ('t.xml')"
[ "$(md5sum <t.xml)" = "$(md5sum <"$FIX/4n-quartet.xml")" ] || fail "--topology T -o T: changed"

# Names near NAME_MAX: refused before measuring when FILE.partial.XXXXXX cannot fit.
mkdir names
long=$(printf 'n%.0s' $(seq 240))
run_hb lat "${QUICK[@]}" -o "names/$long"
expect "NAME_MAX" 2 "is too long: at most 239 characters here, so that '.partial.XXXXXX+' fits"
expect_files "NAME_MAX" names
ok=$(printf 'n%.0s' $(seq 239))
run_hb lat "${QUICK[@]}" --format jsonl -o "names/$ok"
expect "NAME_MAX - 16" 0 ""
expect_files "NAME_MAX - 16" names "$ok"

# A missing or unwritable directory: the file system refuses (exit 3), nothing created.
run_hb lat "${QUICK[@]}" -o nowhere/out.jsonl
expect "missing directory" 3 "directory 'nowhere' does not exist"
run_hb lat "${QUICK[@]}" -o in.jsonl/out.jsonl
expect "a file as directory" 3 "cannot write output file 'in.jsonl/out.jsonl': 'in.jsonl': Not a directory"
mkdir ro && chmod 555 ro
if ! : 2>/dev/null >ro/probe; then
    run_hb lat "${QUICK[@]}" -o ro/out.jsonl
    expect "unwritable directory" 3 "cannot write output file 'ro/out.jsonl': directory 'ro': Permission denied"
fi
rm -f ro/probe
# As another user, a directory on the way that cannot be searched is named, with the reason.
as_nobody() { setpriv --reuid nobody --regid nogroup --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
    as_nobody "$HB" --version >/dev/null 2>&1; then
    open=$(mktemp -d) && chmod 755 "$open" && mkdir -m 700 "$open/locked"
    out=$(as_nobody "$HB" lat --dry-run \
        -o "$open/locked/sub/x.jsonl" 2>&1)
    rc=$?
    expect "unsearchable directory (nobody)" 3 "cannot write output file '$open/locked/sub/x.jsonl': '$open/locked': Permission denied"
    rm -rf "$open"
    # An existing file is replaced by a rename: refused before anything runs where its user
    # may not write it, or where a sticky directory lets only its owner replace it.
    open=$(mktemp -d) && chmod 1777 "$open"
    nobody=$(id -u nobody)
    as_nobody sh -c 'echo mine >"$1" && chmod 444 "$1"' sh "$open/ro.jsonl"
    out=$(as_nobody "$HB" lat "${QUICK[@]}" -o "$open/ro.jsonl" 2>&1)
    rc=$?
    expect "read-only file (nobody)" 3 "cannot write output file '$open/ro.jsonl': '$open/ro.jsonl' (mode 0444, uid $nobody) is not writable for you: Permission denied"
    echo theirs >"$open/root.jsonl" && chmod 666 "$open/root.jsonl"
    out=$(as_nobody "$HB" lat "${QUICK[@]}" -o "$open/root.jsonl" 2>&1)
    rc=$?
    expect "root's file in a sticky directory (nobody)" 3 "'$open/root.jsonl' belongs to uid 0 in the sticky directory '$open', where only its owner can replace it"
    [ "$(cat "$open/ro.jsonl") $(cat "$open/root.jsonl")" = "mine theirs" ] ||
        fail "refused replacements: a file changed"
    expect_files "refused replacements" "$open" ro.jsonl root.jsonl
    # Replaced by root, a user's private file keeps its permissions and its owner.
    as_nobody sh -c 'echo old >"$1" && chmod 600 "$1"' sh "$open/priv.jsonl"
    run_hb lat "${QUICK[@]}" --repeat 1 --format jsonl -o "$open/priv.jsonl"
    expect "root replacing nobody's private file" 0 ""
    [ "$(stat -c '%a %u' "$open/priv.jsonl")" = "600 $nobody" ] ||
        fail "root replacing nobody's private file: now $(stat -c '%a %u' "$open/priv.jsonl")"
    expect_jsonl "root replacing nobody's private file" "$open/priv.jsonl"
    rm -rf "$open"
fi
# A directory deeper than PATH_MAX from / (each step entered, so every path used is short):
# a new output is written there, an existing one replaced, and report reads and writes there.
top_name=$(printf 'd%.0s' $(seq 250))
(
    for _ in $(seq 20); do mkdir "$top_name" && cd "$top_name" || exit 9; done
    [ "$(pwd | wc -c)" -gt 4096 ] || exit 8
    for round in new existing; do
        "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o out.jsonl >/dev/null 2>err.txt ||
            { echo "$round: exit $?: $(cat err.txt)"; exit 7; }
        [ "$(jq -s '[.[] | select(.type == "measurement")] | length' out.jsonl)" = 1 ] || exit 6
    done
    "$HB" report out.jsonl -o r.html 2>err.txt || { echo "report: $(cat err.txt)"; exit 5; }
    [ "$(ls | tr '\n' ' ')" = "err.txt out.jsonl r.html " ] || { echo "left: $(ls)"; exit 4; }
) >deep.txt
rc=$?
[ "$rc" = 0 ] || fail "beyond PATH_MAX: step $rc: $(cat deep.txt)"
rm -rf "./$top_name" ro deep.txt

# SIGTERM mid-run: the complete records are kept as FILE.partial, no temporary left.
mkdir term
"$HB" bw --kernel read,write,copy,triad --size 16M --reps 200 --min-time 0.02 --repeat 1 --threads 1 \
    --quiet --format jsonl -o term/out.jsonl &
pid=$!
for _ in $(seq 300); do
    f=$(ls term/out.jsonl.partial.* 2>/dev/null | head -n 1)
    [ -n "$f" ] && [ "$(grep -c '"type":"measurement"' "$f")" -ge 1 ] && break
    sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc, expected 143 (killed by SIGTERM)"
expect_files "SIGTERM" term out.jsonl.partial
expect_jsonl "SIGTERM" term/out.jsonl.partial
# Help, version and dry runs to a full device: a write that failed is not success (exit 3);
# faults/outputs.sh tries every command's -o /dev/stdout.
if [ -w /dev/full ]; then
    for args in "--help" "--version" "lat --dry-run" "topo"; do
        # shellcheck disable=SC2086
        out=$("$HB" $args 2>&1 >/dev/full)
        rc=$?
        [ "$rc" = 3 ] || fail "$args >/dev/full: exit $rc, expected 3: $out"
    done
fi
finish
