/* Which level of the memory hierarchy a working set lives in: a CPU cache, a memory-side
 * cache, or memory. A figure measured inside a cache says nothing about memory, so every
 * record says which it measured. */
#ifndef HB_LEVEL_H
#define HB_LEVEL_H

#include "hb_topo.h"

#include <stddef.h>
#include <stdint.h>

struct hb_level {
    char name[24];        /* "L1".."L4", "memory-side cache" or "memory" */
    uint64_t share_bytes; /* the cache's room per thread that runs (its size / sharers) */
    uint64_t cache_bytes; /* the cache's size as believed (0 for memory) */
    int sharers;          /* threads of the task under one such cache */
    uint64_t per_thread;  /* the working set per thread */
    int threads;          /* threads the set is spread over: more than sharers when each group of
                           * sharers has a cache of its own (a private L1, an L3 per CCX); 1 for a
                           * memory-side cache, which holds the whole set */
};

/* The level of `bytes` (all arrays of a task) spread over the threads on cpus[0..n) (OS
 * indexes), with memory on node index mem (-1: not one node): the smallest CPU cache whose
 * share per thread (its size divided by the task's threads under it) holds each thread's part,
 * a size no real part has (hb_default_size_llc_unbelievable: over 32 MiB per core, a firmware
 * figure) taken as 32 MiB per core, as the default size takes it; else a memory-side cache
 * of node mem that holds the whole set; else memory. */
void hb_level_of(const struct hb_topo *t, const int *cpus, int n, uint64_t bytes, int mem,
                 struct hb_level *out);

/* The bytes of a working set that a task keeps in the caches, its footprint: a streaming
 * kernel (chase_stride 0) holds every line of its arrays; a chase loads one 64-byte line per
 * chase_stride bytes, and the adjacent-line prefetcher brings the other line of its 128-byte
 * pair along (the chase never visits both: hb_chase.h), so it holds 128 bytes per stride
 * (a 256-byte stride: half the set; 64 or 128: all of it). The level of a task, and the
 * sweep's cache marks, compare this with each cache (docs/method.md#cache-levels). */
#define HB_LEVEL_PAIR_BYTES 128
uint64_t hb_level_footprint(uint64_t bytes, uint64_t chase_stride);
/* The working set whose footprint is `footprint` (the inverse, for marking a cache's size on
 * an axis of working sets). */
double hb_level_footprint_ws(double footprint, uint64_t chase_stride);

/* The one line a run says when a working set fits a cache ("32 KiB fits in L1 (48 KiB):
 * this measures L1, not memory"; spread over threads with caches of their own, "64 KiB over
 * 2 threads (32 KiB each) fits in L1 (48 KiB per thread): ..."), into buf; "" for memory. */
void hb_level_line(const struct hb_level *l, uint64_t bytes, char *buf, size_t len);

/* The plan's foreground tasks whose working set fits a cache (their node's first CPUs, as
 * the team places them): how many, with the first one's line (hb_level_line) in buf. */
struct hb_plan;
int hb_level_plan(const struct hb_topo *t, const struct hb_plan *plan, char *buf, size_t len);

#endif
