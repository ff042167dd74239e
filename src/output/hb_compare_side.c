/* compare's reading of one result file: identities, headlines, repeats, unusable records,
 * duplicated identities, and the run records' machine (output layer, beside hb_compare.c). */
#include "hb_compare_side.h"

#include "hb_error.h"
#include "hb_interval.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hb_cmp_intern(struct hb_strtab *t, const char *s, uint32_t *id)
{
    *id = hb_strtab_add(t, s ? s : "", s ? strlen(s) : 0);
    return *id == HB_STRTAB_NONE ? -ENOMEM : 0;
}

static void hb_cmp_node(char *buf, size_t len, const json_t *v)
{
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else
        snprintf(buf, len, "-");
}

/* The number at key as a long long (clamped to its range), 0 when absent. */
static long long hb_cmp_ll(const json_t *rec, const char *key)
{
    double v = hb_rec_num(rec, key, 0);
    return v <= (double)LLONG_MIN ? LLONG_MIN : v >= (double)LLONG_MAX ? LLONG_MAX : (long long)v;
}

/* The headline's key and unit: "value" with the record's unit; in files from before repeats
 * a latency's median ns, a bandwidth's best (or median) GB/s, else the median time. */
static const char *hb_cmp_key_of(const json_t *rec, const char **unit)
{
    const char *metric = hb_rec_str(rec, "metric", "");
    bool lat = strcmp(metric, "latency") == 0, bw = strcmp(metric, "bandwidth") == 0;
    *unit = lat ? "ns" : bw ? "GBps" : "s";
    if (json_is_string(json_object_get(rec, "unit"))) *unit = hb_rec_str(rec, "unit", "");
    /* Records with repeats are judged by their value alone (null when no repeat had one). */
    if (json_object_get(rec, "repeats") ||
        (json_object_get(rec, "value") && !json_is_null(json_object_get(rec, "value"))))
        return "value";
    if (lat) return "lat_ns_median";
    if (bw) return json_object_get(rec, "bw_GBps_best") ? "bw_GBps_best" : "bw_GBps_median";
    return "t_median_s";
}

static bool hb_cmp_positive(const json_t *v)
{
    return json_is_number(v) && json_number_value(v) > 0.0 && isfinite(json_number_value(v));
}

/* Why the record cannot be judged (a new string), "" when it can; NULL when out of memory.
 * Its measurement must have passed its checks (a failed one's figure is no measurement of
 * the placement it names), and its headline be a positive finite figure within what any
 * machine gives. */
static char *hb_cmp_unusable(const json_t *rec, const char *key, const char *unit)
{
    const char *status = hb_rec_str(rec, "status", "ok");
    if (strcmp(status, "ok") != 0)
        return hb_strf("its measurement has status %s (%s)", status,
                       hb_rec_str(rec, "note", "no note"));
    const json_t *v = json_object_get(rec, key);
    if (!json_is_number(v))
        return hb_strf("its headline %s is %s", key, v ? "not a number" : "missing");
    double x = json_number_value(v);
    double most = strcmp(unit, "ns") == 0 ? 1e10 : strcmp(unit, "GBps") == 0 ? 1e5 : 1e6;
    if (!(x > 0.0) || !isfinite(x))
        return hb_strf("its headline %s = %g is not a positive figure", key, x);
    if (x > most) return hb_strf("its headline %s = %g %s is beyond any machine", key, x, unit);
    /* The samples the figure was made from: a record without them made it from nothing. */
    const json_t *samples = json_object_get(rec, "samples_s"), *r;
    size_t i;
    if (samples && (!json_is_array(samples) || json_array_size(samples) == 0))
        return hb_strf("its samples_s is %s", json_is_array(samples) ? "empty" : "not a list");
    json_array_foreach(samples, i, r)
    {
        if (!hb_cmp_positive(r))
            return hb_strf("sample %zu of samples_s is not a positive time", i + 1);
    }
    const json_t *reps = json_object_get(rec, "repeat_values");
    if (reps && !json_is_array(reps) && !json_is_null(reps))
        return hb_strf("repeat_values is not a list");
    json_array_foreach(reps, i, r)
    {
        if (!hb_cmp_positive(r))
            return hb_strf("repeat %zu of repeat_values is not a positive figure", i + 1);
    }
    return hb_strf("%s", "");
}

/* Room for one more record and ns more repeat values. */
static int hb_cmp_grow(struct hb_cmp_side *sd, size_t ns)
{
    if (sd->n == sd->cap) {
        size_t cap = sd->cap ? sd->cap * 2 : 1024;
        struct hb_cmp_rec *v = realloc(sd->v, cap * sizeof(*v));
        if (!v) return -ENOMEM;
        sd->v = v;
        sd->cap = cap;
    }
    if (ns > sd->rcap - sd->nreps) {
        size_t cap = sd->rcap ? sd->rcap : 4096;
        while (ns > cap - sd->nreps)
            cap *= 2;
        double *v = realloc(sd->reps, cap * sizeof(*v));
        if (!v) return -ENOMEM;
        sd->reps = v;
        sd->rcap = cap;
    }
    return 0;
}

/* The record's identity in parts, interned. */
static int hb_cmp_identity(struct hb_cmp_side *sd, const json_t *rec, struct hb_cmp_rec *r)
{
    char cpu[24], mem[24];
    hb_cmp_node(cpu, sizeof(cpu), json_object_get(rec, "cpu_node"));
    hb_cmp_node(mem, sizeof(mem), json_object_get(rec, "mem_node"));
    char *head = hb_strf("%s %s %s", hb_rec_str(rec, "suite", "?"),
                         hb_rec_str(rec, "experiment", "?"), hb_rec_str(rec, "label", "?"));
    char *tail =
        hb_strf(" cpu=%s mem=%s %s threads=%lld bytes=%lld", cpu, mem,
                hb_rec_str(rec, "kernel", "?"), hb_cmp_ll(rec, "threads"), hb_cmp_ll(rec, "bytes"));
    int rc = head && tail ? 0 : -ENOMEM;
    if (rc == 0) rc = hb_cmp_intern(sd->str, head, &r->head);
    if (rc == 0) rc = hb_cmp_intern(sd->str, tail, &r->tail);
    if (rc == 0) rc = hb_cmp_intern(sd->str, hb_rec_str(rec, "host", ""), &r->host);
    if (rc == 0) rc = hb_cmp_intern(sd->str, hb_rec_str(rec, "metric", "?"), &r->metric);
    free(head);
    free(tail);
    return rc;
}

/* Whether rec's host is one the run record lists (true when either says nothing of hosts):
 * the list is interned once, so a fleet's records cost one lookup each. -ENOMEM when memory
 * ran out. */
static int hb_cmp_host_of_run(struct hb_cmp_side *sd, const json_t *rec)
{
    const json_t *hosts = json_object_get(sd->res.run, "hosts"), *h;
    size_t i;
    if (sd->run_hosts_state == 0 && sd->res.run) {
        sd->run_hosts_state = json_is_array(hosts) ? 1 : -1;
        json_array_foreach(hosts, i, h) if (json_is_string(h) &&
                                            hb_strtab_add(&sd->run_hosts, json_string_value(h),
                                                          json_string_length(h)) ==
                                                HB_STRTAB_NONE) return -ENOMEM;
    }
    const char *host = json_string_value(json_object_get(rec, "host"));
    if (sd->run_hosts_state != 1 || !host) return 1;
    return hb_strtab_find(&sd->run_hosts, host, strlen(host)) != HB_STRTAB_NONE;
}

/* hb_results_take_fn: a foreground measurement's identity, headline and repeats. */
static int hb_cmp_take(void *ctx, const json_t *rec)
{
    struct hb_cmp_side *sd = ctx;
    if (strcmp(hb_rec_str(rec, "type", ""), "measurement") != 0 ||
        strcmp(hb_rec_str(rec, "role", "foreground"), "foreground") != 0)
        return 0;
    const json_t *reps = json_object_get(rec, "repeat_values");
    size_t nr = json_is_array(reps) ? json_array_size(reps) : 0;
    if (hb_cmp_grow(sd, nr)) return -ENOMEM;
    struct hb_cmp_rec *r = &sd->v[sd->n];
    *r = (struct hb_cmp_rec){.line = sd->res.line, .rep0 = sd->nreps, .lo = NAN, .hi = NAN};
    const char *unit = "";
    const char *key = hb_cmp_key_of(rec, &unit);
    char *why = hb_cmp_unusable(rec, key, unit);
    int listed = why && !why[0] ? hb_cmp_host_of_run(sd, rec) : 1;
    if (listed < 0) {
        free(why);
        return -ENOMEM;
    }
    if (!listed) {
        free(why);
        why = hb_strf("its host %s is not one of the run record's hosts (a record of another "
                      "run?)",
                      hb_rec_str(rec, "host", "?"));
    }
    int rc = why ? hb_cmp_identity(sd, rec, r) : -ENOMEM;
    if (rc == 0) rc = hb_cmp_intern(sd->str, unit, &r->unit);
    if (rc == 0 && why[0]) rc = hb_cmp_intern(sd->str, why, &r->bad);
    if (rc == 0 && !why[0]) r->bad = HB_STRTAB_NONE;
    free(why);
    if (rc) return -ENOMEM;
    if (sd->hosts == 0) sd->host0 = r->host;
    sd->hosts = sd->hosts == 0 ? 1 : sd->hosts == 1 && r->host != sd->host0 ? 2 : sd->hosts;
    r->higher_better = strcmp(unit, "GBps") == 0;
    r->value = hb_rec_num(rec, key, NAN);
    struct hb_interval iv;
    if (hb_rec_interval(rec, &iv)) {
        r->lo = iv.lo;
        r->hi = iv.hi;
    }
    for (size_t i = 0; r->bad == HB_STRTAB_NONE && i < nr; i++)
        sd->reps[sd->nreps + i] = json_number_value(json_array_get(reps, i));
    r->nrep = r->bad == HB_STRTAB_NONE ? (int)nr : 0;
    sd->nreps += (size_t)r->nrep;
    sd->n++;
    return 0;
}

/* The keys hb_cmp_take and what it calls read (the reader builds no others): identity,
 * headline in every file generation's spelling, interval, repeats, samples, status. */
static const char *const hb_cmp_keys[] = {
    "role",           "suite",      "experiment", "label",         "host",
    "cpu_node",       "mem_node",   "kernel",     "threads",       "bytes",
    "metric",         "unit",       "value",      "lat_ns_median", "bw_GBps_best",
    "bw_GBps_median", "t_median_s", "ci95",       "ci_coverage",   "repeats",
    "repeat_values",  "samples_s",  "status",     "note",          NULL};

int hb_cmp_side_read(const char *path, struct hb_cmp_side *sd)
{
    return hb_results_read_keys(path, hb_cmp_keys, hb_cmp_take, sd, &sd->res);
}

static size_t hb_cmp_hash(const struct hb_cmp_rec *r, int with_host, size_t nslots)
{
    uint64_t h = r->head * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (with_host ? r->host : 0)) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ r->tail) * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 17) & (nslots - 1);
}

static int hb_cmp_same(const struct hb_cmp_rec *a, const struct hb_cmp_rec *b, int with_host)
{
    return a->head == b->head && a->tail == b->tail && (!with_host || a->host == b->host);
}

const struct hb_cmp_rec *hb_cmp_side_find(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r,
                                          int with_host)
{
    for (size_t i = hb_cmp_hash(r, with_host, sd->nslots); sd->slots[i];
         i = (i + 1) & (sd->nslots - 1))
        if (hb_cmp_same(&sd->v[sd->slots[i] - 1], r, with_host)) return &sd->v[sd->slots[i] - 1];
    return NULL;
}

int hb_cmp_side_index(struct hb_cmp_side *sd, int with_host)
{
    size_t n = 1024;
    while (n < 2 * sd->n + 2)
        n *= 2;
    if (sd->n >= UINT32_MAX || !(sd->slots = calloc(n, sizeof(*sd->slots)))) {
        hb_err_set("%s: out of memory indexing %zu measurements", sd->res.path, sd->n);
        return -ENOMEM;
    }
    sd->nslots = n;
    for (size_t k = 0; k < sd->n; k++) {
        const struct hb_cmp_rec *earlier = hb_cmp_side_find(sd, &sd->v[k], with_host);
        sd->v[k].first = earlier ? (int)(earlier - sd->v) + 1 : 0;
        if (earlier) continue;
        size_t i = hb_cmp_hash(&sd->v[k], with_host, n);
        while (sd->slots[i])
            i = (i + 1) & (n - 1);
        sd->slots[i] = (uint32_t)k + 1;
    }
    return 0;
}

char *hb_cmp_side_key(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r, int with_host)
{
    return hb_strf("%s%s%s%s", hb_strtab_get(sd->str, r->head), with_host ? " host=" : "",
                   with_host ? hb_strtab_get(sd->str, r->host) : "",
                   hb_strtab_get(sd->str, r->tail));
}

/* A run record's fact as text (NULL when it does not say): hosts, CPUs, SIMD, build, version. */
static char *hb_cmp_fact(const json_t *run, int which)
{
    const json_t *v = NULL;
    long long cpus = 0;
    size_t i;
    const json_t *x;
    switch (which) {
    case 0:
        v = json_object_get(run, "hosts");
        break;
    case 1:
        json_array_foreach(json_object_get(json_object_get(run, "topology"), "nodes"), i, x) cpus +=
            (long long)json_array_size(json_object_get(x, "cpus"));
        return cpus ? hb_strf("%lld", cpus) : NULL;
    case 2:
        v = json_object_get(run, "simd");
        break;
    case 3:
        v = json_object_get(json_object_get(run, "build"), "type");
        break;
    case 4:
        v = json_object_get(run, "hopbench_version");
        break;
    default:
        v = json_object_get(run, "git_sha");
    }
    return v && !json_is_null(v) ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

char *hb_cmp_machines(const json_t *base_run, const json_t *new_run)
{
    static const char *const names[] = {"hosts", "CPUs", "simd", "build", "version", "git"};
    char *out = hb_strf("%s", "");
    for (int k = 0; out && k < 6; k++) {
        char *a = hb_cmp_fact(base_run, k), *b = hb_cmp_fact(new_run, k);
        /* A fact one run records and the other does not (an older file) is no evidence of
         * the same machine either. */
        if ((a || b) && !(a && b && strcmp(a, b) == 0)) {
            char *more = hb_strf("%s%s%s %s -> %s", out, out[0] ? "; " : "", names[k],
                                 a ? a : "(not recorded)", b ? b : "(not recorded)");
            free(out);
            out = more;
        }
        free(a);
        free(b);
    }
    return out;
}

void hb_cmp_side_free(struct hb_cmp_side *sd)
{
    hb_results_free(&sd->res);
    hb_strtab_free(&sd->run_hosts);
    free(sd->v);
    free(sd->reps);
    free(sd->slots);
}
