#!/usr/bin/env bash
# hopbench-mpirun.sh [HOPBENCH ARGS...]: run hopbench under mpirun with one rank per NUMA
# node that has CPUs, each rank bound to its node, its OpenMP threads one per core of it.
# The mpirun line is the one `hopbench topo` computes for this machine (it knows when Open
# MPI's --map-by numa would put ranks on memory-only nodes). Prints the command, then runs it;
# the exit status is hopbench's. The binary: $HOPBENCH, else the one installed with this
# script, else hopbench in PATH, else build/ of the clone.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/launch.sh
. "$here/lib/launch.sh"

hb=$(hb_find_hopbench "$here")
record=$(hb_topo_record "$hb")
line=$(hb_topo_field "$record" mpirun)
[ -n "$line" ] || { echo "hopbench: $hb topo gave no mpirun line" >&2; exit 3; }
hb_omp_env "$(hb_topo_cores "$record")"

# The line is plain words; each "hopbench ..." becomes the binary and our arguments (several
# times when every rank has its own app context).
read -ra words <<<"$line"
cmd=()
for ((i = 0; i < ${#words[@]}; i++)); do
    if [ "${words[i]}" = hopbench ] && [ "${words[i + 1]:-}" = "..." ]; then
        cmd+=("$hb" "$@")
        i=$((i + 1))
    elif [ "${words[i]}" = mpirun ] && [ "$(id -u)" = 0 ]; then
        # Open MPI refuses to start as root without being told (containers, CI).
        cmd+=(mpirun --allow-run-as-root)
    else
        cmd+=("${words[i]}")
    fi
done

printf 'hopbench-mpirun: OMP_PLACES=%s OMP_PROC_BIND=%s OMP_NUM_THREADS=%s' \
    "$OMP_PLACES" "$OMP_PROC_BIND" "$OMP_NUM_THREADS" >&2
printf ' %q' "${cmd[@]}" >&2
printf '\n' >&2
exec "${cmd[@]}"
