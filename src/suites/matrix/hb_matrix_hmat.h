/* A measured matrix beside the firmware's HMAT: which attribute covers it, the figure per
 * cell, measured/firmware ratios, and flags where the measured order of two targets from one
 * initiator disagrees with the firmware's or their ratio differs by more than the threshold. */
#ifndef HB_MATRIX_HMAT_H
#define HB_MATRIX_HMAT_H

#include "hb_topo_mem.h"

#include <jansson.h>
#include <stdbool.h>

/* v: measured values by node index, nnodes x nnodes read with HB_AT (ns for latency, GB/s
 * for bandwidth), NAN where not measured; rec: each cell's measurement record (or NULL), whose
 * interval decides whether a disagreement is beyond the noise (flags) or within it
 * (inconclusive, with both figures). access: the kernel's "r", "w" or "rw" (bandwidth).
 * Fills hmat (the same shape) with the firmware figure in the same unit (NAN where it gives none)
 * and *attr with the attribute used. Returns {attribute, unit, values, ratio, flags, threshold_pct}
 * (rows = CPU nodes, cols = nodes with memory), or NULL when the firmware gives no figure for any
 * measured cell. New reference. */
json_t *hb_matrix_hmat(const struct hb_topo *t, bool latency, const char *access, const double *v,
                       json_t *const *rec, double threshold_pct, double *hmat,
                       enum hb_hmat_attr *attr);

#endif
