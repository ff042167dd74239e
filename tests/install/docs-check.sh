# shellcheck shell=bash
# docs-check.sh - sourced by the install tests: the installed man page and bash completion
# against the installed binary's help. hb_docs_check HOPBENCH MANPAGE COMPLETION runs
# `expect` (tests/slurm/expect.sh) for each: the page (gzipped or not) renders without warnings, and every
# command, option and kernel the help lists is on the page and offered by the completion.
. "$(dirname "${BASH_SOURCE[0]}")/../cli/help-lib.sh"

# The names the help lists: the overview's commands and kernels, and every option of every
# command's help (one per line, kind first); a kernel row is NAME N stream(s), the prose above
# the rows is not a kernel.
hb_help_names() {
    local c
    "$1" help | awk '
        /^commands:/ { s = "command"; next }
        /^kernels:/  { s = "kernel"; next }
        /^[a-z ]+:$/ { s = ""; next }
        s == "command" && /^  [a-z]/ { print s, $1 }
        s == "kernel"  && /^  [a-z]/ && $3 ~ /^streams?$/ { print s, $1 }'
    for c in $(help_commands "$1"); do "$1" help "$c" | help_options; done | sort -u |
        sed 's/^\(--[a-z-]*\) .*/option \1/'
    echo "option --help"
}

# hb_complete COMPLETION WORD...: what the completion offers for the words typed so far
# (the last one is the word being completed), one per line.
hb_complete() {
    local script=$1
    shift
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hopbench; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$script" "$@"
}

# hb_man_tag TEXT KIND NAME: the rendered page has NAME as a paragraph tag of its section
# (COMMANDS, OPTIONS or KERNELS), e.g. "       --kernel K[,K]" or "       -o, --output FILE";
# an option of a command that reads its own arguments is tagged under that command.
hb_man_tag() {
    local section indent=7
    case $2 in command) section=COMMANDS ;; option) section="OPTIONS|COMMANDS" indent="7,14" ;; kernel) section=KERNELS ;; esac
    # grep reads to the end (no -q): stopping early could cut awk's pipe, which pipefail then
    # turns into a miss that depends on timing.
    awk -v s="^($section)\$" '/^[A-Z]/ { on = ($0 ~ s) } on' <<<"$1" |
        grep -E -- "^ {$indent}(-[a-z], )?$3( |,|\$)" >/dev/null
}

hb_docs_check() {
    local hb=$1 page=$2 completion=$3 names text warn kind name c missing_page="" missing_comp=""
    names=$(hb_help_names "$hb")
    expect "--help lists commands, options and kernels" \
        [ "$(cut -d' ' -f1 <<<"$names" | sort -u | tr '\n' ' ')" = "command kernel option " ]
    warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null && zcat -f "$page" | groff -man -ww -z 2>&1) ||
        warn+=" (man or groff failed)"
    expect "man -l renders $page without warnings${warn:+: $warn}" [ -z "$warn" ]
    text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | col -bx)
    local commands options kernels
    commands=$(hb_complete "$completion" hopbench "")
    # Each command offers its own options: all of them, over every command.
    options=$(for c in "" $commands; do hb_complete "$completion" hopbench $c -; done | sort -u)
    kernels=$(hb_complete "$completion" hopbench --kernel "")
    while read -r kind name; do
        hb_man_tag "$text" "$kind" "$name" || missing_page+=" $name"
        case $kind in
        command) grep -qxF -e "$name" <<<"$commands" || missing_comp+=" $name" ;;
        option) grep -qxF -e "$name" <<<"$options" || missing_comp+=" $name" ;;
        kernel) grep -qxF -e "$name" <<<"$kernels" || missing_comp+=" $name" ;;
        esac
    done <<<"$names"
    expect "the page lists all $(wc -l <<<"$names") names of --help${missing_page:+; missing:$missing_page}" \
        [ -z "$missing_page" ]
    expect "the completion offers them all${missing_comp:+; missing:$missing_comp}" [ -z "$missing_comp" ]
    expect "the completion offers exactly the commands of the help, and help" \
        [ "$(sort <<<"$commands")" = "$({ sed -n 's/^command //p' <<<"$names" | grep -vx '(none)'; echo help; } | sort)" ]
    expect "after help the completion offers the commands" \
        [ "$(hb_complete "$completion" hopbench help "" | sort | tr '\n' ' ')" = "$({ echo default; grep -vx help <<<"$commands"; } | sort | tr '\n' ' ')" ]
    expect "after a comma the completion offers the next kernel" \
        grep -qx 'read,triad' <(hb_complete "$completion" hopbench --kernel read,tr)
    expect "--format completes to its values" \
        [ "$(hb_complete "$completion" hopbench --format "" | tr '\n' ' ')" = "table csv jsonl " ]
    # Each option with a fixed set of values completes to exactly what its parser takes: the
    # message refusing a wrong value lists them (both come from one table), and --help too.
    local opt words listed help usage
    # Every command's help, read whole once: awk stopping early must not cut a pipe under pipefail.
    usage=$(for c in $(help_commands "$hb"); do "$hb" help "$c"; done)
    # Each command is offered exactly the options its help lists (-o also as --output; --help
    # and --version aside).
    local want got typed wrong=""
    for c in $(help_commands "$hb"); do
        want=$("$hb" help "$c" | help_options | cut -d' ' -f1)
        [ "$c" = default ] && typed=(hopbench -) || typed=(hopbench "$c" -)
        got=$(hb_complete "$completion" "${typed[@]}" | { grep -vxE -e '--help|--version|--output|-o' || true; })
        want=$({ grep -vxE -e '--help|--version|--output|-o|' || true; } <<<"$want" | sort -u)
        [ "$(sort -u <<<"$got")" = "$want" ] || wrong+=" $c:[$(comm -3 <(sort -u <<<"$got") <(echo "$want") | tr -s '\t\n' '  ')]"
    done
    expect "each command's completion offers exactly the options its help lists${wrong:+:$wrong}" [ -z "$wrong" ]
    for opt in policy pages format level subscription mix mode simd; do
        words=$(hb_complete "$completion" hopbench "--$opt" "" | paste -sd' ')
        listed=$({ "$hb" --dry-run "--$opt" zzz 2>&1 || true; } | sed -n 's/.*\(valid values are\|supported paths:\) //p' |
            sed 's/, / /g')
        # The help starts after the option's head, or on the next line when the head is long.
        help=$(awk -v o="  --$opt " 'f { sub(/^ +/, ""); print; exit }
            index($0, o) == 1 { sub(/^  [^ ]+ [^ ]+ */, ""); if ($0 != "") { print; exit }; f = 1 }' \
            <<<"$usage" | sed 's/ | / /g')
        expect "--$opt completes to what its parser takes: '$words'" hb_same_words "$words" "$listed"
        expect "--help lists --$opt's values: '$help'" hb_words_prefix "$words" "$help"
    done
}

# hb_same_words A B: two non-empty, equal word lists (on an x86-64 CPU with AVX-512 the SIMD
# paths supported are all the paths; elsewhere they are a prefix of them).
hb_same_words() {
    [ -n "$1" ] && { [ "$1" = "$2" ] || [[ $1 == "$2 "* ]]; }
}

# hb_words_prefix WORDS TEXT: TEXT starts with WORDS (after the option's help prefix, e.g.
# "hops: ").
hb_words_prefix() {
    [ -n "$1" ] && [[ ${2#*: } == "$1"* || $2 == "$1"* ]]
}
