#include "hb_compare.h"

#include "hb_error.h"
#include "hb_escape.h"
#include "hb_jsonl_read.h"
#include "hb_signif.h"
#include "hb_stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hb_cmp_format { HB_CMP_TABLE, HB_CMP_CSV, HB_CMP_JSONL };

struct hb_cmp_opts {
    const char *base, *new;
    double threshold_pct, alpha;
    enum hb_cmp_format format;
};

static const char hb_compare_usage[] =
    "usage: hopbench compare BASE.jsonl NEW.jsonl [--threshold PCT] [--alpha P] "
    "[--format table|csv|jsonl]";

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

static int hb_cmp_parse(int argc, char **argv, struct hb_cmp_opts *o)
{
    *o = (struct hb_cmp_opts){NULL, NULL, 5.0, 0.05, HB_CMP_TABLE};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (strcmp(a, "--threshold") == 0) {
            rc = hb_cmp_number(a, v, 0.0, 1000.0, &o->threshold_pct);
            i++;
        } else if (strcmp(a, "--alpha") == 0) {
            rc = hb_cmp_number(a, v, 1e-9, 0.5, &o->alpha);
            i++;
        } else if (strcmp(a, "--format") == 0) {
            i++;
            if (v && strcmp(v, "table") == 0)
                o->format = HB_CMP_TABLE;
            else if (v && strcmp(v, "csv") == 0)
                o->format = HB_CMP_CSV;
            else if (v && strcmp(v, "jsonl") == 0)
                o->format = HB_CMP_JSONL;
            else {
                hb_err_set("--format '%s' is not valid: use table, csv or jsonl", v ? v : "");
                rc = -EINVAL;
            }
        } else if (a[0] == '-' && a[1]) {
            hb_err_set("compare: unknown option '%s'; %s", a, hb_compare_usage);
            rc = -EINVAL;
        } else if (!o->base) {
            o->base = a;
        } else if (!o->new) {
            o->new = a;
        } else {
            hb_err_set("compare: extra argument '%s'; %s", a, hb_compare_usage);
            rc = -EINVAL;
        }
        if (rc) return rc;
    }
    if (!o->new) {
        hb_err_set("compare needs two result files; %s", hb_compare_usage);
        return -EINVAL;
    }
    return 0;
}

/* Every key compare reads: the identity (hb_cmp_key), the headline values, the samples. */
static const char *const hb_cmp_keys[] = {
    "type",      "suite",         "experiment",     "label",      "host", "cpu_node",
    "mem_node",  "kernel",        "threads",        "bytes",      "role", "metric",
    "samples_s", "lat_ns_median", "bw_GBps_median", "t_median_s", NULL};

/* Foreground measurement records with samples: the ones a change can be judged on. */
static int hb_cmp_usable(const json_t *rec)
{
    return strcmp(hb_rec_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_rec_str(rec, "role", "foreground"), "foreground") == 0 &&
           json_array_size(json_object_get(rec, "samples_s")) > 0;
}

static int hb_cmp_hosts(const json_t *records)
{
    json_t *seen = json_object();
    size_t i;
    json_t *rec;
    json_array_foreach(records, i, rec) if (hb_cmp_usable(rec))
        json_object_set_new(seen, hb_rec_str(rec, "host", ""), json_true());
    int n = (int)json_object_size(seen);
    json_decref(seen);
    return n;
}

static void hb_cmp_node(char *buf, size_t len, const json_t *v)
{
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else
        snprintf(buf, len, "-");
}

/* Identity of a record: what must be equal for two records to measure the same thing. */
static void hb_cmp_key(const json_t *rec, int with_host, char *buf, size_t len)
{
    char cpu[24], mem[24];
    hb_cmp_node(cpu, sizeof(cpu), json_object_get(rec, "cpu_node"));
    hb_cmp_node(mem, sizeof(mem), json_object_get(rec, "mem_node"));
    snprintf(buf, len, "%s %s %s%s%s cpu=%s mem=%s %s threads=%lld bytes=%lld",
             hb_rec_str(rec, "suite", "?"), hb_rec_str(rec, "experiment", "?"),
             hb_rec_str(rec, "label", "?"), with_host ? " host=" : "",
             with_host ? hb_rec_str(rec, "host", "?") : "", cpu, mem,
             hb_rec_str(rec, "kernel", "?"), (long long)hb_rec_num(rec, "threads", 0),
             (long long)hb_rec_num(rec, "bytes", 0));
}

/* key -> first record with that identity. */
static json_t *hb_cmp_index(const json_t *records, int with_host)
{
    json_t *idx = json_object();
    size_t i;
    json_t *rec;
    json_array_foreach(records, i, rec)
    {
        char key[1024];
        if (!hb_cmp_usable(rec)) continue;
        hb_cmp_key(rec, with_host, key, sizeof(key));
        if (!json_object_get(idx, key)) json_object_set(idx, key, rec);
    }
    return idx;
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

/* The samples, or -1 when one is not a finite number (no statistic can be computed). */
static int hb_cmp_samples(const json_t *rec, double **out)
{
    json_t *s = json_object_get(rec, "samples_s");
    int n = (int)json_array_size(s);
    *out = calloc((size_t)n + 1, sizeof(**out));
    if (!*out) return -1;
    for (int i = 0; i < n; i++) {
        json_t *v = json_array_get(s, (size_t)i);
        if (!json_is_number(v) || !isfinite(json_number_value(v))) return -1;
        (*out)[i] = json_number_value(v);
    }
    return n;
}

struct hb_cmp_row {
    const char *key, *metric, *unit, *verdict;
    double base, now, change_pct, p; /* NAN when it cannot be computed */
};

/* A number, or what a statistic that cannot be computed prints as (a macro: the format
 * stays a literal the compiler checks). */
#define hb_cmp_num(fmt, v, none) (isfinite(v) ? (void)printf(fmt, v) : (void)fputs(none, stdout))

/* The change in percent: fixed point while short, else three significant digits. */
static void hb_cmp_change(double v, int csv)
{
    if (!isfinite(v))
        fputs(csv ? "" : "      n/a", stdout);
    else if (fabs(v) < 1e7)
        printf(csv ? "%.4f" : "%+8.2f%%", v);
    else
        printf(csv ? "%.6g" : "%+8.3g%%", v);
}

static json_t *hb_cmp_json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static void hb_cmp_print_row(const struct hb_cmp_opts *o, const struct hb_cmp_row *r)
{
    if (o->format == HB_CMP_TABLE) {
        printf("%-8s ", r->verdict);
        hb_cmp_change(r->change_pct, 0);
        hb_cmp_num("  p=%-8.3g ", r->p, "  p=n/a      ");
        hb_esc_line(stdout, r->key);
        fputs(": ", stdout);
        hb_cmp_num("%.4g", r->base, "n/a");
        fputs(" -> ", stdout);
        hb_cmp_num("%.4g", r->now, "n/a");
        printf(" %s\n", r->unit);
    } else if (o->format == HB_CMP_CSV) {
        fputs("compared,", stdout);
        hb_esc_csv(stdout, r->key);
        putchar(',');
        hb_esc_csv(stdout, r->metric);
        printf(",%s,", r->unit);
        hb_cmp_num("%.6g", r->base, "");
        putchar(',');
        hb_cmp_num("%.6g", r->now, "");
        putchar(',');
        hb_cmp_change(r->change_pct, 1);
        putchar(',');
        hb_cmp_num("%.6g", r->p, "");
        printf(",%s\n", r->verdict);
    } else {
        json_t *j =
            json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:s}", "type", "comparison",
                      "record", r->key, "metric", r->metric, "unit", r->unit, "base",
                      hb_cmp_json_num(r->base), "new", hb_cmp_json_num(r->now), "change_pct",
                      hb_cmp_json_num(fabs(r->change_pct) < 1e12 ? round(r->change_pct * 1e4) / 1e4
                                                                 : r->change_pct),
                      "p", hb_cmp_json_num(r->p), "verdict", r->verdict);
        char *s =
            j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) : NULL;
        if (s) printf("%s\n", s);
        free(s);
        json_decref(j);
    }
}

/* One matched pair: its row; returns 1 when it is a significant regression. counts: worse,
 * better, same, noise, undetermined. */
static int hb_cmp_pair(const struct hb_cmp_opts *o, const char *key, const json_t *b,
                       const json_t *n, int counts[5])
{
    struct hb_cmp_row r = {.key = key, .metric = hb_rec_str(b, "metric", "?")};
    int hb_better = 0;
    r.base = hb_cmp_value(b, &r.unit, &hb_better);
    r.now = hb_cmp_value(n, &r.unit, &hb_better);
    r.change_pct = r.base != 0.0 ? (r.now / r.base - 1.0) * 100.0 : NAN;
    double *sb = NULL, *sn = NULL;
    int nb = hb_cmp_samples(b, &sb), nn = hb_cmp_samples(n, &sn);
    r.p = nb >= 0 && nn >= 0 ? hb_signif_welch(sb, nb, sn, nn, NULL, NULL) : NAN;
    free(sb);
    free(sn);
    double worse = hb_better ? -r.change_pct : r.change_pct;
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
    hb_cmp_print_row(o, &r);
    return bad;
}

static int hb_cmp_only(const struct hb_cmp_opts *o, const json_t *mine, const json_t *other,
                       const char *side)
{
    const char *key;
    json_t *rec;
    int n = 0;
    json_object_foreach((json_t *)mine, key, rec)
    {
        if (json_object_get(other, key)) continue;
        n++;
        if (o->format == HB_CMP_TABLE) {
            printf("only in %s: ", side);
            hb_esc_line(stdout, key);
            putchar('\n');
        } else if (o->format == HB_CMP_CSV) {
            printf("only_in_%s,", side);
            hb_esc_csv(stdout, key);
            putchar(',');
            hb_esc_csv(stdout, hb_rec_str(rec, "metric", "?"));
            puts(",,,,,,");
        } else {
            json_t *j = json_pack("{s:s, s:s, s:s}", "type", "only", "side", side, "record", key);
            char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
            if (s) printf("%s\n", s);
            free(s);
            json_decref(j);
        }
    }
    return n;
}

static int hb_cmp_run(const struct hb_cmp_opts *o, const struct hb_results *b,
                      const struct hb_results *n)
{
    int with_host = hb_cmp_hosts(b->records) > 1 && hb_cmp_hosts(n->records) > 1;
    json_t *ib = hb_cmp_index(b->records, with_host), *in = hb_cmp_index(n->records, with_host);
    int counts[5] = {0}, bad = 0;
    if (o->format == HB_CMP_TABLE) {
        fputs("compare ", stdout);
        hb_esc_line(stdout, b->path);
        fputs(" -> ", stdout);
        hb_esc_line(stdout, n->path);
        printf(": threshold %.1f%%, Welch t-test alpha %g\n", o->threshold_pct, o->alpha);
    } else if (o->format == HB_CMP_CSV)
        printf("kind,record,metric,unit,base,new,change_pct,p,verdict\n");
    const char *key;
    json_t *rec;
    json_object_foreach(ib, key, rec)
    {
        json_t *other = json_object_get(in, key);
        if (other) bad += hb_cmp_pair(o, key, rec, other, counts);
    }
    int only_b = hb_cmp_only(o, ib, in, "base");
    int only_n = hb_cmp_only(o, in, ib, "new");
    if (o->format == HB_CMP_TABLE)
        printf("%d worse, %d better, %d same, %d noise, %d undetermined, %d only in base, %d "
               "only in new\n",
               counts[0], counts[1], counts[2], counts[3], counts[4], only_b, only_n);
    else if (o->format == HB_CMP_JSONL)
        printf("{\"type\":\"compare_summary\",\"worse\":%d,\"better\":%d,\"same\":%d,"
               "\"noise\":%d,\"undetermined\":%d,\"only_base\":%d,\"only_new\":%d,"
               "\"threshold_pct\":%g}\n",
               counts[0], counts[1], counts[2], counts[3], counts[4], only_b, only_n,
               o->threshold_pct);
    json_decref(ib);
    json_decref(in);
    return bad ? HB_EXIT_FAILED : HB_EXIT_OK;
}

int hb_compare_main(int argc, char **argv)
{
    struct hb_cmp_opts o;
    struct hb_results b, n;
    int rc = hb_cmp_parse(argc, argv, &o);
    if (rc == 0 && (rc = hb_results_read_only(o.base, "measurement", hb_cmp_keys, &b)) == 0 &&
        (rc = hb_results_read_only(o.new, "measurement", hb_cmp_keys, &n)) != 0)
        hb_results_free(&b);
    if (rc) {
        fprintf(stderr, "hopbench: %s\n", hb_err_msg());
        return hb_err_exit_code(rc);
    }
    const struct hb_results *both[2] = {&b, &n};
    for (int i = 0; i < 2; i++)
        if (both[i]->skipped_line)
            fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n",
                    both[i]->path, both[i]->skipped_line);
    fflush(stdout);
    int code = hb_cmp_run(&o, &b, &n);
    hb_results_free(&b);
    hb_results_free(&n);
    return code;
}
