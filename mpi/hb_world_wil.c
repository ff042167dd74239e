/* Weighted interleave's weights over the ranks of a run (hb_world_wil.h): the host's first
 * rank owns them; exit() and fatal signals there put them back too (hb_wil.c). */
#include "hb_world_wil.h"

#include "hb_comm.h"
#include "hb_error.h"
#include "hb_wil.h"

#include <stdio.h>

int hb_world_wil_apply(const struct hb_world *w, const int *nodes, const int *weights, int n)
{
    int rc = w->host_rank == 0 ? hb_wil_apply(nodes, weights, n) : 0;
    if (rc) fprintf(stderr, "hopbench: host %s: %s\n", w->host, hb_err_msg());
    /* Collective: no rank touches a page before every host's weights are in force. */
    return hb_comm_max_int(rc ? 1 : 0) ? -HB_EENV : 0;
}

void hb_world_wil_restore(const struct hb_world *w)
{
    hb_comm_barrier(); /* every rank is done with its pages */
    if (w->host_rank == 0) hb_wil_restore();
}
