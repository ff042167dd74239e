/* fir: a[i] = sum over k of h[k] * b[i + k] with HB_FIR_TAPS taps (2 flops per tap per
 * output): compute-bound once b streams from memory. Outputs near the end, where the
 * filter would run off the slice, use the taps that fit. Taps are small multiples of 1/16
 * and inputs small integers, so results are exact in any order, fused or not.
 *
 * SIMD paths are intrinsics (GCC only SLP-vectorised the plain loop, at a fifth of the FMA
 * rate); the plain C path keeps blocks of 16 outputs accumulated tap by tap. */
#include "hb_error.h"
#include "hb_kernel_work.h"
#include "hb_simd.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define HB_FIR_BLOCK 16

static double fir_tap(int k)
{
    return (double)(k % 4 + 1) / 16.0;
}
static double fir_input(size_t i)
{
    return (double)(i % 11);
}

#define HB_FIR_T4 0.0625, 0.125, 0.1875, 0.25
#define HB_FIR_T16 HB_FIR_T4, HB_FIR_T4, HB_FIR_T4, HB_FIR_T4
/* fir_tap(k) for every k, as a constant table so threads share it without a race. */
static const double fir_taps[HB_FIR_TAPS] = {HB_FIR_T16, HB_FIR_T16, HB_FIR_T16, HB_FIR_T16};

int hb_kernel_fir_init(struct hb_kslice *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->b[i] = fir_input(i);
        s->a[i] = 0.0;
    }
    return 0;
}

#define HB_FIR_BODY(MADD)                                                                          \
    {                                                                                              \
        size_t full = n >= HB_FIR_TAPS ? (n - HB_FIR_TAPS + 1) / HB_FIR_BLOCK * HB_FIR_BLOCK : 0;  \
        for (size_t i = 0; i < full; i += HB_FIR_BLOCK) {                                          \
            double acc[HB_FIR_BLOCK] = {0};                                                        \
            for (int k = 0; k < HB_FIR_TAPS; k++)                                                  \
                for (int j = 0; j < HB_FIR_BLOCK; j++)                                             \
                    acc[j] = MADD(h[k], b[i + (size_t)j + (size_t)k], acc[j]);                     \
            for (int j = 0; j < HB_FIR_BLOCK; j++)                                                 \
                a[i + (size_t)j] = acc[j];                                                         \
        }                                                                                          \
        for (size_t i = full; i < n; i++) {                                                        \
            double acc = 0.0;                                                                      \
            for (size_t k = 0; k < HB_FIR_TAPS && i + k < n; k++)                                  \
                acc = MADD(h[k], b[i + k], acc);                                                   \
            a[i] = acc;                                                                            \
        }                                                                                          \
    }

#define HB_MADD_PLAIN(x, y, z) ((x) * (y) + (z))

static void fir_c(double *restrict a, const double *restrict b, const double *restrict h, size_t n)
    HB_FIR_BODY(HB_MADD_PLAIN)
#if defined(__x86_64__)
/* Eight vector accumulators of outputs per block: each tap costs 8 loads and one broadcast
 * for 8 FMAs, so the FMA ports, not the loads, set the pace. */
#define HB_FIR_SIMD(NAME, TARGET, VEC, W, SET1, LOADU, FMADD, STOREU, ZERO)                        \
    TARGET static void NAME(double *restrict a, const double *restrict b,                          \
                            const double *restrict h, size_t n)                                    \
    {                                                                                              \
        size_t full = n >= HB_FIR_TAPS ? (n - HB_FIR_TAPS + 1) / (8 * W) * (8 * W) : 0;            \
        for (size_t i = 0; i < full; i += 8 * W) {                                                 \
            VEC acc[8];                                                                            \
            for (int j = 0; j < 8; j++)                                                            \
                acc[j] = ZERO();                                                                   \
            for (size_t k = 0; k < HB_FIR_TAPS; k++) {                                             \
                VEC t = SET1(h[k]);                                                                \
                for (size_t j = 0; j < 8; j++)                                                     \
                    acc[j] = FMADD(t, LOADU(b + i + k + j * W), acc[j]);                           \
            }                                                                                      \
            for (size_t j = 0; j < 8; j++)                                                         \
                STOREU(a + i + j * W, acc[j]);                                                     \
        }                                                                                          \
        fir_tail(a, b, h, n, full);                                                                \
    }

        static void fir_tail(double *restrict a, const double *restrict b, const double *restrict h,
                             size_t n, size_t from)
{
    for (size_t i = from; i < n; i++) {
        double acc = 0.0;
        for (size_t k = 0; k < HB_FIR_TAPS && i + k < n; k++)
            acc += h[k] * b[i + k];
        a[i] = acc;
    }
}

HB_FIR_SIMD(fir_avx2, __attribute__((target("avx2,fma"))), __m256d, 4, _mm256_set1_pd,
            _mm256_loadu_pd, _mm256_fmadd_pd, _mm256_storeu_pd, _mm256_setzero_pd)
HB_FIR_SIMD(fir_avx512, __attribute__((target("avx512f"))), __m512d, 8, _mm512_set1_pd,
            _mm512_loadu_pd, _mm512_fmadd_pd, _mm512_storeu_pd, _mm512_setzero_pd)
#endif

double hb_kernel_fir_run(struct hb_kslice *s, uint64_t sweeps)
{
    for (uint64_t i = 0; i < sweeps; i++) {
        switch (hb_simd_active()) {
#if defined(__x86_64__)
        case HB_SIMD_AVX512:
            fir_avx512(s->a, s->b, fir_taps, s->n);
            break;
        case HB_SIMD_AVX2:
            fir_avx2(s->a, s->b, fir_taps, s->n);
            break;
#endif
        default:
            fir_c(s->a, s->b, fir_taps, s->n);
        }
        __asm__ volatile("" ::: "memory");
    }
    return s->n ? s->a[0] : 0.0;
}

/* The check recomputes every 17th output (17 is prime to any block length, so every
 * position in a block is checked somewhere) and every output near either end, where the tail
 * loop runs: a scalar 64-tap recomputation of all of them took 20 sweeps' time. */
#define HB_FIR_CHECK_STEP 17
static size_t fir_check_next(size_t i, size_t n)
{
    size_t edge = 2 * HB_FIR_TAPS, next = i + HB_FIR_CHECK_STEP;
    if (i < edge || i + edge >= n) return i + 1;
    return next + edge > n ? n - edge : next;
}

int hb_kernel_fir_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    for (size_t i = 0; i < s->n; i = fir_check_next(i, s->n)) {
        double want = 0.0;
        for (size_t k = 0; sweeps_done && k < HB_FIR_TAPS && i + k < s->n; k++)
            want += fir_tap((int)k) * fir_input(i + k);
        if (s->a[i] != want || s->b[i] != fir_input(i)) {
            hb_error_set("validation failed: kernel fir array %s index %zu: expected %.17g, "
                         "observed %.17g",
                         s->b[i] != fir_input(i) ? "b" : "a", i,
                         s->b[i] != fir_input(i) ? fir_input(i) : want,
                         s->b[i] != fir_input(i) ? s->b[i] : s->a[i]);
            return -HB_EVALIDATE;
        }
    }
    return 0;
}
