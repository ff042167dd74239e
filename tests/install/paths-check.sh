# shellcheck shell=bash
# paths-check.sh - sourced by the install tests: every path a user reads exists. hb_paths_check
# HOPBENCH DESTDIR PREFIX MANPAGE runs `expect` (tests/slurm/expect.sh) on the texts of an
# installation (its overview, every command's help, the man page, run's words on a missing FILE
# and, on a machine of one node, the note a run prints): each path-looking token (a word with a
# '/' that starts with '/', or names a file by its suffix, or a folder by its trailing '/'),
# once '*' and '<...>' are taken as wildcards, exists under DESTDIR when it lies under PREFIX;
# outside PREFIX only the system's own (/sys, /proc, /dev, /tmp) may be named; and no path is
# relative to the source tree (jobs/, docs/, share/). hb_paths_follow_dirs GENDOC: the man page
# made for other directories names only those.

# hb_path_tokens: the path-looking tokens of stdin, one a line.
hb_path_tokens() {
    grep -oE '(^|[ ("`=])(/|[A-Za-z0-9_.<>*-]+/)[A-Za-z0-9_./<>*:-]*' |
        sed -E 's/^[ ("`=]//; s/[.:,]+$//' |
        grep -E '^/|\.(sh|sbatch|scn|md|jsonl|html|xml|csv|txt)$|/$' |
        grep -vE '^/$|^[0-9]+/[0-9]+$' | sort -u
}

# hb_path_exists PATH: PATH with '*' and '<...>' as wildcards names something.
hb_path_exists() {
    local pat m
    pat=$(sed -E 's/<[^>]*>/*/g' <<<"$1")
    for m in $pat; do [ -e "$m" ] && return 0; done
    return 1
}

hb_paths_check() {
    local hb=$1 dest=$2 prefix=$3 page=$4 texts c tok bad="" n=0
    texts=$("$hb" help
        for c in $(help_commands "$hb"); do
            "$hb" help "$c"
        done
        MANWIDTH=400 man -l "$page" 2>/dev/null | col -bx
        "$hb" run 2>&1
        "$hb" run nosuch.scn 2>&1
        "$hb" lat --size 64K --min-time 0.005 --reps 1 --repeat 1 --quiet 2>&1 | grep '^note: ') || true
    while read -r tok; do
        [ -n "$tok" ] || continue
        n=$((n + 1))
        case $tok in
        "$prefix"/*) hb_path_exists "$dest$tok" || bad+=" $tok(missing)" ;;
        /sys/* | /proc/* | /dev/* | /tmp | /tmp/*) ;;
        /*) bad+=" $tok(outside $prefix)" ;;
        jobs/* | docs/* | share/*) bad+=" $tok(relative)" ;;
        esac
    done < <(hb_path_tokens <<<"$texts")
    expect "the $n paths of the help, the man page and the notes exist in $prefix${bad:+; not:$bad}" \
        hb_paths_none_bad "$bad" "$n"
}

# hb_paths_follow_dirs GENDOC: the man page made for another installation's directories names
# only those (and the system's): no table holds a directory of its own.
hb_paths_follow_dirs() {
    local tok bad="" n=0
    while read -r tok; do
        n=$((n + 1))
        case $tok in
        /elsewhere/share/* | /sys/* | /proc/* | /dev/* | /tmp | /tmp/*) ;;
        /*) bad+=" $tok" ;;
        esac
    done < <("$1" man /elsewhere/share /elsewhere/share/doc/hopbench | MANWIDTH=400 man -l - 2>/dev/null |
        col -bx | hb_path_tokens)
    expect "the man page for DATADIR /elsewhere/share names its $n paths there${bad:+; not:$bad}" \
        hb_paths_none_bad "$bad" "$n"
}

# hb_paths_none_bad BAD N: nothing is bad among enough paths to mean the texts were read.
hb_paths_none_bad() {
    [ -z "$1" ] && [ "$2" -ge 8 ]
}
