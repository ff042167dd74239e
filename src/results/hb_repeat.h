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

/* The records of every experiment of a run over its repeats. Only the latest repeat added
 * stays in memory; the earlier ones wait in a temporary file (unlinked once made, in TMPDIR
 * or /tmp, made at the first one), so rank 0 holds one experiment's records at a time
 * however many hosts and experiments the run has (docs/design.md#gather). */
struct hb_repeat_spans;
struct hb_repeats {
    int nexp;
    double noise_pct;
    struct hb_repeat_spans *spilled; /* per experiment: its repeats in the file */
    struct hb_spool spool;           /* the earlier repeats */
    int last_x;                      /* experiment of the repeat in memory; -1: none */
    json_t *last;                    /* its records */
};

/* Room for nexp experiments: 0 or -ENOMEM. */
int hb_repeats_init(struct hb_repeats *r, int nexp, double noise_pct);
/* Keep one repeat's records of experiment x (an array; stolen; NULL: out of memory making
 * it): 0, or -ENOMEM or -HB_EENV (the temporary file) with a message. */
int hb_repeats_add(struct hb_repeats *r, int x, json_t *records);
/* Whether experiment x has repeats kept. */
bool hb_repeats_has(const struct hb_repeats *r, int x);
/* Experiment x's merged records, task by task as the repeats listed them, in *merged (a new
 * array, empty when nothing was kept), and forget its repeats: 0, or -ENOMEM or -HB_EENV (the
 * temporary file) with a message and *merged NULL. */
int hb_repeats_take(struct hb_repeats *r, int x, json_t **merged);
/* Experiment x's merged records (hb_repeats_take) each given to emit, then freed: whatever
 * rank 0 keeps of them for derived records is emit's to copy (docs/design.md#gather). 0, or
 * the first error of emit or of the take (the records after a failed emit are not emitted). */
int hb_repeats_emit(struct hb_repeats *r, int x, int (*emit)(json_t *rec, void *ctx), void *ctx);
void hb_repeats_free(struct hb_repeats *r);

#endif
