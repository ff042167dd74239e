/* What changed on a host between two of its runs, said apart from the figures: check writes
 * a row for each run whose captured configuration (a knob) or hopbench itself differs from
 * the run before it, whether or not a figure stepped there, and names the knobs of a change
 * point the same way. */
#ifndef HB_HISTORY_CONFIG_CHANGE_H
#define HB_HISTORY_CONFIG_CHANGE_H

#include "hb_history_series.h"

#include <jansson.h>
#include <stddef.h>

/* "thp_enabled always -> never, governor ..." of knobs[0..n) between two runs' config JSON
 * texts (a value a run lacks is "?"); NULL when out of memory. */
char *hb_history_config_change_knobs_text(const char *was_json, const char *now_json,
                                          char *const *knobs, size_t n);

/* "0.1.0 1111111111aa -> 0.1.0 2222222222bb": hopbench's version and commit at two runs (a
 * value a run lacks is "?"); NULL when out of memory. */
char *hb_history_config_change_version_text(const struct hb_history_point *was,
                                            const struct hb_history_point *now);

/* One host's runs, from the points of its series s[0..n) (sorted by time), each compared with
 * the run before it: a "config_change" row (kind "config", at_time, at_commit, at_run, knobs,
 * version_changed, version_change) appended to rows for each that changed. *count (added to)
 * gets how many. 0, -ENOMEM, or -EINVAL with the message for a config that is not JSON. */
int hb_history_config_change_rows(const struct hb_history_series *s, size_t n, json_t *rows,
                                  size_t *count);

#endif
