/* One SIMD path of the streaming kernels (internal to omp/). Each function does exactly one
 * pass over n elements; arrays may start anywhere (the paths align the destination and use
 * unaligned loads for sources), and NT passes end with a store fence. a is always the array
 * written; b, c and d are sources. The kernels in hb_kernel_stream.c pick a path per call. */
#ifndef HB_STREAM_PATH_H
#define HB_STREAM_PATH_H

#include <stddef.h>

struct hb_stream_path {
    double (*read)(const double *a, size_t n);    /* returns sum of a */
    void (*write)(double *a, size_t n, double v); /* a[i] = v */
    void (*write_nt)(double *a, size_t n, double v);
    void (*copy)(double *a, const double *b, size_t n); /* a[i] = b[i] */
    void (*copy_nt)(double *a, const double *b, size_t n);
    void (*triad)(double *a, const double *b, const double *c, double s, size_t n);
    void (*triad_nt)(double *a, const double *b, const double *c, double s, size_t n);
    /* Read:write mixes, [reads - 1][nt]. Plain, in place: 1:1 a += s, 2:1 a += s * b,
     * 3:1 a += b + c; non-temporal, from sources only: a = b + s, a = b + s * c,
     * a = b + c + d. */
    void (*mix[3][2])(double *a, const double *b, const double *c, const double *d, double s,
                      size_t n);
};

extern const struct hb_stream_path hb_kernel_stream_c_path;
#if defined(__x86_64__)
extern const struct hb_stream_path hb_kernel_stream_sse2_path;
extern const struct hb_stream_path hb_kernel_stream_avx2_path;
extern const struct hb_stream_path hb_kernel_stream_avx512_path;
#endif

#endif
