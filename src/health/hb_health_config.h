/* check's configuration verdict: the knobs that move memory figures (THP, governor, boost,
 * NUMA balancing, SMT, microcode, memory speed) compared with the baseline's, the history's
 * or the peers' (their most common value), each difference one line for people. */
#ifndef HB_HEALTH_CONFIG_H
#define HB_HEALTH_CONFIG_H

#include <jansson.h>

/* "config differs from WHAT: key value (WHAT: its value)" appended to lines (strings) for
 * each knob of the table where cfg differs from ref (a knob ref does not have: no line).
 * 0 or -ENOMEM. */
int hb_health_config_lines(const json_t *cfg, const json_t *ref, const char *what, json_t *lines);

/* The most common value of each knob over the n configs (ties: the first seen): a new
 * object, NULL when out of memory. */
json_t *hb_health_config_majority(const json_t *const *cfgs, int n);

#endif
