/* The in-memory form of the history: series of points loaded from the store
 * (hb_history_load.c) for the change-point engine (hb_changepoint.c), the check command and
 * the report's pictures. The store owns every string and array; a series lives as long as
 * the load that made it. */
#ifndef HB_HISTORY_SERIES_H
#define HB_HISTORY_SERIES_H

#include <stddef.h>

/* One point of a series: one run's figure. */
struct hb_history_point {
    long long run_id;
    long long time;      /* run start, unix seconds */
    const char *commit;  /* hopbench git sha of the run */
    const char *version; /* hopbench version */
    double value, ci_lo, ci_hi;
    const double *repeats; /* repeat values, n_repeats of them */
    size_t n_repeats;
    const char *config_json; /* the run's captured config as JSON object text, or NULL */
};

/* host x compare identity x metric, points sorted by time. */
struct hb_history_series {
    const char *host, *identity, *metric, *unit;
    int higher_is_better;
    struct hb_history_point *points;
    size_t n_points;
};

#endif
