#!/usr/bin/env bash
# Progress on stderr: forced lines with --progress into a file, silence without it, and the
# in-place rewrite (\r ESC[K) on a real terminal (script from util-linux). 128 MiB: the chase
# holds 64 MiB of it (a line pair per 256 bytes), past any L3 here, so no cache note is said.
set -u
hb=$1 tmp=$(mktemp -d)
fail=0
"$hb" lat --size 128M --reps 2 --progress --format jsonl -o "$tmp/a.jsonl" 2>"$tmp/err" ||
    { echo "run failed: $(cat "$tmp/err")"; exit 1; }
# One line a step; the plan goes round once per repeat (default 5).
grep -Eq '^\[1/5\] lat-0-0 \(repeat 1 of 5\), [0-9]+ s elapsed$' "$tmp/err" &&
    grep -Eq '^\[5/5\] lat-0-0 \(repeat 5 of 5\), [0-9]+ s elapsed, about [0-9]+ s left$' "$tmp/err" ||
    { echo "progress: $(cat "$tmp/err")"; fail=1; }
"$hb" lat --size 128M --reps 2 --format jsonl -o "$tmp/b.jsonl" 2>"$tmp/err2"
# (A busy machine may make the run unstable, which it says in one line: not progress.)
grep -v '^hopbench: warning: this run is unstable: ' "$tmp/err2" >"$tmp/err3"
[ ! -s "$tmp/err3" ] || { echo "stderr without --progress: $(cat "$tmp/err2")"; fail=1; }
if command -v script >/dev/null; then
    script -q -c "$hb lat --size 128M --reps 2 --format jsonl -o $tmp/c.jsonl" /dev/null >"$tmp/tty"
    grep -q $'\r\033\[K\[1/5\] lat-0-0' "$tmp/tty" || { echo "no in-place rewrite on a TTY"; fail=1; }
else
    echo "note: script (util-linux) missing, TTY case not checked"
fi
rm -rf "$tmp"
exit $fail
