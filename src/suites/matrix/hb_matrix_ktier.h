/* A measured matrix beside the kernel's memory tiers: from one CPU node, a node the kernel
 * puts in a slower tier (a higher memory_tierN) must not measure faster than a node of a
 * faster tier; where it does beyond the threshold, flagged as the HMAT's disagreements are. */
#ifndef HB_MATRIX_KTIER_H
#define HB_MATRIX_KTIER_H

#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>

/* v and rec as hb_matrix_hmat (values by node index, NAN where not measured; each cell's
 * record, whose interval decides flags against inconclusive). Returns {tiers: [{node,
 * kernel_tier}] (the measured memory nodes the kernel tiers), flags: [{cpu_node, mem_node (the
 * faster tier's), other_mem_node, kernel_tier, other_kernel_tier, reason, evidence, figure,
 * other_figure}], inconclusive (the same within the noise), threshold_pct}, or NULL when no
 * two measured memory nodes sit in different kernel tiers. New reference. */
json_t *hb_matrix_ktier(const struct hb_topo *t, bool latency, const double *v, json_t *const *rec,
                        double threshold_pct);

#endif
