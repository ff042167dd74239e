/* The history's series read back (hb_history_load.h): per host three queries (its runs,
 * its series, its points), the points sorted into their series by run time, strings and
 * repeats in an arena that lives for one host (or, loading all, for all of them). */
#include "hb_history_load.h"

#include "hb_arena.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_grow.h"
#include "hb_history_number.h"
#include "hb_history_schema.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run of the host being read: the point's run fields. */
struct run_info {
    long long id, time;
    const char *commit, *version, *config;
};

/* A series row and where its points go. */
struct series_info {
    long long id;
    bool wanted;
    size_t index; /* into the batch's series when wanted */
};

/* A point as read, before it is sorted into its series. */
struct raw_point {
    size_t series, run; /* indexes into series_info and run_info */
    double value, lo, hi;
    const double *reps;
    size_t nrep;
};

struct hb_history_load {
    struct hb_history_db *db;
    struct hb_history_filter f;
    char since[32];
    char **hosts;
    size_t nhosts, next;
    bool keep; /* loading all: nothing of one host is given back for the next */
    struct hb_arena arena;
    struct hb_history_series *series;
    size_t nseries, cap;
};

static int oom(void)
{
    hb_error_set("history: out of memory reading the series");
    return -ENOMEM;
}

/* A copy of s in the arena (NULL stays NULL). */
static const char *keep_str(struct hb_history_load *l, const char *s, int *rc)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *c = hb_arena_alloc(&l->arena, n);
    if (!c) {
        *rc = oom();
        return NULL;
    }
    return memcpy(c, s, n);
}

int hb_history_load_open(struct hb_history_db *db, const struct hb_history_filter *f,
                         struct hb_history_load **out)
{
    struct hb_history_load *l = calloc(1, sizeof(*l));
    if (!l) return oom();
    l->db = db;
    l->f = *f;
    snprintf(l->since, sizeof(l->since), "%lld", f->since);
    struct hb_history_db_rows *rows = NULL;
    int rc = f->host
                 ? hb_history_db_query(db,
                                       "SELECT DISTINCT host FROM series WHERE host = $1 ORDER BY "
                                       "host",
                                       1, &f->host, &rows)
                 : hb_history_db_query(db, "SELECT DISTINCT host FROM series ORDER BY host", 0,
                                       NULL, &rows);
    size_t cap = 0;
    for (int more; rc == 0 && (more = hb_history_db_next(rows)) != 0;) {
        if (more < 0) {
            rc = more;
            break;
        }
        if (hb_grow((void **)&l->hosts, &cap, l->nhosts, sizeof(*l->hosts)) ||
            !(l->hosts[l->nhosts] = strdup(hb_history_db_text(rows, 0)))) {
            rc = oom();
            break;
        }
        l->nhosts++;
    }
    hb_history_db_rows_free(rows);
    if (rc) {
        hb_history_load_close(l);
        return rc;
    }
    *out = l;
    return 0;
}

/* The host's runs since the filter's time, sorted by id (for the points' lookups). */
static int read_runs(struct hb_history_load *l, const char *host, struct run_info **out, size_t *n)
{
    const char *p[] = {host, l->since};
    struct hb_history_db_rows *rows = NULL;
    int rc = hb_history_db_query(l->db,
                                 "SELECT id, start_time, git_sha, version, config FROM runs WHERE "
                                 "host = $1 AND start_time >= $2 ORDER BY id",
                                 2, p, &rows);
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (int more; rc == 0 && (more = hb_history_db_next(rows)) != 0;) {
        if (more < 0) {
            rc = more;
            break;
        }
        if (hb_grow((void **)out, &cap, *n, sizeof(**out))) {
            rc = oom();
            break;
        }
        struct run_info *r = &(*out)[(*n)++];
        r->id = hb_history_db_int(rows, 0);
        r->time = hb_history_db_int(rows, 1);
        r->commit = keep_str(l, hb_history_db_text(rows, 2), &rc);
        r->version = keep_str(l, hb_history_db_text(rows, 3), &rc);
        r->config = keep_str(l, hb_history_db_text(rows, 4), &rc);
    }
    hb_history_db_rows_free(rows);
    return rc;
}

/* The host's series, sorted by id; those the glob lets through get a place in l->series. */
static int read_series(struct hb_history_load *l, const char *host, struct series_info **out,
                       size_t *n)
{
    struct hb_history_db_rows *rows = NULL;
    int rc = hb_history_db_query(l->db,
                                 "SELECT id, identity, metric, unit, higher_is_better FROM series "
                                 "WHERE host = $1 ORDER BY identity, metric",
                                 1, &host, &rows);
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    const char *h = keep_str(l, host, &rc);
    for (int more; rc == 0 && (more = hb_history_db_next(rows)) != 0;) {
        if (more < 0) {
            rc = more;
            break;
        }
        if (hb_grow((void **)out, &cap, *n, sizeof(**out))) {
            rc = oom();
            break;
        }
        const char *ident = hb_history_db_text(rows, 1), *metric = hb_history_db_text(rows, 2);
        struct series_info *si = &(*out)[(*n)++];
        *si = (struct series_info){hb_history_db_int(rows, 0), true, 0};
        if (l->f.match) {
            char *both = hb_strf("%s %s", ident, metric);
            if (!both) {
                rc = oom();
                break;
            }
            si->wanted = fnmatch(l->f.match, both, 0) == 0;
            free(both);
        }
        if (!si->wanted) continue;
        if (hb_grow((void **)&l->series, &l->cap, l->nseries, sizeof(*l->series))) {
            rc = oom();
            break;
        }
        si->index = l->nseries;
        l->series[l->nseries++] =
            (struct hb_history_series){h,
                                       keep_str(l, ident, &rc),
                                       keep_str(l, metric, &rc),
                                       keep_str(l, hb_history_db_text(rows, 3), &rc),
                                       (int)hb_history_db_int(rows, 4),
                                       NULL,
                                       0};
    }
    hb_history_db_rows_free(rows);
    return rc;
}

static int by_id_series(const void *a, const void *b)
{
    long long x = ((const struct series_info *)a)->id, y = ((const struct series_info *)b)->id;
    return (x > y) - (x < y);
}

/* The index of want in a (sorted by id), or n; want read once (it is a cell of the row). */
#define FIND_BY_ID(a, n, want, at)                                                                 \
    do {                                                                                           \
        size_t lo_ = 0, hi_ = (n);                                                                 \
        const long long want_ = (want);                                                            \
        while (lo_ < hi_) {                                                                        \
            size_t mid_ = (lo_ + hi_) / 2;                                                         \
            if ((a)[mid_].id < want_)                                                              \
                lo_ = mid_ + 1;                                                                    \
            else                                                                                   \
                hi_ = mid_;                                                                        \
        }                                                                                          \
        (at) = lo_ < (n) && (a)[lo_].id == want_ ? lo_ : (n);                                      \
    } while (0)

/* "1.5 1.25 1.75" as numbers in the arena. */
static int parse_repeats(struct hb_history_load *l, const char *text, struct raw_point *p)
{
    p->reps = NULL;
    p->nrep = 0;
    if (!text || !*text) return 0;
    size_t n = 1;
    for (const char *c = text; *c; c++)
        n += *c == ' ';
    double *x = hb_arena_alloc(&l->arena, n * sizeof(*x));
    if (!x) return oom();
    const char *c = text;
    for (size_t i = 0; i < n; i++) {
        char *end;
        x[i] = hb_history_number_read(c, &end);
        if (end == c || (*end && *end != ' ')) {
            hb_error_set("%s: a point's repeat values '%s' are not numbers",
                         hb_history_db_name(l->db), text);
            return -EINVAL;
        }
        c = *end ? end + 1 : end;
    }
    p->reps = x;
    p->nrep = n;
    return 0;
}

static const struct run_info *sort_runs;
static int by_series_time(const void *a, const void *b)
{
    const struct raw_point *x = a, *y = b;
    if (x->series != y->series) return x->series < y->series ? -1 : 1;
    const struct run_info *rx = &sort_runs[x->run], *ry = &sort_runs[y->run];
    if (rx->time != ry->time) return rx->time < ry->time ? -1 : 1;
    return (rx->id > ry->id) - (rx->id < ry->id);
}

/* The host's points, each into its series (those the filters let through). */
static int read_points(struct hb_history_load *l, const char *host, const struct run_info *runs,
                       size_t nruns, struct series_info *si, size_t nsi)
{
    qsort(si, nsi, sizeof(*si), by_id_series);
    struct hb_history_db_rows *rows = NULL;
    int rc =
        hb_history_db_query(l->db,
                            "SELECT p.series_id, p.run_id, p.value, p.ci_lo, p.ci_hi, p.repeats "
                            "FROM points p JOIN series s ON s.id = p.series_id WHERE s.host = $1",
                            1, &host, &rows);
    struct raw_point *raw = NULL;
    size_t n = 0, cap = 0;
    for (int more; rc == 0 && (more = hb_history_db_next(rows)) != 0;) {
        if (more < 0) {
            rc = more;
            break;
        }
        size_t s, r;
        FIND_BY_ID(si, nsi, hb_history_db_int(rows, 0), s);
        FIND_BY_ID(runs, nruns, hb_history_db_int(rows, 1), r);
        if (s == nsi || r == nruns || !si[s].wanted) continue;
        if (hb_grow((void **)&raw, &cap, n, sizeof(*raw))) {
            rc = oom();
            break;
        }
        struct raw_point *p = &raw[n++];
        *p = (struct raw_point){si[s].index,
                                r,
                                hb_history_db_real(rows, 2),
                                hb_history_db_real(rows, 3),
                                hb_history_db_real(rows, 4),
                                NULL,
                                0};
        rc = parse_repeats(l, hb_history_db_text(rows, 5), p);
    }
    hb_history_db_rows_free(rows);
    struct hb_history_point *pts =
        rc == 0 ? hb_arena_alloc(&l->arena, (n + 1) * sizeof(*pts)) : NULL;
    if (rc == 0 && !pts) rc = oom();
    if (rc == 0) {
        sort_runs = runs;
        qsort(raw, n, sizeof(*raw), by_series_time);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct raw_point *p = &raw[i];
        const struct run_info *r = &runs[p->run];
        pts[i] = (struct hb_history_point){r->id, r->time, r->commit, r->version, p->value,
                                           p->lo, p->hi,   p->reps,   p->nrep,    r->config};
        struct hb_history_series *s = &l->series[p->series];
        if (!s->points) s->points = &pts[i];
        s->n_points++;
    }
    free(raw);
    return rc;
}

/* One host read into l->series (appended to those before when keeping all). */
static int read_host(struct hb_history_load *l, const char *host)
{
    struct run_info *runs = NULL;
    struct series_info *si = NULL;
    size_t nruns = 0, nsi = 0, first = l->nseries;
    int rc = read_runs(l, host, &runs, &nruns);
    if (rc == 0) rc = read_series(l, host, &si, &nsi);
    if (rc == 0) rc = read_points(l, host, runs, nruns, si, nsi);
    /* Series without points since --since are no series to look at. */
    size_t kept = first;
    for (size_t i = first; rc == 0 && i < l->nseries; i++)
        if (l->series[i].n_points) l->series[kept++] = l->series[i];
    if (rc == 0) l->nseries = kept;
    free(runs);
    free(si);
    return rc;
}

size_t hb_history_load_hosts(const struct hb_history_load *l)
{
    return l->nhosts;
}

int hb_history_load_host(struct hb_history_load *l, size_t host,
                         const struct hb_history_series **series, size_t *n)
{
    if (!l->keep) {
        hb_arena_reset(&l->arena);
        l->nseries = 0;
    }
    size_t first = l->keep ? l->nseries : 0;
    int rc = read_host(l, l->hosts[host]);
    if (rc) return rc;
    *series = l->series + first;
    *n = l->nseries - first;
    return 0;
}

int hb_history_load_next(struct hb_history_load *l, const struct hb_history_series **series,
                         size_t *n)
{
    while (l->next < l->nhosts) {
        int rc = hb_history_load_host(l, l->next++, series, n);
        if (rc) return rc;
        if (*n) return 1;
    }
    return 0;
}

void hb_history_load_close(struct hb_history_load *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->nhosts; i++)
        free(l->hosts[i]);
    free(l->hosts);
    free(l->series);
    hb_arena_free(&l->arena);
    free(l);
}

int hb_history_load_all(const char *where, long busy_ms, const struct hb_history_filter *f,
                        struct hb_history_set *out)
{
    struct hb_history_db *db = NULL;
    struct hb_history_load *l = NULL;
    const struct hb_history_db_how how = {busy_ms, false};
    *out = (struct hb_history_set){0};
    int rc = hb_history_db_open(where, &how, &db);
    if (rc == 0) rc = hb_history_schema_ready(db, false);
    if (rc == 0) rc = hb_history_load_open(db, f, &l);
    if (rc == 0) l->keep = true;
    const struct hb_history_series *s;
    size_t n;
    while (rc == 0 && (rc = hb_history_load_next(l, &s, &n)) == 1)
        rc = 0;
    if (rc == 0)
        *out = (struct hb_history_set){l->series, l->nseries, l};
    else
        hb_history_load_close(l);
    hb_history_db_close(db);
    return rc;
}

void hb_history_load_set_free(struct hb_history_set *s)
{
    hb_history_load_close(s->mem);
    *s = (struct hb_history_set){0};
}
