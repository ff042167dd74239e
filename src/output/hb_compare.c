#include "hb_compare.h"

#include "hb_args.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_option_values.h"
#include "hb_options.h"
#include "hb_output.h"
#include "hb_signif.h"
#include "hb_stats.h"
#include "hb_strtab.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_cmp_opts {
    const char *base, *new;
    double threshold_pct, alpha;
    enum hb_format format; /* the run's formats (hb_options.h) */
};

/* The usage line, its formats from the run's table (free it); NULL when out of memory. */
static char *hb_compare_usage(void)
{
    char *formats = hb_names_join(hb_format_names, "|"), *usage = NULL;
    if (formats &&
        asprintf(&usage,
                 "usage: hopbench compare BASE.jsonl NEW.jsonl [--threshold PCT] [--alpha P] "
                 "[--format %s]",
                 formats) < 0)
        usage = NULL;
    free(formats);
    if (!usage) hb_err_set("compare: out of memory");
    return usage;
}

static int hb_cmp_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v = s ? strtod(s, &end) : NAN;
    /* Decimal only: strtod would also skip blanks and take "+1", "0x1p3". */
    if (!s || end == s || *end || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
        strpbrk(s, "xXpP") || !(v >= lo && v <= hi)) {
        hb_err_set("%s '%s' is not valid: give a number from %g to %g", opt, s ? s : "", lo, hi);
        return -EINVAL;
    }
    *out = v;
    return 0;
}

static int hb_cmp_parse_with(int argc, char **argv, const char *usage, struct hb_cmp_opts *o)
{
    *o = (struct hb_cmp_opts){NULL, NULL, 5.0, 0.05, HB_FORMAT_TABLE};
    const char *threshold = NULL, *alpha = NULL, *format = NULL;
    const struct hb_arg opts[] = {{"threshold", 0, &threshold},
                                  {"alpha", 0, &alpha},
                                  {"format", 0, &format},
                                  {NULL, 0, NULL}};
    const char **files = calloc((size_t)argc + 1, sizeof(*files));
    int n = 0, rc = files ? 0 : -ENOMEM;
    if (!files) hb_err_set("compare: out of memory reading %d arguments", argc);
    if (rc == 0) rc = hb_args_parse(argc, argv, "compare", usage, opts, files, &n);
    if (rc == 0 && n > 2) {
        hb_err_set("compare: extra argument '%s'; %s", files[2], usage);
        rc = -EINVAL;
    }
    o->base = n > 0 ? files[0] : NULL;
    o->new = n > 1 ? files[1] : NULL;
    free(files);
    if (rc) return rc;
    if (threshold && (rc = hb_cmp_number("--threshold", threshold, 0.0, 1000.0, &o->threshold_pct)))
        return rc;
    if (alpha && (rc = hb_cmp_number("--alpha", alpha, 1e-9, 0.5, &o->alpha))) return rc;
    int f = 0;
    if (format && (rc = hb_parse_enum("--format", format, hb_format_names, &f))) return rc;
    o->format = (enum hb_format)f;
    if (!o->new) {
        hb_err_set("compare needs two result files; %s", usage);
        return -EINVAL;
    }
    return 0;
}

static int hb_cmp_parse(int argc, char **argv, struct hb_cmp_opts *o)
{
    char *usage = hb_compare_usage();
    int rc = usage ? hb_cmp_parse_with(argc, argv, usage, o) : -ENOMEM;
    free(usage);
    return rc;
}

/* What compare keeps of one measurement: its identity in parts (interned: equal strings,
 * equal ids, across both files), the headline value and where its samples are. */
struct hb_cmp_rec {
    uint32_t head;   /* "suite experiment label" */
    uint32_t host;   /* part of the identity only when both files have several hosts */
    uint32_t tail;   /* " cpu=C mem=M kernel threads=T bytes=B" */
    uint32_t metric; /* as the record names it */
    const char *unit;
    int higher_better;
    double value;
    size_t sample0; /* first of its samples in the side's samples */
    int nsamples;   /* -1 when one is not a finite number (no statistic can be computed) */
    bool repeat;    /* an earlier record has its identity: only the first is compared */
};

/* One file as compare reads it: its foreground measurements with samples, in file order,
 * and an index of the first record of each identity. */
struct hb_cmp_side {
    struct hb_results res;
    struct hb_strtab *str; /* shared by both sides */
    struct hb_cmp_rec *v;
    size_t n, cap;
    double *samples;
    size_t nsamples, scap;
    uint32_t host0;  /* the first record's host */
    int hosts;       /* 0, 1 or 2 (two or more) */
    uint32_t *slots; /* open addressing: record + 1, 0 = empty; first of each identity */
    size_t nslots;
};

/* Foreground measurement records with samples: the ones a change can be judged on. */
static int hb_cmp_usable(const json_t *rec)
{
    return strcmp(hb_rec_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_rec_str(rec, "role", "foreground"), "foreground") == 0 &&
           json_array_size(json_object_get(rec, "samples_s")) > 0;
}

static void hb_cmp_node(char *buf, size_t len, const json_t *v)
{
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else
        snprintf(buf, len, "-");
}

/* The headline value and whether higher is better. */
static double hb_cmp_value(const json_t *rec, const char **unit, int *higher_better)
{
    const char *metric = hb_rec_str(rec, "metric", "");
    *higher_better = 0;
    if (strcmp(metric, "latency") == 0 && json_is_number(json_object_get(rec, "lat_ns_median"))) {
        *unit = "ns";
        return hb_rec_num(rec, "lat_ns_median", 0);
    }
    if (strcmp(metric, "bandwidth") == 0 &&
        json_is_number(json_object_get(rec, "bw_GBps_median"))) {
        *unit = "GBps";
        *higher_better = 1;
        return hb_rec_num(rec, "bw_GBps_median", 0);
    }
    *unit = "s";
    return hb_rec_num(rec, "t_median_s", 0);
}

/* The formatted text, or NULL when out of memory. */
__attribute__((format(printf, 1, 2))) static char *hb_cmp_text(const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}

/* The number at key as a long long (clamped to its range), 0 when absent. */
static long long hb_cmp_ll(const json_t *rec, const char *key)
{
    double v = hb_rec_num(rec, key, 0);
    return v <= (double)LLONG_MIN ? LLONG_MIN : v >= (double)LLONG_MAX ? LLONG_MAX : (long long)v;
}

/* The interned copy of s; -1 when out of memory. */
static int hb_cmp_intern(struct hb_strtab *t, const char *s, uint32_t *id)
{
    *id = hb_strtab_add(t, s, strlen(s));
    return *id == HB_STRTAB_NONE ? -1 : 0;
}

/* hb_results_take_fn: a usable measurement's identity, value and samples; nothing else. */
static int hb_cmp_take(void *ctx, const json_t *rec)
{
    struct hb_cmp_side *sd = ctx;
    if (!hb_cmp_usable(rec)) return 0;
    const json_t *samples = json_object_get(rec, "samples_s");
    size_t ns = json_array_size(samples);
    if (sd->n == sd->cap) {
        size_t cap = sd->cap ? sd->cap * 2 : 1024;
        struct hb_cmp_rec *v = realloc(sd->v, cap * sizeof(*v));
        if (!v) return -ENOMEM;
        sd->v = v;
        sd->cap = cap;
    }
    if (ns > sd->scap - sd->nsamples) {
        size_t cap = sd->scap ? sd->scap : 4096;
        while (ns > cap - sd->nsamples)
            cap *= 2;
        double *v = realloc(sd->samples, cap * sizeof(*v));
        if (!v) return -ENOMEM;
        sd->samples = v;
        sd->scap = cap;
    }
    struct hb_cmp_rec *r = &sd->v[sd->n];
    char cpu[24], mem[24];
    hb_cmp_node(cpu, sizeof(cpu), json_object_get(rec, "cpu_node"));
    hb_cmp_node(mem, sizeof(mem), json_object_get(rec, "mem_node"));
    char *head = hb_cmp_text("%s %s %s", hb_rec_str(rec, "suite", "?"),
                             hb_rec_str(rec, "experiment", "?"), hb_rec_str(rec, "label", "?"));
    char *tail = hb_cmp_text(" cpu=%s mem=%s %s threads=%lld bytes=%lld", cpu, mem,
                             hb_rec_str(rec, "kernel", "?"), hb_cmp_ll(rec, "threads"),
                             hb_cmp_ll(rec, "bytes"));
    int rc = head && tail ? 0 : -1;
    if (rc == 0) rc = hb_cmp_intern(sd->str, head, &r->head);
    if (rc == 0) rc = hb_cmp_intern(sd->str, tail, &r->tail);
    if (rc == 0) rc = hb_cmp_intern(sd->str, hb_rec_str(rec, "host", "?"), &r->host);
    if (rc == 0) rc = hb_cmp_intern(sd->str, hb_rec_str(rec, "metric", "?"), &r->metric);
    free(head);
    free(tail);
    if (rc) return -ENOMEM;
    /* Hosts are counted as the identity reads them: a record without one is host "". */
    uint32_t host;
    if (hb_cmp_intern(sd->str, hb_rec_str(rec, "host", ""), &host)) return -ENOMEM;
    if (sd->hosts == 0) sd->host0 = host;
    sd->hosts = sd->hosts == 0 ? 1 : sd->hosts == 1 && host != sd->host0 ? 2 : sd->hosts;
    r->value = hb_cmp_value(rec, &r->unit, &r->higher_better);
    r->sample0 = sd->nsamples;
    r->nsamples = (int)ns;
    for (size_t i = 0; i < ns; i++) {
        const json_t *x = json_array_get(samples, i);
        if (!json_is_number(x) || !isfinite(json_number_value(x))) r->nsamples = -1;
        sd->samples[sd->nsamples + i] = json_number_value(x);
    }
    sd->nsamples += ns;
    sd->n++;
    return 0;
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

/* The first record of sd with r's identity, or NULL. */
static const struct hb_cmp_rec *hb_cmp_find(const struct hb_cmp_side *sd,
                                            const struct hb_cmp_rec *r, int with_host)
{
    for (size_t i = hb_cmp_hash(r, with_host, sd->nslots); sd->slots[i];
         i = (i + 1) & (sd->nslots - 1))
        if (hb_cmp_same(&sd->v[sd->slots[i] - 1], r, with_host)) return &sd->v[sd->slots[i] - 1];
    return NULL;
}

/* Index the first record of each identity and mark the others as repeats. */
static int hb_cmp_index(struct hb_cmp_side *sd, int with_host)
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
        if ((sd->v[k].repeat = hb_cmp_find(sd, &sd->v[k], with_host) != NULL)) continue;
        size_t i = hb_cmp_hash(&sd->v[k], with_host, n);
        while (sd->slots[i])
            i = (i + 1) & (n - 1);
        sd->slots[i] = (uint32_t)k + 1;
    }
    return 0;
}

/* The identity as people read it. NULL when out of memory. */
static char *hb_cmp_key(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r, int with_host)
{
    return hb_cmp_text("%s%s%s%s", hb_strtab_get(sd->str, r->head), with_host ? " host=" : "",
                       with_host ? hb_strtab_get(sd->str, r->host) : "",
                       hb_strtab_get(sd->str, r->tail));
}

static void hb_cmp_side_free(struct hb_cmp_side *sd)
{
    hb_results_free(&sd->res);
    free(sd->v);
    free(sd->samples);
    free(sd->slots);
}

/* A statistic, or null when it cannot be computed. */
static json_t *hb_cmp_json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Hand rec (NULL: out of memory) to the sink, which writes it in the chosen format; a
 * failed write is kept by the sink and reported when it closes. -1 when out of memory. */
static int hb_cmp_put(struct hb_sink *s, json_t *rec)
{
    if (!rec) return -1;
    (void)hb_sink_write(s, rec);
    json_decref(rec);
    return 0;
}

/* One matched pair: its row; returns 1 when it is a significant regression, -1 when out of
 * memory. counts: worse, better, same, noise, undetermined. */
static int hb_cmp_pair(const struct hb_cmp_opts *o, struct hb_sink *s, const char *key,
                       const struct hb_cmp_side *bs, const struct hb_cmp_rec *b,
                       const struct hb_cmp_side *ns, const struct hb_cmp_rec *n, int counts[5])
{
    struct {
        const char *verdict;
        double change_pct, p;
    } r;
    r.change_pct = b->value != 0.0 ? (n->value / b->value - 1.0) * 100.0 : NAN;
    r.p = b->nsamples >= 0 && n->nsamples >= 0
              ? hb_signif_welch(bs->samples + b->sample0, b->nsamples, ns->samples + n->sample0,
                                n->nsamples, NULL, NULL)
              : NAN;
    double worse = n->higher_better ? -r.change_pct : r.change_pct;
    int sig = r.p < o->alpha, bad = 0;
    if (!isfinite(r.change_pct) || !(r.p >= 0.0 && r.p <= 1.0)) {
        /* Samples or medians no statistic can be computed from (0, inf, 1e308...). */
        r.verdict = "undetermined";
        counts[4]++;
    } else if (fabs(r.change_pct) <= o->threshold_pct) {
        r.verdict = "same";
        counts[2]++;
    } else if (!sig) {
        r.verdict = "noise";
        counts[3]++;
    } else if (worse > 0) {
        r.verdict = "worse";
        counts[0]++;
        bad = 1;
    } else {
        r.verdict = "better";
        counts[1]++;
    }
    json_t *row = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:s}", "type", "comparison", "kind",
        "compared", "record", key, "metric", hb_strtab_get(bs->str, b->metric), "unit", n->unit,
        "base", hb_cmp_json_num(b->value), "new", hb_cmp_json_num(n->value), "change_pct",
        hb_cmp_json_num(r.change_pct), "p", hb_cmp_json_num(r.p), "verdict", r.verdict);
    return hb_cmp_put(s, row) ? -1 : bad;
}

/* The first records of `mine` with no record of their identity in `other`. */
static int hb_cmp_only(struct hb_sink *s, const struct hb_cmp_side *mine,
                       const struct hb_cmp_side *other, int with_host, const char *side)
{
    int n = 0;
    for (size_t k = 0; k < mine->n; k++) {
        const struct hb_cmp_rec *rec = &mine->v[k];
        if (rec->repeat || hb_cmp_find(other, rec, with_host)) continue;
        char *key = hb_cmp_key(mine, rec, with_host);
        if (!key) return -1;
        n++;
        char *kind = hb_cmp_text("only_in_%s", side);
        json_t *row =
            kind ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "only", "kind", kind, "side",
                             side, "record", key, "metric", hb_strtab_get(mine->str, rec->metric))
                 : NULL;
        free(kind);
        free(key);
        if (hb_cmp_put(s, row)) return -1;
    }
    return n;
}

static int hb_cmp_run(const struct hb_cmp_opts *o, const struct hb_cmp_side *b,
                      const struct hb_cmp_side *n, int with_host)
{
    struct hb_sink *s = NULL;
    int rc = hb_sink_open_layout(o->format, "", &hb_layout_compare, &s);
    if (rc) {
        fprintf(stderr, "hopbench: %s\n", hb_err_msg());
        return hb_err_exit_code(rc);
    }
    int counts[5] = {0}, bad = 0;
    int oom = hb_cmp_put(s, json_pack("{s:s, s:s, s:s, s:f, s:f}", "type", "compare_header",
                                      "base_path", b->res.path, "new_path", n->res.path,
                                      "threshold_pct", o->threshold_pct, "alpha", o->alpha));
    int only_b = oom ? -1 : 0, only_n = 0;
    for (size_t k = 0; k < b->n && only_b >= 0; k++) {
        const struct hb_cmp_rec *other =
            b->v[k].repeat ? NULL : hb_cmp_find(n, &b->v[k], with_host);
        char *key = other ? hb_cmp_key(b, &b->v[k], with_host) : NULL;
        int one = other && key ? hb_cmp_pair(o, s, key, b, &b->v[k], n, other, counts) : 0;
        if ((other && !key) || one < 0) only_b = -1;
        bad += one > 0;
        free(key);
    }
    if (only_b >= 0) only_b = hb_cmp_only(s, b, n, with_host, "base");
    if (only_b >= 0) only_n = hb_cmp_only(s, n, b, with_host, "new");
    if (only_b >= 0 && only_n >= 0 &&
        hb_cmp_put(s,
                   json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f}", "type",
                             "compare_summary", "worse", counts[0], "better", counts[1], "same",
                             counts[2], "noise", counts[3], "undetermined", counts[4], "only_base",
                             only_b, "only_new", only_n, "threshold_pct", o->threshold_pct)))
        only_n = -1;
    if (only_b < 0 || only_n < 0) {
        (void)hb_sink_close(s, false);
        fprintf(stderr, "hopbench: out of memory writing the comparison\n");
        return HB_EXIT_ENV;
    }
    if ((rc = hb_sink_close(s, true))) {
        fprintf(stderr, "hopbench: %s\n", hb_err_msg());
        return HB_EXIT_ENV;
    }
    return bad ? HB_EXIT_FAILED : HB_EXIT_OK;
}

int hb_compare_main(int argc, char **argv)
{
    struct hb_cmp_opts o;
    struct hb_strtab str = {0};
    struct hb_cmp_side b = {.str = &str}, n = {.str = &str};
    int rc = hb_cmp_parse(argc, argv, &o);
    /* Each file streamed: only what a comparison needs stays (hb_cmp_take). */
    if (rc == 0) rc = hb_results_read_take(o.base, hb_cmp_take, &b, &b.res);
    if (rc == 0) rc = hb_results_read_take(o.new, hb_cmp_take, &n, &n.res);
    /* Hosts are part of the identity only when both files have several. */
    int with_host = b.hosts > 1 && n.hosts > 1;
    if (rc == 0) rc = hb_cmp_index(&b, with_host);
    if (rc == 0) rc = hb_cmp_index(&n, with_host);
    int code = HB_EXIT_OK;
    if (rc) {
        fprintf(stderr, "hopbench: %s\n", hb_err_msg());
        code = hb_err_exit_code(rc);
    } else {
        const struct hb_cmp_side *both[2] = {&b, &n};
        for (int i = 0; i < 2; i++)
            if (both[i]->res.skipped_line)
                fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n",
                        both[i]->res.path, both[i]->res.skipped_line);
        fflush(stdout);
        code = hb_cmp_run(&o, &b, &n, with_host);
    }
    hb_cmp_side_free(&b);
    hb_cmp_side_free(&n);
    hb_strtab_free(&str);
    return code;
}
