/* The streaming kernels written once for every SIMD path (internal to omp/). A path file
 * defines these macros and includes this file once:
 *   HB_PATH         name suffix (c, sse2, avx2, avx512)
 *   HB_T            function attribute selecting the instruction set (may be empty)
 *   HB_V, HB_W      vector type and doubles per vector
 *   HB_ZERO(), HB_SET1(v), HB_LOAD(p) (aligned), HB_LOADU(p), HB_STORE(p, x) (aligned),
 *   HB_STREAM(p, x) (non-temporal, aligned), HB_ADD(x, y), HB_MUL(x, y), HB_SUM(x),
 *   HB_FENCE()      store fence after non-temporal stores
 * Every pass first steps to a 64-byte boundary of the array written (or read, for read), so
 * aligned vector stores are legal whatever the caller passed; sources use unaligned loads,
 * which cost nothing extra on aligned data. Four independent vectors per iteration keep
 * enough loads in flight and break read's add dependency chain; read takes eight loads an
 * iteration (added in pairs first), which brought it level with likwid's load_avx512.
 * Multiplication and addition stay separate (no FMA) so every path rounds like the plain C path.
 *
 * Non-temporal passes, and read, move HB_CHUNKS chunks of 4 KiB side by side, as glibc's
 * large memcpy does: each chunk is a read stream of its own, so several DRAM pages are open
 * per thread instead of one stream the prefetcher must follow alone (copy-nt went from 0.83x
 * to at least glibc memcpy's figure with it, read gained 7-8%). */
#ifndef HB_PATH
#error "define the HB_ path macros before including hb_stream_template.h"
#endif

#include "hb_stream_path.h"

#include <stdint.h>

#define HB_CAT_(a, b) a##_##b
#define HB_CAT(a, b) HB_CAT_(a, b)
#define HB_FN(name) HB_CAT(name, HB_PATH)
#define HB_U (4 * HB_W)
#ifndef HB_CHUNKS
#define HB_CHUNKS 4
#define HB_CHUNK (4096 / sizeof(double))
#define HB_CHUNK_BLOCK (HB_CHUNKS * HB_CHUNK)
/* Each chunk's lines two iterations ahead are prefetched, as glibc does in its large copy. */
#define HB_CHUNK_PREFETCH(p)                                                                       \
    do {                                                                                           \
        for (size_t l_ = 0; l_ < HB_U * sizeof(double); l_ += 64)                                  \
            __builtin_prefetch((const char *)(p) + 2 * HB_U * sizeof(double) + l_, 0, 3);          \
    } while (0)
#endif

/* Elements before p reaches a 64-byte boundary, at most n. */
static inline size_t HB_FN(head)(const double *p, size_t n)
{
    size_t h = ((64 - ((uintptr_t)p & 63)) & 63) / sizeof(*p);
    return h < n ? h : n;
}

HB_T static double HB_FN(read)(const double *a, size_t n)
{
    size_t i = 0, h = HB_FN(head)(a, n);
    double edge = 0.0;
    for (; i < h; i++)
        edge += a[i];
    HB_V x0 = HB_ZERO(), x1 = HB_ZERO(), x2 = HB_ZERO(), x3 = HB_ZERO();
    /* Chunks side by side, as the -nt kernels do: 7-8% over one stream on 1 and 2 threads. */
    for (; i + HB_CHUNK_BLOCK <= n; i += HB_CHUNK_BLOCK)
        for (size_t o = 0; o < HB_CHUNK; o += HB_U)
            for (size_t p = 0; p < HB_CHUNKS; p++) {
                const double *q = a + i + p * HB_CHUNK + o;
                HB_V y = HB_ADD(HB_LOAD(q), HB_LOAD(q + HB_W));
                HB_V z = HB_ADD(HB_LOAD(q + 2 * HB_W), HB_LOAD(q + 3 * HB_W));
                if (p & 1) {
                    x2 = HB_ADD(x2, y);
                    x3 = HB_ADD(x3, z);
                } else {
                    x0 = HB_ADD(x0, y);
                    x1 = HB_ADD(x1, z);
                }
            }
    for (; i + 2 * HB_U <= n; i += 2 * HB_U) {
        x0 = HB_ADD(x0, HB_ADD(HB_LOAD(a + i), HB_LOAD(a + i + 4 * HB_W)));
        x1 = HB_ADD(x1, HB_ADD(HB_LOAD(a + i + HB_W), HB_LOAD(a + i + 5 * HB_W)));
        x2 = HB_ADD(x2, HB_ADD(HB_LOAD(a + i + 2 * HB_W), HB_LOAD(a + i + 6 * HB_W)));
        x3 = HB_ADD(x3, HB_ADD(HB_LOAD(a + i + 3 * HB_W), HB_LOAD(a + i + 7 * HB_W)));
    }
    for (; i + HB_U <= n; i += HB_U) {
        x0 = HB_ADD(x0, HB_LOAD(a + i));
        x1 = HB_ADD(x1, HB_LOAD(a + i + HB_W));
        x2 = HB_ADD(x2, HB_LOAD(a + i + 2 * HB_W));
        x3 = HB_ADD(x3, HB_LOAD(a + i + 3 * HB_W));
    }
    for (; i + HB_W <= n; i += HB_W)
        x0 = HB_ADD(x0, HB_LOAD(a + i));
    for (; i < n; i++)
        edge += a[i];
    return edge + HB_SUM(HB_ADD(HB_ADD(x0, x1), HB_ADD(x2, x3)));
}

/* A store kernel is written once with plain or non-temporal stores chosen by nt, a constant
 * in every caller below, so each instantiation compiles to one kind of store. */
#define HB_PUT(nt, p, x)                                                                           \
    do {                                                                                           \
        if (nt)                                                                                    \
            HB_STREAM(p, x);                                                                       \
        else                                                                                       \
            HB_STORE(p, x);                                                                        \
    } while (0)
#define HB_INLINE HB_T static inline __attribute__((always_inline))

HB_INLINE void HB_FN(write_any)(double *a, size_t n, double v, int nt)
{
    size_t i = 0, h = HB_FN(head)(a, n);
    for (; i < h; i++)
        a[i] = v;
    HB_V x = HB_SET1(v);
    for (; i + HB_U <= n; i += HB_U) {
        HB_PUT(nt, a + i, x);
        HB_PUT(nt, a + i + HB_W, x);
        HB_PUT(nt, a + i + 2 * HB_W, x);
        HB_PUT(nt, a + i + 3 * HB_W, x);
    }
    for (; i + HB_W <= n; i += HB_W)
        HB_PUT(nt, a + i, x);
    for (; i < n; i++)
        a[i] = v;
}

HB_INLINE void HB_FN(copy_any)(double *a, const double *b, size_t n, int nt)
{
    size_t i = 0, h = HB_FN(head)(a, n);
    for (; i < h; i++)
        a[i] = b[i];
    for (; i + HB_U <= n; i += HB_U) {
        HB_V x0 = HB_LOADU(b + i);
        HB_V x1 = HB_LOADU(b + i + HB_W);
        HB_V x2 = HB_LOADU(b + i + 2 * HB_W);
        HB_V x3 = HB_LOADU(b + i + 3 * HB_W);
        HB_PUT(nt, a + i, x0);
        HB_PUT(nt, a + i + HB_W, x1);
        HB_PUT(nt, a + i + 2 * HB_W, x2);
        HB_PUT(nt, a + i + 3 * HB_W, x3);
    }
    for (; i + HB_W <= n; i += HB_W)
        HB_PUT(nt, a + i, HB_LOADU(b + i));
    for (; i < n; i++)
        a[i] = b[i];
}

HB_INLINE void HB_FN(triad_any)(double *a, const double *b, const double *c, double s, size_t n,
                                int nt)
{
    size_t i = 0, h = HB_FN(head)(a, n);
    for (; i < h; i++)
        a[i] = b[i] + s * c[i];
    HB_V x = HB_SET1(s);
    for (; i + HB_U <= n; i += HB_U) {
        HB_V y0 = HB_ADD(HB_LOADU(b + i), HB_MUL(x, HB_LOADU(c + i)));
        HB_V y1 = HB_ADD(HB_LOADU(b + i + HB_W), HB_MUL(x, HB_LOADU(c + i + HB_W)));
        HB_V y2 = HB_ADD(HB_LOADU(b + i + 2 * HB_W), HB_MUL(x, HB_LOADU(c + i + 2 * HB_W)));
        HB_V y3 = HB_ADD(HB_LOADU(b + i + 3 * HB_W), HB_MUL(x, HB_LOADU(c + i + 3 * HB_W)));
        HB_PUT(nt, a + i, y0);
        HB_PUT(nt, a + i + HB_W, y1);
        HB_PUT(nt, a + i + 2 * HB_W, y2);
        HB_PUT(nt, a + i + 3 * HB_W, y3);
    }
    for (; i + HB_W <= n; i += HB_W)
        HB_PUT(nt, a + i, HB_ADD(HB_LOADU(b + i), HB_MUL(x, HB_LOADU(c + i))));
    for (; i < n; i++)
        a[i] = b[i] + s * c[i];
}

/* MLC-style read:write mixes; the memory system sees exactly the counted ratio. Plain
 * stores update a in place (3:1 a += b + c, 2:1 a += s * b, 1:1 a += s), so each lands on a
 * line just read and costs no read for ownership. Non-temporal stores fetch nothing, so the
 * -nt mixes read sources only and stream a (a = b + c + d, a = b + s * c, a = b + s): in
 * place, each load would bring in the very line its store must then evict (0.82-0.88x
 * likwid's copy_mem and triad_mem when they did). Plain passes take four vectors an
 * iteration; -nt passes walk HB_CHUNKS pages side by side as copy_nt does. */
#define HB_MIX_ONE(j)                                                                              \
    (nt ? (reads == 3   ? b[j] + c[j] + d[j]                                                       \
           : reads == 2 ? b[j] + s * c[j]                                                          \
                        : b[j] + s)                                                                \
        : (reads == 3   ? a[j] + b[j] + c[j]                                                       \
           : reads == 2 ? a[j] + s * b[j]                                                          \
                        : a[j] + s))
#define HB_MIX_NT(j)                                                                               \
    (reads == 3   ? HB_ADD(HB_ADD(HB_LOADU(b + (j)), HB_LOADU(c + (j))), HB_LOADU(d + (j)))        \
     : reads == 2 ? HB_ADD(HB_LOADU(b + (j)), HB_MUL(k, HB_LOADU(c + (j))))                        \
                  : HB_ADD(HB_LOADU(b + (j)), k))
#define HB_MIX_IN_PLACE(j)                                                                         \
    (reads == 3   ? HB_ADD(HB_ADD(HB_LOAD(a + (j)), HB_LOADU(b + (j))), HB_LOADU(c + (j)))         \
     : reads == 2 ? HB_ADD(HB_LOAD(a + (j)), HB_MUL(k, HB_LOADU(b + (j))))                         \
                  : HB_ADD(HB_LOAD(a + (j)), k))
#define HB_MIX_VEC(j) (nt ? HB_MIX_NT(j) : HB_MIX_IN_PLACE(j))
/* p + i, or NULL for an array the mix does not use. */
#define HB_MIX_AT(p, i) ((p) ? (p) + (i) : (p))

HB_INLINE void HB_FN(mix_tail)(double *a, const double *b, const double *c, const double *d,
                               double s, size_t n, int reads, int nt)
{
    size_t i = 0;
    HB_V k = HB_SET1(s);
    for (; i + HB_U <= n; i += HB_U) {
        HB_V x0 = HB_MIX_VEC(i), x1 = HB_MIX_VEC(i + HB_W);
        HB_V x2 = HB_MIX_VEC(i + 2 * HB_W), x3 = HB_MIX_VEC(i + 3 * HB_W);
        HB_PUT(nt, a + i, x0);
        HB_PUT(nt, a + i + HB_W, x1);
        HB_PUT(nt, a + i + 2 * HB_W, x2);
        HB_PUT(nt, a + i + 3 * HB_W, x3);
    }
    for (; i + HB_W <= n; i += HB_W)
        HB_PUT(nt, a + i, HB_MIX_VEC(i));
    for (; i < n; i++)
        a[i] = HB_MIX_ONE(i);
}

HB_INLINE void HB_FN(mix_any)(double *a, const double *b, const double *c, const double *d,
                              double s, size_t n, int reads, int nt)
{
    size_t i = 0, h = HB_FN(head)(a, n);
    for (; i < h; i++)
        a[i] = HB_MIX_ONE(i);
    HB_V k = HB_SET1(s);
    for (; nt && i + HB_CHUNK_BLOCK <= n; i += HB_CHUNK_BLOCK)
        for (size_t o = 0; o < HB_CHUNK; o += HB_U) {
            HB_V x[HB_CHUNKS][4];
            for (size_t p = 0; p < HB_CHUNKS; p++) {
                size_t j = i + p * HB_CHUNK + o;
                HB_CHUNK_PREFETCH(b + j);
                if (reads >= 2) HB_CHUNK_PREFETCH(c + j);
                if (reads == 3) HB_CHUNK_PREFETCH(d + j);
                for (size_t v = 0; v < 4; v++)
                    x[p][v] = HB_MIX_NT(j + v * HB_W);
            }
            for (size_t p = 0; p < HB_CHUNKS; p++)
                for (size_t v = 0; v < 4; v++)
                    HB_STREAM(a + i + p * HB_CHUNK + o + v * HB_W, x[p][v]);
        }
    HB_FN(mix_tail)
    (a + i, HB_MIX_AT(b, i), HB_MIX_AT(c, i), HB_MIX_AT(d, i), s, n - i, reads, nt);
}
#undef HB_MIX_AT
#undef HB_MIX_VEC
#undef HB_MIX_IN_PLACE
#undef HB_MIX_NT
#undef HB_MIX_ONE

/* One function per mix and store kind, each compiled with its constants. */
#define HB_MIX_FN(name, reads, nt)                                                                 \
    HB_T static void HB_FN(name)(double *a, const double *b, const double *c, const double *d,     \
                                 double s, size_t n)                                               \
    {                                                                                              \
        HB_FN(mix_any)(a, b, c, d, s, n, reads, nt);                                               \
        if (nt) HB_FENCE();                                                                        \
    }
HB_MIX_FN(mix31, 3, 0)
HB_MIX_FN(mix31_nt, 3, 1)
HB_MIX_FN(mix21, 2, 0)
HB_MIX_FN(mix21_nt, 2, 1)
HB_MIX_FN(mix11, 1, 0)
HB_MIX_FN(mix11_nt, 1, 1)
#undef HB_MIX_FN

HB_T static void HB_FN(write)(double *a, size_t n, double v)
{
    HB_FN(write_any)(a, n, v, 0);
}

HB_T static void HB_FN(write_nt)(double *a, size_t n, double v)
{
    /* The head before the 64-byte boundary is a few plain stores. */
    size_t i = 0, h = HB_FN(head)(a, n);
    for (; i < h; i++)
        a[i] = v;
    HB_V x = HB_SET1(v);
    for (; i + HB_CHUNK_BLOCK <= n; i += HB_CHUNK_BLOCK)
        for (size_t o = 0; o < HB_CHUNK; o += HB_U)
            for (size_t p = 0; p < HB_CHUNKS; p++) {
                double *d = a + i + p * HB_CHUNK + o;
                HB_STREAM(d, x);
                HB_STREAM(d + HB_W, x);
                HB_STREAM(d + 2 * HB_W, x);
                HB_STREAM(d + 3 * HB_W, x);
            }
    HB_FN(write_any)(a + i, n - i, v, 1);
    HB_FENCE();
}

HB_T static void HB_FN(copy)(double *a, const double *b, size_t n)
{
    HB_FN(copy_any)(a, b, n, 0);
}

HB_T static void HB_FN(copy_nt)(double *a, const double *b, size_t n)
{
    size_t i = HB_FN(head)(a, n);
    HB_FN(copy_any)(a, b, i, 0);
    for (; i + HB_CHUNK_BLOCK <= n; i += HB_CHUNK_BLOCK)
        for (size_t o = 0; o < HB_CHUNK; o += HB_U) {
            HB_V x[HB_CHUNKS][4];
            for (size_t p = 0; p < HB_CHUNKS; p++) {
                HB_CHUNK_PREFETCH(b + i + p * HB_CHUNK + o);
                for (size_t v = 0; v < 4; v++)
                    x[p][v] = HB_LOADU(b + i + p * HB_CHUNK + o + v * HB_W);
            }
            for (size_t p = 0; p < HB_CHUNKS; p++)
                for (size_t v = 0; v < 4; v++)
                    HB_STREAM(a + i + p * HB_CHUNK + o + v * HB_W, x[p][v]);
        }
    HB_FN(copy_any)(a + i, b + i, n - i, 1);
    HB_FENCE();
}

HB_T static void HB_FN(triad)(double *a, const double *b, const double *c, double s, size_t n)
{
    HB_FN(triad_any)(a, b, c, s, n, 0);
}

HB_T static void HB_FN(triad_nt)(double *a, const double *b, const double *c, double s, size_t n)
{
    size_t i = HB_FN(head)(a, n);
    HB_FN(triad_any)(a, b, c, s, i, 0);
    HB_V k = HB_SET1(s);
    for (; i + HB_CHUNK_BLOCK <= n; i += HB_CHUNK_BLOCK)
        for (size_t o = 0; o < HB_CHUNK; o += HB_U) {
            HB_V x[HB_CHUNKS][4];
            for (size_t p = 0; p < HB_CHUNKS; p++) {
                HB_CHUNK_PREFETCH(b + i + p * HB_CHUNK + o);
                HB_CHUNK_PREFETCH(c + i + p * HB_CHUNK + o);
                for (size_t v = 0; v < 4; v++) {
                    size_t j = i + p * HB_CHUNK + o + v * HB_W;
                    x[p][v] = HB_ADD(HB_LOADU(b + j), HB_MUL(k, HB_LOADU(c + j)));
                }
            }
            for (size_t p = 0; p < HB_CHUNKS; p++)
                for (size_t v = 0; v < 4; v++)
                    HB_STREAM(a + i + p * HB_CHUNK + o + v * HB_W, x[p][v]);
        }
    HB_FN(triad_any)(a + i, b + i, c + i, s, n - i, 1);
    HB_FENCE();
}

const struct hb_stream_path HB_CAT(HB_CAT(hb_kernel_stream, HB_PATH), path) = {
    .read = HB_FN(read),
    .write = HB_FN(write),
    .write_nt = HB_FN(write_nt),
    .copy = HB_FN(copy),
    .copy_nt = HB_FN(copy_nt),
    .triad = HB_FN(triad),
    .triad_nt = HB_FN(triad_nt),
    .mix = {{HB_FN(mix11), HB_FN(mix11_nt)},
            {HB_FN(mix21), HB_FN(mix21_nt)},
            {HB_FN(mix31), HB_FN(mix31_nt)}},
};
