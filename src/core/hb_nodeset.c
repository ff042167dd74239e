/* Node sets as hwloc bitmaps (hb_nodeset.h): parsing, printing, JSON. */
#include "hb_nodeset.h"

#include "hb_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Far above any OS node index Linux gives (MAX_NUMNODES is at most 1024), low enough that a
 * typo cannot ask hwloc for a gigantic bitmap. */
#define HB_NODESET_INDEX_LIMIT (1 << 20)

char *hb_nodeset_print(hwloc_const_bitmap_t set)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    const char *sep = "";
    int node;
    hwloc_bitmap_foreach_begin(node, set)
    {
        fprintf(f, "%s%d", sep, node);
        sep = ",";
    }
    hwloc_bitmap_foreach_end();
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

json_t *hb_nodeset_json(hwloc_const_bitmap_t set)
{
    json_t *list = json_array();
    int node;
    if (set) {
        hwloc_bitmap_foreach_begin(node, set) json_array_append_new(list, json_integer(node));
        hwloc_bitmap_foreach_end();
    }
    return list;
}

/* One decimal index at *p (advanced past it); -1 when there is none or it is too large. */
static long nodeset_index(const char **p)
{
    if (!isdigit((unsigned char)**p)) return -1;
    long v = 0;
    while (isdigit((unsigned char)**p)) {
        v = v * 10 + (**p - '0');
        if (v >= HB_NODESET_INDEX_LIMIT) return -1;
        (*p)++;
    }
    return v;
}

int hb_nodeset_parse(const char *opt, const char *text, hwloc_bitmap_t out)
{
    hwloc_bitmap_zero(out);
    const char *p = text;
    while (*p) {
        long lo = nodeset_index(&p), hi = lo;
        if (lo >= 0 && *p == '-') {
            p++;
            hi = nodeset_index(&p);
        }
        if (lo < 0 || hi < lo || (*p && *p != ',') || (*p == ',' && !p[1])) {
            hb_error_set("%s '%s': not a node list; give OS node indexes and ranges such as "
                         "0-3,8",
                         opt, text);
            return -EINVAL;
        }
        if (hwloc_bitmap_set_range(out, (unsigned)lo, (int)hi) != 0) {
            hb_error_set("%s '%s': out of memory", opt, text);
            return -ENOMEM;
        }
        if (*p == ',') p++;
    }
    if (hwloc_bitmap_iszero(out)) {
        hb_error_set("%s '': empty node list; give OS node indexes and ranges such as 0-3,8", opt);
        return -EINVAL;
    }
    return 0;
}
