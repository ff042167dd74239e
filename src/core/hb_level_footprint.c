/* What of a working set stays in the caches (hb_level.h): pure arithmetic, apart from the
 * topology, so that the report (and its fuzz target) marks caches without linking hwloc. */
#include "hb_level.h"

uint64_t hb_level_footprint(uint64_t bytes, uint64_t chase_stride)
{
    if (chase_stride <= HB_LEVEL_PAIR_BYTES) return bytes;
    return bytes / chase_stride * HB_LEVEL_PAIR_BYTES;
}

double hb_level_footprint_ws(double footprint, uint64_t chase_stride)
{
    if (chase_stride <= HB_LEVEL_PAIR_BYTES) return footprint;
    return footprint * (double)chase_stride / HB_LEVEL_PAIR_BYTES;
}
