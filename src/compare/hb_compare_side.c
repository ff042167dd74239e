/* compare's reading of one result file: identities, headlines, repeats, unusable records,
 * duplicated identities, and the run records' machine (output layer, beside hb_compare.c). */
#include "hb_compare_side.h"

#include "hb_error.h"
#include "hb_strf.h"
#include "hb_interval.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_intern(struct hb_strtab *t, const char *s, uint32_t *id)
{
    *id = hb_strtab_add(t, s ? s : "", s ? strlen(s) : 0);
    return *id == HB_STRTAB_NONE ? -ENOMEM : 0;
}

/* The keys compare reads (the reader shows no others): identity, headline in every file
 * generation's spelling, interval, repeats, samples, status. */
enum hb_cmp_key {
    K_TYPE,
    K_ROLE,
    K_SUITE,
    K_EXPERIMENT,
    K_LABEL,
    K_HOST,
    K_CPU_NODE,
    K_MEM_NODE,
    K_KERNEL,
    K_THREADS,
    K_BYTES,
    K_METRIC,
    K_UNIT,
    K_VALUE,
    K_LAT_NS_MEDIAN,
    K_BW_GBPS_BEST,
    K_BW_GBPS_MEDIAN,
    K_T_MEDIAN_S,
    K_CI95,
    K_CI_COVERAGE,
    K_REPEATS,
    K_REPEAT_VALUES,
    K_SAMPLES_S,
    K_STATUS,
    K_NOTE,
    K_MEASUREMENTS,
    K_NOISY,
    K_ELAPSED_S,
    K_ESTIMATE_S,
    K_SPREAD_MEDIAN,
    K_COUNT
};
static const char *const cmp_keys[K_COUNT + 1] = {[K_TYPE] = "type",
                                                  [K_ROLE] = "role",
                                                  [K_SUITE] = "suite",
                                                  [K_EXPERIMENT] = "experiment",
                                                  [K_LABEL] = "label",
                                                  [K_HOST] = "host",
                                                  [K_CPU_NODE] = "cpu_node",
                                                  [K_MEM_NODE] = "mem_node",
                                                  [K_KERNEL] = "kernel",
                                                  [K_THREADS] = "threads",
                                                  [K_BYTES] = "bytes",
                                                  [K_METRIC] = "metric",
                                                  [K_UNIT] = "unit",
                                                  [K_VALUE] = "value",
                                                  [K_LAT_NS_MEDIAN] = "lat_ns_median",
                                                  [K_BW_GBPS_BEST] = "bw_GBps_best",
                                                  [K_BW_GBPS_MEDIAN] = "bw_GBps_median",
                                                  [K_T_MEDIAN_S] = "t_median_s",
                                                  [K_CI95] = "ci95",
                                                  [K_CI_COVERAGE] = "ci_coverage",
                                                  [K_REPEATS] = "repeats",
                                                  [K_REPEAT_VALUES] = "repeat_values",
                                                  [K_SAMPLES_S] = "samples_s",
                                                  [K_STATUS] = "status",
                                                  [K_NOTE] = "note",
                                                  [K_MEASUREMENTS] = "measurements",
                                                  [K_NOISY] = "noisy",
                                                  [K_ELAPSED_S] = "elapsed_s",
                                                  [K_ESTIMATE_S] = "estimate_s",
                                                  [K_SPREAD_MEDIAN] = "spread_pct_median",
                                                  [K_COUNT] = NULL};

/* What a parsing thread makes of one record (strings and repeats in the view's arena). */
struct hb_cmp_prep {
    bool skip;    /* not a foreground measurement */
    bool summary; /* the run's summary record: its figures in sum */
    struct hb_cmp_summary sum;
    const char *head, *tail; /* the identity's parts (struct hb_cmp_rec) */
    const char *host, *metric, *unit;
    const char *why; /* why it cannot be judged, "" when it can */
    int higher_better;
    double value, lo, hi, coverage;
    const double *reps;
    int nrep;
};

/* printf into the view's arena; NULL when out of memory. */
static char *cmp_fmt(const struct hb_view *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *cmp_fmt(const struct hb_view *v, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    char *out = n >= 0 ? hb_jsonl_view_alloc(v, (size_t)n + 1) : NULL;
    if (out && (size_t)n < sizeof(small)) {
        memcpy(out, small, (size_t)n + 1);
    } else if (out) {
        va_start(ap, fmt);
        vsnprintf(out, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return out;
}

/* The list at key as numbers (NAN for an item that is none) in the arena: *n of them. */
static const double *cmp_list(const struct hb_view *v, int key, size_t *n)
{
    static const double none[1];
    *n = hb_jsonl_view_len(v, key);
    if (*n == 0) return none;
    double *x = *n <= SIZE_MAX / sizeof(*x) ? hb_jsonl_view_alloc(v, *n * sizeof(*x)) : NULL;
    if (x) hb_jsonl_view_numbers(v, key, x);
    return x;
}

/* n in decimal (what "%lld" writes), without printf. */
static void cmp_ll_text(char *buf, size_t len, long long n)
{
    char rev[24];
    int k = 0;
    unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
    do
        rev[k++] = (char)('0' + u % 10);
    while ((u /= 10) && k < 23);
    size_t at = 0;
    if (n < 0 && at + 1 < len) buf[at++] = '-';
    while (k > 0 && at + 1 < len)
        buf[at++] = rev[--k];
    buf[at] = 0;
}

/* A node as the identity names it: its number, or "-" when the record gives none. */
static void cmp_node(char *buf, size_t len, const struct hb_view *v, int key)
{
    long long n;
    if (hb_jsonl_view_integer(v, key, &n))
        cmp_ll_text(buf, len, n);
    else
        snprintf(buf, len, "-");
}

/* The number at key as a long long (clamped to its range), 0 when absent. */
static long long cmp_ll(const struct hb_view *v, int key)
{
    double x = hb_jsonl_view_num(v, key, 0);
    return x <= (double)LLONG_MIN ? LLONG_MIN : x >= (double)LLONG_MAX ? LLONG_MAX : (long long)x;
}

/* The strings of parts (NULL-ended) one after the other, in the view's arena: the identity
 * of every record, made without printf. NULL when out of memory. */
static char *cmp_cat(const struct hb_view *v, const char *const *parts)
{
    size_t all = 1;
    for (int i = 0; parts[i]; i++)
        all += strlen(parts[i]);
    char *out = hb_jsonl_view_alloc(v, all), *at = out;
    for (int i = 0; out && parts[i]; i++)
        at = stpcpy(at, parts[i]);
    return out;
}

/* The headline's key and unit: "value" with the record's unit; in files from before repeats
 * a latency's median ns, a bandwidth's best (or median) GB/s, else the median time. */
static int cmp_key_of(const struct hb_view *v, const char **unit)
{
    const char *metric = hb_jsonl_view_str(v, K_METRIC, "");
    bool lat = strcmp(metric, "latency") == 0, bw = strcmp(metric, "bandwidth") == 0;
    *unit = hb_jsonl_view_str(v, K_UNIT, lat ? "ns" : bw ? "GBps" : "s");
    /* Records with repeats are judged by their value alone (null when no repeat had one). */
    enum hb_jsonl_view_type value = hb_jsonl_view_type(v, K_VALUE);
    if (hb_jsonl_view_type(v, K_REPEATS) != HB_VIEW_ABSENT ||
        (value != HB_VIEW_ABSENT && value != HB_VIEW_NULL))
        return K_VALUE;
    if (lat) return K_LAT_NS_MEDIAN;
    if (bw)
        return hb_jsonl_view_type(v, K_BW_GBPS_BEST) != HB_VIEW_ABSENT ? K_BW_GBPS_BEST
                                                                       : K_BW_GBPS_MEDIAN;
    return K_T_MEDIAN_S;
}

/* The first item of x[0..n) that is not a positive finite figure: its number (1-based), or 0. */
static size_t cmp_not_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0) || !isfinite(x[i])) return i + 1;
    return 0;
}

/* Why the record cannot be judged (in the arena), "" when it can; NULL when out of memory.
 * Its measurement must have passed its checks (a failed one's figure is no measurement of
 * the placement it names), and its headline be a positive finite figure within what any
 * machine gives. The repeats go to p. */
static const char *cmp_unusable(const struct hb_view *v, int key, const char *unit,
                                struct hb_cmp_prep *p)
{
    const char *status = hb_jsonl_view_str(v, K_STATUS, "ok");
    if (strcmp(status, "ok") != 0)
        return cmp_fmt(v, "its measurement has status %s (%s)", status,
                       hb_jsonl_view_str(v, K_NOTE, "no note"));
    if (hb_jsonl_view_type(v, key) != HB_VIEW_NUMBER)
        return cmp_fmt(v, "its headline %s is %s", cmp_keys[key],
                       hb_jsonl_view_type(v, key) == HB_VIEW_ABSENT ? "missing" : "not a number");
    double x = hb_jsonl_view_num(v, key, NAN);
    /* The units hopbench writes, each with the most any machine gives (over 10 s per load,
     * 100 TB/s, 1000 s per message or sample): an unknown unit has no such sanity limit. */
    static const struct {
        const char *unit;
        double most;
    } units[] = {{"ns", 1e10}, {"GBps", 1e5}, {"us", 1e9}, {"s", 1e6}};
    double most = NAN;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(unit, units[i].unit) == 0) most = units[i].most;
    if (isnan(most))
        return cmp_fmt(v, "its unit '%s' is none compare knows (ns, us, GBps, s)", unit);
    if (!(x > 0.0) || !isfinite(x))
        return cmp_fmt(v, "its headline %s = %g is not a positive figure", cmp_keys[key], x);
    if (x > most)
        return cmp_fmt(v, "its headline %s = %g %s is beyond any machine", cmp_keys[key], x, unit);
    /* The samples the figure was made from: a record without them made it from nothing. */
    enum hb_jsonl_view_type samples = hb_jsonl_view_type(v, K_SAMPLES_S);
    size_t n, bad;
    if (samples != HB_VIEW_ABSENT &&
        (samples != HB_VIEW_ARRAY || hb_jsonl_view_len(v, K_SAMPLES_S) == 0))
        return cmp_fmt(v, "its samples_s is %s", samples == HB_VIEW_ARRAY ? "empty" : "not a list");
    const double *s = cmp_list(v, K_SAMPLES_S, &n);
    if (!s) return NULL;
    if ((bad = cmp_not_positive(s, n)))
        return cmp_fmt(v, "sample %zu of samples_s is not a positive time", bad);
    enum hb_jsonl_view_type reps = hb_jsonl_view_type(v, K_REPEAT_VALUES);
    if (reps != HB_VIEW_ABSENT && reps != HB_VIEW_ARRAY && reps != HB_VIEW_NULL)
        return "repeat_values is not a list";
    if (!(p->reps = cmp_list(v, K_REPEAT_VALUES, &n))) return NULL;
    if ((bad = cmp_not_positive(p->reps, n)))
        return cmp_fmt(v, "repeat %zu of repeat_values is not a positive figure", bad);
    p->nrep = n > INT_MAX ? INT_MAX : (int)n;
    return "";
}

/* A string of the record kept for take (the view's go with the line); NULL stays NULL. */
static int cmp_copy(const struct hb_view *v, int key, const char *def, const char **out)
{
    const char *s = hb_jsonl_view_str(v, key, def);
    *out = s ? cmp_cat(v, (const char *const[]){s, NULL}) : NULL;
    return s && !*out ? -ENOMEM : 0;
}

/* hb_jsonl_load_scan's prepare: a foreground measurement's identity, headline and repeats. */
static int cmp_prepare(void *ctx, const struct hb_view *v, void *slot)
{
    (void)ctx;
    struct hb_cmp_prep *p = slot;
    *p = (struct hb_cmp_prep){.lo = NAN, .hi = NAN, .coverage = NAN};
    if (strcmp(hb_jsonl_view_str(v, K_TYPE, ""), "summary") == 0) {
        p->skip = p->summary = true;
        p->sum = (struct hb_cmp_summary){true,
                                         hb_jsonl_view_num(v, K_MEASUREMENTS, NAN),
                                         hb_jsonl_view_type(v, K_NOISY) == HB_VIEW_NUMBER
                                             ? hb_jsonl_view_num(v, K_NOISY, NAN)
                                             : NAN,
                                         hb_jsonl_view_num(v, K_ELAPSED_S, NAN),
                                         hb_jsonl_view_num(v, K_ESTIMATE_S, NAN),
                                         hb_jsonl_view_num(v, K_SPREAD_MEDIAN, NAN)};
        return 0;
    }
    if (strcmp(hb_jsonl_view_str(v, K_TYPE, ""), "measurement") != 0 ||
        strcmp(hb_jsonl_view_str(v, K_ROLE, "foreground"), "foreground") != 0) {
        p->skip = true;
        return 0;
    }
    const char *unit = "";
    int key = cmp_key_of(v, &unit);
    char cpu[24], mem[24], threads[24], bytes[24];
    cmp_node(cpu, sizeof(cpu), v, K_CPU_NODE);
    cmp_node(mem, sizeof(mem), v, K_MEM_NODE);
    cmp_ll_text(threads, sizeof(threads), cmp_ll(v, K_THREADS));
    cmp_ll_text(bytes, sizeof(bytes), cmp_ll(v, K_BYTES));
    p->head = cmp_cat(v, (const char *const[]){hb_jsonl_view_str(v, K_SUITE, "?"), " ",
                                               hb_jsonl_view_str(v, K_EXPERIMENT, "?"), " ",
                                               hb_jsonl_view_str(v, K_LABEL, "?"), NULL});
    p->tail = cmp_cat(v, (const char *const[]){" cpu=", cpu, " mem=", mem, " ",
                                               hb_jsonl_view_str(v, K_KERNEL, "?"),
                                               " threads=", threads, " bytes=", bytes, NULL});
    p->why = cmp_unusable(v, key, unit, p);
    int rc = p->head && p->tail && p->why ? 0 : -ENOMEM;
    if (rc == 0) rc = cmp_copy(v, K_HOST, NULL, &p->host);
    if (rc == 0) rc = cmp_copy(v, K_METRIC, "?", &p->metric);
    if (rc == 0) rc = cmp_copy(v, K_UNIT, unit, &p->unit);
    if (rc) return rc;
    p->higher_better = strcmp(p->unit, "GBps") == 0;
    p->value = hb_jsonl_view_num(v, key, NAN);
    size_t nci;
    const double *ci = cmp_list(v, K_CI95, &nci);
    if (!ci) return -ENOMEM;
    struct hb_interval iv;
    if (hb_interval_of_record(p->value, nci > 0 ? ci[0] : NAN, nci > 1 ? ci[1] : NAN,
                              hb_jsonl_view_num(v, K_REPEATS, 0),
                              hb_jsonl_view_num(v, K_CI_COVERAGE, 0), &iv)) {
        p->lo = iv.lo;
        p->hi = iv.hi;
        p->coverage = iv.n > 1 ? iv.coverage : NAN;
    }
    return 0;
}

/* Room for one more record and ns more repeat values. */
static int cmp_grow(struct hb_cmp_side *sd, size_t ns)
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

/* Whether host is one the run record lists (true when either says nothing of hosts): the
 * list is interned once, so a fleet's records cost one lookup each. -ENOMEM when memory
 * ran out. */
static int cmp_host_of_run(struct hb_cmp_side *sd, const char *host, uint32_t id)
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
    if (sd->run_hosts_state != 1 || !host) return 1;
    /* a fleet's million records name a thousand hosts: each looked up once */
    if (id >= sd->nlisted) {
        size_t n = sd->nlisted ? sd->nlisted : 1024;
        while (n <= id)
            n *= 2;
        uint8_t *grown = realloc(sd->listed, n);
        if (!grown) return -ENOMEM;
        memset(grown + sd->nlisted, 0, n - sd->nlisted);
        sd->listed = grown;
        sd->nlisted = n;
    }
    if (!sd->listed[id])
        sd->listed[id] =
            hb_strtab_find(&sd->run_hosts, host, strlen(host)) != HB_STRTAB_NONE ? 1 : 2;
    return sd->listed[id] == 1;
}

/* s interned through *last, the id + 1 this part had in the record before (records repeat
 * most of their parts: a comparison of strings, not a lookup). */
static int cmp_intern_last(struct hb_strtab *t, const char *s, uint32_t *last, uint32_t *id)
{
    if (*last && strcmp(hb_strtab_get(t, *last - 1), s) == 0) {
        *id = *last - 1;
        return 0;
    }
    int rc = cmp_intern(t, s, id);
    if (rc == 0) *last = *id + 1;
    return rc;
}

/* hb_jsonl_load_scan's take, in file order: the record interned and kept. */
static int cmp_take(void *ctx, void *slot)
{
    struct hb_cmp_side *sd = ctx;
    const struct hb_cmp_prep *p = slot;
    if (p->summary) sd->summary = p->sum;
    if (p->skip) return 0;
    bool usable = !p->why[0];
    if (cmp_grow(sd, usable ? (size_t)p->nrep : 0)) return -ENOMEM;
    struct hb_cmp_rec *r = &sd->v[sd->n];
    *r = (struct hb_cmp_rec){.line = sd->res.line,
                             .rep0 = sd->nreps,
                             .value = p->value,
                             .lo = p->lo,
                             .hi = p->hi,
                             .coverage = p->coverage,
                             .higher_better = p->higher_better};
    int rc = cmp_intern(sd->str, p->host, &r->host);
    int listed = rc ? -ENOMEM : usable ? cmp_host_of_run(sd, p->host, r->host) : 1;
    if (listed < 0) return -ENOMEM;
    char *other = listed ? NULL
                         : hb_strf("its host %s is not one of the run record's hosts (a record "
                                   "of another run?)",
                                   p->host);
    if (!listed && !other) return -ENOMEM;
    const char *why = other ? other : p->why;
    rc = cmp_intern(sd->str, p->head, &r->head);
    if (rc == 0) rc = cmp_intern_last(sd->str, p->tail, &sd->last[0], &r->tail);
    if (rc == 0) rc = cmp_intern_last(sd->str, p->metric, &sd->last[1], &r->metric);
    if (rc == 0) rc = cmp_intern_last(sd->str, p->unit, &sd->last[2], &r->unit);
    if (rc == 0 && why[0]) rc = cmp_intern(sd->str, why, &r->bad);
    if (rc == 0 && !why[0]) r->bad = HB_STRTAB_NONE;
    free(other);
    if (rc) return -ENOMEM;
    if (sd->hosts == 0) sd->host0 = r->host;
    sd->hosts = sd->hosts == 0 ? 1 : sd->hosts == 1 && r->host != sd->host0 ? 2 : sd->hosts;
    r->nrep = r->bad == HB_STRTAB_NONE ? p->nrep : 0;
    if (r->nrep) memcpy(sd->reps + sd->nreps, p->reps, (size_t)r->nrep * sizeof(*p->reps));
    sd->nreps += (size_t)r->nrep;
    sd->n++;
    return 0;
}

int hb_compare_side_read(const char *path, struct hb_cmp_side *sd)
{
    const struct hb_jsonl_load_scan scan = {cmp_keys, sizeof(struct hb_cmp_prep), cmp_prepare,
                                            cmp_take, sd};
    return hb_jsonl_load_scan(path, &scan, &sd->res);
}

static size_t cmp_hash(const struct hb_cmp_rec *r, int with_host, size_t nslots)
{
    uint64_t h = r->head * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (with_host ? r->host : 0)) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ r->tail) * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 17) & (nslots - 1);
}

static int cmp_same(const struct hb_cmp_rec *a, const struct hb_cmp_rec *b, int with_host)
{
    return a->head == b->head && a->tail == b->tail && (!with_host || a->host == b->host);
}

const struct hb_cmp_rec *hb_compare_side_find(const struct hb_cmp_side *sd,
                                              const struct hb_cmp_rec *r, int with_host)
{
    for (size_t i = cmp_hash(r, with_host, sd->nslots); sd->slots[i];
         i = (i + 1) & (sd->nslots - 1))
        if (cmp_same(&sd->v[sd->slots[i] - 1], r, with_host)) return &sd->v[sd->slots[i] - 1];
    return NULL;
}

int hb_compare_side_index(struct hb_cmp_side *sd, int with_host)
{
    size_t n = 1024;
    while (n < 2 * sd->n + 2)
        n *= 2;
    if (sd->n >= UINT32_MAX || !(sd->slots = calloc(n, sizeof(*sd->slots)))) {
        hb_error_set("%s: out of memory indexing %zu measurements", sd->res.path, sd->n);
        return -ENOMEM;
    }
    sd->nslots = n;
    for (size_t k = 0; k < sd->n; k++) {
        const struct hb_cmp_rec *earlier = hb_compare_side_find(sd, &sd->v[k], with_host);
        sd->v[k].first = earlier ? (int)(earlier - sd->v) + 1 : 0;
        if (earlier) continue;
        size_t i = cmp_hash(&sd->v[k], with_host, n);
        while (sd->slots[i])
            i = (i + 1) & (n - 1);
        sd->slots[i] = (uint32_t)k + 1;
    }
    return 0;
}

char *hb_compare_side_key(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r, int with_host)
{
    const char *parts[] = {hb_strtab_get(sd->str, r->head), with_host ? " host=" : "",
                           with_host ? hb_strtab_get(sd->str, r->host) : "",
                           hb_strtab_get(sd->str, r->tail)};
    size_t len = 1;
    for (int i = 0; i < 4; i++)
        len += strlen(parts[i]);
    char *key = malloc(len), *at = key;
    for (int i = 0; key && i < 4; i++)
        at = stpcpy(at, parts[i]);
    return key;
}

/* A run record's fact as text (NULL when it does not say): hosts, CPUs, SIMD, build, version. */
static char *cmp_fact(const json_t *run, int which)
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

char *hb_compare_side_machines(const json_t *base_run, const json_t *new_run)
{
    static const char *const names[] = {"hosts", "CPUs", "simd", "build", "version", "git"};
    char *out = hb_strf("%s", "");
    for (int k = 0; out && k < 6; k++) {
        char *a = cmp_fact(base_run, k), *b = cmp_fact(new_run, k);
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

/* r's figure from its repeat values: median, interval and coverage (hb_interval_median). */
static void pooled_figure(const struct hb_cmp_side *sd, struct hb_cmp_rec *r, double *tmp)
{
    struct hb_interval iv;
    memcpy(tmp, sd->reps + r->rep0, sizeof(*tmp) * (size_t)r->nrep);
    if (r->nrep < 1 || hb_interval_median(tmp, r->nrep, HB_CI_LEVEL, &iv)) return;
    r->value = iv.value;
    r->lo = iv.n > 1 ? iv.lo : NAN;
    r->hi = iv.n > 1 ? iv.hi : NAN;
    r->coverage = iv.n > 1 ? iv.coverage : NAN;
}

int hb_compare_side_pool(struct hb_cmp_side *into, const struct hb_cmp_side *more, int with_host)
{
    /* Where each record of into finds its match in more, then the repeats laid out anew:
     * into's own followed by the match's, and the figure made again from all of them. */
    size_t *match = calloc(into->n ? into->n : 1, sizeof(*match));
    double *reps = match ? malloc(sizeof(*reps) * (into->nreps + more->nreps + 1)) : NULL;
    double *tmp = reps ? malloc(sizeof(*tmp) * (into->nreps + more->nreps + 1)) : NULL;
    if (!tmp) {
        free(match);
        free(reps);
        hb_error_set("compare: out of memory pooling %s with %s", into->res.path, more->res.path);
        return -ENOMEM;
    }
    size_t at = 0;
    for (size_t k = 0; k < into->n; k++) {
        struct hb_cmp_rec *r = &into->v[k];
        const struct hb_cmp_rec *m = r->first ? NULL : hb_compare_side_find(more, r, with_host);
        memcpy(reps + at, into->reps + r->rep0, sizeof(*reps) * (size_t)r->nrep);
        r->rep0 = at;
        at += (size_t)r->nrep;
        if (!m) continue;
        match[k] = (size_t)(m - more->v) + 1;
        if (m->bad != HB_STRTAB_NONE && r->bad == HB_STRTAB_NONE) r->bad = m->bad;
        if (r->bad != HB_STRTAB_NONE) continue;
        memcpy(reps + at, more->reps + m->rep0, sizeof(*reps) * (size_t)m->nrep);
        at += (size_t)m->nrep;
        r->nrep += m->nrep;
    }
    free(into->reps);
    into->reps = reps;
    into->nreps = into->rcap = at;
    for (size_t k = 0; k < into->n; k++)
        if (match[k] && into->v[k].bad == HB_STRTAB_NONE) pooled_figure(into, &into->v[k], tmp);
    free(tmp);
    free(match);
    into->pooled++;
    return 0;
}

void hb_compare_side_free(struct hb_cmp_side *sd)
{
    hb_jsonl_load_free(&sd->res);
    hb_strtab_free(&sd->run_hosts);
    free(sd->listed);
    free(sd->v);
    free(sd->reps);
    free(sd->slots);
}
