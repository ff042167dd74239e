/* Whether a history's series stepped at a point: the rank test between the pooled repeats of
 * the points before and after, deterministic (no permutations), with two corrections a
 * series needs. Runs scatter more from night to night than repeats within a run, so the
 * rank test's variance grows by the design effect of repeats clustered in runs; and a split
 * found by searching every point gives a smaller p than one fixed beforehand, so p is
 * corrected for that search (Siegmund's bound for the largest standardized two-sample
 * statistic, capped by Bonferroni). */
#ifndef HB_SPLIT_TEST_H
#define HB_SPLIT_TEST_H

#include "hb_history_series.h"
#include "hb_interval.h"

#include <stddef.h>

/* One series' repeats laid end to end (a point without repeats gives its value as one):
 * point i's are at[off[i] .. off[i + 1]); deff the design effect of the runs. */
struct hb_split_pool {
    double *at;
    size_t *off;
    double deff;
    double *scratch; /* room for every repeat, for intervals */
};

/* 0, or -ENOMEM. */
int hb_split_test_pool_init(struct hb_split_pool *pool, const struct hb_history_series *s);
void hb_split_test_pool_free(struct hb_split_pool *pool);

/* The two-sided p that points [from, at) and [at, to) share one level, the split searched
 * among `searched` positions (1: fixed beforehand); NAN when out of memory. */
double hb_split_test_p(const struct hb_split_pool *pool, size_t from, size_t at, size_t to,
                       size_t searched);

/* The same for two segments apart ([a_from, a_to) and [b_from, b_to)). */
double hb_split_test_apart(const struct hb_split_pool *pool, size_t a_from, size_t a_to,
                           size_t b_from, size_t b_to, size_t searched);

/* A window's repeats ranked once (sorted, each with its point) for every split tested in
 * it: each test then costs a pass over them, not a sort. */
struct hb_split_window {
    struct hb_split_ranked {
        double v;
        size_t point;
    } * at;
    struct hb_split_ranked *tmp; /* the sort's room */
    size_t n, cap;
    size_t from, to; /* the points ranked */
};

/* Rank the repeats of points [from, to) into w (grown as needed): 0 or -ENOMEM. */
int hb_split_test_window_rank(struct hb_split_window *w, const struct hb_split_pool *pool,
                              size_t from, size_t to);
void hb_split_test_window_free(struct hb_split_window *w);

/* hb_split_test_apart for segments inside the window ranked in w. */
double hb_split_test_window_p(const struct hb_split_window *w, const struct hb_split_pool *pool,
                              size_t a_from, size_t a_to, size_t b_from, size_t b_to,
                              size_t searched);

/* The median of points [from, to)'s pooled repeats with its ci95; -1 for no points. */
int hb_split_test_interval(const struct hb_split_pool *pool, size_t from, size_t to,
                           struct hb_interval *iv);

#endif
