/* The measurement record of a coll experiment (hb_record_coll.h): the columns every
 * measurement record has, then the communicator's ranks, their times by hops from the root
 * and what the MPI library used. */
#include "hb_record_coll.h"

#include "hb_record.h"
#include "hb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *coll_us(double us)
{
    return isfinite(us) && us > 0.0 ? json_real(us) : json_null();
}

/* Hops from the reference rank's node to rank x's, -1 when unknown or on another host (hop
 * classes are one host's). */
static int coll_hops(const struct hb_topo *t, const struct hb_coll_rank *x,
                     const struct hb_coll_rank *ref)
{
    int i = hb_topo_nodes_index(t, x->node), j = ref ? hb_topo_nodes_index(t, ref->node) : -1;
    return i >= 0 && j >= 0 && x->host == ref->host ? hb_topo_distances_hops(t, i, j) : -1;
}

/* Each rank, and the ranks grouped by hops from the reference rank's node. */
static int coll_per_rank(json_t *out, const struct hb_topo *t, const struct hb_coll_result *r,
                         const struct hb_coll_rank *per)
{
    int slowest = -1;
    const struct hb_coll_rank *ref = NULL;
    for (int k = 0; k < r->ranks; k++) {
        if (per[k].rank == r->ref_rank) ref = &per[k];
        if (slowest < 0 || per[k].mean_us > per[slowest].mean_us) slowest = k;
    }
    json_t *ranks = json_array(), *nodes = json_array(), *split = json_array();
    double *v = malloc(sizeof(*v) * (size_t)(r->ranks ? r->ranks : 1));
    int rc = ranks && nodes && split && v ? 0 : -1;
    int most = -1;
    for (int k = 0; rc == 0 && k < r->ranks; k++) {
        int h = coll_hops(t, &per[k], ref);
        most = h > most ? h : most;
        rc |= json_array_append_new(
            ranks, json_pack("{s:i, s:i, s:o, s:o, s:o, s:f}", "rank", per[k].rank, "node",
                             per[k].node, "hops", h >= 0 ? json_integer(h) : json_null(), "mean_us",
                             coll_us(per[k].mean_us), "max_us", coll_us(per[k].max_us),
                             "pages_on_target_pct", round(per[k].pages_pct * 100.0) / 100.0));
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen = seen || per[j].node == per[k].node;
        if (!seen) rc |= json_array_append_new(nodes, json_integer(per[k].node));
    }
    /* Per hop distance (-1: unknown, last): the ranks there, the median and worst of their
     * mean times. */
    for (int h = 0; rc == 0 && h <= most + 1; h++) {
        int want = h <= most ? h : -1, n = 0;
        double worst = 0.0;
        for (int k = 0; k < r->ranks; k++)
            if (coll_hops(t, &per[k], ref) == want) {
                v[n++] = per[k].mean_us;
                worst = fmax(worst, per[k].mean_us);
            }
        if (n == 0) continue;
        hb_stats_sort(v, n);
        rc |= json_array_append_new(
            split, json_pack("{s:o, s:i, s:o, s:o}", "hops",
                             want >= 0 ? json_integer(want) : json_null(), "ranks", n, "median_us",
                             coll_us(hb_stats_percentile(v, n, 0.5)), "max_us", coll_us(worst)));
    }
    free(v);
    if (rc == 0) {
        json_object_set_new(out, "nodes", nodes);
        json_object_set_new(out, "slowest_rank",
                            slowest >= 0 ? json_integer(per[slowest].rank) : json_null());
        json_object_set_new(out, "slowest_us",
                            slowest >= 0 ? coll_us(per[slowest].mean_us) : json_null());
        json_object_set_new(out, "per_rank", ranks);
        json_object_set_new(out, "hop_split", split);
        return 0;
    }
    json_decref(ranks);
    json_decref(nodes);
    json_decref(split);
    return -1;
}

/* The reference rank's place and every rank's buffer node. */
static void coll_where(json_t *rec, const struct hb_experiment *e, const struct hb_coll_result *r,
                       const struct hb_coll_rank *per)
{
    const struct hb_task *task = &e->tasks[0];
    int ref_node = task->cpu_node;
    for (int k = 0; k < r->ranks; k++)
        if (per[k].rank == r->ref_rank) ref_node = per[k].node;
    json_t *mem = json_array();
    for (int k = 0; k < e->ntasks; k++) {
        const struct hb_task *x = &e->tasks[k];
        if (x->role != HB_ROLE_FG) continue;
        if (x->policy == HB_POLICY_BIND) json_array_append_new(mem, json_integer(x->mem_node));
    }
    json_object_set_new(rec, "cpu_node", json_integer(ref_node));
    json_object_set_new(rec, "mem_node",
                        task->policy == HB_POLICY_BIND ? json_integer(task->mem_node)
                                                       : json_null());
    json_object_set_new(rec, "policy", json_string(hb_placement_policy_name(task->policy)));
    json_object_set_new(rec, "mem_nodes", mem);
    json_object_set_new(rec, "threads", json_integer(1));
    json_object_set_new(rec, "bytes", json_integer(hb_plan_param_int_of(e, "message_bytes", 0)));
    json_object_set_new(rec, "pages", json_string(hb_placement_pages_name(task->pages)));
    json_object_set_new(rec, "pages_on_target_pct", json_real(round(r->pages_pct * 100.0) / 100.0));
}

json_t *hb_record_coll(const struct hb_topo *t, const struct hb_experiment *e,
                       const struct hb_coll_result *r, const struct hb_coll_rank *per,
                       const double *samples, bool clean, const struct hb_coll_origin *o)
{
    json_t *rec = json_object();
    if (!rec) return NULL;
    char label[64];
    snprintf(label, sizeof(label), "%s.%d-ranks", hb_plan_param_str_of(e, "coll_class", "?"),
             r->ranks);
    json_object_set_new(rec, "type", json_string("measurement"));
    json_object_set_new(rec, "suite", json_string(e->suite));
    json_object_set_new(rec, "experiment", json_string(e->name));
    json_object_set_new(rec, "label", json_string(label));
    json_object_set_new(rec, "host", json_string(o->host));
    json_object_set_new(rec, "rank", json_integer(r->ref_rank));
    json_object_set_new(rec, "metric", json_string(e->metric));
    json_object_set_new(rec, "kernel", json_string(e->tasks[0].kernel));
    json_object_set_new(rec, "access", json_string("rw"));
    json_object_set_new(rec, "role", json_string("foreground"));
    coll_where(rec, e, r, per);
    struct hb_stats st;
    hb_record_samples(rec, samples, r->nsamples, true, &st);
    json_object_set_new(rec, "elapsed_s", json_real(r->elapsed_s));
    json_object_set_new(rec, "status", json_string(r->status ? "failed" : "ok"));
    json_object_set_new(rec, "note", json_string(r->note));
    json_t *out = hb_record_in_columns(rec, &e->params);
    if (!out) return NULL;
    /* --root's rank is the record's root_rank, not a key of its own. */
    json_object_del(out, "root_rank_opt");
    json_object_set_new(out, "ranks", json_integer(r->ranks));
    json_object_set_new(out, "root_rank",
                        r->root_rank >= 0 ? json_integer(r->root_rank) : json_null());
    json_object_set_new(out, "ref_rank", json_integer(r->ref_rank));
    json_object_set_new(out, "p50_us", coll_us(r->p50_us));
    json_object_set_new(out, "p99_us", coll_us(r->p99_us));
    json_object_set_new(out, "max_us", coll_us(r->max_us));
    json_object_set_new(out, "mean_us", coll_us(r->mean_us));
    if (r->ranks > 0 && coll_per_rank(out, t, r, per) != 0) {
        json_decref(out);
        return NULL;
    }
    json_object_set_new(out, "iterations", json_integer((json_int_t)r->iterations));
    json_object_set_new(out, "timer", json_string(r->timer));
    json_object_set_new(
        out, "send_buffer",
        json_string(clean ? "clean (reused)" : "dirty (rewritten every iteration)"));
    json_object_set_new(out, "coll_component", json_string(o->component));
    json_object_set_new(out, "coll_algorithm",
                        o->algorithm ? json_string(o->algorithm) : json_null());
    json_object_set_new(out, "coll_component_source", json_string(o->component_source));
    return out;
}
