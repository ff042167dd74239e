/* What rank 0 keeps of each measurement record for the suite's annotate and derive: the record
 * less the columns they never read (struct hb_suite.reads), so a fleet's results are never
 * held whole (docs/design.md#gather). With HOPBENCH_DEBUG_KEEP=1 it also keeps the whole
 * records and checks that annotate and derive give the same from both (the tests set it). */
#ifndef HB_SUITE_KEEP_H
#define HB_SUITE_KEEP_H

#include "hb_suite_kit.h"

struct hb_keep {
    json_t *drop;  /* the columns left out, as the keys of an object; NULL: nothing is kept */
    json_t *kept;  /* what is kept of each record so far, in order; NULL: nothing is kept */
    json_t *whole; /* HOPBENCH_DEBUG_KEEP: the whole records; NULL otherwise */
    bool differ;   /* HOPBENCH_DEBUG_KEEP: annotate or derive gave another record */
    char *differs; /* the first difference, for the error (NULL: none, or out of memory) */
};

/* Keep what env's suite reads (nothing when it reads no earlier record): 0, or -ENOMEM with a
 * message. */
int hb_keep_init(struct hb_keep *k, const struct hb_suite_env *env);
/* The suite's annotate of rec, from the records kept so far. */
void hb_keep_annotate(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec);
/* Keep what the suite reads of rec (annotated, written): 0, or -ENOMEM with a message. */
int hb_keep_add(struct hb_keep *k, json_t *rec);
/* The suite's derived records from what was kept, appended to derived: derive's result, or
 * -HB_EENV with a message when HOPBENCH_DEBUG_KEEP found that annotate or derive read a key
 * left out. */
int hb_keep_derive(struct hb_keep *k, const struct hb_suite_env *env, json_t *derived);
void hb_keep_free(struct hb_keep *k);

#endif
