/* The default working set and the rule that chose it (hb_default_size.h), firmware cache figures
 * checked for belief. */
#include "hb_default_size.h"

#include "hb_bytes.h"
#include "hb_topo_mem.h"

#include <stdio.h>

bool hb_default_size_llc_unbelievable(uint64_t bytes, int cores)
{
    return bytes / (uint64_t)(cores > 0 ? cores : 1) > HB_LLC_PER_CORE_MAX;
}

uint64_t hb_default_size_choose(const struct hb_topo *t, char *source, size_t len,
                                uint64_t *llc_bytes)
{
    uint64_t llc = 0, min_free = UINT64_MAX;
    int llc_cores = 1;
    const char *llc_src = "unknown";
    for (int i = 0; i < t->nnodes; i++) {
        const char *s = NULL;
        uint64_t b = t->nodes[i].has_cpus ? hb_topo_caches_llc_bytes(t, i, &s) : 0;
        if (b > llc) {
            llc = b;
            llc_src = s ? s : "hwloc";
            llc_cores = t->nodes[i].ncores > 0 ? t->nodes[i].ncores : 1;
        }
        if (t->nodes[i].has_memory && t->nodes[i].mem_free_bytes < min_free)
            min_free = t->nodes[i].mem_free_bytes;
    }
    uint64_t want = 4 * llc, size = want;
    const char *why = "4 x last-level cache";
    /* Real parts stay far below 32 MiB of last-level cache per core (stacked-cache parts
     * have about 12); more is a firmware or hypervisor figure: size for the most a real part
     * of that many cores could have, 4 x 32 MiB per core, at most 1 GiB. Each repeat of a
     * measurement allocates and touches the set again, so a lie must not multiply it. */
    bool believable = !hb_default_size_llc_unbelievable(llc, llc_cores);
    if (!believable) {
        uint64_t most = 4 * HB_LLC_PER_CORE_MAX * (uint64_t)llc_cores;
        size = most < HB_SIZE_CAP ? most : HB_SIZE_CAP;
        why = "4 x 32 MiB per core, at most 1 GiB (the last-level cache reported, over 32 MiB "
              "per core, is not believable)";
    }
    if (size < HB_SIZE_FLOOR) {
        size = HB_SIZE_FLOOR;
        why = believable ? "floor of 256 MiB (4 x last-level cache is smaller)"
                         : "floor of 256 MiB (the last-level cache reported, over 32 MiB per "
                           "core, is not believable)";
    }
    /* A memory-side cache (HBM cache mode, Optane memory mode) serves every access to its
     * node: a set inside it measures the cache, not the memory (firmware figures, believed). */
    uint64_t msc = hb_topo_mem_cache_max(t);
    if (msc && size < 4 * msc) {
        size = 4 * msc;
        why = "4 x memory-side cache";
    }
    if (min_free != UINT64_MAX && size > min_free / 4) {
        size = (min_free / 4) & ~(uint64_t)((1 << 20) - 1);
        why = "a quarter of the smallest free node memory";
    }
    char a[32], b[32], c[32];
    size_t n = (size_t)snprintf(source, len, "%s: last-level cache %s (%s), 4x = %s", why,
                                hb_bytes_format(llc, a, sizeof(a)), llc_src,
                                hb_bytes_format(want, b, sizeof(b)));
    /* Below the cache, say which limit held it there and what measures the memory behind. */
    char d[32];
    if (msc && n < len && size > msc)
        snprintf(source + n, len - n, "; memory-side cache %s: the size is above it",
                 hb_bytes_format(msc, c, sizeof(c)));
    else if (msc && n < len)
        snprintf(source + n, len - n,
                 "; memory-side cache %s: the size is NOT above it (a default takes at most a "
                 "quarter of the smallest free node memory, which is %s), figures include its "
                 "hits; "
                 "--size above %s measures the memory behind it",
                 hb_bytes_format(msc, c, sizeof(c)), hb_bytes_format(min_free, d, sizeof(d)), c);
    if (llc_bytes) *llc_bytes = llc;
    return size;
}
