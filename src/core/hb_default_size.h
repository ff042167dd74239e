/* Default working-set size, and where it came from (the run record says so). */
#ifndef HB_DEFAULT_SIZE_H
#define HB_DEFAULT_SIZE_H

#include "hb_topo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HB_SIZE_FLOOR ((uint64_t)256 << 20)
#define HB_SIZE_CAP ((uint64_t)1 << 30)
#define HB_LLC_PER_CORE_MAX ((uint64_t)32 << 20)
/* Room for the longest reasoning hb_default_size_choose writes (fixed phrases, sizes, hwloc's short
 * cache name): about 330 characters. */
#define HB_SIZES_SOURCE_LEN 512

/* A cache of `bytes` serving `cores` cores is not believable: over 32 MiB per core (a VM
 * reporting a 508 MiB L3 per core, while memory starts at about 32 MiB). Firmware lies. */
bool hb_default_size_llc_unbelievable(uint64_t bytes, int cores);

/* 4x the largest node's last-level cache (docs/method.md#working-set-sizes), at least 256 MiB; when
 * the cache figure is not believable (hb_default_size_llc_unbelievable), 4x the most a real part of
 * that many cores has (32 MiB per core), at most 1 GiB; at least 4x the largest memory-side cache
 * (HBM cache mode, Optane memory mode), so the memory behind it is measured. Also at most a quarter
 * of the smallest free memory of a node with memory. `source` (HB_SIZES_SOURCE_LEN bytes)
 * receives the reasoning in one line.
 */
uint64_t hb_default_size_choose(const struct hb_topo *t, char *source, size_t len,
                                uint64_t *llc_bytes);

#endif
