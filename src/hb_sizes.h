/* Default working-set size, and where it came from (the run record says so). */
#ifndef HB_SIZES_H
#define HB_SIZES_H

#include "hb_topo.h"

#include <stddef.h>
#include <stdint.h>

#define HB_SIZE_FLOOR ((uint64_t)256 << 20)
#define HB_SIZE_CAP ((uint64_t)1 << 30)

/* 4x the largest node's last-level cache (DESIGN.md §6), at least 256 MiB and at most 1 GiB:
 * firmware cache figures can lie (a VM reporting a 480 MiB L3 per core), and beyond 1 GiB
 * nothing new is learnt about memory. Also at most a quarter of the smallest free memory of a
 * node with memory. `source` receives the reasoning in one line. */
uint64_t hb_sizes_default(const struct hb_topo *t, char *source, size_t len, uint64_t *llc_bytes);

#endif
