/* A fleet's configuration drift: per host, the knobs in which it differs from the fleet's
 * majority, for the fleet record, its outliers' reasons and the report's table. */
#ifndef HB_CONFIG_DRIFT_H
#define HB_CONFIG_DRIFT_H

#include <jansson.h>

/* From the run record's host_configs ([{"host", "config"}, ...]; NULL: one host): {host:
 * {key: the host's value in words}} for every host, empty where it agrees with the majority
 * on every knob (knobs walked into as hb_config_diff does: "hugepages.node0.2048kB.free"). A
 * knob has a majority when more hosts share one value than any other: with two hosts that
 * differ, neither is the odd one out. New reference; NULL when out of memory. */
json_t *hb_config_drift_fleet(const json_t *host_configs);

#endif
