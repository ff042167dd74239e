#!/usr/bin/env bash
# help.sh HOPBENCH SOURCE_DIR - CTest test (label cli): each command's help, from the tables.
# For every command `hopbench help` lists: `hopbench help CMD`, `hopbench CMD --help` and
# `-h` exit 0 and print one text, with its usage line, an options section and an example of
# that command; each example's options are taken (suites and topo plan it: --dry-run on a
# four-node fixture). For the commands that read their own arguments (report, compare,
# export), every option any command's help lists is taken when their help lists it, and
# refused as unknown in one line when not (tests/cli/options.sh does the suites and topo).
# A command that takes --kernel says what it runs without it.
# `hopbench help nosuch` and `help bw lat` are one line and exit 2; --help wins over a bad
# option.
hb=$1 src=$2
. "$(dirname "$0")/cli-lib.sh"
TOPO=$src/tests/topo/fixtures/4n-quartet.xml
cd "$work" || exit 1
mapfile -t cmds < <(help_commands "$hb")
[ "${#cmds[@]}" -ge 15 ] || { echo "FAIL: only ${#cmds[@]} commands in hopbench help"; exit 1; }
declare -A listed
for c in "${cmds[@]}"; do
    text=$("$hb" help "$c")
    rc=$?
    [ "$rc" = 0 ] || { echo "FAIL: help $c: exit $rc"; fail=1; }
    if [ "$c" != default ]; then
        for asks in --help -h; do
            [ "$("$hb" "$c" "$asks")" = "$text" ] || { echo "FAIL: $c $asks differs from help $c"; fail=1; }
        done
    fi
    word=" $c"
    [ "$c" = default ] && word=""
    [[ $(head -n 1 <<<"$text") == "usage: hopbench$word "* ]] || { echo "FAIL: help $c: usage line: $(head -n 1 <<<"$text")"; fail=1; }
    listed[$c]=$(help_options <<<"$text")
    # --kernel says what the command runs without it.
    if grep -q '^--kernel ' <<<"${listed[$c]}"; then
        kernel=$(awk '/^  --kernel / { on = 1 } on && /^  [^ ]/ && !/^  --kernel / { exit } on' <<<"$text" | tr -s ' \n' ' ')
        [[ $kernel == *"(default: "* ]] || { echo "FAIL: help $c: --kernel names no default: $kernel"; fail=1; }
    fi
    [ -n "${listed[$c]}" ] || { echo "FAIL: help $c lists no option"; fail=1; }
    # Its examples: lines of "examples:" that run this command; each one's options taken.
    mapfile -t examples < <(awk '/^examples:/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { sub(/^  /, ""); sub(/  .*/, ""); print }' <<<"$text")
    [ "${#examples[@]}" -ge 1 ] || { echo "FAIL: help $c has no example"; fail=1; }
    for ex in "${examples[@]}"; do
        read -ra w <<<"${ex#*hopbench}"
        [[ $ex == hopbench$word || $ex == hopbench"$word "* || $ex == *" hopbench$word "* ]] ||
            { echo "FAIL: help $c: the example '$ex' is not of $c"; fail=1; continue; }
        w=("${w[@]//*\/hopbench\/scenarios\//$src/jobs/scenarios/}")
        case $c in
        report | compare | export | history) out=$("$hb" "${w[@]}" 2>&1) ;;
        topo) out=$("$hb" "${w[@]}" --topology "$TOPO" 2>&1 >/dev/null) || { echo "FAIL: example '$ex': exit $?: $out"; fail=1; } ;;
        *) out=$("$hb" "${w[@]}" --dry-run --topology "$TOPO" 2>&1 >/dev/null) || { echo "FAIL: example '$ex': exit $?: $out"; fail=1; } ;;
        esac
        case $out in *"unknown option"* | *"takes no"*) echo "FAIL: example '$ex': $out"; fail=1 ;; esac
    done
done
# report, compare, export and history: every option any help lists, taken or refused as their help says.
mapfile -t opts < <(printf '%s\n' "${listed[@]}" | sort -u)
pairs=0
for c in report compare export history; do
    for line in "${opts[@]}"; do
        read -r opt kind <<<"$line"
        case $opt in --help | --version) continue ;; esac
        args=("$opt")
        [ "$kind" = arg ] && args+=(x.v)
        out=$("$hb" "$c" "${args[@]}" 2>&1)
        rc=$?
        help_judge "$c" "${listed[$c]}" "$line" "$rc" "$out" "hopbench: $c: unknown option '$opt'; usage: hopbench $c *"
        pairs=$((pairs + 1))
    done
done
[ "$pairs" -ge 120 ] || { echo "FAIL: only $pairs command x option pairs"; fail=1; }
echo "$pairs pairs of report, compare, export and history with every option"
# An unknown command, a second one: one line, exit 2, naming it and what is valid.
out=$("$hb" help nosuch 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == "hopbench: no command 'nosuch': valid commands are default"*", bw, "* ]] ||
    { echo "FAIL: help nosuch: exit $rc: $out"; fail=1; }
out=$("$hb" help bw lat 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"'lat'"* ]] || { echo "FAIL: help bw lat: exit $rc: $out"; fail=1; }
out=$("$hb" nosuch --help 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"'nosuch'"* ]] || { echo "FAIL: nosuch --help: exit $rc: $out"; fail=1; }
# --help wins over a bad option anywhere: the command's help, exit 0.
[ "$("$hb" --kernel nosuch bw --help 2>&1)" = "$("$hb" help bw)" ] || { echo "FAIL: --kernel nosuch bw --help is not bw's help"; fail=1; }
# The overview: the commands and the way to each one's help; no option of a command's own.
over=$("$hb" --help)
[ "$over" = "$("$hb" help)" ] || { echo "FAIL: --help differs from help"; fail=1; }
[[ $over == *"hopbench help COMMAND"* ]] || { echo "FAIL: the overview does not say hopbench help COMMAND"; fail=1; }
help_options <<<"$over" | grep -q '^--kernel ' && { echo "FAIL: the overview lists a command's own option (--kernel)"; fail=1; }
cli_finish
