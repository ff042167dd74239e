#!/usr/bin/env bash
# Every signal that ends a process and can be caught (the list generated from kill -l), sent
# while a run writes its file: the process ends by that signal, its complete records are kept
# as FILE.partial (valid JSON Lines, the run record first), nothing else is left (no
# temporary, no lock), and one line says which signal and where the records are. A signal the run was started with ignored
# (nohup) stays ignored.
. "$(dirname "$0")/faults-lib.sh"
ulimit -c 0
# Every signal number the shell knows, but those that cannot be caught (KILL, STOP) and those
# whose default action does not end a process (stop, continue, or ignore).
rtmin=$(kill -l RTMIN)
sigs=""
for num in $(seq 1 "$(kill -l RTMAX)"); do
    sig=$(kill -l "$num" 2>/dev/null) && [ -n "$sig" ] || continue # 32, 33: the C library's
    case $sig in
    KILL | STOP | TSTP | TTIN | TTOU | CONT | CHLD | URG | WINCH) ;;
    *) sigs="$sigs $sig" ;;
    esac
done
tried=0
for sig in $sigs; do
    num=$(kill -l "$sig") || { fail "$sig: unknown to kill -l"; continue; }
    rm -rf s && mkdir s
    # env --default-signal: a background job of a script starts with SIGINT/SIGQUIT ignored.
    env --default-signal "$HB" bw --kernel read,write,copy,triad --size 16M --reps 100 \
        --min-time 0.02 --repeat 1 --threads 1 --quiet --format jsonl -o s/out.jsonl 2>err.txt &
    pid=$!
    for _ in $(seq 200); do
        f=$(ls s/out.jsonl.partial.* 2>/dev/null | head -n 1)
        # A whole record in it: the run record is larger than stdio's buffer, so its first
        # part can be there alone, and a signal then rightly leaves nothing.
        [ -n "$f" ] && [ "$(wc -l <"$f" 2>/dev/null || echo 0)" -ge 1 ] && break
        sleep 0.02
    done
    kill -s "$sig" "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" = $((128 + num)) ] || fail "$sig: exit $rc, expected $((128 + num))"
    # The C library's names: SIGIO is SIGPOLL, real-time signals count from SIGRTMIN.
    case $sig in
    IO) name=POLL ;;
    RTMIN) name=RTMIN ;;
    RTM*) name="RTMIN+$((num - rtmin))" ;;
    *) name=$sig ;;
    esac
    { grep -qF "hopbench: stopped by SIG$name; the " err.txt &&
        grep -qE " [0-9]+ records written before are kept in s/out\.jsonl\.partial$" err.txt &&
        [ "$(wc -l <err.txt)" = 1 ]; } || fail "$sig: message: $(cat err.txt)"
    expect_files "$sig" s out.jsonl.partial
    expect_jsonl "$sig" s/out.jsonl.partial
    tried=$((tried + 1))
done
# Ignored at start (nohup): the run is not stopped and completes its file.
rm -rf s && mkdir s
(trap '' USR1 && exec "$HB" lat "${QUICK[@]}" --repeat 1 --format jsonl -o s/out.jsonl) &
pid=$!
for _ in $(seq 200); do [ -e s/out.jsonl.lock ] && break; sleep 0.02; done
kill -USR1 "$pid" 2>/dev/null
wait "$pid" || fail "USR1 ignored at start: exit $?"
expect_files "USR1 ignored" s out.jsonl
[ "$tried" -ge 50 ] || fail "only $tried signals tried"
echo "$tried signals"
finish
