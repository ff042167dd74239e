/* HOPBENCH_RANK_CPUS="0-7:8-15:...": each rank binds itself, before MPI starts, to the list
 * of its rank on its host (local rank 0 the first list). It binds one rank per CPU node in a
 * single app context where the launcher's mapping cannot (SNC plus memory-only nodes), the
 * line `hopbench topo` prints there; Open MPI 5.0.7 crashes on several app contexts
 * (open-mpi/ompi#13303). */
#ifndef HB_RANK_CPUS_H
#define HB_RANK_CPUS_H

/* When the variable is set (and this is not the restarted process): bind this process to its
 * list, then execv argv again (HOPBENCH_RANK_CPUS_BOUND=1) so that the OpenMP runtime, which
 * reads the binding as it loads, sees it. Returns 0 when there is nothing to do; else -EINVAL
 * (a bad value, too few lists for the host's ranks, CPUs outside this process's allowed set)
 * or -HB_EENV (no topology, the binding or the restart failed), with a one-line message. */
int hb_rank_cpus_bind(char **argv);

#endif
