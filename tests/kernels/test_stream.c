/* Streaming kernels and memcpy on every SIMD path this CPU supports: odd sizes, arrays that
 * start off the 64-byte boundary, no stores outside the slice, bit-identical results on all
 * paths, and checks that catch a corrupted element with a message naming it. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_simd.h"
#include "../hb_check.h"

#define GUARD -77.0
#define PAD 16 /* doubles of guard before and after each array */

static const size_t sizes[] = {1, 7, 8, 63, 1000, 100003};
/* Start of a, b, c, d in doubles past a 64-byte boundary. */
static const size_t offsets[][HB_KERNEL_MAX_STREAMS] = {{0, 0, 0, 0}, {1, 3, 5, 6}, {7, 2, 0, 4}};

struct arrays {
    double *mem[HB_KERNEL_MAX_STREAMS];
    struct hb_kslice s;
};

static void arrays_make(struct arrays *x, const struct hb_kernel *k, size_t n, const size_t *off)
{
    double **dst[HB_KERNEL_MAX_STREAMS] = {&x->s.a, &x->s.b, &x->s.c, &x->s.d};
    memset(x, 0, sizeof(*x));
    for (int i = 0; i < k->streams; i++) {
        size_t len = n + 2 * PAD;
        x->mem[i] = aligned_alloc(64, (len * sizeof(double) + 63) / 64 * 64);
        HB_EXPECT(x->mem[i] != NULL, "out of memory");
        for (size_t j = 0; j < len; j++)
            x->mem[i][j] = GUARD;
        *dst[i] = x->mem[i] + PAD - 8 + (8 + off[i]) % 8;
    }
    x->s.n = n;
}

static void arrays_expect_guards(const struct arrays *x, const struct hb_kernel *k)
{
    const double *arr[HB_KERNEL_MAX_STREAMS] = {x->s.a, x->s.b, x->s.c, x->s.d};
    for (int i = 0; i < k->streams; i++)
        for (const double *p = x->mem[i]; p < x->mem[i] + x->s.n + 2 * PAD; p++)
            if (p < arr[i] || p >= arr[i] + x->s.n)
                HB_EXPECT(*p == GUARD, "%s n=%zu: store outside array %d at %td", k->name, x->s.n,
                          i, p - arr[i]);
}

static void arrays_free(struct arrays *x)
{
    for (int i = 0; i < HB_KERNEL_MAX_STREAMS; i++)
        free(x->mem[i]);
}

/* Init, three sweeps, check; returns the run result and leaves the arrays for comparison. */
static double run_one(const struct hb_kernel *k, struct arrays *x, size_t n, const size_t *off)
{
    arrays_make(x, k, n, off);
    HB_EXPECT(k->init(&x->s) == 0, "%s init: %s", k->name, hb_error_msg());
    HB_EXPECT(x->s.scalar == 3.0, "default scalar %g", x->s.scalar);
    HB_EXPECT(k->check(&x->s, 0.0, 0) == 0, "%s after init: %s", k->name, hb_error_msg());
    double r = k->run(&x->s, 2);
    r = k->run(&x->s, 1);
    HB_EXPECT(k->check(&x->s, r, 3) == 0, "%s/%s n=%zu: %s", k->name,
              hb_simd_name(hb_simd_active()), n, hb_error_msg());
    arrays_expect_guards(x, k);
    return r;
}

static void expect_corruption_caught(const struct hb_kernel *k, struct arrays *x, double r,
                                     double want)
{
    size_t i = x->s.n / 2;
    double saved = x->s.a[i];
    x->s.a[i] = 0.0;
    hb_error_clear();
    HB_EXPECT(k->check(&x->s, r, 3) == -HB_EVALIDATE, "%s: corrupted a[%zu] passed", k->name, i);
    char msg[160];
    snprintf(msg, sizeof(msg),
             "validation failed: kernel %s array a index %zu: expected %g, observed 0", k->name, i,
             want);
    HB_EXPECT(strcmp(hb_error_msg(), msg) == 0, "message '%s', want '%s'", hb_error_msg(), msg);
    x->s.a[i] = saved;
    HB_EXPECT(k->check(&x->s, r, 3) == 0, "%s restored: %s", k->name, hb_error_msg());
}

static double expected_a(const char *name)
{
    if (strcmp(name, "read") == 0) return 1.0;
    if (strncmp(name, "write", 5) == 0) return 3.0; /* the scalar */
    if (strncmp(name, "triad", 5) == 0) return 3.5; /* 2 + 3 * 0.5 */
    /* Plain mixes update a in place, three sweeps: 1 + 3 x (2 + 0.5), 1 + 3 x 3 x 2,
     * 1 + 3 x 3; -nt mixes write from their sources: 2 + 0.5 + 1.5, 2 + 3 x 0.5, 2 + 3. */
    if (strcmp(name, "mix3:1-nt") == 0) return 4.0;
    if (strcmp(name, "mix2:1-nt") == 0) return 3.5;
    if (strcmp(name, "mix1:1-nt") == 0) return 5.0;
    if (strcmp(name, "mix3:1") == 0) return 8.5;
    if (strcmp(name, "mix2:1") == 0) return 19.0;
    if (strcmp(name, "mix1:1") == 0) return 10.0;
    return 2.0; /* copies of b */
}

static void test_kernel(const struct hb_kernel *k)
{
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        for (size_t oi = 0; oi < sizeof(offsets) / sizeof(offsets[0]); oi++) {
            size_t n = sizes[si];
            struct arrays ref;
            HB_EXPECT(hb_simd_select("c") == 0, "%s", hb_error_msg());
            double r_ref = run_one(k, &ref, n, offsets[oi]);
            if (strcmp(k->name, "read") == 0) {
                HB_EXPECT(r_ref == (double)n, "read sum %.17g, want %zu", r_ref, n);
                hb_error_clear();
                HB_EXPECT(k->check(&ref.s, r_ref - 1, 3) == -HB_EVALIDATE, "bad sum passed");
                HB_EXPECT_CONTAINS(hb_error_msg(), "kernel read array a sum of");
            }
            expect_corruption_caught(k, &ref, r_ref, expected_a(k->name));

            for (int p = HB_SIMD_C + 1; p < HB_SIMD_N; p++) {
                if (hb_simd_select(hb_simd_name((enum hb_simd)p)) != 0) continue;
                struct arrays x;
                double r = run_one(k, &x, n, offsets[oi]);
                HB_EXPECT(memcmp(&r, &r_ref, sizeof(r)) == 0, "%s/%s n=%zu: %.17g vs c %.17g",
                          k->name, hb_simd_name((enum hb_simd)p), n, r, r_ref);
                HB_EXPECT(memcmp(x.s.a, ref.s.a, n * sizeof(double)) == 0,
                          "%s/%s n=%zu: array a differs from the c path", k->name,
                          hb_simd_name((enum hb_simd)p), n);
                expect_corruption_caught(k, &x, r, expected_a(k->name));
                arrays_free(&x);
            }
            arrays_free(&ref);
        }
    }
}

int main(void)
{
    static const char *const names[] = {"read",   "write",     "write-nt", "copy",     "copy-nt",
                                        "triad",  "triad-nt",  "memcpy",   "mix3:1",   "mix3:1-nt",
                                        "mix2:1", "mix2:1-nt", "mix1:1",   "mix1:1-nt"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const struct hb_kernel *k = hb_kernel_registry_find(names[i]);
        HB_EXPECT(k != NULL, "%s", hb_error_msg());
        test_kernel(k);
    }
    printf("simd paths tested up to %s\n", hb_simd_name(hb_simd_best()));
    return 0;
}
