/* The streaming kernels (read, write, copy, triad and their non-temporal forms): first
 * touch, one pass per sweep on the active SIMD path, and validation. Array roles are the
 * same in every kernel: a is written (read only reads it), b and c are sources. */
#include "hb_error.h"
#include "hb_kernel_impl.h"
#include "hb_simd.h"
#include "hb_stream_path.h"

#include <math.h>

/* Relative tolerance of every check; results are exact with the initial values, so this
 * only forgives a caller's scalar that does not round the same way on every path. */
#define HB_CHECK_RTOL 1e-9

static const struct hb_stream_path *stream_path_active(void)
{
    switch (hb_simd_active()) {
#if defined(__x86_64__)
    case HB_SIMD_AVX512:
        return &hb_kernel_stream_avx512_path;
    case HB_SIMD_AVX2:
        return &hb_kernel_stream_avx2_path;
    case HB_SIMD_SSE2:
        return &hb_kernel_stream_sse2_path;
#endif
    default:
        return &hb_kernel_stream_c_path;
    }
}

static void fill(double *x, size_t n, double v)
{
    if (x == NULL) return;
    for (size_t i = 0; i < n; i++)
        x[i] = v;
}

int hb_kernel_stream_init(struct hb_kslice *s)
{
    if (s->scalar == 0.0) s->scalar = HB_STREAM_SCALAR;
    fill(s->a, s->n, HB_STREAM_INIT_A);
    fill(s->b, s->n, HB_STREAM_INIT_B);
    fill(s->c, s->n, HB_STREAM_INIT_C);
    fill(s->d, s->n, HB_STREAM_INIT_D);
    return 0;
}

static bool near_expected(double observed, double expected)
{
    /* Written so that NaN fails. */
    return fabs(observed - expected) <= HB_CHECK_RTOL * fabs(expected);
}

static int check_failed(const char *kernel, const char *array, size_t index, double expected,
                        double observed)
{
    hb_error_set("validation failed: kernel %s array %s index %zu: expected %.17g, observed %.17g",
                 kernel, array, index, expected, observed);
    return -HB_EVALIDATE;
}

static int check_const(const char *kernel, const char *array, const double *x, size_t n,
                       double expected)
{
    for (size_t i = 0; i < n; i++)
        if (!near_expected(x[i], expected)) return check_failed(kernel, array, i, expected, x[i]);
    return 0;
}

/* The compiler must not merge or drop sweeps: each one really moves the data. */
static inline void sweep_barrier(void)
{
    __asm__ volatile("" ::: "memory");
}

static double last(const struct hb_kslice *s)
{
    return s->n ? s->a[s->n - 1] : 0.0;
}

double hb_kernel_stream_read_run(struct hb_kslice *s, uint64_t sweeps)
{
    const struct hb_stream_path *p = stream_path_active();
    double sum = 0.0;
    for (uint64_t k = 0; k < sweeps; k++) {
        sum = p->read(s->a, s->n);
        sweep_barrier();
    }
    return sum;
}

int hb_kernel_stream_read_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    int rc = check_const("read", "a", s->a, s->n, HB_STREAM_INIT_A);
    if (rc < 0 || sweeps_done == 0) return rc;
    double expected = (double)s->n * HB_STREAM_INIT_A;
    if (!near_expected(last_result, expected)) {
        hb_error_set("validation failed: kernel read array a sum of %zu elements: expected "
                     "%.17g, observed %.17g",
                     s->n, expected, last_result);
        return -HB_EVALIDATE;
    }
    return 0;
}

static double write_sweeps(struct hb_kslice *s, uint64_t sweeps, bool nt)
{
    const struct hb_stream_path *p = stream_path_active();
    void (*pass)(double *, size_t, double) = nt ? p->write_nt : p->write;
    for (uint64_t k = 0; k < sweeps; k++) {
        pass(s->a, s->n, s->scalar);
        sweep_barrier();
    }
    return last(s);
}

double hb_kernel_stream_write_run(struct hb_kslice *s, uint64_t sweeps)
{
    return write_sweeps(s, sweeps, false);
}

double hb_kernel_stream_write_nt_run(struct hb_kslice *s, uint64_t sweeps)
{
    return write_sweeps(s, sweeps, true);
}

static int write_check_named(const char *kernel, const struct hb_kslice *s, uint64_t sweeps_done)
{
    return check_const(kernel, "a", s->a, s->n, sweeps_done ? s->scalar : HB_STREAM_INIT_A);
}

int hb_kernel_stream_write_check(const struct hb_kslice *s, double last_result,
                                 uint64_t sweeps_done)
{
    (void)last_result;
    return write_check_named("write", s, sweeps_done);
}

int hb_kernel_stream_write_nt_check(const struct hb_kslice *s, double last_result,
                                    uint64_t sweeps_done)
{
    (void)last_result;
    return write_check_named("write-nt", s, sweeps_done);
}

static double copy_sweeps(struct hb_kslice *s, uint64_t sweeps, bool nt)
{
    const struct hb_stream_path *p = stream_path_active();
    void (*pass)(double *, const double *, size_t) = nt ? p->copy_nt : p->copy;
    for (uint64_t k = 0; k < sweeps; k++) {
        pass(s->a, s->b, s->n);
        sweep_barrier();
    }
    return last(s);
}

double hb_kernel_stream_copy_run(struct hb_kslice *s, uint64_t sweeps)
{
    return copy_sweeps(s, sweeps, false);
}

double hb_kernel_stream_copy_nt_run(struct hb_kslice *s, uint64_t sweeps)
{
    return copy_sweeps(s, sweeps, true);
}

int hb_kernel_stream_check_copy(const char *kernel, const struct hb_kslice *s, uint64_t sweeps_done)
{
    int rc = check_const(kernel, "b", s->b, s->n, HB_STREAM_INIT_B);
    if (rc < 0 || sweeps_done == 0)
        return rc < 0 ? rc : check_const(kernel, "a", s->a, s->n, HB_STREAM_INIT_A);
    for (size_t i = 0; i < s->n; i++)
        if (!near_expected(s->a[i], s->b[i])) return check_failed(kernel, "a", i, s->b[i], s->a[i]);
    return 0;
}

int hb_kernel_stream_copy_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    (void)last_result;
    return hb_kernel_stream_check_copy("copy", s, sweeps_done);
}

int hb_kernel_stream_copy_nt_check(const struct hb_kslice *s, double last_result,
                                   uint64_t sweeps_done)
{
    (void)last_result;
    return hb_kernel_stream_check_copy("copy-nt", s, sweeps_done);
}

static double triad_sweeps(struct hb_kslice *s, uint64_t sweeps, bool nt)
{
    const struct hb_stream_path *p = stream_path_active();
    void (*pass)(double *, const double *, const double *, double, size_t) =
        nt ? p->triad_nt : p->triad;
    for (uint64_t k = 0; k < sweeps; k++) {
        pass(s->a, s->b, s->c, s->scalar, s->n);
        sweep_barrier();
    }
    return last(s);
}

double hb_kernel_stream_triad_run(struct hb_kslice *s, uint64_t sweeps)
{
    return triad_sweeps(s, sweeps, false);
}

double hb_kernel_stream_triad_nt_run(struct hb_kslice *s, uint64_t sweeps)
{
    return triad_sweeps(s, sweeps, true);
}

static int triad_check_named(const char *kernel, const struct hb_kslice *s, uint64_t sweeps_done)
{
    int rc = check_const(kernel, "b", s->b, s->n, HB_STREAM_INIT_B);
    if (rc == 0) rc = check_const(kernel, "c", s->c, s->n, HB_STREAM_INIT_C);
    if (rc < 0 || sweeps_done == 0)
        return rc < 0 ? rc : check_const(kernel, "a", s->a, s->n, HB_STREAM_INIT_A);
    for (size_t i = 0; i < s->n; i++) {
        double expected = s->b[i] + s->scalar * s->c[i];
        if (!near_expected(s->a[i], expected))
            return check_failed(kernel, "a", i, expected, s->a[i]);
    }
    return 0;
}

int hb_kernel_stream_triad_check(const struct hb_kslice *s, double last_result,
                                 uint64_t sweeps_done)
{
    (void)last_result;
    return triad_check_named("triad", s, sweeps_done);
}

int hb_kernel_stream_triad_nt_check(const struct hb_kslice *s, double last_result,
                                    uint64_t sweeps_done)
{
    (void)last_result;
    return triad_check_named("triad-nt", s, sweeps_done);
}

/* Read:write mixes. Plain ones update a in place, so a grows by the same exact step every
 * sweep; -nt ones write a from sources only (hb_stream_template.h says why), so a holds the
 * same value after every sweep. */
static double mix_value(const struct hb_kslice *s, uint64_t sweeps_done, int reads, bool nt)
{
    if (nt && sweeps_done == 0) return HB_STREAM_INIT_A;
    if (nt)
        return reads == 3   ? HB_STREAM_INIT_B + HB_STREAM_INIT_C + HB_STREAM_INIT_D
               : reads == 2 ? HB_STREAM_INIT_B + s->scalar * HB_STREAM_INIT_C
                            : HB_STREAM_INIT_B + s->scalar;
    double step = reads == 3   ? HB_STREAM_INIT_B + HB_STREAM_INIT_C
                  : reads == 2 ? s->scalar * HB_STREAM_INIT_B
                               : s->scalar;
    return HB_STREAM_INIT_A + (double)sweeps_done * step;
}

static double mix_sweeps(struct hb_kslice *s, uint64_t sweeps, int reads, bool nt)
{
    const struct hb_stream_path *p = stream_path_active();
    void (*pass)(double *, const double *, const double *, const double *, double, size_t) =
        p->mix[reads - 1][nt];
    for (uint64_t k = 0; k < sweeps; k++) {
        pass(s->a, s->b, s->c, s->d, s->scalar, s->n);
        sweep_barrier();
    }
    return last(s);
}

/* The sources are untouched and a holds its value everywhere. */
static int mix_check(const char *kernel, const struct hb_kslice *s, uint64_t sweeps_done, int reads,
                     bool nt)
{
    int sources = reads - 1 + nt; /* arrays besides a */
    int rc = sources >= 1 ? check_const(kernel, "b", s->b, s->n, HB_STREAM_INIT_B) : 0;
    if (rc == 0 && sources >= 2) rc = check_const(kernel, "c", s->c, s->n, HB_STREAM_INIT_C);
    if (rc == 0 && sources >= 3) rc = check_const(kernel, "d", s->d, s->n, HB_STREAM_INIT_D);
    if (rc) return rc;
    return check_const(kernel, "a", s->a, s->n, mix_value(s, sweeps_done, reads, nt));
}

#define HB_MIX_KERNEL(fn, name, reads, nt)                                                         \
    double hb_kernel_stream_##fn##_run(struct hb_kslice *s, uint64_t sweeps)                       \
    {                                                                                              \
        return mix_sweeps(s, sweeps, reads, nt);                                                   \
    }                                                                                              \
    int hb_kernel_stream_##fn##_check(const struct hb_kslice *s, double last_result,               \
                                      uint64_t sweeps_done)                                        \
    {                                                                                              \
        (void)last_result;                                                                         \
        return mix_check(name, s, sweeps_done, reads, nt);                                         \
    }
HB_MIX_KERNEL(mix31, "mix3:1", 3, false)
HB_MIX_KERNEL(mix31_nt, "mix3:1-nt", 3, true)
HB_MIX_KERNEL(mix21, "mix2:1", 2, false)
HB_MIX_KERNEL(mix21_nt, "mix2:1-nt", 2, true)
HB_MIX_KERNEL(mix11, "mix1:1", 1, false)
HB_MIX_KERNEL(mix11_nt, "mix1:1-nt", 1, true)
