#!/usr/bin/env bash
# options.sh HOPBENCH SCENARIO - CTest test (label options): every command that takes hopbench's
# options (the suites and topo), with every option any command's help lists. An option the
# command's own help (`hopbench help CMD`: its options and run options) lists is taken: never
# "takes no". Any other exits 2 with one line naming the command and the option (and, where
# the name suggests a use, why there is none), before anything runs: every pair, in every run.
hb=$1 scn=$2
. "$(dirname "$0")/cli-lib.sh"
TOPO=$(cd "$(dirname "$0")/../topo/fixtures" && pwd)/4n-quartet.xml
cd "$work" || exit 1
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
    --tlb-group) echo all ;; --home) echo writer ;; --op) echo bcast ;; --root) echo 0 ;;
    --baseline) echo base.jsonl ;; --history) echo history.sqlite ;;
    esac
}
# The commands, each one's help, and every option some command's help lists, with a value
# (a metavariable after the name) or a flag.
mapfile -t cmds < <(help_commands "$hb")
[ "${#cmds[@]}" -ge 15 ] || { echo "FAIL: only ${#cmds[@]} commands in hopbench help"; exit 1; }
declare -A listed
for c in "${cmds[@]}"; do
    listed[$c]=$("$hb" help "$c" | help_options)
done
# The options of the run's parser: those the suites and topo list (report, compare, export and
# history read their own arguments; tests/cli/help.sh takes them).
mapfile -t opts < <(for c in "${cmds[@]}"; do
    case $c in report | compare | export | history) ;; *) printf '%s\n' "${listed[$c]}" ;; esac
done | sort -u)
[ "${#opts[@]}" -ge 35 ] || { echo "FAIL: only ${#opts[@]} options read from the commands' help"; exit 1; }
pairs=0 total=0
for c in "${cmds[@]}"; do
    [ "$c" = "run" ] && cmd=(run "$scn") || cmd=("$c")
    [ "$c" = "default" ] && cmd=()
    case $c in report | compare | export | history) continue ;; esac
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
        name=${c/default/the default suite}
        help_judge "$name" "${listed[$c]}" "$line" "$rc" "$out" "hopbench: $name takes no $opt[;:]*"
        pairs=$((pairs + 1))
    done
done
[ "$total" -ge 400 ] || { echo "FAIL: only $total pairs read from the commands' help"; fail=1; }
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
    "hops --subscription full,full" "comm --size 8,1K,8" "bw --policy weighted --mem-node 0,0" \
    "coll --op bcast,reduce,bcast" "coll --size 8,64,8"; do
    read -ra w <<<"$case"
    out=$("$hb" "${w[@]}" --dry-run 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"twice"* ]] ||
        { echo "FAIL: $case: exit $rc: $out"; fail=1; }
    dups=$((dups + 1))
done
echo "$dups list options with an item twice"
cli_finish
