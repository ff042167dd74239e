/* What rank 0 keeps of each measurement record for the suite's annotate and derive, so that a
 * fleet's results are never held in memory (docs/design.md#gather): of each record only the
 * part they read (struct hb_suite.reads); in memory only the few records annotate looks up
 * (struct hb_suite.refers); the rest in a temporary file (hb_spool.h), which derive reads back
 * one host at a time (all at once for HB_SUITE_DERIVE_ALL), its derived records written and
 * freed host by host. With HOPBENCH_DEBUG_KEEP=1 the whole records are kept in memory besides,
 * and annotate and derive must give the same from both (the tests set it). */
#ifndef HB_SUITE_KEEP_H
#define HB_SUITE_KEEP_H

#include "hb_spool.h"
#include "hb_suite_kit.h"

/* One host's kept parts in the spool, in record order. */
struct hb_keep_host {
    char *name;
    struct hb_span *at;
    size_t n, cap;
};

struct hb_keep {
    json_t *drop;               /* the columns left out, as an object's keys; NULL: none kept */
    json_t *refs;               /* what annotate looks up (hb_suite_refers); NULL: nothing */
    bool derives;               /* the suite has a derive: the kept parts go to the spool */
    struct hb_spool spool;      /* the kept parts, in record order */
    json_t *host_at;            /* host -> its index in hosts */
    struct hb_keep_host *hosts; /* each host's kept parts in the spool, in first-seen order */
    size_t nhosts, cap;
    json_t *whole; /* HOPBENCH_DEBUG_KEEP: the whole records; NULL otherwise */
    bool differ;   /* HOPBENCH_DEBUG_KEEP: annotate or derive gave another record */
    char *differs; /* the first difference, for the error (NULL: none or no memory) */
};

/* Keep what env's suite reads (nothing when it reads no earlier record): 0, or -ENOMEM with a
 * message. */
int hb_suite_keep_init(struct hb_keep *k, const struct hb_suite_env *env);
/* The suite's annotate of rec, from the records kept so far. */
void hb_suite_keep_annotate(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec);
/* Keep what the suite reads of rec (annotated, written): 0, or -ENOMEM or -HB_EENV (the
 * temporary file) with a message. */
int hb_suite_keep_add(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec);
/* The suite's derived records (the tiers note, derive host by host or all at once, derive_end),
 * each given to put as it is made and then freed: 0, the first error of derive or put, -HB_EENV
 * when the temporary file cannot be read back, or when HOPBENCH_DEBUG_KEEP found that annotate
 * or derive read what was not kept. */
int hb_suite_keep_derive(struct hb_keep *k, const struct hb_suite_env *env,
                         int (*put)(json_t *rec, void *ctx), void *ctx);
void hb_suite_keep_free(struct hb_keep *k);

#endif
