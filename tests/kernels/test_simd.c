/* SIMD path selection: names, the best path, explicit choice and its errors. */
#include "hb_error.h"
#include "hb_simd.h"
#include "../hb_check.h"

#include <errno.h>

int main(void)
{
    enum hb_simd best = hb_simd_best();
    HB_EXPECT(strcmp(hb_simd_name(HB_SIMD_C), "c") == 0, "%s", hb_simd_name(HB_SIMD_C));
    HB_EXPECT(strcmp(hb_simd_name(HB_SIMD_SSE2), "sse2") == 0, "name");
    HB_EXPECT(strcmp(hb_simd_name(HB_SIMD_AVX2), "avx2") == 0, "name");
    HB_EXPECT(strcmp(hb_simd_name(HB_SIMD_AVX512), "avx512") == 0, "name");
    HB_EXPECT(strcmp(hb_simd_name(HB_SIMD_N), "unknown") == 0, "out of range");
#if defined(__x86_64__)
    HB_EXPECT(best >= HB_SIMD_SSE2, "x86-64 always has SSE2, best is %s", hb_simd_name(best));
#else
    HB_EXPECT(best == HB_SIMD_C, "best is %s", hb_simd_name(best));
#endif
    HB_EXPECT(hb_simd_active() == best, "default active %s", hb_simd_name(hb_simd_active()));

    HB_EXPECT(hb_simd_select("c") == 0, "%s", hb_error_msg());
    HB_EXPECT(hb_simd_active() == HB_SIMD_C, "active %s", hb_simd_name(hb_simd_active()));
    HB_EXPECT(hb_simd_select(hb_simd_name(best)) == 0, "%s", hb_error_msg());
    HB_EXPECT(hb_simd_active() == best, "active %s", hb_simd_name(hb_simd_active()));
    HB_EXPECT(hb_simd_select("c") == 0 && hb_simd_select("auto") == 0, "%s", hb_error_msg());
    HB_EXPECT(hb_simd_active() == best, "auto gave %s", hb_simd_name(hb_simd_active()));
    HB_EXPECT(hb_simd_select("c") == 0 && hb_simd_select(NULL) == 0, "%s", hb_error_msg());
    HB_EXPECT(hb_simd_active() == best, "NULL gave %s", hb_simd_name(hb_simd_active()));

    hb_error_clear();
    HB_EXPECT(hb_simd_select("neon") == -EINVAL, "unknown name accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "unknown SIMD path 'neon'");
    HB_EXPECT_CONTAINS(hb_error_msg(), hb_simd_name(best));
    HB_EXPECT(hb_simd_active() == best, "failed select changed the path");

    for (int s = best + 1; s < HB_SIMD_N; s++) {
        hb_error_clear();
        HB_EXPECT(hb_simd_select(hb_simd_name((enum hb_simd)s)) == -EINVAL, "%s accepted",
                  hb_simd_name((enum hb_simd)s));
        char want[64];
        snprintf(want, sizeof(want), "'%s' is not supported", hb_simd_name((enum hb_simd)s));
        HB_EXPECT_CONTAINS(hb_error_msg(), want);
        HB_EXPECT_CONTAINS(hb_error_msg(), hb_simd_name(best));
    }
    return 0;
}
