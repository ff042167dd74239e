/* What a set of figures' intervals are, said in words: their exact coverage and their repeat
 * counts ("93.75% interval, 5 repeats"), gathered figure by figure so that every table,
 * caption and header that shows intervals states the real coverage, never a fixed 95%
 * (docs/method.md#the-headline-and-its-interval). */
#ifndef HB_COVERAGE_H
#define HB_COVERAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The figures counted so far. Start from {0}. */
struct hb_coverage {
    size_t intervals;      /* figures with an interval */
    size_t unknown;        /* of them, of a coverage the record does not give (an old file) */
    double cov_lo, cov_hi; /* the least and most coverage given (0..1) */
    int rep_lo, rep_hi;    /* the fewest and most repeats of the figures with an interval */
    size_t bare;           /* figures without one (one repeat, an old file) */
    int bare_lo, bare_hi;  /* their fewest and most repeats (0: not given) */
};

/* One figure of `repeats` repeats (0 or less: not given) whose interval has the exact
 * coverage `coverage` (NAN or 0: not given); has_interval false: a figure without one. */
void hb_coverage_add(struct hb_coverage *c, bool has_interval, int repeats, double coverage);
/* A record's headline figure (nothing when it has none): its ci95, ci_coverage, repeats. */
void hb_coverage_add_rec(struct hb_coverage *c, const json_t *rec);
/* Everything counted in from, counted in into too. */
void hb_coverage_merge(struct hb_coverage *into, const struct hb_coverage *from);
/* Whether any figure counted has an interval. */
bool hb_coverage_any(const struct hb_coverage *c);

/* The longest label hb_coverage_label writes, with its terminating NUL. */
#define HB_COVERAGE_LABEL_LEN 96

/* The label into buf (returned): "93.75% interval, 5 repeats" when every interval shares
 * coverage and count; the ranges when they differ ("75-93.75% intervals, 3-5 repeats");
 * "interval of unknown coverage" for a file that does not give it; figures without an
 * interval added as ", 2 without" ("no interval, 1 repeat" when none has one; "no interval"
 * when nothing was counted). */
const char *hb_coverage_label(const struct hb_coverage *c, char *buf, size_t len);

#endif
