/* How this process was started: alone, or by a launcher (mpirun, srun, MPICH's hydra) as one
 * rank of a job. Read from the launchers' environment variables, before MPI starts, so a
 * process started alone never needs MPI's machinery and every command can tell whether it is
 * one of several copies. */
#ifndef HB_LAUNCHER_H
#define HB_LAUNCHER_H

#include <stdbool.h>

struct hb_launch {
    const char *launcher;  /* "mpirun", "srun", "pmix", "pmi"; NULL when started alone */
    const char *var;       /* the variable that says so, e.g. OMPI_COMM_WORLD_SIZE */
    long rank;             /* this process's rank, 0 when unknown or alone */
    long ranks;            /* the job's ranks, 0 when the launcher does not say */
    long local_ranks;      /* its ranks on this host, 0 when the launcher does not say */
    const char *local_var; /* the variable that says how many */
    long local_rank;       /* its rank among them, -1 when the launcher does not say */
    const char *local_rank_var;
};

/* Fills *l; true when a launcher started this process. */
bool hb_launcher_launched(struct hb_launch *l);

/* True for rank 0 of a job and for a process started alone: the one that speaks. */
bool hb_launcher_is_first(void);
/* Whether this is the first rank on its host (alone: true; a launcher that does not say which
 * local rank: the job's first): where a note about this host's plan is said once. */
bool hb_launcher_is_host_first(void);

/* In a rank other than the first, before it fails ahead of MPI: wait (at most a few seconds)
 * for the launcher to end the job. Every rank fails alike and only the first says why; a rank
 * that left first would have the launcher kill the first before it speaks (Open MPI 5's
 * prterun does). */
void hb_launcher_wait_for_first(void);

/* 0, or -EINVAL with a one-line message when this process is one of several ranks: `what`
 * (a command and its telling options, e.g. "hops --dry-run") runs once, in one process; or,
 * per_host, once on each host (topo, printing each host's machine: how jobs/ probes a
 * fleet), refused only when the launcher put several ranks on this host or did not say. */
int hb_launcher_refuse_ranks(const char *what, bool per_host);

#endif
