/* Independent repeats: each measurement is taken --repeat times on fresh memory, its repeats
 * interleaved with other experiments'; rank 0 keeps each repeat's records here and, when the
 * last is in, merges them into one record per task with the headline's uncertainty. */
#ifndef HB_REPEAT_H
#define HB_REPEAT_H

#include "hb_spool.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* One merged record from the n records of one task, one per repeat, in repeat order (n >= 1;
 * borrowed). A copy of the representative repeat (the one whose headline is the median; the
 * lower middle for even n) with: repeats, repeat_values (each repeat's headline), value (their
 * median), unit, ci95 ([low, high]: hb_interval_median; null for one repeat), ci_coverage,
 * noisy (half-width over noise_pct of value, or fewer than 2 repeats); pages_on_target_pct the
 * worst repeat's, status and note the first failed repeat's, elapsed_s their sum, bg_overlap
 * the least. NULL when out of memory. */
json_t *hb_repeat_merge(json_t *const *recs, int n, double noise_pct);

/* The figure one repeat's record is judged by (what hb_repeat_merge takes the median of);
 * NAN when it has none. */
double hb_repeat_headline(const json_t *rec);

/* The records of every experiment of a run over its repeats. The records of a repeat that is
 * not the experiment's last wait in a temporary file (hb_spool.h: unlinked, in TMPDIR or
 * /tmp, made at the first one; with --repeat 1 none is made); each record of the last repeat
 * is merged with the same task's earlier records, read back then, and emitted at once. So
 * rank 0 holds one task's repeats at a time however many hosts, tasks and experiments the run
 * has (docs/design.md#gather). */
struct hb_repeat_exp;
struct hb_repeats {
    int nexp;
    double noise_pct;
    struct hb_repeat_exp *exps; /* per experiment: its earlier repeats in the spool */
    struct hb_spool spool;
};

/* Room for nexp experiments: 0 or -ENOMEM. */
int hb_repeat_store_init(struct hb_repeats *r, int nexp, double noise_pct);
/* Record rec (stolen; NULL: out of memory making it) of repeat `repeat` of experiment x, not
 * its last; every repeat lists its records in the same order (task by task, host by host):
 * written to the temporary file. 0, or -ENOMEM or -HB_EENV (the file) with a message. */
int hb_repeat_store_put(struct hb_repeats *r, int x, int repeat, json_t *rec);
/* The next record of experiment x's last repeat (stolen; NULL: out of memory making it):
 * merged with the same record of each earlier repeat (hb_repeat_merge), given to emit and
 * freed. 0, or the error of the merge, the file or emit. */
int hb_repeat_store_last(struct hb_repeats *r, int x, json_t *rec,
                         int (*emit)(json_t *rec, void *ctx), void *ctx);
/* Experiment x is done: forget its repeats. */
void hb_repeat_store_end(struct hb_repeats *r, int x);
/* After a run stopped before experiment x's last repeat: each record merged over the repeats
 * that wait and emitted, then forgotten. 0, or the first error of the file or emit. */
int hb_repeat_store_flush(struct hb_repeats *r, int x, int (*emit)(json_t *rec, void *ctx),
                          void *ctx);
/* Whether every record of experiment x's repeats so far is clear: its headline's interval
 * (hb_interval_median) within noise_pct, or no repeat with a headline (nothing more repeats
 * could settle). */
bool hb_repeat_store_clear(const struct hb_repeats *r, int x);
/* Why experiment x's repeats stop ("fixed", "clear", "max", "time"; a static string, NULL
 * leaves it): its merged records say it as repeat_stop. */
void hb_repeat_store_stop(struct hb_repeats *r, int x, const char *why);
/* Whether experiment x has repeats waiting. */
bool hb_repeat_store_has(const struct hb_repeats *r, int x);
void hb_repeat_store_free(struct hb_repeats *r);

#endif
