/* The measurement record of a comm pair (hb_record_comm.h): the columns every measurement
 * record has, then what only a pair of ranks has. */
#include "hb_record_comm.h"

#include "hb_record.h"
#include "hb_stats.h"

#include <math.h>
#include <string.h>

/* Latency's p50/p99/max as measured: the display rounds once (hb_figure_text.h). */
static json_t *comm_us(double us)
{
    return isfinite(us) && us > 0.0 ? json_real(us) : json_null();
}

/* The sample times and what they give: bandwidth per sample (best and median). */
static void comm_timing(json_t *rec, const struct hb_experiment *e, const struct hb_comm_result *r,
                        const double *samples)
{
    struct hb_stats st;
    hb_record_samples(rec, samples, r->nsamples, true, &st);
    if (r->nsamples < 1 || st.min <= 0.0 || strcmp(e->metric, "latency") == 0) return;
    json_object_set_new(rec, "bw_GBps_best", json_real(r->bytes_per_sample / st.min / 1e9));
    json_object_set_new(rec, "bw_GBps_median", json_real(r->bytes_per_sample / st.median / 1e9));
}

/* Where the sending end ran and where both ends' buffers were. */
static void comm_where(json_t *rec, const struct hb_topo *t, const struct hb_experiment *e,
                       const struct hb_comm_result *r)
{
    const struct hb_task *task = &e->tasks[0];
    int src = (int)hb_plan_param_int_of(e, "src_node", -1),
        dst = (int)hb_plan_param_int_of(e, "dst_node", -1);
    int si = hb_topo_nodes_index(t, src), di = hb_topo_nodes_index(t, dst);
    uint64_t distance = si >= 0 && di >= 0 ? hb_topo_distances_between(t, si, di) : 0;
    json_object_set_new(rec, "cpu_node", json_integer(src));
    json_object_set_new(rec, "mem_node", json_integer(task->mem_node));
    json_object_set_new(rec, "policy", json_string(hb_placement_policy_name(task->policy)));
    json_object_set_new(rec, "mem_nodes",
                        json_pack("[I, I]", (json_int_t)task->mem_node,
                                  (json_int_t)hb_plan_param_int_of(e, "dst_mem_node", -1)));
    json_object_set_new(rec, "distance",
                        distance ? json_integer((json_int_t)distance) : json_null());
    json_object_set_new(rec, "threads", json_integer(1));
    json_object_set_new(rec, "bytes", json_integer(hb_plan_param_int_of(e, "message_bytes", 0)));
    json_object_set_new(rec, "pages", json_string(hb_placement_pages_name(task->pages)));
    double pct = r->src_pages_pct < r->dst_pages_pct ? r->src_pages_pct : r->dst_pages_pct;
    json_object_set_new(rec, "pages_on_target_pct", json_real(round(pct * 100.0) / 100.0));
}

json_t *hb_record_comm(const struct hb_topo *t, const struct hb_experiment *e,
                       const struct hb_comm_result *r, const double *samples,
                       const struct hb_comm_origin *o)
{
    const struct hb_task *task = &e->tasks[0];
    json_t *rec = json_object();
    if (!rec) return NULL;
    char label[64];
    snprintf(label, sizeof(label), "r%d.n%lld-r%d.n%lld", r->src_rank,
             hb_plan_param_int_of(e, "src_node", -1), r->dst_rank,
             hb_plan_param_int_of(e, "dst_node", -1));
    json_object_set_new(rec, "type", json_string("measurement"));
    json_object_set_new(rec, "suite", json_string(e->suite));
    json_object_set_new(rec, "experiment", json_string(e->name));
    json_object_set_new(rec, "label", json_string(label));
    json_object_set_new(rec, "host", json_string(o->src_host));
    json_object_set_new(rec, "rank", json_integer(r->src_rank));
    json_object_set_new(rec, "metric", json_string(e->metric));
    json_object_set_new(rec, "kernel", json_string(task->kernel));
    json_object_set_new(rec, "access", json_string(task->access));
    json_object_set_new(rec, "role", json_string("foreground"));
    comm_where(rec, t, e, r);
    comm_timing(rec, e, r, samples);
    json_object_set_new(rec, "elapsed_s", json_real(r->elapsed_s));
    json_object_set_new(rec, "status", json_string(r->status ? "failed" : "ok"));
    json_object_set_new(rec, "note", json_string(r->note));
    json_t *out = hb_record_in_columns(rec, &e->params);
    if (!out) return NULL;
    bool lat = strcmp(e->metric, "latency") == 0;
    json_object_set_new(out, "src_rank", json_integer(r->src_rank));
    json_object_set_new(out, "dst_rank", json_integer(r->dst_rank));
    json_object_set_new(out, "src_host", json_string(o->src_host));
    json_object_set_new(out, "dst_host", json_string(o->dst_host));
    json_object_set_new(out, "src_cpu", o->src_cpu >= 0 ? json_integer(o->src_cpu) : json_null());
    json_object_set_new(out, "dst_cpu", o->dst_cpu >= 0 ? json_integer(o->dst_cpu) : json_null());
    json_object_set_new(out, "thread_cpus",
                        o->src_cpu >= 0 ? json_pack("[i]", o->src_cpu) : json_null());
    json_object_set_new(out, "iterations", json_integer((json_int_t)r->iterations));
    json_object_set_new(out, "window", lat ? json_null() : json_integer(r->window));
    json_object_set_new(out, "p50_us", lat ? comm_us(r->p50_us) : json_null());
    json_object_set_new(out, "p99_us", lat ? comm_us(r->p99_us) : json_null());
    json_object_set_new(out, "max_us", lat ? comm_us(r->max_us) : json_null());
    json_object_set_new(out, "timer", lat ? json_string(r->timer) : json_null());
    json_object_set_new(out, "transport", json_string(o->transport));
    /* Hop classes are a host's own: two hosts' nodes have none between them. */
    if (strcmp(o->src_host, o->dst_host) != 0) {
        json_object_set_new(out, "hops", json_null());
        json_object_set_new(out, "distance", json_null());
    }
    return out;
}
