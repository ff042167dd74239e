/* Units as people read them: the one table from a record's unit (its key spelling, "GBps")
 * to its display spelling ("GB/s"), the quantity it measures and which way is better. Every
 * table, CSV note, compare line and report writes units through it. */
#ifndef HB_UNITS_H
#define HB_UNITS_H

#include <stdbool.h>

/* The display spelling of a record's unit ("GBps" -> "GB/s"); a unit not in the table as it
 * is. */
const char *hb_units_shown(const char *unit);

/* What a figure of the unit is, in words for "0.98x the bandwidth of ...": "bandwidth",
 * "latency", "time", "speed"; "figure" for a unit not in the table. */
const char *hb_units_quantity(const char *unit);

/* A higher figure is the better one (bandwidth, speed); false for latency and time, and for
 * a unit not in the table. */
bool hb_units_higher_better(const char *unit);

#endif
