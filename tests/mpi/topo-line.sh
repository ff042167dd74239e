#!/usr/bin/env bash
# The mpirun line that `hopbench topo` prints runs matrix as printed, and the run record names
# this mpirun's Open MPI (versions.mpi_library) and the launcher conventions hopbench chose
# for it (versions.mpi_launcher, topo's mpirun_conventions): Open MPI 4.1's or 5's.
. "$(dirname "$0")/mpi-lib.sh"
[ "$(hb_mpi_flavor)" != other ] || { echo "SKIP: mpirun is not Open MPI"; exit 77; }
rec=$("$HB" topo --format jsonl)
line=$(jq -r .mpirun <<<"$rec")
[[ $line == *" hopbench ..." && $line != *" : "* ]] || { echo "SKIP: one app context per node: $line"; exit 77; }
read -ra words <<<"${line% hopbench ...}"
echo "running: ${words[*]} hopbench matrix ..."
timeout 120 "${words[@]}" "$HB" matrix "${QUICK[@]}" --threads 1 --kernel read --format jsonl -o m.jsonl
run() { jq -r -s "[.[] | select(.type == \"run\")][0] | $1" m.jsonl; }
version=$(mpirun --version | sed -n '1s/.*(Open MPI) //p')
want="Open MPI 4.1 (ORTE)"
[ "$(hb_mpi_flavor)" = ompi4 ] || want="Open MPI 5 (PRRTE)"
expect_eq "library" "$(run .versions.mpi_library)" "Open MPI v$version"
expect_eq "launcher conventions" "$(run .versions.mpi_launcher)" "$want"
expect_eq "topo's conventions" "$(jq -r .mpirun_conventions <<<"$rec")" "$want"
expect_eq "launcher" "$(run .launcher)" mpirun
expect_eq "matrices" "$(jq -s '[.[] | select(.type == "matrix")] | length' m.jsonl)" 2
finish
