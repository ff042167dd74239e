/* The history's series read back from the database (hb_history_series.h), one host at a time
 * so that a fleet's year (18 M points) never sits in memory at once, or all of them together
 * for a report of a few. Filters: one host, a glob over "identity metric", runs since a time. */
#ifndef HB_HISTORY_LOAD_H
#define HB_HISTORY_LOAD_H

#include "hb_history_db.h"
#include "hb_history_series.h"

#include <stddef.h>

struct hb_history_filter {
    const char *host;  /* exact host name, or NULL: every host */
    const char *match; /* fnmatch(3) glob over "identity metric", or NULL: every series */
    long long since;   /* unix seconds: runs that started then or later (LLONG_MIN: all) */
};

struct hb_history_load;

/* Start reading db's series (the schema checked): 0 or -errno with a message. */
int hb_history_load_open(struct hb_history_db *db, const struct hb_history_filter *f,
                         struct hb_history_load **out);

/* The next host's series that have points, in host then identity order, each's points by
 * time: 1 and *series, *n (valid until the next call or close), 0 when every host is done,
 * -errno with a message (a repeat value in the database that is not a number: -EINVAL). */
int hb_history_load_next(struct hb_history_load *l, const struct hb_history_series **series,
                         size_t *n);

/* How many hosts the filter let through; host i's series (none when it has no points),
 * read as hb_history_load_next reads them: hb_history_load_each reads ahead with these. */
size_t hb_history_load_hosts(const struct hb_history_load *l);
int hb_history_load_host(struct hb_history_load *l, size_t host,
                         const struct hb_history_series **series, size_t *n);

/* fn(ctx, series, n) for each host's series in turn, as hb_history_load_next gives them,
 * until fn returns non-zero; *hosts (may be NULL) gets how many hosts the filter let through.
 * The next host is read on a thread of its own while fn works (fn must not use db).
 * 0, fn's first non-zero, or the loader's -errno with its message. */
int hb_history_load_each(struct hb_history_db *db, const struct hb_history_filter *f,
                         int (*fn)(void *ctx, const struct hb_history_series *s, size_t n),
                         void *ctx, size_t *hosts);

void hb_history_load_close(struct hb_history_load *l);

/* Every series the filter lets through, all at once (the report's few): where names the
 * database as --db does. */
struct hb_history_set {
    struct hb_history_series *series;
    size_t n;
    void *mem; /* what holds them */
};
int hb_history_load_all(const char *where, long busy_ms, const struct hb_history_filter *f,
                        struct hb_history_set *out);
void hb_history_load_set_free(struct hb_history_set *s);

#endif
