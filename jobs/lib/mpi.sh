# shellcheck shell=bash
# What differs between Open MPI 4.1 (mpirun is ORTE) and Open MPI 5 (mpirun is PRRTE's
# prterun), decided in this one place from `mpirun --version`, for jobs/ and the tests:
#   hb_mpi_detect, hb_mpi_flavor  ompi4, ompi5 or other (another MPI: its mpirun is given
#                            Open MPI 4.1's words, and hb_mpi_detect says so once on stderr)
#   hb_mpi_root_env          the variables that let mpirun start ranks as root (both)
#   hb_mpi_oversubscribe     the words that allow more ranks than cores
#   hb_mpi_agent_args AGENT  the words that make mpirun reach other hosts through AGENT, not ssh
#   hb_mpi_oob_args ARGS...  mpirun's own (daemon) MCA parameters NAME VALUE...
#   hb_mpi_no_grace_env      no grace between SIGTERM and SIGKILL once a rank has failed
# hopbench itself decides the same in C from MPI_Get_library_version (src/core/hb_mpirun_dialect.c).

# hb_mpi_detect: sets and exports HB_MPI_FLAVOR (ompi4, ompi5 or other) from the mpirun in
# PATH, once; for another MPI it says once, on stderr, which conventions it assumes. Call it
# in the main shell before the functions below, which read HB_MPI_FLAVOR.
hb_mpi_detect() {
    [ -z "${HB_MPI_FLAVOR:-}" ] || return 0
    local v
    v=$(mpirun --version 2>/dev/null | head -n 1)
    case $v in
    *"(Open MPI) "[1-4].*) HB_MPI_FLAVOR=ompi4 ;;
    *"(Open MPI) "[5-9].* | *"(Open MPI) "[1-9][0-9].*) HB_MPI_FLAVOR=ompi5 ;;
    *)
        HB_MPI_FLAVOR=other
        echo "hopbench: mpirun '${v:-not found}' is not Open MPI; assuming Open MPI 4.1's mpirun options" >&2
        ;;
    esac
    export HB_MPI_FLAVOR
}

hb_mpi_flavor() {
    hb_mpi_detect
    echo "$HB_MPI_FLAVOR"
}

# Open MPI refuses root unless told; tests and local runs are often root in containers. Open
# MPI 5's prterun still reads these (and takes --allow-run-as-root, as 4.1 does).
hb_mpi_root_env() {
    if [ "$(id -u)" = 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
}

hb_mpi_oversubscribe() {
    if [ "$(hb_mpi_flavor)" = ompi5 ]; then echo "--map-by :OVERSUBSCRIBE"; else echo "--oversubscribe"; fi
}

# The launcher's MCA parameters: ORTE's are --mca (OMPI_MCA_*), PRRTE's --prtemca (PRTE_MCA_*).
hb_mpi_oob_args() {
    local opt=--mca
    [ "$(hb_mpi_flavor)" != ompi5 ] || opt=--prtemca
    while [ $# -ge 2 ]; do
        printf '%s %s %s ' "$opt" "$1" "$2"
        shift 2
    done
    echo
}

# ORTE's remote launcher is plm rsh (plm_rsh_agent); PRRTE's is plm ssh (plm_ssh_agent).
hb_mpi_agent_args() {
    if [ "$(hb_mpi_flavor)" = ompi5 ]; then hb_mpi_oob_args plm_ssh_agent "$1"; else hb_mpi_oob_args plm_rsh_agent "$1"; fi
}

# hb_mpi_keepalive_env: mpirun's daemons' TCP keepalive shortened so a host whose link is cut
# is declared lost in about 13 s (default: idle 300 s, then 9 probes 20 s apart); the user's
# settings win. ORTE reads OMPI_MCA_oob_*, PRRTE PRTE_MCA_oob_*.
hb_mpi_keepalive_env() {
    local p=OMPI_MCA_oob_tcp_keepalive_ n v
    [ "$(hb_mpi_flavor)" != ompi5 ] || p=PRTE_MCA_oob_tcp_keepalive_
    for n in time=5 intvl=2 probes=4; do
        v=$p${n%%=*}
        [ -n "${!v:-}" ] || export "$v=${n#*=}"
    done
}

# hb_mpi_no_grace_env: once a rank has failed, mpirun sends the others SIGTERM and, after a
# grace of 1 s, SIGKILL; it waits out that grace even when nothing is left, so every failing
# launch takes 2 s more. For launches that hopbench refuses before measuring, where no rank
# has records to keep and the refusal's line is out before the rank ends. Not for runs stopped
# mid-way, whose ranks need the grace to keep their records, nor where Open MPI itself stops a
# rank (a failed MPI_Init), which needs it to print hopbench's line. ORTE reads
# OMPI_MCA_odls_*, PRRTE PRTE_MCA_odls_*.
hb_mpi_no_grace_env() {
    if [ "$(hb_mpi_flavor)" = ompi5 ]; then
        export PRTE_MCA_odls_base_sigkill_timeout=0
    else
        export OMPI_MCA_odls_base_sigkill_timeout=0
    fi
}
