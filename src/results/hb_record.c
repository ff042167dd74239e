/* Records built on rank 0 (hb_record.h): measurements, topology, summary. */
#include "hb_record.h"

#include "hb_grow.h"
#include "hb_level.h"
#include "hb_nodeset.h"

#include "hb_stats.h"
#include "hb_topo_mem.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *json_or_null(int ok, json_t *v)
{
    if (ok) return v;
    json_decref(v);
    return json_null();
}

json_t *hb_record_int_matrix(const struct hb_topo *t, const int *m)
{
    if (!m) return json_null();
    json_t *rows = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        json_t *row = json_array();
        for (int j = 0; j < t->nnodes; j++)
            json_array_append_new(row, json_integer(m[i * t->nnodes + j]));
        json_array_append_new(rows, row);
    }
    return rows;
}

static json_t *record_distances(const struct hb_topo *t)
{
    if (!t->distances) return json_null();
    json_t *rows = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        json_t *row = json_array();
        for (int j = 0; j < t->nnodes; j++)
            json_array_append_new(row, json_integer((json_int_t)t->distances[i * t->nnodes + j]));
        json_array_append_new(rows, row);
    }
    return rows;
}

json_t *hb_record_topology(const struct hb_topo *t)
{
    json_t *nodes = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        const struct hb_node *n = &t->nodes[i];
        json_t *cpus = json_array();
        for (int c = 0; c < n->ncpus; c++)
            json_array_append_new(cpus, json_integer(n->cpus[c]));
        json_array_append_new(
            nodes,
            json_pack("{s:i, s:o, s:i, s:I, s:I, s:b, s:b, s:s, s:o}", "os_index", n->os_index,
                      "cpus", cpus, "cores", n->ncores, "mem_bytes", (json_int_t)n->mem_bytes,
                      "mem_free_bytes", (json_int_t)n->mem_free_bytes, "has_cpus", n->has_cpus,
                      "has_memory", n->has_memory, "cpus_state",
                      hb_topo_nodes_cpus_state_name(n->cpus_state), "cpus_shared_with",
                      n->cpus_shared_with >= 0 ? json_integer(n->cpus_shared_with) : json_null()));
        json_t *cpu = hb_topo_cpu_json(t, i);
        json_object_update(json_array_get(nodes, (size_t)i), cpu);
        json_decref(cpu);
    }
    hb_topo_mem_annotate(t, nodes);
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:i, s:b, s:o, s:o, s:o}", "type", "topology",
                     "source", t->source, "nodes", nodes, "distances", record_distances(t),
                     "hop_class", hb_record_int_matrix(t, t->hop_class), "hop_classes", t->nclasses,
                     "hmat", hb_topo_mem_hmat_present(t), "hmat_conflicts",
                     hb_topo_mem_hmat_conflicts(t), "tiers", hb_topo_mem_tiers(t), "nics",
                     hb_topo_nics_json(t));
}

static json_t *record_background(const struct hb_experiment *e, const struct hb_task_result *all,
                                 const double span[2], double *overlap)
{
    json_t *list = json_array();
    double fg_len = span[1] - span[0];
    *overlap = 1.0;
    for (int i = 0; i < e->ntasks; i++) {
        const struct hb_task *bt = &e->tasks[i];
        const struct hb_task_result *br = &all[i];
        if (bt->role != HB_ROLE_BG || !br->ran) continue;
        double len = br->t_end - br->t_start;
        double achieved = len > 0.0 ? br->bg_bytes / len / 1e9 : 0.0;
        double lo = br->t_start > span[0] ? br->t_start : span[0];
        double hi = br->t_end < span[1] ? br->t_end : span[1];
        double cover = fg_len > 0.0 ? (hi - lo) / fg_len : 0.0;
        cover = cover < 0.0 ? 0.0 : cover;
        if (cover < *overlap) *overlap = cover;
        json_array_append_new(
            list, json_pack("{s:i, s:i, s:s, s:o, s:f, s:f, s:f, s:f, s:f}", "cpu_node",
                            bt->cpu_node, "threads", bt->threads, "kernel", bt->kernel, "mem_node",
                            json_or_null(bt->mem_node >= 0, json_integer(bt->mem_node)),
                            "target_GBps", br->bg_target_GBps, "achieved_GBps", achieved, "start_s",
                            br->t_start, "end_s", br->t_end, "coverage", cover));
    }
    return list;
}

static json_t *record_placement(const struct hb_topo *t, const struct hb_task_result *r)
{
    json_t *share = json_object();
    for (int n = 0; n < t->nnodes && n < r->npages_nodes; n++) {
        if (!r->pages_on_node[n]) continue;
        char key[16];
        snprintf(key, sizeof(key), "%d", t->nodes[n].os_index);
        double pct = 100.0 * (double)r->pages_on_node[n] / (double)r->pages_checked;
        json_object_set_new(share, key, json_real(round(pct * 100.0) / 100.0));
    }
    return share;
}

/* The level of the memory hierarchy the task's working set lives in, from the CPUs its
 * threads ran on (the node's first CPUs when it did not run). */
static const char *record_level(const struct hb_topo *t, const struct hb_task *task,
                                const struct hb_task_result *r, int threads)
{
    static _Thread_local struct hb_level l;
    int ni = hb_topo_nodes_index(t, task->cpu_node);
    const int *cpus = r->nthread_cpus > 0 ? r->thread_cpus : ni >= 0 ? t->nodes[ni].cpus : NULL;
    int n = r->nthread_cpus > 0 ? r->nthread_cpus : ni >= 0 ? t->nodes[ni].ncpus : 0;
    n = n < threads ? n : threads;
    int mem = task->policy == HB_POLICY_BIND ? hb_topo_nodes_index(t, task->mem_node) : -1;
    hb_level_of(t, cpus, cpus ? n : 0, hb_level_footprint(task->bytes, task->chase_stride), mem,
                &l);
    return l.name;
}

/* Where the task ran and where its pages were: nodes, policy, CPUs of its threads, sizes. */
static void record_where(json_t *rec, const struct hb_topo *t, const struct hb_experiment *e,
                         const struct hb_task *task, const struct hb_task_result *r)
{
    bool fg = task->role == HB_ROLE_FG;
    json_object_set_new(rec, "cpu_node", json_integer(task->cpu_node));
    json_object_set_new(rec, "mem_node",
                        json_or_null(task->policy == HB_POLICY_BIND, json_integer(task->mem_node)));
    json_object_set_new(rec, "policy", json_string(hb_placement_policy_name(task->policy)));
    json_t *set = hb_nodeset_json(task->mem_nodes);
    if (task->policy == HB_POLICY_BIND) json_array_append_new(set, json_integer(task->mem_node));
    json_object_set_new(rec, "mem_nodes", set);
    json_object_set_new(rec, "hops", json_or_null(task->hops >= 0, json_integer(task->hops)));
    json_object_set_new(rec, "distance",
                        json_or_null(task->distance > 0, json_integer((json_int_t)task->distance)));
    int threads = r->ran && r->threads ? r->threads : task->threads;
    json_object_set_new(rec, "threads", json_integer(threads));
    json_t *cpus = json_array();
    for (int j = 0; j < threads && j < r->nthread_cpus; j++)
        json_array_append_new(cpus, json_integer(r->thread_cpus[j]));
    json_object_set_new(rec, "thread_cpus", cpus);
    json_object_set_new(rec, "threads_on_node", json_integer(r->threads_on_node));
    json_object_set_new(rec, "bytes", json_integer((json_int_t)task->bytes));
    json_object_set_new(rec, "array_bytes", json_integer((json_int_t)(r->elements * 8)));
    json_object_set_new(rec, "pages", json_string(hb_placement_pages_name(task->pages)));
    json_object_set_new(rec, "level", json_string(record_level(t, task, r, threads)));
    if (fg && strcmp(e->metric, "latency") == 0 && task->chase_stride) {
        /* --tlb-group all: the group is one thread's whole share of the buffer. */
        uint64_t group = task->chase_group_bytes == HB_CHASE_GROUP_ALL
                             ? r->elements * 8 / (uint64_t)task->threads
                             : task->chase_group_bytes;
        json_object_set_new(rec, "chase_stride", json_integer((json_int_t)task->chase_stride));
        json_object_set_new(rec, "chase_group_bytes", json_integer((json_int_t)group));
        json_object_set_new(rec, "chains",
                            json_integer(task->chase_chains > 1 ? task->chase_chains : 1));
    }
    json_object_set_new(rec, "pages_on_target_pct",
                        json_real(round(r->pages_on_target_pct * 100.0) / 100.0));
    json_object_set_new(rec, "pages_share_pct", record_placement(t, r));
}

void hb_record_samples(json_t *rec, const double *samples, int n, bool times, struct hb_stats *st)
{
    hb_stats_compute(samples, n, st);
    json_t *list = json_array();
    for (int s = 0; s < n; s++)
        json_array_append_new(list, json_real(samples[s]));
    json_object_set_new(rec, "reps", json_integer(n));
    json_object_set_new(rec, "samples_s", list);
    if (!times || n < 1) return;
    json_object_set_new(rec, "t_min_s", json_real(st->min));
    json_object_set_new(rec, "t_median_s", json_real(st->median));
    json_object_set_new(rec, "t_p95_s", json_real(st->p95));
    json_object_set_new(rec, "t_max_s", json_real(st->max));
    json_object_set_new(rec, "t_mean_s", json_real(st->mean));
    json_object_set_new(rec, "t_cv", json_real(st->cv));
}

/* The samples and what they give: times, latency or bandwidth (a background task: the rate
 * it achieved). */
static void record_timing(json_t *rec, const struct hb_experiment *e, const struct hb_task *task,
                          const struct hb_task_result *r)
{
    bool fg = task->role == HB_ROLE_FG;
    struct hb_stats st;
    hb_record_samples(rec, r->samples, r->nsamples, fg, &st);
    json_object_set_new(rec, "sweeps_per_sample", json_integer((json_int_t)r->sweeps_per_sample));
    if (fg && r->nsamples > 0) {
        if (strcmp(e->metric, "latency") == 0 && r->loads_per_sample > 0) {
            json_object_set_new(rec, "lat_ns_median",
                                json_real(st.median / r->loads_per_sample * 1e9));
            json_object_set_new(rec, "lat_ns_min", json_real(st.min / r->loads_per_sample * 1e9));
        } else if (st.min > 0) {
            json_object_set_new(rec, "bw_GBps_best", json_real(r->bytes_per_sample / st.min / 1e9));
            json_object_set_new(rec, "bw_GBps_median",
                                json_real(r->bytes_per_sample / st.median / 1e9));
            json_object_set_new(rec, "bw_GBps_best_wa_model",
                                json_real(r->bytes_wa_per_sample / st.min / 1e9));
        }
    }
    if (!fg) {
        double len = r->t_end - r->t_start;
        json_object_set_new(rec, "bw_GBps_achieved",
                            json_real(len > 0 ? r->bg_bytes / len / 1e9 : 0));
    }
}

/* A foreground task's span and the background tasks that overlapped it. */
static void record_overlap(json_t *rec, const struct hb_experiment *e,
                           const struct hb_task_result *all, const struct hb_task_result *r)
{
    double span[2] = {r->t_start, r->t_end}, overlap = 1.0;
    json_object_set_new(rec, "fg_start_s", json_real(r->t_start));
    json_object_set_new(rec, "fg_end_s", json_real(r->t_end));
    json_t *bg = record_background(e, all, span, &overlap);
    bool any = json_array_size(bg) > 0;
    json_object_set_new(rec, "background", bg);
    json_object_set_new(rec, "bg_overlap", json_or_null(any, json_real(overlap)));
}

json_t *hb_record_in_columns(json_t *rec, const struct hb_params *params)
{
    json_t *ordered = json_object();
    for (int c = 0; hb_record_columns[c]; c++) {
        json_t *v = json_object_get(rec, hb_record_columns[c]);
        json_object_set(ordered, hb_record_columns[c], v ? v : json_null());
    }
    json_decref(rec);
    json_t *keys = hb_plan_params_json(params);
    if (keys) json_object_update(ordered, keys);
    json_decref(keys);
    return ordered;
}

json_t *hb_record_measurement(const struct hb_topo *t, const struct hb_experiment *e, int ti,
                              const struct hb_task_result *all, const struct hb_record_origin *o)
{
    const struct hb_task *task = &e->tasks[ti];
    const struct hb_task_result *r = &all[ti];
    bool fg = task->role == HB_ROLE_FG;
    json_t *rec = json_object();
    json_object_set_new(rec, "type", json_string("measurement"));
    json_object_set_new(rec, "suite", json_string(e->suite));
    json_object_set_new(rec, "experiment", json_string(e->name));
    json_object_set_new(rec, "label", json_string(task->label));
    json_object_set_new(rec, "host", json_string(o->host));
    json_object_set_new(rec, "rank", json_integer(o->rank));
    json_object_set_new(rec, "metric", json_string(fg ? e->metric : "bandwidth"));
    json_object_set_new(rec, "kernel", json_string(task->kernel));
    json_object_set_new(rec, "access", json_string(task->access));
    json_object_set_new(rec, "role", json_string(fg ? "foreground" : "background"));
    record_where(rec, t, e, task, r);
    record_timing(rec, e, task, r);
    json_object_set_new(rec, "relative", json_null());
    if (fg) record_overlap(rec, e, all, r);
    json_object_set_new(rec, "simd", json_string(o->simd));
    json_object_set_new(rec, "elapsed_s", json_real(r->elapsed_s));
    json_object_set_new(rec, "status",
                        json_string(!r->ran     ? "skipped"
                                    : r->status ? "failed"
                                                : "ok"));
    json_object_set_new(rec, "note", json_string(r->note));
    return hb_record_in_columns(rec, &e->params);
}

int hb_record_summary_add(struct hb_summary *s, const json_t *rec)
{
    const char *st = json_string_value(json_object_get(rec, "status"));
    s->measurements++;
    s->ok += st && strcmp(st, "ok") == 0;
    s->failed += st && strcmp(st, "failed") == 0;
    s->skipped += st && strcmp(st, "skipped") == 0;
    s->noisy += json_is_true(json_object_get(rec, "noisy"));
    const json_t *spread = json_object_get(rec, "spread_pct");
    if (json_is_number(spread)) {
        if (hb_grow((void **)&s->spreads, &s->spreadcap, s->nspreads, sizeof(*s->spreads)))
            return -ENOMEM;
        s->spreads[s->nspreads++] = json_number_value(spread);
    }
    json_t *name = json_object_get(rec, "experiment");
    double t = json_number_value(json_object_get(rec, "elapsed_s"));
    if (!s->cells && !(s->cells = json_array())) return -ENOMEM;
    json_t *last = json_array_get(s->cells, json_array_size(s->cells) - 1);
    /* Records of one experiment arrive together: extend the last cell or start one. */
    if (last && json_equal(json_object_get(last, "experiment"), name)) {
        if (t > json_number_value(json_object_get(last, "elapsed_s")))
            json_object_set_new(last, "elapsed_s", json_real(t));
        return 0;
    }
    json_t *cell = json_pack("{s:O, s:f}", "experiment", name, "elapsed_s", t);
    return json_array_append_new(s->cells, cell) ? -ENOMEM : 0;
}

void hb_record_summary_free(struct hb_summary *s)
{
    json_decref(s->cells);
    free(s->spreads);
    *s = (struct hb_summary){0};
}

json_t *hb_record_summary(const char *suite, const struct hb_summary *s, double elapsed_s)
{
    json_t *cells = s->cells ? json_deep_copy(s->cells) : json_array();
    double spread = s->nspreads ? hb_stats_median(s->spreads, (int)s->nspreads) : NAN;
    return json_pack("{s:s, s:s, s:I, s:I, s:i, s:i, s:i, s:i, s:f, s:o, s:o, s:o}", "type",
                     "summary", "suite", suite, "experiments", (json_int_t)json_array_size(cells),
                     "measurements", (json_int_t)s->measurements, "ok", s->ok, "failed", s->failed,
                     "skipped", s->skipped, "noisy", s->noisy, "elapsed_s", elapsed_s, "cell_s",
                     cells, "spread_pct_median", isfinite(spread) ? json_real(spread) : json_null(),
                     "estimate_s", s->estimate_s > 0.0 ? json_real(s->estimate_s) : json_null());
}
