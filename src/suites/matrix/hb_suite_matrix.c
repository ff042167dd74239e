/* `matrix`: latency and bandwidth for every CPU node x memory node, the relative cost in
 * coreinfo's form, measured classes beside the firmware's, and a fleet table across hosts. */
#include "hb_suite_matrix.h"
#include "hb_opt_doc.h"

#include "hb_matrix_grid.h"

#include "hb_error.h"
#include "hb_family_rec.h"
#include "hb_jsonl_read.h"
#include "hb_matrix_hmat.h"
#include "hb_matrix_ktier.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_MATRIX_KERNELS "read,write-nt,copy"

static int matrix_add(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                      int cpu, int mem, int threads, uint64_t bytes)
{
    struct hb_kernel_ref k;
    int rc = env->lookup(kernel, &k);
    if (rc) return rc;
    struct hb_experiment e;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "matrix-%s-%d-%d", k.latency ? "lat" : kernel, cpu, mem);
    rc = hb_suite_kit_single(env, &e, "matrix", name, kernel, cpu, k.latency ? 1 : threads,
                             HB_POLICY_BIND, mem, bytes, 0);
    if (rc) return rc;
    /* Without --threads a bandwidth cell uses every core of the node on each host, so a host
     * with fewer CPUs in a fleet measures what it has instead of failing. */
    e.tasks[0].whole_node = !k.latency && !env->opts->threads;
    return hb_plan_add(out, &e);
}

int hb_suite_matrix_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    char list[sizeof(o->kernels) + 8];
    snprintf(list, sizeof(list), "chase,%s", o->kernels[0] ? o->kernels : HB_MATRIX_KERNELS);
    char *save = NULL;
    for (char *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (k != list && strcmp(k, "chase") == 0) continue;
        for (int i = 0; i < t->nnodes; i++) {
            if (!t->nodes[i].has_cpus || !hb_suite_kit_node_on(env, i)) continue;
            int threads = o->threads ? o->threads : t->nodes[i].ncores;
            for (int j = 0; j < t->nnodes; j++) {
                if (!t->nodes[j].has_memory || !hb_suite_kit_node_on(env, j)) continue;
                int rc = matrix_add(env, out, k, t->nodes[i].os_index, t->nodes[j].os_index,
                                    threads, bytes);
                if (rc) return rc;
            }
        }
    }
    return 0;
}

static double cost_of(const struct hb_topo *t, const struct hb_grid *g, int i, int j, double best)
{
    double v = HB_AT(g->v, t, i, j);
    return g->latency ? v / best : best / v;
}

/* Classes of measured cost: sorted, a new class wherever a value exceeds the first value of
 * the current class by more than the threshold. */
static void measured_classes(const struct hb_topo *t, const double *cost, int *cls, double thr,
                             double *sorted)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            if (!isnan(HB_AT(cost, t, i, j))) sorted[n++] = HB_AT(cost, t, i, j);
    hb_stats_sort(sorted, n);
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            HB_AT(cls, t, i, j) = -1;
            if (isnan(HB_AT(cost, t, i, j))) continue;
            int c = 0;
            double start = sorted[0];
            for (int k = 1; k < n && sorted[k] <= HB_AT(cost, t, i, j); k++)
                if (sorted[k] > start * (1.0 + thr)) {
                    c++;
                    start = sorted[k];
                }
            HB_AT(cls, t, i, j) = c;
        }
}

static json_t *matrix_json(const struct hb_topo *t, bool cpu_rows, bool mem_cols, const double *m,
                           const int *im, bool use_int)
{
    json_t *rows = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        if (cpu_rows && !t->nodes[i].has_cpus) continue;
        json_t *row = json_array();
        for (int j = 0; j < t->nnodes; j++) {
            if (mem_cols && !t->nodes[j].has_memory) continue;
            if (use_int)
                json_array_append_new(
                    row, HB_AT(im, t, i, j) < 0 ? json_null() : json_integer(HB_AT(im, t, i, j)));
            else
                /* Unrounded: the table rounds a cell once, as it rounds the cell's row. */
                json_array_append_new(row, isnan(HB_AT(m, t, i, j)) ? json_null()
                                                                    : json_real(HB_AT(m, t, i, j)));
        }
        json_array_append_new(rows, row);
    }
    return rows;
}

/* A flag on cell (i, j) against the reference cell (a, b) it was measured against, a
 * candidate of the matrix's family: raised when the two figures' intervals separate (and the
 * family's adjusted p allows) or their noise is unknown, else kept as inconclusive; either way
 * with both figures and their intervals. */
static void flag_cell(struct hb_family_rec *fam, const struct hb_topo *t, const struct hb_grid *g,
                      int i, int j, int a, int b, const char *reason)
{
    const json_t *rc = HB_AT(g->rec, t, i, j), *rr = HB_AT(g->rec, t, a, b);
    enum hb_separation sep = hb_jsonl_read_separation(rc, rr);
    json_t *flag = json_pack("{s:i, s:i, s:s, s:s, s:o, s:{s:i, s:i, s:o}}", "cpu_node",
                             t->nodes[i].os_index, "mem_node", t->nodes[j].os_index, "reason",
                             reason, "evidence", hb_jsonl_read_separation_name(sep), "figure",
                             hb_jsonl_read_figure(rc), "against", "cpu_node", t->nodes[a].os_index,
                             "mem_node", t->nodes[b].os_index, "figure", hb_jsonl_read_figure(rr));
    hb_family_rec_add(fam, flag, sep == HB_NO_INTERVAL ? NAN : hb_family_rec_p(rc, rr, 1.0),
                      sep != HB_OVERLAP);
    json_decref(flag);
}

/* The cell of hop class `hop` with the lowest cost other than (i, j) when skip is set, and
 * *cost its cost (NAN when none). */
static void class_best(const struct hb_topo *t, const double *cost, const int *hop, int want,
                       int si, int sj, int *bi, int *bj, double *best)
{
    *best = NAN;
    *bi = *bj = -1;
    for (int a = 0; a < t->nnodes; a++)
        for (int b = 0; b < t->nnodes; b++)
            if (HB_AT(hop, t, a, b) == want && !(a == si && b == sj) &&
                !isnan(HB_AT(cost, t, a, b)) && (isnan(*best) || HB_AT(cost, t, a, b) < *best)) {
                *best = HB_AT(cost, t, a, b);
                *bi = a;
                *bj = b;
            }
}

/* Matrix record and one cell record per measured pair. */
/* The best value of the grid (lowest latency, highest bandwidth), NAN when none. */
static double grid_best(const struct hb_topo *t, const struct hb_grid *g)
{
    double best = NAN;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            if (!isnan(HB_AT(g->v, t, i, j)) && HB_AT(g->v, t, i, j) > 0 &&
                (isnan(best) ||
                 (g->latency ? HB_AT(g->v, t, i, j) < best : HB_AT(g->v, t, i, j) > best)))
                best = HB_AT(g->v, t, i, j);
    return best;
}

/* Pairs whose measured class is not their firmware hop class (against the cheapest other
 * pair of that hop class, or of the next one when there is none), or that cost more than
 * the cheapest pair of their hop class by more than the threshold: the candidates of the
 * matrix's one family (both kinds together). */
static void grid_flags(const struct hb_suite_env *env, const struct hb_grid *g, const double *cost,
                       const int *hop, const int *cls, struct hb_family_rec *fam)
{
    const struct hb_topo *t = env->topo;
    double thr = env->opts->threshold_pct / 100.0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            int h = HB_AT(hop, t, i, j), a, b;
            if (isnan(HB_AT(cost, t, i, j)) || h < 0) continue;
            char why[160];
            double best;
            if (HB_AT(cls, t, i, j) != h) {
                class_best(t, cost, hop, h, i, j, &a, &b, &best);
                if (a < 0) class_best(t, cost, hop, h + 1, i, j, &a, &b, &best);
                snprintf(why, sizeof(why), "measured class %d, firmware hop class %d",
                         HB_AT(cls, t, i, j), h);
                flag_cell(fam, t, g, i, j, a < 0 ? i : a, a < 0 ? j : b, why);
            }
            class_best(t, cost, hop, h, -1, -1, &a, &b, &best);
            if (!isnan(best) && HB_AT(cost, t, i, j) > best * (1.0 + thr)) {
                snprintf(why, sizeof(why),
                         "%.1f%% costlier than the cheapest pair of hop class %d (threshold %g%%)",
                         (HB_AT(cost, t, i, j) / best - 1.0) * 100.0, h, env->opts->threshold_pct);
                flag_cell(fam, t, g, i, j, a, b, why);
            }
        }
}

/* The matrix record: values, relative costs, distances, classes, flags (flags[0] raised,
 * flags[1] inconclusive) and their family, the HMAT's view (its figures into hmat[], the
 * attribute they are into *attr). */
static void grid_matrix(const struct hb_suite_env *env, const struct hb_grid *g, const double *cost,
                        const double *dist, const int *hop, const int *cls, json_t *flags[2],
                        json_t *family, double *hmat, enum hb_hmat_attr *attr, json_t *derived)
{
    const struct hb_topo *t = env->topo;
    json_t *rows = json_array(), *cols = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        if (t->nodes[i].has_cpus) json_array_append_new(rows, json_integer(t->nodes[i].os_index));
        if (t->nodes[i].has_memory) json_array_append_new(cols, json_integer(t->nodes[i].os_index));
    }
    json_t *m = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f}", "type",
        "matrix", "suite", "matrix", "host", g->host, "metric",
        g->latency ? "latency" : "bandwidth", "kernel", g->kernel, "unit",
        g->latency ? "ns" : "GBps", "rows", rows, "cols", cols, "values",
        matrix_json(t, true, true, g->v, NULL, false), "relative",
        matrix_json(t, true, true, cost, NULL, false), "distances",
        t->distances ? matrix_json(t, true, true, dist, NULL, false) : json_null(), "hop_class",
        t->hop_class ? matrix_json(t, true, true, NULL, hop, true) : json_null(), "measured_class",
        matrix_json(t, true, true, NULL, cls, true), "flags", flags[0], "threshold_pct",
        env->opts->threshold_pct);
    /* Differences within the two figures' noise: shown, never flagged. */
    json_object_set_new(m, "inconclusive", flags[1]);
    json_object_set_new(m, "family", family);
    json_t *h = hb_matrix_hmat(t, g->latency, g->access, g->v, g->rec, env->opts->threshold_pct,
                               hmat, attr);
    json_object_set_new(m, "hmat", h ? h : json_null());
    if (!h && hb_topo_mem_hmat_present(t))
        json_object_set_new(m, "hmat_note",
                            json_string("the firmware's HMAT gives no figure for these cells"));
    /* The kernel's tiers decide promotion and demotion: do they order the nodes as measured? */
    json_t *kt = hb_matrix_ktier(t, g->latency, g->v, g->rec, env->opts->threshold_pct);
    json_object_set_new(m, "kernel_tiers", kt ? kt : json_null());
    json_array_append_new(derived, m);
}

/* One cell record per measured pair, with the HMAT's figure beside it where it has one. */
static void grid_cells(const struct hb_topo *t, const struct hb_grid *g, const double *cost,
                       const int *cls, const double *hmat, enum hb_hmat_attr attr, json_t *derived)
{
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            if (isnan(HB_AT(cost, t, i, j))) continue;
            json_t *src = HB_AT(g->rec, t, i, j);
            json_t *cell = json_pack(
                "{s:s, s:s, s:O?, s:s, s:s, s:s, s:i, s:i, s:O?, s:O?, s:f, s:s, s:f, s:o, s:O?}",
                "type", "cell", "suite", "matrix", "experiment", json_object_get(src, "experiment"),
                "host", g->host, "metric", g->latency ? "latency" : "bandwidth", "kernel",
                g->kernel, "cpu_node", t->nodes[i].os_index, "mem_node", t->nodes[j].os_index,
                "hops", json_object_get(src, "hops"), "distance", json_object_get(src, "distance"),
                "value", HB_AT(g->v, t, i, j), "unit", g->latency ? "ns" : "GBps", "relative",
                HB_AT(cost, t, i, j), "measured_class", json_integer(HB_AT(cls, t, i, j)), "status",
                json_object_get(src, "status"));
            bool covered = !isnan(HB_AT(hmat, t, i, j));
            json_object_set_new(cell, "hmat_attribute",
                                covered ? json_string(hb_topo_mem_hmat_attr_name(attr))
                                        : json_null());
            json_object_set_new(cell, "hmat_value",
                                covered ? json_real(HB_AT(hmat, t, i, j)) : json_null());
            json_object_set_new(cell, "hmat_ratio",
                                covered && HB_AT(hmat, t, i, j) > 0
                                    ? json_real(HB_AT(g->v, t, i, j) / HB_AT(hmat, t, i, j))
                                    : json_null());
            json_array_append_new(derived, cell);
        }
}

static void grid_emit(const struct hb_suite_env *env, struct hb_grid *g, json_t *derived)
{
    const struct hb_topo *t = env->topo;
    double thr = env->opts->threshold_pct / 100.0;
    double best = grid_best(t, g);
    size_t cells = (size_t)t->nnodes * (size_t)t->nnodes;
    double *cost = malloc(sizeof(double) * cells), *dist = malloc(sizeof(double) * cells);
    double *hmat = malloc(sizeof(double) * cells), *sorted = malloc(sizeof(double) * cells);
    int *hop = malloc(sizeof(int) * cells), *cls = malloc(sizeof(int) * cells);
    if (!cost || !dist || !hmat || !sorted || !hop || !cls) {
        json_array_append_new(derived,
                              json_pack("{s:s, s:s, s:s}", "type", "note", "suite", "matrix",
                                        "text", "out of memory assembling a matrix record"));
        goto out;
    }
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            HB_AT(cost, t, i, j) =
                isnan(HB_AT(g->v, t, i, j)) || isnan(best) ? NAN : cost_of(t, g, i, j, best);
            HB_AT(hop, t, i, j) = t->hop_class ? hb_topo_distances_hops(t, i, j) : -1;
            HB_AT(dist, t, i, j) = t->distances ? (double)hb_topo_distances_between(t, i, j) : NAN;
        }
    measured_classes(t, cost, cls, thr, sorted);
    struct hb_family_rec fam = {0};
    grid_flags(env, g, cost, hop, cls, &fam);
    hb_family_rec_decide(&fam);
    json_t *flags[2] = {json_array(), json_array()};
    hb_family_rec_split(&fam, flags, "evidence", "inconclusive");
    enum hb_hmat_attr attr = HB_HMAT_LATENCY;
    grid_matrix(env, g, cost, dist, hop, cls, flags, hb_family_rec_json(&fam), hmat, &attr,
                derived);
    hb_family_rec_free(&fam);
    grid_cells(t, g, cost, cls, hmat, attr, derived);
out:
    free(cost);
    free(dist);
    free(hmat);
    free(sorted);
    free(hop);
    free(cls);
}

static void grid_free(struct hb_grid *g)
{
    if (!g) return;
    free(g->v);
    free(g->rec);
    free(g);
}

/* The matrices of one run: one per host and kernel, as many as the records hold. */
struct hb_grids {
    struct hb_grid **g;
    int n, cap;
};

/* The grid of host/kernel, made on first use; NULL only when memory ran out. */
static struct hb_grid *grid_get(const struct hb_topo *t, struct hb_grids *all, const char *host,
                                const char *kernel, const char *access, bool latency)
{
    for (int g = 0; g < all->n; g++)
        if (strcmp(all->g[g]->host, host) == 0 && strcmp(all->g[g]->kernel, kernel) == 0)
            return all->g[g];
    if (all->n == all->cap) {
        int cap = all->cap ? 2 * all->cap : 16;
        struct hb_grid **grown = realloc(all->g, sizeof(*grown) * (size_t)cap);
        if (!grown) return NULL;
        all->g = grown;
        all->cap = cap;
    }
    size_t cells = (size_t)t->nnodes * (size_t)t->nnodes;
    struct hb_grid *g = calloc(1, sizeof(*g));
    if (g) g->v = malloc(sizeof(*g->v) * cells);
    if (g) g->rec = calloc(cells, sizeof(*g->rec));
    if (!g || !g->v || !g->rec) {
        grid_free(g);
        return NULL;
    }
    g->host = host;
    g->kernel = kernel;
    g->access = access;
    g->latency = latency;
    for (size_t c = 0; c < cells; c++)
        g->v[c] = NAN;
    all->g[all->n++] = g;
    return g;
}

int hb_suite_matrix_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    const struct hb_topo *t = env->topo;
    struct hb_grids all = {0};
    int rc = 0;
    size_t k;
    json_t *rec;
    json_array_foreach(measured, k, rec)
    {
        const char *suite = json_string_value(json_object_get(rec, "suite"));
        const char *role = json_string_value(json_object_get(rec, "role"));
        if (!suite || strcmp(suite, "matrix") != 0 || !role || strcmp(role, "foreground") != 0)
            continue;
        bool latency = strcmp(json_string_value(json_object_get(rec, "metric")), "latency") == 0;
        json_t *value = json_object_get(rec, hb_jsonl_read_headline_key(rec));
        int i = hb_topo_nodes_index(t, (int)json_integer_value(json_object_get(rec, "cpu_node")));
        int j = hb_topo_nodes_index(t, (int)json_integer_value(json_object_get(rec, "mem_node")));
        struct hb_grid *g = grid_get(t, &all, json_string_value(json_object_get(rec, "host")),
                                     json_string_value(json_object_get(rec, "kernel")),
                                     json_string_value(json_object_get(rec, "access")), latency);
        if (!g) {
            hb_error_set("out of memory holding %d matrices of %d x %d nodes", all.n + 1, t->nnodes,
                         t->nnodes);
            rc = -ENOMEM;
            break;
        }
        if (i < 0 || j < 0 || !json_is_number(value)) continue;
        HB_AT(g->v, t, i, j) = json_number_value(value);
        HB_AT(g->rec, t, i, j) = rec;
    }
    /* Said once, not per matrix (nor per host): the firmware has nothing beyond SLIT to
     * compare with. */
    bool said = env->across && env->across->said;
    if (rc == 0 && all.n > 0 && !hb_topo_mem_hmat_present(t) && !said)
        json_array_append_new(
            derived, json_pack("{s:s, s:s, s:s, s:s}", "type", "note", "suite", "matrix", "about",
                               "hmat", "text",
                               "HMAT: none, the firmware gives no latency or bandwidth per "
                               "initiator; measured matrices are compared with SLIT only"));
    if (env->across && all.n > 0) env->across->said = true;
    for (int g = 0; rc == 0 && g < all.n; g++)
        grid_emit(env, all.g[g], derived);
    /* Host by host: the fleet record once every host's figures are in (derive_end). */
    if (rc == 0 && env->across) {
        env->across->free = hb_matrix_fleet_free;
        rc = hb_matrix_fleet_add(t, all.g, all.n, (struct hb_fleet_acc **)&env->across->data);
    } else if (rc == 0) {
        rc = hb_matrix_fleet(t, env->opts->fleet_threshold_pct, all.g, all.n, env->host_configs,
                             derived);
    }
    for (int g = 0; g < all.n; g++)
        grid_free(all.g[g]);
    free(all.g);
    return rc;
}

int hb_suite_matrix_derive_end(const struct hb_suite_env *env, json_t *derived)
{
    return hb_matrix_fleet_end(env->across->data, env->opts->fleet_threshold_pct, env->host_configs,
                               derived);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int matrix_takes[] = {OPT_KERNEL,          OPT_THREADS,      OPT_SIZE,   OPT_PAGES,
                                   OPT_STRIDE,          OPT_TLB_GROUP,    OPT_NODES,  OPT_THRESHOLD,
                                   OPT_FLEET_THRESHOLD, OPT_EXPORT_HWLOC, OPT_CHAINS, 0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
const char *const hb_suite_matrix_reads[] = {"bw_GBps_median", "repeat_values", NULL};

const struct hb_suite hb_suite_matrix = {
    .takes = matrix_takes,
    .kernels = HB_MATRIX_KERNELS ", with the chase always",
    .name = "matrix",
    .help = "latency and bandwidth for every CPU node x memory node",
    .plan = hb_suite_matrix_plan,
    .derive = hb_suite_matrix_derive,
    .reads = hb_suite_matrix_reads,
    .derive_end = hb_suite_matrix_derive_end,
    .tiers = "matrix",
};
