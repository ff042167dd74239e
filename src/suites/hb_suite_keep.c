/* What rank 0 keeps of each measurement record for annotate and derive (hb_suite_keep.h). */
#include "hb_suite_keep.h"
#include "hb_suite.h"

#include "hb_error.h"
#include "hb_grow.h"
#include "hb_records_held.h"
#include "hb_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The columns every suite keeps: a record's identity and place (what derive matches records
 * on), its headline figure and what its interval is made of (hb_jsonl_read_interval), its status,
 * and what hb_suite_mlp_annotate matches a chase's one-chain record on. The rest of the columns
 * (the samples, the other statistics, the CPUs and node sets, the times) only a suite's `reads`
 * keeps. */
static const char *const keep_always[] = {
    "type",           "suite",      "experiment", "label",         "host",
    "metric",         "kernel",     "access",     "role",          "cpu_node",
    "mem_node",       "policy",     "hops",       "distance",      "threads",
    "bytes",          "pages",      "level",      "chase_stride",  "chase_group_bytes",
    "chains",         "value",      "unit",       "relative",      "ci95",
    "ci_coverage",    "noisy",      "repeats",    "lat_ns_median", "bw_GBps_best",
    "measured_class", "background", "status",     "note",          NULL,
};

static bool keep_listed(const char *const *list, const char *key)
{
    for (; list && *list; list++)
        if (strcmp(*list, key) == 0) return true;
    return false;
}

static int keep_oom(void)
{
    hb_error_set("out of memory keeping the records for the derived ones");
    return -ENOMEM;
}

int hb_suite_keep_init(struct hb_keep *k, const struct hb_suite_env *env)
{
    *k = (struct hb_keep){0};
    k->spool.what = "the records kept for the derived ones";
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    bool refs = hb_suite_annotate_reads(env);
    k->derives = s && s->derive;
    if (!refs && !k->derives) return 0;
    const char *debug = getenv("HOPBENCH_DEBUG_KEEP");
    bool whole = debug && strcmp(debug, "1") == 0;
    k->drop = json_object();
    k->refs = refs ? json_array() : NULL;
    k->host_at = k->derives ? json_object() : NULL;
    k->whole = whole ? json_array() : NULL;
    bool ok = k->drop && (!refs || k->refs) && (!k->derives || k->host_at) && (!whole || k->whole);
    for (const char *const *c = hb_record_columns; ok && s && *c; c++)
        if (!keep_listed(keep_always, *c) && !keep_listed(s->reads, *c))
            ok = json_object_set_new(k->drop, *c, json_true()) == 0;
    if (ok) return 0;
    hb_suite_keep_free(k);
    return keep_oom();
}

/* The first key whose value differs between a and b (objects), or "-". */
static const char *keep_first_difference(const json_t *a, const json_t *b)
{
    const char *key;
    const json_t *v;
    if (!json_is_object(a) || !json_is_object(b)) return "-";
    json_object_foreach((json_t *)a, key, v)
    {
        if (!json_equal(v, json_object_get(b, key))) return key;
    }
    json_object_foreach((json_t *)b, key, v)
    {
        if (!json_object_get(a, key)) return key;
    }
    return "-";
}

/* Remember the first difference: which step, which record, which key. */
#define HB_KEEP_DIFFERS                                                                            \
    "%s from the kept part of the records than from whole ones (experiment %s, key %s)"
static void keep_note(struct hb_keep *k, const char *what, const json_t *a, const json_t *b)
{
    if (k->differ) return;
    k->differ = true;
    const char *x = json_string_value(json_object_get(a, "experiment"));
    const char *key = keep_first_difference(a, b);
    int len = snprintf(NULL, 0, HB_KEEP_DIFFERS, what, x ? x : "-", key);
    k->differs = len > 0 ? malloc((size_t)len + 1) : NULL;
    if (k->differs) snprintf(k->differs, (size_t)len + 1, HB_KEEP_DIFFERS, what, x ? x : "-", key);
}

void hb_suite_keep_annotate(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec)
{
    json_t *copy = k->whole ? json_deep_copy(rec) : NULL;
    hb_suite_annotate(env, k->refs, rec);
    if (!copy) return;
    hb_suite_annotate(env, k->whole, copy);
    if (!json_equal(copy, rec)) keep_note(k, "annotate gave another record", copy, rec);
    json_decref(copy);
}

/* The record less the columns left out (values shared with it). */
static json_t *keep_part(const struct hb_keep *k, json_t *rec)
{
    json_t *part = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(rec, key, v)
    {
        if (part && !json_object_get(k->drop, key) && json_object_set(part, key, v) != 0) {
            json_decref(part);
            part = NULL;
        }
    }
    return part;
}

/* The host's entry (made at its first record), or NULL when out of memory. */
static struct hb_keep_host *keep_host(struct hb_keep *k, const char *name)
{
    json_t *at = json_object_get(k->host_at, name);
    if (at) return &k->hosts[json_integer_value(at)];
    if (hb_grow((void **)&k->hosts, &k->cap, k->nhosts, sizeof(*k->hosts))) return NULL;
    struct hb_keep_host *h = &k->hosts[k->nhosts];
    *h = (struct hb_keep_host){strdup(name), NULL, 0, 0};
    if (!h->name ||
        json_object_set_new(k->host_at, name, json_integer((json_int_t)k->nhosts)) != 0) {
        free(h->name);
        return NULL;
    }
    k->nhosts++;
    return h;
}

/* part into the spool, noted under its host. */
static int keep_spool(struct hb_keep *k, const json_t *part)
{
    const char *name = json_string_value(json_object_get(part, "host"));
    struct hb_keep_host *h = keep_host(k, name ? name : "");
    if (!h) return keep_oom();
    if (hb_grow((void **)&h->at, &h->cap, h->n, sizeof(*h->at))) return keep_oom();
    int rc = hb_spool_put(&k->spool, part, &h->at[h->n]);
    if (rc == 0) h->n++;
    return rc;
}

int hb_suite_keep_add(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec)
{
    if (!k->drop) return 0;
    json_t *part = keep_part(k, rec);
    if (!part) return keep_oom();
    int rc = 0;
    if (k->refs && hb_suite_refers(env, rec) && json_array_append(k->refs, part) != 0)
        rc = keep_oom();
    if (rc == 0 && k->derives) rc = keep_spool(k, part);
    json_decref(part);
    if (rc == 0 && k->whole) {
        if (json_array_append(k->whole, rec) != 0) return keep_oom();
        hb_records_held_add(1);
    }
    return rc;
}

static int keep_by_offset(const void *a, const void *b)
{
    off_t x = ((const struct hb_span *)a)->off, y = ((const struct hb_span *)b)->off;
    return (x > y) - (x < y);
}

/* The kept parts at n spans, read back from the spool (a new array); NULL with a message. */
static json_t *keep_read(struct hb_keep *k, const struct hb_span *at, size_t n)
{
    json_t *recs = json_array();
    for (size_t i = 0; recs && i < n; i++) {
        json_t *part = hb_spool_get(&k->spool, at[i]);
        if (!part || json_array_append_new(recs, part) != 0) {
            if (part) keep_oom();
            json_decref(recs);
            return NULL;
        }
    }
    if (!recs) keep_oom();
    return recs;
}

/* Every host's kept parts in record order (a new array); NULL with a message. */
static json_t *keep_read_all(struct hb_keep *k)
{
    size_t n = 0, at = 0;
    for (size_t h = 0; h < k->nhosts; h++)
        n += k->hosts[h].n;
    struct hb_span *all = malloc(sizeof(*all) * (n ? n : 1));
    if (!all) {
        keep_oom();
        return NULL;
    }
    for (size_t h = 0; h < k->nhosts; h++)
        for (size_t i = 0; i < k->hosts[h].n; i++)
            all[at++] = k->hosts[h].at[i];
    qsort(all, n, sizeof(*all), keep_by_offset);
    json_t *recs = keep_read(k, all, n);
    free(all);
    return recs;
}

/* The whole records of one host (every host's when host is NULL), a new array. */
static json_t *keep_whole_of(const struct hb_keep *k, const char *host)
{
    json_t *recs = json_array(), *rec;
    size_t i;
    json_array_foreach(k->whole, i, rec)
    {
        const char *name = json_string_value(json_object_get(rec, "host"));
        if (!host || strcmp(name ? name : "", host) == 0) json_array_append(recs, rec);
    }
    return recs;
}

/* derive, or derive_end when recs is NULL, with stderr muted: the check's second derive does
 * not say a suite's notes (comm's NICs) again. */
static int keep_quiet(const struct hb_suite *s, const struct hb_suite_env *env, json_t *recs,
                      json_t *out)
{
    fflush(stderr);
    int quiet = open("/dev/null", O_WRONLY | O_CLOEXEC), saved = quiet >= 0 ? dup(2) : -1;
    if (saved >= 0) dup2(quiet, 2);
    int rc = recs ? s->derive(env, recs, out) : s->derive_end(env, out);
    fflush(stderr);
    if (saved >= 0) dup2(saved, 2), close(saved);
    if (quiet >= 0) close(quiet);
    return rc;
}

/* HOPBENCH_DEBUG_KEEP: the records out[from..] that derive made from the kept parts against
 * those of the same step on whole records (wrecs; NULL: derive_end). */
static int keep_check(struct hb_keep *k, const struct hb_suite *s, const struct hb_suite_env *wenv,
                      json_t *wrecs, int rc, json_t *out, size_t from)
{
    json_t *check = json_array();
    int wrc = check ? keep_quiet(s, wenv, wrecs, check) : -ENOMEM;
    for (size_t i = 0; wrc == 0 && i < json_array_size(check); i++) {
        const json_t *a = json_array_get(check, i), *b = json_array_get(out, from + i);
        if (!json_equal(a, b)) keep_note(k, "derive gave another record", a, b);
    }
    if (wrc == 0 && rc == 0 && json_array_size(check) != json_array_size(out) - from)
        keep_note(k, "derive gave another number of records", NULL, NULL);
    if (wrc != rc && wrc != -ENOMEM) keep_note(k, "derive returned another status", NULL, NULL);
    json_decref(check);
    return wrc == -ENOMEM ? wrc : rc;
}

/* Each record of out given to put (with its host, when the run has several and derive gave
 * none), then out emptied. */
static int keep_put(json_t *out, const char *host, int (*put)(json_t *rec, void *ctx), void *ctx)
{
    int rc = 0;
    size_t i;
    json_t *rec;
    json_array_foreach(out, i, rec)
    {
        if (rc == 0 && host && !json_object_get(rec, "host"))
            rc = json_object_set_new(rec, "host", json_string(host)) ? keep_oom() : 0;
        if (rc == 0) rc = put(rec, ctx);
    }
    json_array_clear(out);
    return rc;
}

/* derive on each host's kept parts in turn, then derive_end. */
static int keep_hosts(struct hb_keep *k, const struct hb_suite *s, const struct hb_suite_env *env,
                      json_t *out, int (*put)(json_t *rec, void *ctx), void *ctx)
{
    struct hb_across across = {0}, wacross = {0};
    struct hb_suite_env henv = *env, wenv = *env;
    henv.across = &across;
    wenv.across = &wacross;
    int rc = 0;
    /* No record kept: derive still says what it says of none. */
    for (size_t h = 0; rc == 0 && h < (k->nhosts ? k->nhosts : 1); h++) {
        const char *name = k->nhosts ? k->hosts[h].name : NULL;
        json_t *recs = k->nhosts ? keep_read(k, k->hosts[h].at, k->hosts[h].n) : json_array();
        if (!recs) rc = k->nhosts ? -HB_EENV : keep_oom();
        if (rc == 0) rc = s->derive(&henv, recs, out);
        json_decref(recs);
        if (k->whole) {
            json_t *wrecs = keep_whole_of(k, name);
            rc = wrecs ? keep_check(k, s, &wenv, wrecs, rc, out, 0) : keep_oom();
            json_decref(wrecs);
        }
        int prc = keep_put(out, k->nhosts > 1 ? name : NULL, put, ctx);
        rc = rc ? rc : prc;
    }
    if (rc == 0 && s->derive_end) {
        rc = s->derive_end(&henv, out);
        if (k->whole) rc = keep_check(k, s, &wenv, NULL, rc, out, 0);
        int prc = keep_put(out, NULL, put, ctx);
        rc = rc ? rc : prc;
    }
    if (across.free) across.free(across.data);
    if (wacross.free) wacross.free(wacross.data);
    return rc;
}

int hb_suite_keep_derive(struct hb_keep *k, const struct hb_suite_env *env,
                         int (*put)(json_t *rec, void *ctx), void *ctx)
{
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    json_t *out = json_array();
    if (!out) return keep_oom();
    int rc = 0;
    /* The cross-node suites say first how they grouped memory of other kinds or tiers. */
    if (s && s->tiers) hb_suite_kit_tiers_note(env, s->tiers, out);
    rc = keep_put(out, NULL, put, ctx);
    if (rc == 0 && s && s->derive && !(s->flags & HB_SUITE_DERIVE_ALL)) {
        rc = keep_hosts(k, s, env, out, put, ctx);
    } else if (rc == 0 && s && s->derive) {
        json_t *recs = keep_read_all(k);
        rc = recs ? s->derive(env, recs, out) : -HB_EENV;
        json_decref(recs);
        if (k->whole) rc = keep_check(k, s, env, k->whole, rc, out, 0);
        int prc = keep_put(out, NULL, put, ctx);
        rc = rc ? rc : prc;
    }
    json_decref(out);
    if (rc == -ENOMEM || rc == -HB_EENV || !k->differ) return rc;
    hb_error_set("HOPBENCH_DEBUG_KEEP: %s: %s: a record it reads is not kept, or a key of it left "
                 "out (struct hb_suite.reads, refers)",
                 env->opts->command[0] ? env->opts->command : "the default suite",
                 k->differs ? k->differs : "(out of memory saying where)");
    return -HB_EENV;
}

void hb_suite_keep_free(struct hb_keep *k)
{
    json_decref(k->drop);
    json_decref(k->refs);
    hb_spool_close(&k->spool);
    json_decref(k->host_at);
    for (size_t h = 0; h < k->nhosts; h++) {
        free(k->hosts[h].name);
        free(k->hosts[h].at);
    }
    free(k->hosts);
    if (k->whole) hb_records_held_add(-(long)json_array_size(k->whole));
    json_decref(k->whole);
    free(k->differs);
    *k = (struct hb_keep){0};
}
