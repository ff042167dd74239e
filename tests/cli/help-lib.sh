# shellcheck shell=bash
# help-lib.sh - what hopbench's help lists, read the one way for every test that reads it
# (tests/cli, tests/install).
# help_commands HOPBENCH: the commands `hopbench help` lists, one a line ("default" for the
# default suite, which it lists as "(none)").
help_commands() {
    "$1" help | sed -n '/^commands:/,/^options:/s/^  \([a-z0-9()]\{2,\}\)\( .*\)\{0,1\}$/\1/p' |
        sed 's/^(none)$/default/'
}

# help_options: the options a command's help (on stdin) lists under "options:" and "run
# options ...:", one a line as "--name arg" or "--name flag" (-o as --output).
help_options() {
    awk '/^[a-z][a-z ()\x27]*:$/ { on = ($0 == "options:" || $0 ~ /^run options/); next }
        on && /^  (-[a-z], )?--[a-z]/ {
            sub(/^  (-[a-z], )?/, "")
            kind = ($0 ~ /^--[a-z-]+ [^ ]/) ? "arg" : "flag" # one space: its value
            print $1, kind
        }'
}

# help_judge NAME LISTED LINE RC OUT REFUSED: NAME given the option of LINE ("--name kind")
# exited RC saying OUT. When its help's options (LISTED) have LINE, it was taken: OUT refuses
# nothing; else it was refused: exit 2 in one line that matches the glob REFUSED. Says FAIL
# and sets fail=1 when not.
help_judge() {
    local name=$1 listed=$2 line=$3 rc=$4 out=$5 refused=$6 opt=${3%% *}
    if grep -qxF -e "$line" <<<"$listed"; then
        case $out in *"takes no"* | *"unknown option"* | *"needs a value"* | *"no reader"*)
            echo "FAIL: $name $opt: refused though listed: $out"
            fail=1
            ;;
        esac
    else
        # shellcheck disable=SC2053  # REFUSED is a glob
        [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == $refused ]] ||
            { echo "FAIL: $name $opt: exit $rc: $out"; fail=1; }
    fi
}
