/* One matrix being assembled by the matrix suite (private to src/suites/): shared by the
 * matrix derivation and the fleet comparison across hosts. */
#ifndef HB_MATRIX_GRID_H
#define HB_MATRIX_GRID_H

#include "hb_suite_kit.h"

#include <stdbool.h>

/* Values by node index, NAN where not measured. */
struct hb_grid {
    const char *host;
    const char *kernel;
    const char *access; /* the kernel's r / w / rw: which HMAT bandwidth covers it */
    bool latency;
    double *v;    /* nnodes x nnodes (HB_AT) */
    json_t **rec; /* the measurement record of each cell, or NULL */
};

/* With two or more hosts among the grids, appends the fleet record to derived; with the run
 * record's host_configs (NULL: none), each host's configuration drift. */
int hb_matrix_fleet(const struct hb_topo *t, double pct, struct hb_grid **grids, int ng,
                    const json_t *host_configs, json_t *derived);

/* The fleet's figures gathered host by host (derive host by host, struct hb_across). */
struct hb_fleet_acc;
/* Each host's figures from its grids added to *acc (made at the first call): 0 or -ENOMEM
 * with a message. */
int hb_matrix_fleet_add(const struct hb_topo *t, struct hb_grid **grids, int ng,
                        struct hb_fleet_acc **acc);
/* hb_matrix_fleet from the figures gathered (acc may be NULL: none). */
int hb_matrix_fleet_end(const struct hb_fleet_acc *acc, double pct, const json_t *host_configs,
                        json_t *derived);
/* For struct hb_across.free. */
void hb_matrix_fleet_free(void *acc);

#endif
