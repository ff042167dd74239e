/* Which counter hb_ticks reads (hb_ticks.h): the CPU's when it runs at a constant rate. */
#include "hb_ticks.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

bool hb_ticks_cpu = false;

const char *hb_ticks_source(void)
{
    static const char *source;
    if (source) return source;
    source = "clock_gettime";
#if defined(__x86_64__) || defined(__i386__)
    /* CPUID 0x80000007 EDX bit 8: the TSC ticks at one rate in every P- and C-state. */
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
        hb_ticks_cpu = true;
        source = "tsc";
    }
#elif defined(__aarch64__)
    /* The generic timer's virtual count runs at CNTFRQ_EL0 whatever the core's clock. */
    hb_ticks_cpu = true;
    source = "cntvct";
#endif
    return source;
}
