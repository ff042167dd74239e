/* The cells of a check (hb_health_cells.h) from measurement records: which figure a record
 * is, its name for people and its key. */
#include "hb_health_cells.h"
#include "hb_suite_check.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_strf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int hb_health_cells_add(struct hb_health_cells *c, const char *host, const char *name,
                        const char *key, const char *unit, const double *values, int n)
{
    char *place = hb_strf("%s\n%s", host, key);
    if (!place || (!c->index && !(c->index = json_object()))) {
        free(place);
        goto oom;
    }
    /* A cell met again (peers, or a baseline of several checks) pools its repeats. */
    const json_t *at = json_object_get(c->index, place);
    if (at) {
        free(place);
        struct hb_health_cell *have = &c->v[json_integer_value(at)];
        double *v = realloc(have->values, sizeof(double) * (size_t)(have->n + n + 1));
        if (!v) goto oom;
        memcpy(v + have->n, values, sizeof(double) * (size_t)n);
        have->values = v;
        have->n += n;
        return 0;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        struct hb_health_cell *v = realloc(c->v, cap * sizeof(*v));
        if (!v) {
            free(place);
            goto oom;
        }
        c->v = v;
        c->cap = cap;
    }
    struct hb_health_cell *x = &c->v[c->n];
    *x = (struct hb_health_cell){strdup(host),
                                 strdup(name),
                                 strdup(key),
                                 unit,
                                 malloc(sizeof(double) * (size_t)(n ? n : 1)),
                                 n};
    if (!x->host || !x->name || !x->key || !x->values ||
        json_object_set_new(c->index, place, json_integer((json_int_t)c->n))) {
        free(x->host), free(x->name), free(x->key), free(x->values), free(place);
        goto oom;
    }
    free(place);
    memcpy(x->values, values, sizeof(double) * (size_t)n);
    c->n++;
    return 0;
oom:
    hb_error_set("check: out of memory holding the cells");
    return -ENOMEM;
}

const struct hb_health_cell *hb_health_cells_find(const struct hb_health_cells *c, const char *host,
                                                  const char *key)
{
    char *place = c->index ? hb_strf("%s\n%s", host, key) : NULL;
    const json_t *i = place ? json_object_get(c->index, place) : NULL;
    free(place);
    return i ? &c->v[json_integer_value(i)] : NULL;
}

void hb_health_cells_free(struct hb_health_cells *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].host), free(c->v[i].name), free(c->v[i].key), free(c->v[i].values);
    free(c->v);
    json_decref(c->index);
    *c = (struct hb_health_cells){0};
}

char *hb_health_cells_key(const char *name, int threads, long long bytes)
{
    /* The peak's: its node count (negative threads), each node's cores being its threads. */
    return threads < 0 ? hb_strf("%s nodes=%d bytes=%lld", name, -threads, bytes)
                       : hb_strf("%s threads=%d bytes=%lld", name, threads, bytes);
}

/* A task's cell name as name_of gives its record's. */
static char *task_name(const struct hb_task *t)
{
    if (t->kernel[0] == 'c') return hb_strf("latency %d", t->cpu_node);
    return t->cpu_node == t->mem_node ? hb_strf("local read %d", t->cpu_node)
                                      : hb_strf("remote read %d->%d", t->cpu_node, t->mem_node);
}

int hb_health_cells_plan_keys(const struct hb_plan *plan, json_t *keys)
{
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        bool peak = strcmp(e->name, HB_CHECK_PEAK) == 0;
        for (int k = 0; k < (peak ? 1 : e->ntasks); k++) {
            const struct hb_task *t = &e->tasks[k];
            char *name = peak ? strdup("peak read") : task_name(t);
            char *key = name ? hb_health_cells_key(name, peak ? -e->ntasks : t->threads,
                                                   (long long)t->bytes)
                             : NULL;
            int rc = key ? json_array_append_new(keys, json_string(key)) : -1;
            free(name);
            free(key);
            if (rc) return -ENOMEM;
        }
    }
    return 0;
}

/* The record's repeats in *out (free it): how many; -1 when out of memory. */
static int repeats_of(const json_t *rec, double **out)
{
    const json_t *rv = json_object_get(rec, "repeat_values");
    *out = malloc(sizeof(double) * (json_array_size(rv) + 1));
    if (!*out) return -1;
    int n = 0;
    size_t i;
    const json_t *x;
    json_array_foreach(rv, i, x) if (json_is_number(x))(*out)[n++] = json_number_value(x);
    return n;
}

/* What a record measured, as a cell's name: "latency 0", "local read 0", "remote read 0->1",
 * or NULL when it is none of check's figures. */
static char *name_of(const json_t *rec)
{
    const char *kernel = hb_jsonl_read_str(rec, "kernel", "");
    const char *policy = hb_jsonl_read_str(rec, "policy", "");
    int cpu = (int)hb_jsonl_read_num(rec, "cpu_node", -1),
        mem = (int)hb_jsonl_read_num(rec, "mem_node", -1);
    double chains = hb_jsonl_read_num(rec, "chains", 1);
    if (strcmp(policy, "bind") != 0 || cpu < 0 || mem < 0) return NULL;
    if (strcmp(kernel, "chase") == 0 && cpu == mem && chains <= 1 &&
        hb_jsonl_read_num(rec, "threads", 0) == 1)
        return hb_strf("latency %d", cpu);
    if (strcmp(kernel, "read") != 0) return NULL;
    return cpu == mem ? hb_strf("local read %d", cpu) : hb_strf("remote read %d->%d", cpu, mem);
}

/* The peak experiment's records of one host, summed repeat by repeat into its cell. */
struct peak_sum {
    const char *host;
    double *sums;
    int n, nodes;
    int *cpu_nodes; /* the nodes summed (nodes of them): one met again starts the next run's */
    long long bytes;
    bool broken; /* a node without repeats, or with another count */
};

static int peak_flush(struct peak_sum *p, struct hb_health_cells *c)
{
    int rc = 0;
    if (p->host && !p->broken && p->n > 0) {
        char *key = hb_health_cells_key("peak read", -p->nodes, p->bytes);
        rc = key ? hb_health_cells_add(c, p->host, "peak read", key, "GBps", p->sums, p->n)
                 : -ENOMEM;
        free(key);
    }
    free(p->sums);
    free(p->cpu_nodes);
    memset(p, 0, sizeof(*p));
    return rc;
}

static bool peak_has(const struct peak_sum *p, int cpu_node)
{
    for (int i = 0; i < p->nodes; i++)
        if (p->cpu_nodes[i] == cpu_node) return true;
    return false;
}

static int peak_add(struct peak_sum *p, const json_t *rec, struct hb_health_cells *c)
{
    const char *host = hb_jsonl_read_str(rec, "host", "");
    int node = (int)hb_jsonl_read_num(rec, "cpu_node", -1), rc = 0;
    /* Another host, or the same node again (a file of several checks): the next sum. */
    if (p->host && (strcmp(p->host, host) != 0 || peak_has(p, node))) rc = peak_flush(p, c);
    if (rc) return rc;
    int *nodes = realloc(p->cpu_nodes, sizeof(int) * (size_t)(p->nodes + 1));
    if (!nodes) return -ENOMEM;
    p->cpu_nodes = nodes;
    nodes[p->nodes] = node;
    double *v;
    int n = repeats_of(rec, &v);
    if (n < 0) return -ENOMEM;
    if (!p->host) {
        p->host = host;
        p->n = n;
        p->bytes = (long long)hb_jsonl_read_num(rec, "bytes", 0);
        p->sums = calloc((size_t)n + 1, sizeof(double));
    }
    if (n != p->n || n == 0) p->broken = true;
    for (int k = 0; p->sums && k < n && k < p->n; k++)
        p->sums[k] += v[k];
    free(v);
    p->nodes++;
    return rc ? rc : p->sums ? 0 : -ENOMEM;
}

int hb_health_cells_of(const json_t *records, struct hb_health_cells *c)
{
    struct peak_sum peak = {0};
    size_t i;
    const json_t *rec;
    int rc = 0;
    json_array_foreach(records, i, rec)
    {
        if (rc) break;
        if (strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") != 0 ||
            strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") != 0)
            continue;
        const char *exp = hb_jsonl_read_str(rec, "experiment", "");
        /* check's own total, or peak's all-read experiment of any run. */
        if (strcmp(exp, HB_CHECK_PEAK) == 0 || strcmp(exp, "peak-read-bind") == 0) {
            rc = peak_add(&peak, rec, c);
            continue;
        }
        char *name = name_of(rec);
        if (!name) continue;
        double *v;
        int n = repeats_of(rec, &v);
        char *key =
            hb_strf("%s threads=%d bytes=%lld", name, (int)hb_jsonl_read_num(rec, "threads", 0),
                    (long long)hb_jsonl_read_num(rec, "bytes", 0));
        const char *unit =
            strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") == 0 ? "ns" : "GBps";
        rc = key && n > 0
                 ? hb_health_cells_add(c, hb_jsonl_read_str(rec, "host", ""), name, key, unit, v, n)
             : key && n >= 0 ? 0
                             : -ENOMEM;
        free(v);
        free(key);
        free(name);
    }
    if (rc == 0) rc = peak_flush(&peak, c);
    if (rc == -ENOMEM) hb_error_set("check: out of memory reading the cells");
    return rc;
}
