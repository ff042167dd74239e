/* memcpy: libc's memcpy of b into a, the copy most programs actually use. Shares the
 * streaming kernels' first touch and copy validation. */
#include "hb_kernel_impl.h"

#include <string.h>

double hb_kernel_memcpy_run(struct hb_kslice *s, uint64_t sweeps)
{
    for (uint64_t k = 0; k < sweeps; k++) {
        memcpy(s->a, s->b, s->n * sizeof(*s->a));
        /* Without it the compiler may keep only the last of identical copies. */
        __asm__ volatile("" ::: "memory");
    }
    return s->n ? s->a[s->n - 1] : 0.0;
}

int hb_kernel_memcpy_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    return hb_kernel_stream_check_copy("memcpy", s, sweeps_done);
}
