#!/usr/bin/env bash
# hopbench-mpirun.sh [--host H1,H2,... | --hostfile FILE] [HOPBENCH ARGS...]: run hopbench
# under mpirun with one rank per NUMA node that has CPUs, each rank bound to its node, its
# OpenMP threads one per core of it. The mpirun line is the one `hopbench topo` computes for
# this machine (it knows when Open MPI's --map-by numa would put ranks on memory-only nodes).
# With --host/--hostfile it runs on those hosts instead (a fleet: every host measures at the
# same time, rank 0 writes the per-host records and the fleet record): it first asks every
# host for its `hopbench topo` (one mpirun, at most HOPBENCH_PROBE_TIMEOUT s, default 60), so
# a host that cannot be reached fails the run before anything is created, and gives each
# host as many ranks as it has CPU nodes. MPIRUN_ARGS (word-split) goes to every mpirun, e.g.
# the transport: MPIRUN_ARGS="--mca btl tcp,self --mca btl_tcp_if_include 10.0.0.0/8".
# Prints the command, then runs it; the exit status is hopbench's. The binary: $HOPBENCH, else
# the one installed with this script, else hopbench in PATH, else build/ of the clone (on
# every host: the same path).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/launch.sh
. "$here/lib/launch.sh"
# shellcheck source=lib/mpi.sh
. "$here/lib/mpi.sh"

hosts=()
case ${1:-} in
--host)
    [ -n "${2:-}" ] || { echo "hopbench: --host '${2:-}' names no host: give a list, e.g. --host h1,h2" >&2; exit 2; }
    IFS=, read -ra hosts <<<"$2"
    shift 2
    ;;
--hostfile)
    [ -r "${2:-}" ] || { echo "hopbench: --hostfile '${2:-}' is not a readable file" >&2; exit 2; }
    mapfile -t hosts < <(sed 's/#.*//' "$2" | awk 'NF { print $1 }')
    [ ${#hosts[@]} -gt 0 ] || { echo "hopbench: --hostfile '$2' names no host" >&2; exit 2; }
    shift 2
    ;;
esac
hb=$(hb_find_hopbench "$here")
read -r -d '' -a mpi_extra <<<"${MPIRUN_ARGS:-}" || true
mpirun=(mpirun)
# Open MPI refuses to start as root without being told (containers, CI).
[ "$(id -u)" != 0 ] || mpirun+=(--allow-run-as-root)
mpirun+=("${mpi_extra[@]}")

# print_cmd CMD...: the command the way it runs, with its OpenMP settings.
print_cmd() {
    printf 'hopbench-mpirun: %s' "$(hb_omp_words)" >&2
    hb_print_words "$@" >&2
}

if [ ${#hosts[@]} -gt 0 ]; then
    # A host whose link is cut looks alive to TCP for hours: mpirun's daemons' keepalive is
    # shortened so it declares the host lost about 13 s after the cut.
    hb_mpi_detect
    hb_mpi_keepalive_env
    hb_fleet_plan "$hb" "${mpirun[@]}" -- "${hosts[@]}"
    hb_omp_env
    forward=(-x OMP_PLACES -x OMP_PROC_BIND)
    [ -z "${OMP_NUM_THREADS+set}" ] || forward+=(-x OMP_NUM_THREADS)
    cmd=("${mpirun[@]}" --host "$HB_FLEET_SLOTS" -np "$HB_FLEET_RANKS" "${HB_FLEET_MAP[@]}"
        "${forward[@]}" "$hb" "$@")
    print_cmd "${cmd[@]}"
    # mpirun's account of a lost host is a box of text; hb_fleet_lost sums it up in a line.
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    set +e
    { "${cmd[@]}" 2>&1 >&3 | tee "$log" >&2; } 3>&1
    rc=${PIPESTATUS[0]}
    set -e
    [ "$rc" = 0 ] || hb_fleet_lost "$log" "$rc" "${hosts[@]}"
    exit "$rc"
fi

record=$(hb_topo_record "$hb")
line=$(hb_topo_field "$record" mpirun)
[ -n "$line" ] || { echo "hopbench: $hb topo gave no mpirun line" >&2; exit 3; }
hb_omp_env

# The line is plain words; each "hopbench ..." becomes the binary and our arguments (several
# times when every rank has its own app context).
read -ra words <<<"$line"
cmd=()
for ((i = 0; i < ${#words[@]}; i++)); do
    if [ "${words[i]}" = hopbench ] && [ "${words[i + 1]:-}" = "..." ]; then
        cmd+=("$hb" "$@")
        i=$((i + 1))
    elif [ "${words[i]}" = mpirun ]; then
        cmd+=("${mpirun[@]}")
    else
        cmd+=("${words[i]}")
    fi
done
print_cmd "${cmd[@]}"
exec "${cmd[@]}"
