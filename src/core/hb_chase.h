/* The pointer chase's method, shared by the options, the plans and the kernel (omp/): the
 * stride between visited lines and the TLB-locality group its order is shuffled within.
 * Defaults are google/multichase's: a 256-byte stride puts every visited line in its own
 * 128-byte adjacent-line pair, two lines apart from the last, and 256 KiB groups (64 pages of
 * 4 KiB) keep the page walks of a 4k-page run inside the TLB's reach. */
#ifndef HB_CHASE_H
#define HB_CHASE_H

#include <stdint.h>

#define HB_CHASE_STRIDE_DEFAULT ((uint64_t)256)
#define HB_CHASE_GROUP_DEFAULT ((uint64_t)256 * 1024)
/* --tlb-group all: one permutation over the whole buffer, page walks included. */
#define HB_CHASE_GROUP_ALL UINT64_MAX
/* A stride list (--stride 64,128,...) holds at most this many values. */
#define HB_CHASE_MAX_STRIDES 16
/* Independent chases one thread runs interleaved (--chains): at most this many, far beyond
 * the 10-48 misses a core keeps in flight; a list holds at most HB_CHASE_MAX_STRIDES counts. */
#define HB_CHASE_MAX_CHAINS 64
/* A latency kernel's sweep is at most this many dependent loads, continuing from where the
 * last one stopped: a sample then lasts --min-time, not a walk over a whole 1 GiB ring, which
 * keeps a latency cell of an 8-node matrix to seconds. */
#define HB_LATENCY_SWEEP_LOADS 65536

/* 0 when stride is a power of two of at least 64 bytes; else -EINVAL with a message naming
 * `text` (the value as the user wrote it) and what is valid. */
int hb_chase_check_stride(const char *text, uint64_t stride);

/* 0 when chains is 1 to HB_CHASE_MAX_CHAINS; else -EINVAL naming `text` and what is valid. */
int hb_chase_check_chains(const char *text, long long chains);

/* 0 when group is HB_CHASE_GROUP_ALL or a multiple of stride (at least one stride); else
 * -EINVAL naming both. */
int hb_chase_check_group(uint64_t group, uint64_t stride);

/* 0 when one thread's share of a latency buffer (bytes_per_thread) holds at least one stride;
 * else -EINVAL naming both and the smallest --size that works for `threads`. */
int hb_chase_check_fits(uint64_t stride, uint64_t bytes_per_thread, int threads);

#endif
