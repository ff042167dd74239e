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

void hb_world_wil_experiment(const struct hb_world *w, const struct hb_experiment *e)
{
    long long ws[HB_PARAM_INTS_MAX], ns[HB_PARAM_INTS_MAX];
    int n = hb_param_ints_of(e, "weights", ws), weights[HB_PARAM_INTS_MAX],
        nodes[HB_PARAM_INTS_MAX];
    bool weighted = false;
    for (int k = 0; k < e->ntasks; k++)
        weighted |= e->tasks[k].policy == HB_POLICY_WEIGHTED;
    if (!weighted || n == 0 || hb_param_ints_of(e, "weight_nodes", ns) != n) return;
    for (int k = 0; k < n; k++) {
        weights[k] = (int)ws[k];
        nodes[k] = (int)ns[k];
    }
    if (w->host_rank == 0 && hb_wil_apply(nodes, weights, n) != 0)
        hb_world_abort(w, HB_EXIT_ENV, hb_err_msg());
    hb_comm_barrier(); /* no rank touches a page before the weights are in force */
}

void hb_world_wil_restore(const struct hb_world *w)
{
    hb_comm_barrier(); /* every rank is done with its pages */
    if (w->host_rank == 0) hb_wil_restore();
}
