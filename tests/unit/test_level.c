/* The working set's level on fixture topologies: the per-thread share of a shared cache, a
 * cache size no real part has (taken as 32 MiB per core), a memory-side cache, memory. */
#include "../hb_check.h"
#include "hb_level.h"
#include "hb_plan.h"

#include <string.h>

static struct hb_topo *load(const char *file)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", HB_FIXTURES, file);
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(path, &t), 0);
    if (!t) exit(1);
    return t;
}

/* The level of bytes over the first n CPUs of node index 0, memory on node index mem. */
static const char *level(struct hb_topo *t, int n, uint64_t bytes, int mem, struct hb_level *l)
{
    hb_level_of(t, t->nodes[0].cpus, n, bytes, mem, l);
    return l->name;
}

#define MiB ((uint64_t)1 << 20)

int main(void)
{
    struct hb_level l;
    /* 1n-single: one 8 MiB L3 over 4 cores (8 CPUs), no L1/L2 in the synthetic file. */
    struct hb_topo *t = load("1n-single.xml");
    CHECK_STR(level(t, 1, 6 * MiB, 0, &l), "L3");
    CHECK_INT(l.cache_bytes, 8 * MiB);
    CHECK_INT(l.sharers, 1);
    /* 6 MiB over 2 threads under the one L3: 3 MiB each, 4 MiB of share each: L3. */
    CHECK_STR(level(t, 2, 6 * MiB, 0, &l), "L3");
    CHECK_INT(l.sharers, 2);
    CHECK_INT(l.share_bytes, 4 * MiB);
    /* 12 MiB over 2 threads: 6 MiB each, more than the 4 MiB share each has: memory, though
     * 12 MiB over 1 thread is memory too and 6 MiB alone fits. */
    CHECK_STR(level(t, 2, 12 * MiB, 0, &l), "memory");
    CHECK_STR(level(t, 1, 9 * MiB, 0, &l), "memory");
    char line[256];
    level(t, 2, 6 * MiB, 0, &l);
    hb_level_line(&l, 6 * MiB, line, sizeof(line));
    CHECK_STR(line, "6 MiB fits in L3 (8 MiB shared by 2 threads, 4 MiB each): this measures L3, "
                    "not memory");
    level(t, 1, 9 * MiB, 0, &l);
    hb_level_line(&l, 9 * MiB, line, sizeof(line));
    CHECK_STR(line, "");
    hb_topo_load_free(t);

    /* 4n-quartet: a 48 KiB L1 per CPU. 64 KiB over node 0's 2 CPUs is 32 KiB in each: L1, and
     * the line says so per thread rather than "64 KiB fits in L1 (48 KiB)". */
    t = load("4n-quartet.xml");
    CHECK_STR(level(t, 2, 64 * 1024, 0, &l), "L1");
    CHECK_INT(l.threads, 2);
    CHECK_INT(l.sharers, 1);
    hb_level_line(&l, 64 * 1024, line, sizeof(line));
    CHECK_STR(line, "64 KiB over 2 threads (32 KiB each) fits in L1 (48 KiB per thread): this "
                    "measures L1, not memory");
    /* One thread: the set is what the cache holds, as before. */
    level(t, 1, 32 * 1024, 0, &l);
    hb_level_line(&l, 32 * 1024, line, sizeof(line));
    CHECK_STR(line, "32 KiB fits in L1 (48 KiB): this measures L1, not memory");
    hb_topo_load_free(t);

    /* 8n-amd-numbers: a 32 MiB L3 per 8 CPUs. 48 MiB over CPUs 0-15 (two L3s, 8 threads
     * under each) is 3 MiB a thread, within each L3's 4 MiB per thread. */
    t = load("8n-amd-numbers.xml");
    int cpus[16];
    for (int i = 0; i < 16; i++)
        cpus[i] = i;
    hb_level_of(t, cpus, 16, 48 * MiB, 0, &l);
    CHECK_STR(l.name, "L3");
    hb_level_line(&l, 48 * MiB, line, sizeof(line));
    CHECK_STR(line, "48 MiB over 16 threads (3 MiB each) fits in L3 (32 MiB shared by 8 threads, "
                    "4 MiB each): this measures L3, not memory");
    hb_topo_load_free(t);

    /* 1n-vmcache: a 480 MiB L3 for 2 cores, as this project's VM reports: taken as 64 MiB. */
    t = load("1n-vmcache.xml");
    CHECK_STR(level(t, 1, 32 * MiB, 0, &l), "L3");
    CHECK_INT(l.cache_bytes, 64 * MiB);
    CHECK_STR(level(t, 1, 256 * MiB, 0, &l), "memory");
    CHECK_STR(level(t, 2, 1024 * MiB, 0, &l), "memory");
    hb_topo_load_free(t);

    /* 2n1m-hbm-cache: 16 GiB memory-side caches in front of each node's memory. */
    t = load("2n1m-hbm-cache.xml");
    CHECK_STR(level(t, 1, 1024 * MiB, 0, &l), "memory-side cache");
    CHECK_INT(l.cache_bytes, (uint64_t)16 << 30);
    CHECK_STR(level(t, 1, (uint64_t)32 << 30, 0, &l), "memory");
    /* Interleaved (no one memory node): no memory-side cache is counted. */
    CHECK_STR(level(t, 1, 1024 * MiB, -1, &l), "memory");
    hb_topo_load_free(t);
    return hb_check_result();
}
