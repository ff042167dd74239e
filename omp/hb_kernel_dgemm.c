/* dgemm: a batch of independent HB_DGEMM_N x HB_DGEMM_N products, c_m = a_m x b_m, row
 * major; in the slice the result is array a, the factors arrays b and c. A fixed N keeps
 * flops per element a constant of the registry (2N), and N = 128 keeps one product's three
 * matrices (384 KiB) in L2 while a 128 x 16 panel of the right factor (16 KiB) stays in L1.
 * Elements past the last whole product are left alone.
 *
 * Register-blocked micro-kernels: 8 x 16 with AVX-512 (16 accumulators), 4 x 8 with AVX2;
 * plain C otherwise. Factors are small integers, so every path gives the exact product. */
#include "hb_error.h"
#include "hb_kernel_work.h"
#include "hb_simd.h"

#include <errno.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define N HB_DGEMM_N
#define NN ((size_t)N * N)

static double dgemm_lhs(size_t m, size_t i, size_t p)
{
    return (double)((i + 2 * p + m) % 5) - 2.0;
}
static double dgemm_rhs(size_t m, size_t p, size_t j)
{
    return (double)((3 * p + j + m) % 7) - 3.0;
}

int hb_kernel_dgemm_fits(const struct hb_kslice *s)
{
    if (s->n >= NN) return 0;
    /* What size would do is the plan check's to say: it knows the threads. */
    hb_error_set("dgemm slice of %zu elements holds no %dx%d product: each thread needs at "
                 "least %zu bytes per array",
                 s->n, N, N, NN * sizeof(double));
    return -EINVAL;
}

int hb_kernel_dgemm_init(struct hb_kslice *s)
{
    int rc = hb_kernel_dgemm_fits(s);
    if (rc) return rc;
    size_t count = s->n / NN;
    /* The tail past the last whole product is touched too, so its pages are placed. */
    memset(s->a, 0, s->n * sizeof(double));
    memset(s->b, 0, s->n * sizeof(double));
    memset(s->c, 0, s->n * sizeof(double));
    for (size_t m = 0; m < count; m++)
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++) {
                s->b[m * NN + i * N + j] = dgemm_lhs(m, i, j);
                s->c[m * NN + i * N + j] = dgemm_rhs(m, i, j);
            }
    return 0;
}

static void dgemm_c(double *restrict c, const double *restrict a, const double *restrict b)
{
    memset(c, 0, NN * sizeof(*c));
    for (size_t i = 0; i < N; i++)
        for (size_t p = 0; p < N; p++) {
            double x = a[i * N + p];
            for (size_t j = 0; j < N; j++)
                c[i * N + j] += x * b[p * N + j];
        }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void
dgemm_avx2(double *restrict c, const double *restrict a, const double *restrict b)
{
    for (size_t jb = 0; jb < N; jb += 8)
        for (size_t ib = 0; ib < N; ib += 4) {
            __m256d acc[4][2];
            for (int r = 0; r < 4; r++)
                acc[r][0] = acc[r][1] = _mm256_setzero_pd();
            for (size_t p = 0; p < N; p++) {
                __m256d b0 = _mm256_loadu_pd(b + p * N + jb);
                __m256d b1 = _mm256_loadu_pd(b + p * N + jb + 4);
                for (int r = 0; r < 4; r++) {
                    __m256d x = _mm256_broadcast_sd(a + (ib + (size_t)r) * N + p);
                    acc[r][0] = _mm256_fmadd_pd(x, b0, acc[r][0]);
                    acc[r][1] = _mm256_fmadd_pd(x, b1, acc[r][1]);
                }
            }
            for (int r = 0; r < 4; r++) {
                _mm256_storeu_pd(c + (ib + (size_t)r) * N + jb, acc[r][0]);
                _mm256_storeu_pd(c + (ib + (size_t)r) * N + jb + 4, acc[r][1]);
            }
        }
}

__attribute__((target("avx512f"))) static void
dgemm_avx512(double *restrict c, const double *restrict a, const double *restrict b)
{
    for (size_t jb = 0; jb < N; jb += 16)
        for (size_t ib = 0; ib < N; ib += 8) {
            __m512d acc[8][2];
            for (int r = 0; r < 8; r++)
                acc[r][0] = acc[r][1] = _mm512_setzero_pd();
            for (size_t p = 0; p < N; p++) {
                __m512d b0 = _mm512_loadu_pd(b + p * N + jb);
                __m512d b1 = _mm512_loadu_pd(b + p * N + jb + 8);
                for (int r = 0; r < 8; r++) {
                    __m512d x = _mm512_set1_pd(a[(ib + (size_t)r) * N + p]);
                    acc[r][0] = _mm512_fmadd_pd(x, b0, acc[r][0]);
                    acc[r][1] = _mm512_fmadd_pd(x, b1, acc[r][1]);
                }
            }
            for (int r = 0; r < 8; r++) {
                _mm512_storeu_pd(c + (ib + (size_t)r) * N + jb, acc[r][0]);
                _mm512_storeu_pd(c + (ib + (size_t)r) * N + jb + 8, acc[r][1]);
            }
        }
}
#endif

double hb_kernel_dgemm_run(struct hb_kslice *s, uint64_t sweeps)
{
    size_t count = s->n / NN;
#if defined(__x86_64__)
    enum hb_simd path = hb_simd_active();
#endif
    for (uint64_t sw = 0; sw < sweeps; sw++) {
        for (size_t m = 0; m < count; m++) {
            double *c = s->a + m * NN;
            const double *a = s->b + m * NN, *b = s->c + m * NN;
#if defined(__x86_64__)
            if (path == HB_SIMD_AVX512)
                dgemm_avx512(c, a, b);
            else if (path == HB_SIMD_AVX2)
                dgemm_avx2(c, a, b);
            else
#endif
                dgemm_c(c, a, b);
        }
        __asm__ volatile("" ::: "memory");
    }
    return count ? s->a[0] : 0.0;
}

/* A full naive product would cost as much as a sweep, so every product is checked on a
 * fixed spread of 16 entries (all rows and column blocks are hit across the batch). */
int hb_kernel_dgemm_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    size_t count = s->n / NN;
    for (size_t m = 0; m < count; m++)
        for (size_t e = 0; e < 16; e++) {
            size_t i = (e * 37 + m * 11) % N, j = (e * 53 + m * 7) % N;
            double want = 0.0;
            for (size_t p = 0; sweeps_done && p < N; p++)
                want += dgemm_lhs(m, i, p) * dgemm_rhs(m, p, j);
            double got = s->a[m * NN + i * N + j];
            if (got != want) {
                hb_error_set("validation failed: kernel dgemm array a index %zu (product %zu, row "
                             "%zu, column %zu): expected %.17g, observed %.17g",
                             m * NN + i * N + j, m, i, j, want, got);
                return -HB_EVALIDATE;
            }
        }
    return 0;
}
