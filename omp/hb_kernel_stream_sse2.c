/* SSE2 path of the streaming kernels (x86-64 baseline). */
#if defined(__x86_64__)
#include <immintrin.h>

#define HB_PATH sse2
#define HB_T __attribute__((target("sse2")))
#define HB_V __m128d
#define HB_W 2
#define HB_ZERO() _mm_setzero_pd()
#define HB_SET1(v) _mm_set1_pd(v)
#define HB_LOAD(p) _mm_load_pd(p)
#define HB_LOADU(p) _mm_loadu_pd(p)
#define HB_STORE(p, x) _mm_store_pd((p), (x))
#define HB_STREAM(p, x) _mm_stream_pd((p), (x))
#define HB_ADD(x, y) _mm_add_pd((x), (y))
#define HB_MUL(x, y) _mm_mul_pd((x), (y))
#define HB_SUM(x) _mm_cvtsd_f64(_mm_add_sd((x), _mm_unpackhi_pd((x), (x))))
#define HB_FENCE() _mm_sfence()
#include "hb_stream_template.h"
#endif
