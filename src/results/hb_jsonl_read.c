/* Result files read back (hb_jsonl_read.h): JSON Lines parsed line by line, records checked
 * and their figures and intervals taken out for report and compare. */
#include "hb_jsonl_read.h"

#include "hb_error.h"
#include "hb_interval.h"
#include "hb_version.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double hb_rec_num(const json_t *rec, const char *key, double def)
{
    json_t *v = json_object_get(rec, key);
    return json_is_number(v) ? json_number_value(v) : def;
}

const char *hb_rec_str(const json_t *rec, const char *key, const char *def)
{
    const char *s = json_string_value(json_object_get(rec, key));
    return s ? s : def;
}

const char *hb_rec_headline_key(const json_t *rec)
{
    if (json_is_number(json_object_get(rec, "value"))) return "value";
    return strcmp(hb_rec_str(rec, "metric", ""), "latency") == 0 ? "lat_ns_median" : "bw_GBps_best";
}

enum hb_separation hb_rec_separation(const json_t *a, const json_t *b)
{
    struct hb_interval x, y;
    if (!hb_rec_interval(a, &x) || !hb_rec_interval(b, &y) || x.n < 2 || y.n < 2)
        return HB_NO_INTERVAL;
    return hb_intervals_separate(&x, &y) ? HB_SEPARATE : HB_OVERLAP;
}

const char *hb_separation_name(enum hb_separation s)
{
    return s == HB_SEPARATE ? "clear" : s == HB_OVERLAP ? "inconclusive" : "unknown noise";
}

json_t *hb_rec_figure(const json_t *rec)
{
    struct hb_interval iv;
    if (!rec) return json_null();
    bool has = hb_rec_interval(rec, &iv) && iv.n >= 2;
    return json_pack("{s:o, s:o}", "value", isfinite(iv.value) ? json_real(iv.value) : json_null(),
                     "ci95", has ? json_pack("[f, f]", iv.lo, iv.hi) : json_null());
}

bool hb_rec_interval(const json_t *rec, struct hb_interval *iv)
{
    const json_t *ci = json_object_get(rec, "ci95");
    double v = hb_rec_num(rec, hb_rec_headline_key(rec), NAN);
    double lo =
        json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0)) : NAN;
    double hi =
        json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1)) : NAN;
    double n = hb_rec_num(rec, "repeats", 0);
    *iv = (struct hb_interval){0, v, v, v, 0.0};
    if (!isfinite(v) || !isfinite(lo) || !isfinite(hi) || !(lo <= v && v <= hi) || n < 1)
        return false;
    *iv = (struct hb_interval){(int)n, v, lo, hi, hb_rec_num(rec, "ci_coverage", 0.0)};
    return true;
}

/* jansson reports a failed allocation as whatever token it was reading: the allocator
 * tells instead. */
static _Thread_local bool hb_json_oom;

static void *hb_json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) hb_json_oom = true;
    return p;
}

/* Running out of memory is the machine's limit, not a bad record: exit 3, not 2. */
static int hb_results_oom(const struct hb_results *r, int lineno)
{
    hb_err_set("%s:%d: out of memory after %zu records; give it fewer or smaller files, or "
               "more memory",
               r->path, lineno, r->nread);
    return -ENOMEM;
}

/* What a reader does with the records other than the run record: NULL take keeps them. */
struct hb_results_filter {
    hb_results_take_fn take;
    void *ctx;
};

static int hb_results_line(struct hb_results *r, const char *line, size_t len, int lineno,
                           int last_unterminated, const struct hb_results_filter *flt)
{
    json_error_t jerr;
    json_t *rec = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!rec && (hb_json_oom || json_error_code(&jerr) == json_error_out_of_memory))
        return hb_results_oom(r, lineno);
    if (!rec && last_unterminated) {
        /* An interrupted writer leaves a partial last line: report everything before it. */
        r->skipped_line = lineno;
        return 0;
    }
    if (!rec || !json_is_object(rec) || !json_is_string(json_object_get(rec, "type"))) {
        hb_err_set("%s:%d: not a hopbench JSON Lines record (%s); expected one JSON object "
                   "with a \"type\" per line, as written by --format jsonl",
                   r->path, lineno, rec ? "no string \"type\"" : jerr.text);
        json_decref(rec);
        return -EINVAL;
    }
    bool run = strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0;
    if (run) {
        json_t *sv = json_object_get(rec, "schema_version");
        if (!json_is_integer(sv) || json_integer_value(sv) > HB_SCHEMA_VERSION) {
            char have[32];
            snprintf(have, sizeof(have), "%lld",
                     json_is_integer(sv) ? (long long)json_integer_value(sv) : -1LL);
            hb_err_set("%s:%d: run record has schema_version %s; this hopbench reads "
                       "schema_version up to %d: use a newer hopbench",
                       r->path, lineno, json_is_integer(sv) ? have : "(missing)",
                       HB_SCHEMA_VERSION);
            json_decref(rec);
            return -EINVAL;
        }
        if (!r->run) {
            r->run = rec;
            r->run_line = lineno;
        } else if (!r->run_line2)
            r->run_line2 = lineno;
    }
    r->line = lineno;
    r->nread++;
    if (flt->take && !run) {
        int keep = flt->take(flt->ctx, rec);
        if (keep <= 0) json_decref(rec);
        if (keep < 0) return hb_results_oom(r, lineno);
        if (keep == 0) return 0;
    }
    if (json_array_append_new(r->records, rec) != 0) return hb_results_oom(r, lineno);
    return 0;
}

static int hb_results_load(FILE *f, const char *path, const struct hb_results_filter *flt,
                           struct hb_results *r);

static int hb_results_open(const char *path, const struct hb_results_filter *flt,
                           struct hb_results *r)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        memset(r, 0, sizeof(*r));
        hb_err_set("%s: cannot open: %s", path, strerror(e));
        return -(e == EACCES ? EACCES : ENOENT);
    }
    int rc = hb_results_load(f, path, flt, r);
    fclose(f);
    return rc;
}

int hb_results_read_take(const char *path, hb_results_take_fn take, void *ctx, struct hb_results *r)
{
    struct hb_results_filter flt = {take, ctx};
    return hb_results_open(path, &flt, r);
}

int hb_results_readf(FILE *f, const char *path, hb_results_take_fn take, void *ctx,
                     struct hb_results *r)
{
    struct hb_results_filter flt = {take, ctx};
    return hb_results_load(f, path, &flt, r);
}

static int hb_results_load(FILE *f, const char *path, const struct hb_results_filter *flt,
                           struct hb_results *r)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    json_set_alloc_funcs(hb_json_malloc, free);
    hb_json_oom = false;
    r->records = json_array();
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = r->records ? 0 : hb_results_oom(r, 0);
    while (rc == 0 && (errno = 0, len = getline(&line, &cap, f)) != -1) {
        lineno++;
        int terminated = len > 0 && line[len - 1] == '\n';
        size_t n = (size_t)len - (terminated ? 1 : 0);
        if (n == 0) continue;
        rc = hb_results_line(r, line, n, lineno, !terminated, flt);
    }
    if (rc == 0 && errno == ENOMEM) rc = hb_results_oom(r, lineno + 1);
    free(line);
    if (rc == 0 && r->nread == 0) {
        hb_err_set("%s: no records; expected hopbench JSON Lines (--format jsonl)", path);
        rc = -EINVAL;
    }
    if (rc) hb_results_free(r);
    return rc;
}

void hb_results_free(struct hb_results *r)
{
    json_decref(r->records);
    r->records = NULL;
    r->run = NULL;
}
