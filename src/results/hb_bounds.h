/* The physical bounds of a measurement record's figures: a figure outside one is impossible
 * (a measurement or derivation went wrong), so the record says so where it is shown. Only
 * true bounds: a bandwidth over the machine's nominal peak is not one. */
#ifndef HB_BOUNDS_H
#define HB_BOUNDS_H

#include <jansson.h>
#include <stddef.h>

/* Checks rec (a measurement record; any other is left alone) and sets `out_of_bounds`:
 * [{key, value, must, bound, why}] for each figure past its bound (`must` "at most", "at
 * least" or "above" `bound`), removed when none is. The bounds:
 * concurrency <= chains x threads (no more loads can be in flight), pages_on_target_pct and
 * each of pages_share_pct within 0..100, bg_overlap within 0..1, an ok record's value above
 * 0. */
void hb_bounds_check(json_t *rec);

/* The keys hb_bounds_check reads (NULL-ended): a caller may check a copy of just these. */
extern const char *const hb_bounds_reads[];

/* One entry of `out_of_bounds` in words, as the table and the report say it: "concurrency
 * 22.00, which must be at most 8 (chains x threads: ...)", into buf (returned). */
const char *hb_bounds_text(const json_t *entry, char *buf, size_t len);

#endif
