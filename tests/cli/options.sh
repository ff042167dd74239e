#!/usr/bin/env bash
# options.sh HOPBENCH SCENARIO - CTest test (label cli): every command that takes hopbench's
# options, with every option of the table, as --help lists both. An option the command's help
# line (or the run options, for suites, but those it names after "except") names is taken:
# never "takes no". Any other exits 2 with one line naming the command and the option (and,
# where the name suggests a use, why there is none), before anything runs: every pair, in every
# run.
hb=$1 scn=$2
. "$(dirname "$0")/cli-lib.sh"
TOPO=$(cd "$(dirname "$0")/../topo/fixtures" && pwd)/4n-quartet.xml
cd "$work" || exit 1
help=$("$hb" --help)
# value OPTION: a value the option's parser accepts.
value() {
    case $1 in
    --kernel) echo read ;; --cpu-node | --mem-node | --nodes | --load-nodes) echo 0 ;;
    --policy) echo bind ;; --threads | --reps | --repeat | --seed) echo 1 ;;
    --size | --max-size) echo 64M ;; --pages) echo 4k ;; --min-time) echo 0.01 ;; --max-time) echo 5 ;;
    --noise | --threshold | --fleet-threshold | --tolerance | --bg-rate) echo 5 ;;
    --format) echo jsonl ;; --topology) echo "$TOPO" ;; --simd) echo auto ;;
    --export-hwloc) echo x.xml ;; --tier) echo DRAM ;; --level | --bg) echo low ;;
    --subscription) echo full ;; --mix) echo read ;; --mode) echo rate ;; --stride) echo 256 ;; --chains) echo 2 ;;
    --weights) echo 3 ;;
    --tlb-group) echo all ;; --home) echo writer ;;
    esac
}
# The options with a value (a metavariable after the name) and the flags, from --help.
mapfile -t opts < <(sed -n '/^options:/,/^kernels:/s/^  \(-o, \)\{0,1\}\(--[a-z-]*\)\( [A-Z].*\)\{0,1\}$/\2 \3/p;
                             /^options:/,/^kernels:/s/^  \(-o, \)\{0,1\}\(--[a-z-]*\) \{2,\}.*/\2/p' <<<"$help" |
    awk '{print $1, ($2 ~ /^[A-Z]/ ? "arg" : "flag")}' | sort -u)
[ "${#opts[@]}" -ge 35 ] || { echo "FAIL: only ${#opts[@]} options read from --help"; exit 1; }
run_opts=$(awk '/^  run options/ { on = 1; print; next } on && /^  [^ ]/ { exit } on' <<<"$help" |
    tr -s ' \n' ' ')
[[ $run_opts == *" --min-time "* ]] || { echo "FAIL: no run options in --help: $run_opts"; exit 1; }
# The commands and, per command, the text of its help entry.
mapfile -t cmds < <(sed -n '/^commands:/,/^options:/s/^  \([a-z0-9()]\{2,\}\)\( .*\)\{0,1\}$/\1/p' <<<"$help")
pairs=0 total=0
for c in "${cmds[@]}"; do
    [ "$c" = "run" ] && cmd=(run "$scn") || cmd=("$c")
    [ "$c" = "(none)" ] && cmd=()
    entry=$(awk -v c="$c" '/^options:/ { exit } $1 == c { on = 1; print; next }
        on && /^  [^ ]/ { exit } on { print }' <<<"$help" | tr -s ' \n' ' ')
    case $entry in *"Takes "*) ;; *) continue ;; esac # reads its own arguments
    case $entry in *"the run options"*) suite=1 ;; *) suite=0 ;; esac
    # "... and the run options except --min-time --reps": those are refused like any other
    own=${entry%%and the run options*} excepts=" "
    case $entry in *"the run options except "*) excepts=" ${entry#*the run options except } " ;; esac
    for line in "${opts[@]}"; do
        read -r opt kind <<<"$line"
        case $opt in --help | --version | --output) continue ;; esac
        total=$((total + 1))
        args=("$opt")
        [ "$kind" = arg ] && args+=("$(value "$opt")")
        [ "$kind" = arg ] && [ -z "${args[1]}" ] && { echo "FAIL: no sample value for $opt"; fail=1; continue; }
        dry=(--dry-run)
        [ "$c" = topo ] && dry=()
        [ "$opt" = --dry-run ] && dry=()
        out=$("$hb" "${cmd[@]}" "${args[@]}" "${dry[@]}" 2>&1 >/dev/null)
        rc=$?
        takes=0
        case " $own " in *" $opt "* | *" $opt,"*) takes=1 ;; esac
        [ "$suite" = 1 ] && case " $run_opts " in *" $opt "*) [[ $excepts == *" $opt "* ]] || takes=1 ;; esac
        name=${c/(none)/the default suite}
        if [ "$takes" = 1 ]; then
            case $out in *"takes no"*) echo "FAIL: $name $opt: refused though listed: $out"; fail=1 ;; esac
        else
            [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == "hopbench: $name takes no $opt"[\;:]* ]] ||
                { echo "FAIL: $name $opt: exit $rc: $out"; fail=1; }
        fi
        pairs=$((pairs + 1))
    done
done
[ "$total" -ge 400 ] || { echo "FAIL: only $total pairs read from --help"; fail=1; }
echo "$pairs of $total command x option pairs"
# Every option given twice: refused in one line naming it (and both values), never
# last-wins; the parser says so before any command's own checks.
twice=0
for line in "${opts[@]}"; do
    read -r opt kind <<<"$line"
    case $opt in --help | --version) continue ;; esac
    args=("$opt")
    [ "$kind" = arg ] && args+=("$(value "$opt")")
    [ "$opt" = --output ] && args=("$opt" a.jsonl)
    out=$("$hb" bw "${args[@]}" "${args[@]}" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == "hopbench: $opt given twice"* ]] ||
        { echo "FAIL: $opt given twice: exit $rc: $out"; fail=1; }
    [ ! -e a.jsonl ] || { echo "FAIL: $opt given twice: a.jsonl written"; fail=1; }
    twice=$((twice + 1))
done
echo "$twice options given twice"
# Every option whose value is a list of things to measure, with an item twice: refused.
dups=0
for case in "bw --kernel read,copy,read" "lat --stride 64,128,64" "sweep --stride 64,64" \
    "lat --chains 1,2,1" "loaded --load-nodes 0,0" "hops --level low,high,low" \
    "hops --subscription full,full" "comm --size 8,1K,8" "bw --policy weighted --mem-node 0,0"; do
    read -ra w <<<"$case"
    out=$("$hb" "${w[@]}" --dry-run 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"twice"* ]] ||
        { echo "FAIL: $case: exit $rc: $out"; fail=1; }
    dups=$((dups + 1))
done
echo "$dups list options with an item twice"
cli_finish
