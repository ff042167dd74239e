/* Run-time choice of the SIMD path, so one x86-64 binary runs everywhere (older login
 * nodes, AVX2-only guests) and still uses AVX-512 where the CPU has it. aarch64 and other
 * architectures build the plain C path only. */
#ifndef HB_SIMD_H
#define HB_SIMD_H

enum hb_simd {
    HB_SIMD_C,      /* plain C, any architecture */
    HB_SIMD_SSE2,   /* x86-64 baseline */
    HB_SIMD_AVX2,   /* AVX2 + FMA */
    HB_SIMD_AVX512, /* AVX-512F */
    HB_SIMD_N
};

/* "c", "sse2", "avx2", "avx512". */
const char *hb_simd_name(enum hb_simd s);
/* What --simd takes: "auto", then every path by enum hb_simd, NULL-ended. */
extern const char *const hb_simd_choices[];

/* Best path this CPU and this build support. */
enum hb_simd hb_simd_best(void);

/* Choose the active path: NULL or "auto" = best; otherwise the named path, which must be
 * supported (-EINVAL naming the value and the paths this CPU supports). The choice is
 * process-wide; call before running kernels. */
int hb_simd_select(const char *name);

/* The active path (best until hb_simd_select() says otherwise). */
enum hb_simd hb_simd_active(void);

#endif
