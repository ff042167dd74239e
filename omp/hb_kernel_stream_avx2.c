/* AVX2 path of the streaming kernels, compiled for AVX2+FMA by attribute only, so the
 * binary still starts on CPUs without it (hb_simd picks the path at run time). */
#if defined(__x86_64__)
#include <immintrin.h>

#define HB_PATH avx2
#define HB_T __attribute__((target("avx2,fma")))
#define HB_V __m256d
#define HB_W 4
#define HB_ZERO() _mm256_setzero_pd()
#define HB_SET1(v) _mm256_set1_pd(v)
#define HB_LOAD(p) _mm256_load_pd(p)
#define HB_LOADU(p) _mm256_loadu_pd(p)
#define HB_STORE(p, x) _mm256_store_pd((p), (x))
#define HB_STREAM(p, x) _mm256_stream_pd((p), (x))
#define HB_ADD(x, y) _mm256_add_pd((x), (y))
#define HB_MUL(x, y) _mm256_mul_pd((x), (y))
#define HB_SUM(x) hb_sum_avx2(x)
#define HB_FENCE() _mm_sfence()

__attribute__((target("avx2,fma"))) static inline double hb_sum_avx2(__m256d x)
{
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(x), _mm256_extractf128_pd(x, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}

#include "hb_stream_template.h"
#endif
