/* The policy-study kernels on every SIMD path this CPU has: init, run and check agree,
 * results are exact, and a corrupted result is caught with a message naming it. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_kernel_work.h"
#include "hb_simd.h"
#include "../hb_check.h"

#include <stdint.h>

static struct hb_kslice make(const struct hb_kernel *k, size_t n)
{
    struct hb_kslice s = {.n = n, .seed = 7, .scalar = 3.0};
    double **arr[3] = {&s.a, &s.b, &s.c};
    for (int i = 0; i < k->streams; i++) {
        *arr[i] = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64);
        HB_EXPECT(*arr[i] != NULL, "out of memory");
    }
    return s;
}

static void release(struct hb_kslice *s)
{
    free(s->a);
    free(s->b);
    free(s->c);
}

/* Runs 1 + 2 sweeps, checks, then corrupts one output and expects the check to fail. */
static void exercise(const char *name, size_t n, double param, size_t corrupt)
{
    const struct hb_kernel *k = hb_kernel_registry_find(name);
    HB_EXPECT(k != NULL, "%s", hb_error_msg());
    struct hb_kslice s = make(k, n);
    s.param = param;
    HB_EXPECT(k->init(&s) == 0, "%s: %s", name, hb_error_msg());
    double r = k->run(&s, 1);
    r = k->run(&s, 2);
    HB_EXPECT(k->check(&s, r, 3) == 0, "%s (%s, n %zu, param %g): %s", name,
              hb_simd_name(hb_simd_active()), n, param, hb_error_msg());
    if (k->streams == 1 && k->access[0] == 'r' && k->access[1] == '\0') {
        HB_EXPECT(k->check(&s, r + 1.0, 3) == -HB_EVALIDATE, "%s: wrong sum passed", name);
    } else if (k->streams == 1) {
        uint64_t *t = (uint64_t *)(void *)s.a;
        t[corrupt] += 1; /* one update too many */
        HB_EXPECT(k->check(&s, r, 3) == -HB_EVALIDATE, "%s: extra update passed", name);
    } else {
        s.a[corrupt] += 0.5;
        HB_EXPECT(k->check(&s, r, 3) == -HB_EVALIDATE, "%s: corrupt a[%zu] passed", name, corrupt);
        HB_EXPECT_CONTAINS(hb_error_msg(), name);
    }
    release(&s);
}

int main(void)
{
    const char *paths[] = {"c", "avx2", "avx512"};
    for (int p = 0; p < 3; p++) {
        if (hb_simd_select(paths[p]) != 0) continue; /* not on this CPU */
        exercise("gups", 4096 + 24, 0.0, 17);
        exercise("blur3", 512 * 7 + 100, 0.0, 512 * 3 + 9);
        exercise("blur3", 1000, 0.0, 999); /* fewer than 3 rows: a copy */
        exercise("fir", 5000 + 3, 0.0, 4999);
        /* Mid-array the check takes every 17th output, which meets every block position. */
        exercise("fir", 5000 + 3, 0.0, 2 * 64 + 17 * 100);
        exercise("fir", 40, 0.0, 5); /* shorter than the filter */
        exercise("dgemm", 2 * HB_DGEMM_N * HB_DGEMM_N + 100, 0.0, 37 * HB_DGEMM_N + 53);
        for (double x = 0.125; x <= 64.0; x *= 2.0)
            exercise("intensity", 1000 + 7, x, 0);
    }
    /* The flops the intensity kernel does are what its param asks, 1 or an even count. */
    HB_EXPECT(hb_kernel_intensity_flops(0.125) == 1, "1/8 -> %llu",
              (unsigned long long)hb_kernel_intensity_flops(0.125));
    HB_EXPECT(hb_kernel_intensity_flops(0.25) == 2, "1/4");
    HB_EXPECT(hb_kernel_intensity_flops(1.0) == 8, "1");
    HB_EXPECT(hb_kernel_intensity_flops(64.0) == 512, "64");
    /* A dgemm slice too small for one product is refused with the size it needs. */
    const struct hb_kernel *d = hb_kernel_registry_find("dgemm");
    struct hb_kslice s = make(d, 1000);
    HB_EXPECT(d->init(&s) != 0, "tiny dgemm slice accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "131072 bytes");
    /* The plan check asks the same of the slice's geometry, before any memory exists. */
    struct hb_kslice g = {.n = HB_DGEMM_N * HB_DGEMM_N - 1};
    HB_EXPECT(d->fits(&g) != 0, "dgemm fits a slice one element short of a product");
    g.n++;
    HB_EXPECT(d->fits(&g) == 0, "dgemm refuses a slice of one whole product: %s", hb_error_msg());
    release(&s);
    return 0;
}
