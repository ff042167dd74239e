/* The cells of a check as its judge compares them: per host, one figure with its repeats
 * for idle latency, local read, each remote read and the total peak read, named for people
 * ("remote read 0->1") and keyed by what was measured, so an earlier check or any run that
 * measured the same thing finds its match. */
#ifndef HB_HEALTH_CELLS_H
#define HB_HEALTH_CELLS_H

#include "hb_plan.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct hb_health_cell {
    char *host, *name, *key; /* key: name, threads and bytes */
    const char *unit;        /* "GBps", "ns" (static) */
    double *values;          /* the repeats */
    int n;
};

struct hb_health_cells {
    struct hb_health_cell *v;
    size_t n, cap;
    json_t *index; /* "host\nkey" -> the cell's place in v: a fleet's thousands of cells pool
                    * and are found without a scan each */
};

/* The cells of the records (measurement records and their repeat_values) appended to c:
 * 0 or -ENOMEM with a message. A peak cell sums its nodes' repeats, repeat by repeat. */
int hb_health_cells_of(const json_t *records, struct hb_health_cells *c);

/* A cell's key: its name, threads and bytes (a new string; NULL when out of memory). */
char *hb_health_cells_key(const char *name, int threads, long long bytes);

/* The keys of the cells a plan of check measures, appended to keys (strings): 0 or -ENOMEM. */
int hb_health_cells_plan_keys(const struct hb_plan *plan, json_t *keys);

/* The cell of host with key, or NULL. */
const struct hb_health_cell *hb_health_cells_find(const struct hb_health_cells *c, const char *host,
                                                  const char *key);

/* Add one cell (strings copied, values copied), or its values to the cell of the same host
 * and key: 0 or -ENOMEM with a message. */
int hb_health_cells_add(struct hb_health_cells *c, const char *host, const char *name,
                        const char *key, const char *unit, const double *values, int n);

void hb_health_cells_free(struct hb_health_cells *c);

#endif
