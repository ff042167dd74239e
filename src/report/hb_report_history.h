/* The history's pictures (`hopbench report --history DB`, issue 41): one self-contained HTML
 * page drawn from series in memory and their change points (hb_changepoint.h), so that it
 * depends on no database: per series a time plot of its medians with their intervals, the
 * change points and the configuration changes marked; for a chosen cell, the fleet's host x
 * night heatmap and the hosts that changed most. */
#ifndef HB_REPORT_HISTORY_H
#define HB_REPORT_HISTORY_H

#include "hb_changepoint.h"
#include "hb_history_series.h"

#include <stdio.h>

struct hb_report_history {
    const char *source;  /* the database as given, for the page */
    const char *filters; /* the filters in words ("--host n07"), "" for none */
    const struct hb_history_series *series;
    size_t n;
    const struct hb_changepoint *cps; /* sorted by series, then point */
    size_t ncp;
    const char *cell; /* a glob over "identity metric" for the fleet heatmap, or NULL */
};

/* At most this many time plots (series with change points first); the rest are counted. */
#define HB_HISTORY_MAX_PLOTS 60

/* The whole page: 0, -ENOMEM, or -EIO when f failed. */
int hb_report_history_write(FILE *f, const struct hb_report_history *h);

/* The time plot of series s (its index in the page: data-series) with its change points
 * cps[0..ncp) (those of s alone): an <svg class="history">. 0, -ENOMEM, or -EINVAL with
 * hb_error_set's message when a run's config is not a JSON object. */
int hb_report_history_plot(FILE *f, const struct hb_history_series *s, size_t index,
                           const struct hb_changepoint *cps, size_t ncp);

/* The fleet section of h->cell: per "identity metric" it matches, the heatmap of host x night
 * and the hosts that changed most; nothing when h->cell is NULL. 0 or -ENOMEM. */
int hb_report_history_fleet(FILE *f, const struct hb_report_history *h);

/* "2026-01-05" of unix seconds (UTC), in buf (11 bytes or more). */
const char *hb_report_history_plot_day(long long t, char *buf, size_t len);

#endif
