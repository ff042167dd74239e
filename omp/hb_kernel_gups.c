/* gups: random read-modify-write updates of a table (HPCC RandomAccess style). Updates are
 * independent, so the memory system sees as many misses in flight as the core allows; each
 * sweep does one update per element from a generator that continues across sweeps. */
#include "hb_error.h"
#include "hb_kernel_work.h"

#include <inttypes.h>

/* The generator state lives in the slice's seed so sweeps never repeat the same stream. */
static inline uint64_t gups_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

int hb_kernel_gups_init(struct hb_kslice *s)
{
    uint64_t *t = (uint64_t *)(void *)s->a;
    for (size_t i = 0; i < s->n; i++)
        t[i] = i;
    return 0;
}

double hb_kernel_gups_run(struct hb_kslice *s, uint64_t sweeps)
{
    uint64_t *t = (uint64_t *)(void *)s->a;
    /* xorshift never leaves 0, so a zero seed gets a fixed odd start. */
    uint64_t x = s->seed ? s->seed : 0x9e3779b97f4a7c15ULL, n = s->n;
    if (n == 0) return 0.0;
    for (uint64_t sw = 0; sw < sweeps; sw++)
        for (uint64_t i = 0; i < n; i++) {
            uint64_t r = gups_next(&x);
            /* Multiply-high maps r onto [0, n) without a division. */
            uint64_t idx = (uint64_t)(((unsigned __int128)r * n) >> 64);
            t[idx] += 1;
        }
    s->seed = x;
    return (double)t[n - 1];
}

/* Every update adds one, so the table's sum grows by n per sweep whatever the indices. */
int hb_kernel_gups_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    const uint64_t *t = (const uint64_t *)(const void *)s->a;
    uint64_t sum = 0, n = s->n;
    for (uint64_t i = 0; i < n; i++)
        sum += t[i] - i;
    if (sum != n * sweeps_done) {
        hb_error_set("validation failed: kernel gups array a: expected %" PRIu64
                     " updates in total, observed %" PRIu64,
                     n * sweeps_done, sum);
        return -HB_EVALIDATE;
    }
    return 0;
}
