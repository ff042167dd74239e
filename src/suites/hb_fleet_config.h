/* A fleet's configuration drift (private to src/suites/): per host, the knobs in which it
 * differs from the fleet's majority, for the fleet record and its outliers' reasons. */
#ifndef HB_FLEET_CONFIG_H
#define HB_FLEET_CONFIG_H

#include <jansson.h>

/* From the run record's host_configs ([{"host", "config"}, ...]; NULL: one host): {host:
 * {key: the host's value in words}} for every host, empty where it agrees with the majority
 * on every knob (knobs walked into as hb_config_diff does: "hugepages.node0.2048kB.free"). A
 * knob has a majority when more hosts share one value than any other: with two hosts that
 * differ, neither is the odd one out. New reference; NULL when out of memory. */
json_t *hb_fleet_config_drift(const json_t *host_configs);

#endif
