/* Weighted interleave's weights over the ranks of a run (hb_world_interleave_weights.h): the host's
 * first rank owns them; exit() and fatal signals there put them back too (hb_interleave_weights.c).
 */
#include "hb_world_interleave_weights.h"

#include "hb_ranks.h"
#include "hb_error.h"
#include "hb_interleave_weights.h"

#include <stdio.h>

/* Collective. Rank 0 writes every host's records from its own state: they say weights_set only
 * when every host set the weights, and weights kept as found (not root) that differ between
 * hosts are refused, since one record could not say which host had which. */
static int world_weights_agree(const struct hb_world *w, const int *nodes, int n)
{
    const struct hb_interleave_weights_state *s =
        w->host_rank == 0 ? hb_interleave_weights_current() : NULL;
    if (hb_ranks_max_int(s && !s->set) && hb_interleave_weights_current())
        hb_interleave_weights_set_elsewhere_failed();
    for (int k = 0; k < n; k++) {
        int hi = hb_ranks_max_int(s ? s->weights[k] : 0);
        int lo = -hb_ranks_max_int(s ? -s->weights[k] : -HB_INTERLEAVE_WEIGHTS_MAX - 1);
        if (hi == lo) continue;
        if (w->rank == 0)
            fprintf(stderr,
                    "hopbench: --policy weighted: node %d's weight differs between hosts (%d to "
                    "%d) and cannot be set without root: run as root, or give every host the "
                    "same weights (%s/node%d)\n",
                    nodes[k], lo, hi, HB_INTERLEAVE_WEIGHTS_DIR, nodes[k]);
        return -HB_EENV;
    }
    return 0;
}

int hb_world_interleave_weights_apply(const struct hb_world *w, const int *nodes,
                                      const int *weights, int n)
{
    int rc = w->host_rank == 0 ? hb_interleave_weights_apply(nodes, weights, n) : 0;
    if (rc) fprintf(stderr, "hopbench: host %s: %s\n", w->host, hb_error_msg());
    /* Collective: no rank touches a page before every host's weights are in force. */
    if (hb_ranks_max_int(rc ? 1 : 0)) return -HB_EENV;
    return w->nhosts > 1 ? world_weights_agree(w, nodes, n) : 0;
}

void hb_world_interleave_weights_experiment(const struct hb_world *w, const struct hb_experiment *e)
{
    long long ws[HB_PARAM_INTS_MAX], ns[HB_PARAM_INTS_MAX];
    int n = hb_plan_param_ints_of(e, "weights", ws), weights[HB_PARAM_INTS_MAX],
        nodes[HB_PARAM_INTS_MAX];
    bool weighted = false;
    for (int k = 0; k < e->ntasks; k++)
        weighted |= e->tasks[k].policy == HB_POLICY_WEIGHTED;
    if (!weighted || n == 0 || hb_plan_param_ints_of(e, "weight_nodes", ns) != n) return;
    for (int k = 0; k < n; k++) {
        weights[k] = (int)ws[k];
        nodes[k] = (int)ns[k];
    }
    if (w->host_rank == 0 && hb_interleave_weights_apply(nodes, weights, n) != 0)
        hb_world_abort(w, HB_EXIT_ENV, hb_error_msg());
    hb_ranks_barrier(); /* no rank touches a page before the weights are in force */
}

void hb_world_interleave_weights_restore(const struct hb_world *w)
{
    hb_ranks_barrier(); /* every rank is done with its pages */
    if (w->host_rank == 0) hb_interleave_weights_restore();
}
