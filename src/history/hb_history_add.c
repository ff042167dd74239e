/* One result file into the history (hb_history_add.h): read as compare reads it (the same
 * identities, headlines, intervals and repeats), then per host a run row, its series made
 * when new and its points, in batches of rows per statement. */
#include "hb_history_add.h"
#include "hb_history_health.h"

#include "hb_compare_side.h"
#include "hb_error.h"
#include "hb_strf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rows per INSERT: few statements, well inside either database's parameter limit. */
enum { BATCH = 100 };

void hb_history_add_real_text(char buf[40], double v)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, 40, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}

/* FNV-1a over len bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* Whether record k is stored: usable and the first of its identity on its host. */
static bool stored(const struct hb_cmp_side *sd, size_t k)
{
    return sd->v[k].bad == HB_STRTAB_NONE && !sd->v[k].first;
}

/* The run's fingerprint: its run record and every stored figure (two runs of one command
 * in the same second differ in their figures). Hex in key[17]. */
static int run_key(const struct hb_cmp_side *sd, char key[17])
{
    char *text = json_dumps(sd->res.run, JSON_SORT_KEYS | JSON_COMPACT);
    if (!text) return -ENOMEM;
    uint64_t h = fnv(0xcbf29ce484222325ULL, text, strlen(text));
    free(text);
    for (size_t k = 0; k < sd->n; k++)
        if (stored(sd, k)) {
            const struct hb_cmp_rec *r = &sd->v[k];
            h = fnv(h, &r->value, sizeof(r->value));
            h = fnv(h, sd->reps + r->rep0, sizeof(double) * (size_t)r->nrep);
        }
    snprintf(key, 17, "%016llx", (unsigned long long)h);
    return 0;
}

/* The run record's start_time ("2026-12-07T07:38:41Z") as unix seconds. */
static int start_time(const struct hb_cmp_side *sd, long long *t)
{
    const char *s = json_string_value(json_object_get(sd->res.run, "start_time"));
    struct tm tmv = {0};
    const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tmv) : NULL;
    if (!end || *end) {
        hb_error_set("%s:%d: the run record's start_time %s is not an ISO 8601 UTC time "
                     "(2026-12-07T07:38:41Z)",
                     sd->res.path, sd->res.run_line, s ? s : "(missing)");
        return -EINVAL;
    }
    *t = (long long)timegm(&tmv);
    return 0;
}

/* A string of the run record, or NULL. */
static const char *run_str(const json_t *run, const char *key)
{
    return json_string_value(json_object_get(run, key));
}

/* host's configuration as compact JSON (its entry of host_configs on a fleet run, else the
 * run's config): a new string, or NULL when the run records none. */
static char *host_config(const json_t *run, const char *host)
{
    const json_t *config = json_object_get(run, "config"), *h;
    size_t i;
    json_array_foreach(json_object_get(run, "host_configs"), i, h)
    {
        const char *name = json_string_value(json_object_get(h, "host"));
        if (name && strcmp(name, host) == 0) config = json_object_get(h, "config");
    }
    return json_is_object(config) ? json_dumps(config, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
}

/* The texts of one batch's parameters: numbers in cells, strings borrowed or owned. */
struct batch {
    const char *p[BATCH * 6];
    char cell[BATCH * 6][40];
    char *owned[BATCH];
    int rows, cols;
};

static void batch_clear(struct batch *b)
{
    for (int i = 0; i < b->rows; i++) {
        free(b->owned[i]);
        b->owned[i] = NULL;
    }
    b->rows = 0;
}

/* A number parameter of the current row (NaN: NULL). */
static void batch_real(struct batch *b, int col, double v)
{
    int at = b->rows * b->cols + col;
    if (isfinite(v)) hb_history_add_real_text(b->cell[at], v);
    b->p[at] = isfinite(v) ? b->cell[at] : NULL;
}

/* "INSERT INTO head VALUES ($1,...),(...)... tail" for rows of cols. */
static char *batch_sql(const char *head, const char *tail, int rows, int cols)
{
    size_t len = strlen(head) + strlen(tail) + (size_t)rows * (size_t)cols * 8 + 64;
    char *sql = malloc(len), *at = sql;
    if (!sql) return NULL;
    at += sprintf(at, "%s VALUES ", head);
    for (int r = 0; r < rows; r++) {
        at += sprintf(at, "%s(", r ? "," : "");
        for (int c = 0; c < cols; c++)
            at += sprintf(at, "%s$%d", c ? "," : "", r * cols + c + 1);
        *at++ = ')';
    }
    sprintf(at, " %s", tail);
    return sql;
}

/* The batch inserted, then cleared. */
static int batch_put(struct hb_history_db *db, struct batch *b, const char *head, const char *tail)
{
    if (b->rows == 0) return 0;
    char *sql = batch_sql(head, tail, b->rows, b->cols);
    int rc = sql ? hb_history_db_query(db, sql, b->rows * b->cols, b->p, NULL) : -ENOMEM;
    if (!sql) hb_error_set("history: out of memory");
    free(sql);
    batch_clear(b);
    return rc;
}

/* The records of one host (indexes into sd->v, stored ones only). */
struct host_recs {
    const char *host;
    const size_t *k;
    size_t n;
};

/* The run row of host: 0 and *id, *id 0 when the history holds this run of host already. */
static int put_run(struct hb_history_db *db, const struct hb_cmp_side *sd,
                   const struct host_recs *h, const char *key, long long t, long long *id)
{
    char when[32];
    snprintf(when, sizeof(when), "%lld", t);
    char *config = host_config(sd->res.run, h->host);
    const char *p[] = {key,
                       h->host,
                       when,
                       run_str(sd->res.run, "hopbench_version"),
                       run_str(sd->res.run, "git_sha"),
                       run_str(sd->res.run, "command_line"),
                       config};
    struct hb_history_db_rows *rows = NULL;
    int rc = hb_history_db_query(db,
                                 "INSERT INTO runs (run_key, host, start_time, version, git_sha, "
                                 "command_line, config) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                                 "ON CONFLICT (run_key, host) DO NOTHING RETURNING id",
                                 7, p, &rows);
    free(config);
    if (rc) return rc;
    int more = hb_history_db_next(rows);
    *id = more == 1 ? hb_history_db_int(rows, 0) : 0;
    hb_history_db_rows_free(rows);
    return more < 0 ? more : 0;
}

/* The series of h's records made where new; ids[i] the series of h->k[i]. */
static int put_series(struct hb_history_db *db, const struct hb_cmp_side *sd,
                      const struct host_recs *h, char **idents, long long *ids, struct batch *b)
{
    static const char head[] =
        "INSERT INTO series (host, identity, metric, unit, higher_is_better)";
    static const char tail[] = "ON CONFLICT (host, identity, metric) DO NOTHING";
    int rc = 0;
    b->cols = 5;
    for (size_t i = 0; rc == 0 && i < h->n; i++) {
        const struct hb_cmp_rec *r = &sd->v[h->k[i]];
        const char **p = &b->p[b->rows * 5];
        p[0] = h->host;
        p[1] = idents[i];
        p[2] = hb_strtab_get(sd->str, r->metric);
        p[3] = hb_strtab_get(sd->str, r->unit);
        p[4] = r->higher_better ? "1" : "0";
        if (++b->rows == BATCH) rc = batch_put(db, b, head, tail);
    }
    if (rc == 0) rc = batch_put(db, b, head, tail);
    /* Each record's series id, looked up by identity and metric among the host's. */
    struct hb_strtab names = {0};
    long long *by_name = calloc(h->n + 1, sizeof(*by_name));
    for (size_t i = 0; by_name && i < h->n; i++) {
        char *both = hb_strf("%s\t%s", idents[i], hb_strtab_get(sd->str, sd->v[h->k[i]].metric));
        uint32_t id = both ? hb_strtab_add(&names, both, strlen(both)) : HB_STRTAB_NONE;
        free(both);
        ids[i] = id == HB_STRTAB_NONE ? -1 : (long long)id;
    }
    struct hb_history_db_rows *rows = NULL;
    if (rc == 0 && by_name)
        rc = hb_history_db_query(db, "SELECT id, identity, metric FROM series WHERE host = $1", 1,
                                 &h->host, &rows);
    for (int more; rc == 0 && by_name && (more = hb_history_db_next(rows)) != 0;) {
        if (more < 0) {
            rc = more;
            break;
        }
        char *both = hb_strf("%s\t%s", hb_history_db_text(rows, 1), hb_history_db_text(rows, 2));
        uint32_t id = both ? hb_strtab_find(&names, both, strlen(both)) : HB_STRTAB_NONE;
        free(both);
        if (id != HB_STRTAB_NONE) by_name[id] = hb_history_db_int(rows, 0);
    }
    hb_history_db_rows_free(rows);
    for (size_t i = 0; rc == 0 && by_name && i < h->n; i++)
        ids[i] = ids[i] < 0 ? 0 : by_name[ids[i]];
    if (rc == 0 && !by_name) {
        hb_error_set("history: out of memory");
        rc = -ENOMEM;
    }
    free(by_name);
    hb_strtab_free(&names);
    return rc;
}

/* The repeat values as the points table keeps them: "1.5 1.25 1.75"; NULL when none. */
static char *repeats_text(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r)
{
    if (r->nrep == 0) return NULL;
    char *text = malloc((size_t)r->nrep * 40), *at = text;
    for (int i = 0; text && i < r->nrep; i++) {
        if (i) *at++ = ' ';
        hb_history_add_real_text(at, sd->reps[r->rep0 + (size_t)i]);
        at += strlen(at);
    }
    return text;
}

static int put_points(struct hb_history_db *db, const struct hb_cmp_side *sd,
                      const struct host_recs *h, long long run, const long long *ids,
                      struct batch *b)
{
    static const char head[] =
        "INSERT INTO points (series_id, run_id, value, ci_lo, ci_hi, repeats)";
    char run_text[32];
    snprintf(run_text, sizeof(run_text), "%lld", run);
    int rc = 0;
    b->cols = 6;
    for (size_t i = 0; rc == 0 && i < h->n; i++) {
        const struct hb_cmp_rec *r = &sd->v[h->k[i]];
        int at = b->rows * 6;
        snprintf(b->cell[at], 40, "%lld", ids[i]);
        b->p[at] = b->cell[at];
        b->p[at + 1] = run_text;
        batch_real(b, 2, r->value);
        batch_real(b, 3, r->lo);
        batch_real(b, 4, r->hi);
        b->owned[b->rows] = repeats_text(sd, r);
        b->p[at + 5] = b->owned[b->rows];
        if (r->nrep && !b->owned[b->rows]) {
            hb_error_set("history: out of memory");
            rc = -ENOMEM;
        }
        if (++b->rows == BATCH && rc == 0) rc = batch_put(db, b, head, "");
    }
    if (rc == 0) rc = batch_put(db, b, head, "");
    batch_clear(b);
    return rc;
}

/* One host's run, series and points. */
static int put_host(struct hb_history_db *db, const struct hb_cmp_side *sd,
                    const struct host_recs *h, const char *key, long long t,
                    struct hb_history_added *out, struct batch *b)
{
    long long run = 0;
    int rc = put_run(db, sd, h, key, t, &run);
    if (rc) return rc;
    if (run == 0) {
        out->hosts_seen++;
        return 0;
    }
    char **idents = calloc(h->n + 1, sizeof(*idents));
    long long *ids = calloc(h->n + 1, sizeof(*ids));
    rc = idents && ids ? 0 : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < h->n; i++)
        if (!(idents[i] = hb_compare_side_key(sd, &sd->v[h->k[i]], 0))) rc = -ENOMEM;
    if (rc) hb_error_set("history: out of memory");
    if (rc == 0) rc = put_series(db, sd, h, idents, ids, b);
    if (rc == 0) rc = put_points(db, sd, h, run, ids, b);
    for (size_t i = 0; idents && i < h->n; i++)
        free(idents[i]);
    free(idents);
    free(ids);
    if (rc == 0) {
        out->hosts_new++;
        out->points += (long)h->n;
    }
    return rc;
}

/* Stored records sorted by host id, then file order. */
static const struct hb_cmp_side *sort_side;
static int by_host(const void *a, const void *b)
{
    const struct hb_cmp_rec *x = &sort_side->v[*(const size_t *)a];
    const struct hb_cmp_rec *y = &sort_side->v[*(const size_t *)b];
    if (x->host != y->host) return x->host < y->host ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Every host's records stored in turn, but those of left_out's hosts. */
static int put_hosts(struct hb_history_db *db, const struct hb_cmp_side *sd, size_t *k, size_t n,
                     const json_t *left_out, struct hb_history_added *out)
{
    char key[17];
    long long t = 0;
    int rc = run_key(sd, key);
    if (rc) hb_error_set("history: out of memory");
    if (rc == 0) rc = start_time(sd, &t);
    struct batch *b = rc ? NULL : calloc(1, sizeof(*b));
    if (rc == 0 && !b) {
        hb_error_set("history: out of memory");
        rc = -ENOMEM;
    }
    sort_side = sd;
    qsort(k, n, sizeof(*k), by_host);
    const json_t *hosts = json_object_get(sd->res.run, "hosts");
    const char *only = json_string_value(json_array_get(hosts, 0));
    for (size_t i = 0, j; rc == 0 && i < n; i = j) {
        for (j = i; j < n && sd->v[k[j]].host == sd->v[k[i]].host;)
            j++;
        const char *host = hb_strtab_get(sd->str, sd->v[k[i]].host);
        /* A record that names no host is of the run's one host. */
        struct host_recs h = {host[0] ? host : only, k + i, j - i};
        if (!h.host) {
            hb_error_set("%s:%d: a measurement names no host, nor does the run record",
                         sd->res.path, sd->v[k[i]].line);
            rc = -EINVAL;
        } else if (json_object_get(left_out, h.host)) {
            out->hosts_unhealthy++;
        } else {
            rc = put_host(db, sd, &h, key, t, out, b);
        }
    }
    free(b);
    return rc;
}

/* Why no record of sd can be stored. */
static int no_measurements(const struct hb_cmp_side *sd)
{
    const struct hb_cmp_rec *bad = NULL;
    for (size_t k = 0; !bad && k < sd->n; k++)
        if (sd->v[k].bad != HB_STRTAB_NONE) bad = &sd->v[k];
    if (bad)
        hb_error_set("%s: a run with no usable measurement (%zu records; line %d: %s)",
                     sd->res.path, sd->n, bad->line, hb_strtab_get(sd->str, bad->bad));
    else
        hb_error_set("%s: a run with no measurements: nothing to store", sd->res.path);
    return -EINVAL;
}

int hb_history_add_file(struct hb_history_db *db, const char *path, struct hb_history_added *out)
{
    struct hb_strtab str = {0};
    struct hb_cmp_side sd = {.str = &str};
    *out = (struct hb_history_added){0};
    int rc = hb_compare_side_read(path, &sd);
    if (rc == 0 && !sd.res.run) {
        hb_error_set("%s: not hopbench records: no run record (hopbench writes one first)", path);
        rc = -EINVAL;
    }
    if (rc == 0) rc = hb_compare_side_index(&sd, 1);
    size_t *k = rc ? NULL : calloc(sd.n + 1, sizeof(*k)), n = 0;
    if (rc == 0 && !k) {
        hb_error_set("%s: out of memory", path);
        rc = -ENOMEM;
    }
    for (size_t i = 0; k && i < sd.n; i++)
        if (stored(&sd, i)) k[n++] = i;
    if (rc == 0 && n == 0) rc = no_measurements(&sd);
    json_t *left_out = NULL;
    if (rc == 0) rc = hb_history_health_left_out(path, sd.res.run, &left_out);
    if (rc == 0) rc = put_hosts(db, &sd, k, n, left_out, out);
    json_decref(left_out);
    out->skipped = (long)(sd.n - n);
    free(k);
    hb_compare_side_free(&sd);
    hb_strtab_free(&str);
    return rc;
}
