/* Node sets: OS indexes of NUMA nodes as hwloc bitmaps, as large as hwloc can report (POWER9
 * GPU memory is node 252-255, AMD machines number nodes past 64), never a 64-bit mask. */
#ifndef HB_NODESET_H
#define HB_NODESET_H

#include <hwloc.h>
#include <jansson.h>

/* Comma-separated OS indexes ("0,1,4", "" for an empty set), to free(); NULL when out of
 * memory. */
char *hb_nodeset_print(hwloc_const_bitmap_t set);

/* The set as a JSON array of OS indexes, ascending ([] for NULL). */
json_t *hb_nodeset_json(hwloc_const_bitmap_t set);

/* Parse a node list: OS indexes and ranges separated by commas ("0-3,8"). Strict: digits,
 * '-' and ',' only, each range ascending, no empty item, indexes below 2^20. 0 and the set
 * in `out` (replaced), or -EINVAL with a message naming `opt` and the value. */
int hb_nodeset_parse(const char *opt, const char *text, hwloc_bitmap_t out);

/* A text made for a message, or what to say when making it ran out of memory. */
static inline const char *hb_text_or_oom(const char *text)
{
    return text ? text : "(out of memory listing them)";
}

#endif
