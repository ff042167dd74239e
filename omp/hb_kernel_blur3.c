/* blur3: 3x3 binomial blur (1 2 1 / 2 4 2 / 1 2 1, divided by 16) of image b into image a,
 * rows of HB_BLUR_W doubles. Border pixels and a last partial row are copied. Pixel values
 * are small integers, so every path and every summation order gives exact results.
 *
 * The loop is plain C compiled once per SIMD path by target attribute; GCC vectorises the
 * row loop (restrict pointers, unit stride), which -fopt-info-vec confirms. */
#include "hb_error.h"
#include "hb_kernel_work.h"
#include "hb_simd.h"

#include <string.h>

static double blur_pixel(size_t i)
{
    return (double)((i * 7 + i / HB_BLUR_W * 3) % 13);
}

int hb_kernel_blur3_init(struct hb_kslice *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->b[i] = blur_pixel(i);
        s->a[i] = 0.0;
    }
    return 0;
}

#define HB_BLUR_BODY                                                                               \
    {                                                                                              \
        size_t rows = n / HB_BLUR_W;                                                               \
        if (rows < 3) {                                                                            \
            memcpy(a, b, n * sizeof(*a));                                                          \
            return;                                                                                \
        }                                                                                          \
        memcpy(a, b, HB_BLUR_W * sizeof(*a));                                                      \
        for (size_t y = 1; y + 1 < rows; y++) {                                                    \
            const double *restrict r0 = b + (y - 1) * HB_BLUR_W;                                   \
            const double *restrict r1 = r0 + HB_BLUR_W;                                            \
            const double *restrict r2 = r1 + HB_BLUR_W;                                            \
            double *restrict o = a + y * HB_BLUR_W;                                                \
            o[0] = r1[0];                                                                          \
            for (size_t x = 1; x + 1 < HB_BLUR_W; x++) {                                           \
                double top = r0[x - 1] + 2.0 * r0[x] + r0[x + 1];                                  \
                double mid = r1[x - 1] + 2.0 * r1[x] + r1[x + 1];                                  \
                double bot = r2[x - 1] + 2.0 * r2[x] + r2[x + 1];                                  \
                o[x] = (top + 2.0 * mid + bot) * 0.0625;                                           \
            }                                                                                      \
            o[HB_BLUR_W - 1] = r1[HB_BLUR_W - 1];                                                  \
        }                                                                                          \
        size_t done = (rows - 1) * HB_BLUR_W;                                                      \
        memcpy(a + done, b + done, (n - done) * sizeof(*a));                                       \
    }

static void blur_c(double *restrict a, const double *restrict b, size_t n) HB_BLUR_BODY
#if defined(__x86_64__)
    __attribute__((target("avx2,fma"))) static void blur_avx2(double *restrict a,
                                                              const double *restrict b,
                                                              size_t n) HB_BLUR_BODY
    __attribute__((target("avx512f"))) static void blur_avx512(double *restrict a,
                                                               const double *restrict b,
                                                               size_t n) HB_BLUR_BODY
#endif

    static void blur_once(double *a, const double *b, size_t n)
{
    switch (hb_simd_active()) {
#if defined(__x86_64__)
    case HB_SIMD_AVX512:
        blur_avx512(a, b, n);
        return;
    case HB_SIMD_AVX2:
        blur_avx2(a, b, n);
        return;
#endif
    default:
        blur_c(a, b, n);
    }
}

double hb_kernel_blur3_run(struct hb_kslice *s, uint64_t sweeps)
{
    for (uint64_t i = 0; i < sweeps; i++) {
        blur_once(s->a, s->b, s->n);
        __asm__ volatile("" ::: "memory");
    }
    return s->n ? s->a[s->n / 2] : 0.0;
}

static int blur_fail(const char *array, size_t i, double expected, double observed)
{
    hb_error_set("validation failed: kernel blur3 array %s index %zu: expected %.17g, observed "
                 "%.17g",
                 array, i, expected, observed);
    return -HB_EVALIDATE;
}

int hb_kernel_blur3_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    size_t n = s->n, rows = n / HB_BLUR_W;
    for (size_t i = 0; i < n; i++) {
        if (s->b[i] != blur_pixel(i)) return blur_fail("b", i, blur_pixel(i), s->b[i]);
        size_t y = i / HB_BLUR_W, x = i % HB_BLUR_W;
        double want = blur_pixel(i);
        if (sweeps_done == 0)
            want = 0.0;
        else if (rows >= 3 && y >= 1 && y + 1 < rows && x >= 1 && x + 1 < HB_BLUR_W) {
            double sum = 0.0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    sum += (double)((2 - (dy < 0 ? -dy : dy)) * (2 - (dx < 0 ? -dx : dx))) *
                           blur_pixel(i + (size_t)((long)dy * HB_BLUR_W + dx));
            want = sum / 16.0;
        }
        if (s->a[i] != want) return blur_fail("a", i, want, s->a[i]);
    }
    return 0;
}
