/* Rank 0's part of a run that only the MPI layer can play: what the run record says of MPI
 * and of the world, and a status every rank adopts. */
#ifndef HB_RANK0_H
#define HB_RANK0_H

#include "hb_world.h"

#include <jansson.h>

/* The MPI library's and standard's versions into run's "versions" (mpi_library, mpi), and the
 * launcher conventions chosen for it (mpi_launcher). MPI allows asking before MPI_Init: c2c
 * records them without a world. */
void hb_rank0_record_versions(json_t *run);

/* Choose the launcher conventions (hb_mpirun_dialect.h) from this MPI library's version, which MPI
 * allows asking before MPI_Init. */
void hb_rank0_choose_conventions(void);

/* The versions, then hosts, ranks and rank_layout (host, node and CPUs of every rank). */
void hb_rank0_record_world(json_t *run, const struct hb_world *w);

/* Every rank returns rank 0's value (a collective: every rank calls it). */
int hb_rank0_share(int value);

#endif
