/* intensity: a read stream with a tunable amount of arithmetic per element, so one kernel
 * walks from memory-bound to compute-bound (the roofline's x axis). Per element: one add
 * (8 x param <= 1), or m = 4 x param dependent FMAs folded into a per-lane accumulator.
 * The multiplier is 1 and the addend 0 at run time (read through a volatile so the
 * compiler cannot drop the FMAs), so the result is the exact sum of the array whatever the
 * count, and the check does not depend on param.
 *
 * 8 vector accumulators keep 8 FMA chains in flight, enough to cover FMA latency on two
 * ports; the FMA loops are intrinsics so the count of flops is what the metadata says. */
#include "hb_error.h"
#include "hb_kernel_work.h"
#include "hb_simd.h"

#include <math.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static volatile double intensity_one = 1.0, intensity_zero = 0.0;

static double intensity_value(size_t i)
{
    return (double)(i % 16);
}

uint64_t hb_kernel_intensity_flops(double param)
{
    double f = 8.0 * param;
    if (f <= 1.5) return 1;
    uint64_t m = (uint64_t)llround(f / 2.0);
    return 2 * (m ? m : 1);
}

int hb_kernel_intensity_init(struct hb_kslice *s)
{
    for (size_t i = 0; i < s->n; i++)
        s->a[i] = intensity_value(i);
    return 0;
}

#define HB_LANES 64

static double intensity_c(const double *x, size_t n, uint64_t fmas, double c, double d)
{
    double acc[HB_LANES] = {0};
    size_t full = n / HB_LANES * HB_LANES;
    for (size_t i = 0; i < full; i += HB_LANES) {
        for (int j = 0; j < HB_LANES; j++)
            acc[j] = fmas ? x[i + (size_t)j] * c + acc[j] : acc[j] + x[i + (size_t)j];
        for (uint64_t r = 1; r < fmas; r++)
            for (int j = 0; j < HB_LANES; j++)
                acc[j] = acc[j] * c + d;
    }
    double sum = 0.0;
    for (int j = 0; j < HB_LANES; j++)
        sum += acc[j];
    for (size_t i = full; i < n; i++)
        sum += x[i];
    return sum;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static double intensity_avx2(const double *x, size_t n,
                                                                 uint64_t fmas, double c, double d)
{
    __m256d acc[8], vc = _mm256_set1_pd(c), vd = _mm256_set1_pd(d);
    for (int k = 0; k < 8; k++)
        acc[k] = _mm256_setzero_pd();
    size_t full = n / 32 * 32;
    for (size_t i = 0; i < full; i += 32) {
        for (int k = 0; k < 8; k++) {
            __m256d v = _mm256_loadu_pd(x + i + 4 * (size_t)k);
            acc[k] = fmas ? _mm256_fmadd_pd(v, vc, acc[k]) : _mm256_add_pd(acc[k], v);
        }
        for (uint64_t r = 1; r < fmas; r++)
            for (int k = 0; k < 8; k++)
                acc[k] = _mm256_fmadd_pd(acc[k], vc, vd);
    }
    double lanes[4], sum = 0.0;
    for (int k = 0; k < 8; k++) {
        _mm256_storeu_pd(lanes, acc[k]);
        sum += lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
    for (size_t i = full; i < n; i++)
        sum += x[i];
    return sum;
}

__attribute__((target("avx512f"))) static double intensity_avx512(const double *x, size_t n,
                                                                  uint64_t fmas, double c, double d)
{
    __m512d acc[8], vc = _mm512_set1_pd(c), vd = _mm512_set1_pd(d);
    for (int k = 0; k < 8; k++)
        acc[k] = _mm512_setzero_pd();
    size_t full = n / 64 * 64;
    for (size_t i = 0; i < full; i += 64) {
        for (int k = 0; k < 8; k++) {
            __m512d v = _mm512_loadu_pd(x + i + 8 * (size_t)k);
            acc[k] = fmas ? _mm512_fmadd_pd(v, vc, acc[k]) : _mm512_add_pd(acc[k], v);
        }
        for (uint64_t r = 1; r < fmas; r++)
            for (int k = 0; k < 8; k++)
                acc[k] = _mm512_fmadd_pd(acc[k], vc, vd);
    }
    double sum = 0.0;
    for (int k = 0; k < 8; k++)
        sum += _mm512_reduce_add_pd(acc[k]);
    for (size_t i = full; i < n; i++)
        sum += x[i];
    return sum;
}
#endif

/* Returns the sum of the last sweep, the same for every param and path. */
double hb_kernel_intensity_run(struct hb_kslice *s, uint64_t sweeps)
{
    uint64_t flops = hb_kernel_intensity_flops(s->param), fmas = flops == 1 ? 0 : flops / 2;
    double c = intensity_one, d = intensity_zero, sum = 0.0;
#if defined(__x86_64__)
    enum hb_simd path = hb_simd_active();
#endif
    for (uint64_t sw = 0; sw < sweeps; sw++) {
#if defined(__x86_64__)
        if (path == HB_SIMD_AVX512)
            sum = intensity_avx512(s->a, s->n, fmas, c, d);
        else if (path == HB_SIMD_AVX2)
            sum = intensity_avx2(s->a, s->n, fmas, c, d);
        else
#endif
            sum = intensity_c(s->a, s->n, fmas, c, d);
        __asm__ volatile("" ::: "memory");
    }
    return sum;
}

int hb_kernel_intensity_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    double want = 0.0;
    for (size_t i = 0; i < s->n; i++)
        want += intensity_value(i);
    if (sweeps_done && last_result != want) {
        hb_error_set("validation failed: kernel intensity (param %g) sum of array a: expected "
                     "%.17g, observed %.17g",
                     s->param, want, last_result);
        return -HB_EVALIDATE;
    }
    return 0;
}
