/* Which collective component (and algorithm, where the library says) the MPI library uses
 * for an operation, read from what it exposes through the MPI tool interface (MPI_T control
 * variables): Open MPI's coll include/exclude list and its components' priorities, tuned's
 * forced algorithm; "unknown" where the variables do not decide it. */
#ifndef HB_COLL_MPIT_H
#define HB_COLL_MPIT_H

#include <stdbool.h>
#include <stddef.h>

struct hb_coll_mpit;

/* Read the variables once (after MPI_Init, on the rank that makes records); NULL when out of
 * memory. hb_coll_mpit_free it. */
struct hb_coll_mpit *hb_coll_mpit_read(void);
void hb_coll_mpit_free(struct hb_coll_mpit *m);

/* What op (hb_coll_op_names) runs on for an intra-communicator of more than one rank, all on
 * one host or not: the component ("tuned", "basic" ... or "unknown"), the algorithm (NULL
 * when not known) and, in source, what that rests on. */
void hb_coll_mpit_choose(const struct hb_coll_mpit *m, const char *op, bool one_host,
                         char *component, size_t clen, char *algorithm, size_t alen, char *source,
                         size_t slen);

#endif
