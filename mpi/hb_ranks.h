/* The collectives of a run among its ranks, rank 0 the root: MPI_COMM_WORLD under a launcher;
 * a world of one without MPI at all when the process was started alone (hb_ranks_solo), so a
 * plain `hopbench bw` needs no MPI_Init: no session directory, no ssh, no daemon, none of
 * what minimal containers and batch images lack. */
#ifndef HB_RANKS_H
#define HB_RANKS_H

#include <mpi.h>
#include <stdbool.h>

/* This process is the whole world and MPI is never started. */
void hb_ranks_set_solo(void);
bool hb_ranks_solo(void);

void hb_ranks_barrier(void);

/* A barrier that completes while the caller goes on: start, then test until true. */
void hb_ranks_ibarrier(MPI_Request *req);
bool hb_ranks_test(MPI_Request *req);

/* Wait for req, sleeping between tests: a rank that only waits takes no CPU from the ranks that
 * measure (comm's pairs, on hosts with fewer CPUs than ranks). */
void hb_ranks_wait_idle(MPI_Request *req);
/* A barrier waited for so. */
void hb_ranks_barrier_idle(void);

/* From rank 0 to every rank. */
void hb_ranks_bcast_ints(int *values, int n);
void hb_ranks_bcast_bytes(void *buf, int n);

/* Every rank's one int, on rank 0 (all: one per rank) or on every rank. */
void hb_ranks_gather_int(int mine, int *all);
void hb_ranks_allgather_int(int mine, int *all);

/* Every rank's n bytes, on every rank (all: n per rank). */
void hb_ranks_allgather_bytes(const void *mine, int n, void *all);

/* Every rank's `n` bytes, counts[r] of them at displs[r], on rank 0 or on every rank. */
void hb_ranks_gatherv_bytes(const void *mine, int n, void *all, const int *counts,
                            const int *displs);
void hb_ranks_allgatherv_bytes(const void *mine, int n, void *all, const int *counts,
                               const int *displs);

/* The largest of every rank's value, on every rank. */
int hb_ranks_max_int(int mine);

#endif
