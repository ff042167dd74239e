/* compare's view of the two runs' configurations: the knobs that differ, and which of them may
 * explain a verdict on a given metric. */
#ifndef HB_COMPARE_CONFIG_H
#define HB_COMPARE_CONFIG_H

#include "hb_jsonl_read.h"

#include <jansson.h>

/* One {"type": "config_diff", "key", "base", "new"} per knob that differs between the two
 * run records' configs (none when either has no config: files from before it); when both
 * have host_configs (fleets), per host found in both, with "host". New reference; NULL when
 * out of memory. */
json_t *hb_compare_config_diffs(const json_t *base_run, const json_t *new_run);

/* The differing knobs known to move `metric` ("latency", "bandwidth", ...) on `host` (a
 * record's; "" when it has none), as a list of keys, or NULL when none is (or out of memory:
 * the mark is a hint, not a verdict). */
json_t *hb_compare_config_marks(const json_t *diffs, const char *metric, const char *host);

#endif
