/* What changed at a change point besides the figure: the configuration knobs whose values
 * differ between two runs' captured configs. */
#ifndef HB_CHANGEPOINT_KNOBS_H
#define HB_CHANGEPOINT_KNOBS_H

#include <stddef.h>

/* The keys of the knobs that differ between two config objects as JSON text (NULL: none
 * captured, so nothing differs), as hb_config_diff walks them: *knobs a new array of *n new
 * strings (NULL when none). 0; -ENOMEM; -EINVAL with hb_error_set's message when a text is
 * not a JSON object. */
int hb_changepoint_knobs(const char *before, const char *after, char ***knobs, size_t *n);

void hb_changepoint_knobs_free(char **knobs, size_t n);

#endif
