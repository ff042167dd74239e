/* The SIMD path chosen at run time (hb_simd.h): what the CPU has, what was built, --simd. */
#include "hb_simd.h"

#include "hb_error.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *const hb_simd_choices[HB_SIMD_N + 2] = {
    "auto",
    [1 + HB_SIMD_C] = "c",
    [1 + HB_SIMD_SSE2] = "sse2",
    [1 + HB_SIMD_AVX2] = "avx2",
    [1 + HB_SIMD_AVX512] = "avx512",
    NULL,
};
/* The paths' own names, by enum hb_simd. */
static const char *const *const simd_names = hb_simd_choices + 1;

/* -1 until the first query, so a process that never selects still gets the best path; atomic
 * because every kernel thread reads it at call time. */
static atomic_int simd_current = -1;

const char *hb_simd_name(enum hb_simd s)
{
    if ((int)s < 0 || s >= HB_SIMD_N) return "unknown";
    return simd_names[s];
}

/* The CPU (and, through libgcc's XGETBV test, the OS) must support the path; the build must
 * have compiled it, which on x86-64 it always does. */
static bool simd_supported(enum hb_simd s)
{
    switch (s) {
    case HB_SIMD_C:
        return true;
#if defined(__x86_64__)
    case HB_SIMD_SSE2:
        return __builtin_cpu_supports("sse2");
    case HB_SIMD_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case HB_SIMD_AVX512:
        return __builtin_cpu_supports("avx512f");
#endif
    default:
        return false;
    }
}

enum hb_simd hb_simd_best(void)
{
    for (int s = HB_SIMD_N - 1; s > HB_SIMD_C; s--)
        if (simd_supported((enum hb_simd)s)) return (enum hb_simd)s;
    return HB_SIMD_C;
}

static void simd_list_supported(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int s = 0; s < HB_SIMD_N && used < len; s++) {
        if (!simd_supported((enum hb_simd)s)) continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", simd_names[s]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

int hb_simd_select(const char *name)
{
    if (name == NULL || strcmp(name, "auto") == 0) {
        atomic_store(&simd_current, (int)hb_simd_best());
        return 0;
    }
    char supported[64];
    simd_list_supported(supported, sizeof(supported));
    for (int s = 0; s < HB_SIMD_N; s++) {
        if (strcmp(name, simd_names[s]) != 0) continue;
        if (!simd_supported((enum hb_simd)s)) {
            hb_error_set("SIMD path '%s' is not supported by this CPU or build; supported paths: "
                         "auto, %s",
                         name, supported);
            return -EINVAL;
        }
        atomic_store(&simd_current, s);
        return 0;
    }
    hb_error_set("unknown SIMD path '%s'; supported paths: auto, %s", name, supported);
    return -EINVAL;
}

enum hb_simd hb_simd_active(void)
{
    int s = atomic_load_explicit(&simd_current, memory_order_relaxed);
    if (s < 0) {
        /* Compare-exchange so a concurrent hb_simd_select() is never overwritten. */
        int unset = -1;
        int best = (int)hb_simd_best();
        if (atomic_compare_exchange_strong(&simd_current, &unset, best)) return (enum hb_simd)best;
        return (enum hb_simd)unset;
    }
    return (enum hb_simd)s;
}
