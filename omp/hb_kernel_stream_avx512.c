/* AVX-512F path of the streaming kernels, compiled for AVX-512F by attribute only, so the
 * binary still starts on CPUs without it (hb_simd picks the path at run time). */
#if defined(__x86_64__)
#include <immintrin.h>

#define HB_PATH avx512
#define HB_T __attribute__((target("avx512f")))
#define HB_V __m512d
#define HB_W 8
#define HB_ZERO() _mm512_setzero_pd()
#define HB_SET1(v) _mm512_set1_pd(v)
#define HB_LOAD(p) _mm512_load_pd(p)
#define HB_LOADU(p) _mm512_loadu_pd(p)
#define HB_STORE(p, x) _mm512_store_pd((p), (x))
#define HB_STREAM(p, x) _mm512_stream_pd((p), (x))
#define HB_ADD(x, y) _mm512_add_pd((x), (y))
#define HB_MUL(x, y) _mm512_mul_pd((x), (y))
#define HB_SUM(x) _mm512_reduce_add_pd(x)
#define HB_FENCE() _mm_sfence()
#include "hb_stream_template.h"
#endif
