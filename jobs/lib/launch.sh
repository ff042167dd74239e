# shellcheck shell=bash
# Helpers shared by the launchers (hopbench-mpirun.sh, run-local.sh, the Slurm scripts):
# which hopbench to run, and what its `topo` record says about this machine. The launch
# lines come from hopbench itself, so the scripts never re-derive the memory-only-node rules.

# hb_find_hopbench JOBS_DIR: print the binary to run: $HOPBENCH; else, when the launchers
# are installed (JOBS_DIR/lib/bindir names the bin directory relative to JOBS_DIR), the
# hopbench installed with them; else hopbench in PATH; else the clone's build/hopbench.
# Fails with one hopbench-style line when there is none.
hb_find_hopbench() {
    local jobs=$1 top
    top=$(dirname "$jobs")
    if [ -n "${HOPBENCH:-}" ]; then
        [ -x "$HOPBENCH" ] && { echo "$HOPBENCH"; return 0; }
        echo "hopbench: HOPBENCH=$HOPBENCH is not an executable file; point it at a built hopbench" >&2
        return 2
    fi
    if [ -f "$jobs/lib/bindir" ]; then
        local installed bindir
        bindir=$(cat "$jobs/lib/bindir")
        installed=$(cd "$jobs/$bindir" 2>/dev/null && pwd)/hopbench
        [ -x "$installed" ] && { echo "$installed"; return 0; }
        echo "hopbench: the launchers in $jobs were installed with $installed, which is missing; reinstall hopbench or set HOPBENCH" >&2
        return 2
    fi
    if command -v hopbench >/dev/null 2>&1; then
        command -v hopbench
        return 0
    fi
    if [ -x "$top/build/hopbench" ]; then
        echo "$top/build/hopbench"
        return 0
    fi
    echo "hopbench: no hopbench in PATH or $top/build; build it (jobs/run-local.sh) or set HOPBENCH" >&2
    return 2
}

# hb_print_words WORD...: one line, as a shell reads it back; words quoted only when needed.
hb_print_words() {
    local w
    for w in "$@"; do
        if [[ $w =~ ^[][A-Za-z0-9_./:,=+@%-]+$ ]]; then printf ' %s' "$w"; else printf ' %q' "$w"; fi
    done
    printf '\n'
}

# hb_topo_record HOPBENCH: the one-line `topo` JSON record of this machine.
# hb_launch_check LAUNCHER HOPBENCH ARGS...: the study's own check, before anything is made.
# The launcher owns the output (it writes results/.../results.jsonl itself): -o/--output,
# --format and --dry-run in ARGS are refused in one line (exit 2), never passed on, so no
# check writes a user's file. The check is hopbench's dry run, or for topo (which takes no
# --dry-run) topo itself with its printout dropped.
hb_launch_check() {
    local launcher=$1 hb=$2 a topo=0 quiet=(--quiet)
    shift 2
    for a in "$@"; do
        case $a in
        --quiet) quiet=() ;; # given already: a second would be refused
        -o | -o* | --output | --output=*)
            echo "hopbench: $launcher writes the results itself; leave out '$a' (the results directory is said when the run ends)" >&2
            exit 2
            ;;
        --format | --format=* | --dry-run)
            echo "hopbench: $launcher writes JSON Lines, a table and a report itself; leave out '$a' (for a plan: hopbench ... --dry-run)" >&2
            exit 2
            ;;
        topo) topo=1 ;;
        esac
    done
    if [ "$topo" = 1 ]; then
        "$hb" "$@" >/dev/null
    else
        "$hb" "$@" --dry-run "${quiet[@]}" >/dev/null
    fi
}

hb_topo_record() {
    "$1" topo --format jsonl
}

# hb_topo_field RECORD KEY: a string field of the record (launch lines hold no quotes).
hb_topo_field() {
    sed -n "s/.*\"$2\":\"\\([^\"]*\\)\".*/\\1/p" <<<"$1"
}

# hb_topo_cpu_nodes RECORD: how many NUMA nodes have CPUs (ranks per host).
hb_topo_cpu_nodes() {
    grep -o '"has_cpus":true' <<<"$1" | wc -l
}

# hb_omp_env: the OpenMP settings every rank runs with (threads bound inside the node). The
# thread counts are hopbench's (--threads, else every core of each rank's node on its own
# host); an OMP_NUM_THREADS the user set is kept, and means --threads.
hb_omp_env() {
    export OMP_PLACES=cores OMP_PROC_BIND=close
}

# hb_omp_words: those settings as the words printed before a command.
hb_omp_words() {
    printf 'OMP_PLACES=%s OMP_PROC_BIND=%s' "$OMP_PLACES" "$OMP_PROC_BIND"
    [ -z "${OMP_NUM_THREADS+set}" ] || printf ' OMP_NUM_THREADS=%s' "$OMP_NUM_THREADS"
}

# hb_results_settle TMP FINAL: after a run that did not complete, whatever failed (hopbench,
# a full disk, the table, a signal), keep what it measured as FINAL.incomplete: records are
# flushed one by one into results.jsonl, results.jsonl.partial (a failed or interrupted
# run) or results.jsonl.partial.XXXXXX (a killed one). A run that wrote no measurement, such
# as one stopped by bad input or a wrong layout, leaves nothing behind.
hb_results_settle() {
    local tmp=$1 final=$2
    [ -d "$tmp" ] || return 0
    if grep -qs '"type":"measurement"' "$tmp"/results.jsonl*; then
        mv -T -- "$tmp" "$final.incomplete" &&
            echo "hopbench: the run did not complete; its records are in $final.incomplete" >&2
    else
        rm -rf -- "$tmp"
    fi
}

# hb_history_add HOPBENCH RESULTS: a finished run's records added to the run history when
# HOPBENCH_HISTORY names one (an SQLite file or a postgresql:// URL; docs/history.md). Its
# status: 0 when unset or added; else hopbench's (its one line said why), the results kept.
hb_history_add() {
    [ -n "${HOPBENCH_HISTORY:-}" ] || return 0
    local rc=0
    "$1" history add "$2" || rc=$?
    [ "$rc" = 0 ] || echo "hopbench: $2 was not added to the history $HOPBENCH_HISTORY (exit $rc); the results stay where they are" >&2
    return "$rc"
}

# hb_hosts_named LOG HOST...: the HOSTs that the launcher's output (LOG) says it could not
# reach or lost (ssh's "connect to host H", "Connection to H closed", Open MPI's "lost
# communication with a remote daemon ... on node H", 4.1's and 5's alike), then the first such
# line. Not any mention: survivors' own messages start with [their name]. Read as text:
# Open MPI 5's messages carry NUL bytes.
hb_hosts_named() {
    local log=$1 h said first=""
    shift
    for h in "$@"; do
        said="([Oo]n node|[Cc]onnection to|to host) ${h//./\\.}([^[:alnum:]_.-]|\$)"
        if grep -aEq -- "$said" "$log"; then
            printf '%s ' "$h"
            [ -n "$first" ] || first=$(grep -aE -m 1 -- "$said" "$log" | tr -d '\0')
        fi
    done
    printf '\n%s\n' "$first"
}

# hb_fleet_lost LOG STATUS HOST...: after a fleet run failed with STATUS, one line naming
# the hosts LOG says were lost. Nothing when hopbench itself stopped the run: its own
# message already names rank, host and cause.
hb_fleet_lost() {
    local log=$1 rc=$2 named
    shift 2
    # hopbench said why already; its "stopped by SIGTERM" line says where, not why.
    grep -a '^hopbench: ' "$log" | grep -qv '^hopbench: stopped by SIG' && return 0
    named=$(hb_hosts_named "$log" "$@")
    [ -n "${named%%$'\n'*}" ] || return 0
    echo "hopbench: lost host ${named%% $'\n'*} mid-run (mpirun exit $rc: ${named#*$'\n'}); what was measured before stays in the output's .partial file" >&2
}

# hb_fleet_plan HOPBENCH MPIRUN... -- HOST...: the layout of a run across HOSTs. One mpirun
# (one process per host, at most HOPBENCH_PROBE_TIMEOUT s) asks every host for its `topo`
# record, so an unreachable host fails here, before anything is created: one line naming the
# hosts that did not answer, exit 3. Sets HB_FLEET_SLOTS (h1:R1,h2:R2: each host gets one
# rank per CPU node it has), HB_FLEET_RANKS (their sum) and HB_FLEET_MAP (the mapping
# options of the hosts' own mpirun lines, which must agree).
hb_fleet_plan() {
    local hb=$1 mp=() out err rc=0 i rec line missing=() slots=() map="" first=""
    shift
    while [ "$1" != -- ]; do mp+=("$1") && shift; done
    shift
    local hosts=("$@") probe
    probe=$(printf '%s:1,' "${hosts[@]}")
    err=$(mktemp)
    out=$(timeout "${HOPBENCH_PROBE_TIMEOUT:-60}" "${mp[@]}" --host "${probe%,}" -np $# \
        --map-by node --bind-to none --tag-output "$hb" topo --format jsonl 2>"$err") || rc=$?
    HB_FLEET_RANKS=0
    for i in "${!hosts[@]}"; do
        # --map-by node puts rank i on the i-th host.
        rec=$(sed -n "s/^\[[0-9]*,$i\]<stdout>:\(.*\)/\1/p" <<<"$out")
        if [ -z "$rec" ]; then
            missing+=("${hosts[i]}")
            continue
        fi
        line=$(hb_topo_field "$rec" mpirun)
        if [[ ! $line =~ ^mpirun\ -np\ [0-9]+\ (.*)\ hopbench\ \.\.\.$ ]]; then
            echo "hopbench: host ${hosts[i]} needs one app context per node ($line); run it on its own, not in a fleet" >&2
            rm -f "$err"
            return 3
        fi
        if [ -z "$first" ]; then
            first=${hosts[i]} map=${BASH_REMATCH[1]}
        elif [ "${BASH_REMATCH[1]}" != "$map" ]; then
            echo "hopbench: hosts $first ($map) and ${hosts[i]} (${BASH_REMATCH[1]}) need different mpirun mappings; run them as separate fleets" >&2
            rm -f "$err"
            return 3
        fi
        slots+=("${hosts[i]}:$(hb_topo_cpu_nodes "$rec")")
        HB_FLEET_RANKS=$((HB_FLEET_RANKS + $(hb_topo_cpu_nodes "$rec")))
    done
    if [ ${#missing[@]} -gt 0 ]; then
        # One failed host stops the whole probe: name the ones the launcher named, if any.
        local named why
        named=$(hb_hosts_named "$err" "${missing[@]}")
        why=${named#*$'\n'}
        [ -z "${named%%$'\n'*}" ] || read -ra missing <<<"${named%%$'\n'*}"
        [ -n "$why" ] || why=$(grep -av '^[[:space:]*-]*$' "$err" | head -n 1 | tr -d '\0')
        [ "$rc" != 124 ] || why="no answer within ${HOPBENCH_PROBE_TIMEOUT:-60} s"
        echo "hopbench: host(s) ${missing[*]} could not be reached (${why:-mpirun exited $rc}); nothing was started" >&2
        rm -f "$err"
        return 3
    fi
    rm -f "$err"
    HB_FLEET_SLOTS=$(IFS=,; echo "${slots[*]}")
    read -ra HB_FLEET_MAP <<<"$map"
}
