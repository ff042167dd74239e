/* A cheap, steady timestamp for timing many short events one by one (comm's ping-pong
 * exchanges), where a clock_gettime per event would be a noticeable share of the event: the
 * CPU's constant-rate counter (x86's TSC where the CPU says it is invariant, aarch64's virtual
 * counter), else CLOCK_MONOTONIC in nanoseconds. Ticks have no fixed unit: a caller turns
 * them into seconds with the same span timed by hb_timer_now() too. */
#ifndef HB_TICKS_H
#define HB_TICKS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Whether hb_ticks reads the CPU's counter (decided once, on first use of hb_ticks_source). */
extern bool hb_ticks_cpu;

/* What hb_ticks reads, in words for records ("tsc", "cntvct", "clock_gettime"); the first
 * call decides. Call it before timing. */
const char *hb_ticks_source(void);

static inline uint64_t hb_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (hb_ticks_cpu) return __rdtsc();
#elif defined(__aarch64__)
    if (hb_ticks_cpu) {
        uint64_t v;
        __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
        return v;
    }
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
