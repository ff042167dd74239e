/* One series' part of the change-point search (hb_changepoint.h): its segmentation, its
 * tests and the change points they give, before the FDR across all series. */
#ifndef HB_CHANGEPOINT_SERIES_H
#define HB_CHANGEPOINT_SERIES_H

#include "hb_changepoint.h"

/* The series' change points whose change passes params->min_change, p set, p_adjusted NaN,
 * `series` set to index: *out a new array (NULL when none) of *n_out; *members the tests it
 * adds to the family. 0, -ENOMEM or -EINVAL (a config that is not a JSON object). */
int hb_changepoint_series(const struct hb_history_series *s, size_t index,
                          const struct hb_changepoint_params *params, struct hb_changepoint **out,
                          size_t *n_out, size_t *members);

#endif
