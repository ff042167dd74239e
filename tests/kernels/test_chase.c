/* Pointer chase: the order defeats the prefetchers (no two consecutive lines in one 128-byte
 * pair or next to each other, no constant stride), is one cycle over one line of every
 * stride-sized element, stays inside its TLB groups until it leaves them for good, depends
 * only on the seed; geometry errors and corrupt links are caught. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "../hb_check.h"

#include <errno.h>
#include <stdint.h>

static const struct hb_kernel *chase;

static struct hb_kslice make(size_t bytes, size_t stride, size_t group, uint64_t seed)
{
    struct hb_kslice s = {.n = bytes / 8, .seed = seed, .stride = stride, .group_bytes = group};
    s.a = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096 + 4096);
    HB_EXPECT(s.a != NULL, "out of memory");
    return s;
}

/* The line of element e the chase visits: the only one whose link is set. */
static size_t visited(const struct hb_kslice *s, size_t stride, size_t e)
{
    size_t found = SIZE_MAX;
    for (size_t l = 0; l < stride / 64; l++) {
        char *const *slot = (char *const *)(const void *)((const char *)s->a + e * stride + l * 64);
        if (*slot == NULL) continue;
        HB_EXPECT(found == SIZE_MAX, "element %zu has two linked lines", e);
        found = e * stride + l * 64;
    }
    HB_EXPECT(found != SIZE_MAX, "element %zu has no linked line", e);
    return found;
}

static size_t next_off(const struct hb_kslice *s, size_t off)
{
    char *const *slot = (char *const *)(const void *)((const char *)s->a + off);
    return (size_t)(*slot - (const char *)s->a);
}

struct walk {
    size_t changes;    /* times the chase left a group */
    size_t same_pair;  /* consecutive lines in one 128-byte pair */
    size_t close;      /* consecutive lines less than 128 bytes apart */
    size_t same_step;  /* two equal steps in a row */
    size_t line_kinds; /* distinct lines-within-element visited (bit set) */
};

/* Walks the cycle independently of the kernel's check. */
static struct walk walk_cycle(const struct hb_kslice *s, size_t stride, size_t group)
{
    size_t elems = s->n * 8 / stride, gel = group / stride;
    unsigned char *seen = calloc(elems, 1);
    struct walk w = {0};
    size_t start = visited(s, stride, 0), at = start;
    long long prev_step = 0;
    for (size_t step = 0; step < elems; step++) {
        size_t e = at / stride;
        HB_EXPECT(e < elems && !seen[e], "element %zu visited twice or outside", e);
        HB_EXPECT(at == visited(s, stride, e), "link to an unlinked line of element %zu", e);
        seen[e] = 1;
        w.line_kinds |= (size_t)1 << (at % stride / 64 % 64);
        size_t nx = next_off(s, at);
        long long d = (long long)nx - (long long)at;
        w.changes += nx / stride / gel != e / gel;
        w.same_pair += nx / 128 == at / 128;
        w.close += d > -128 && d < 128;
        w.same_step += step > 0 && d == prev_step;
        prev_step = d;
        at = nx;
    }
    HB_EXPECT(at == start, "cycle of %zu elements does not close", elems);
    free(seen);
    return w;
}

static void test_cycle(size_t bytes, size_t stride, size_t group, bool prefetch_safe)
{
    struct hb_kslice s = make(bytes, stride, group, 42);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_error_msg());
    HB_EXPECT(chase->check(&s, 0.0, 0) == 0, "%s", hb_error_msg());
    size_t st = stride ? stride : 256, gr = group ? group : 256 * 1024;
    if (gr == HB_CHASE_GROUP_ALL) gr = bytes / st * st;
    size_t elems = bytes / st, groups = (elems + gr / st - 1) / (gr / st);
    struct walk w = walk_cycle(&s, st, gr);
    CHECK_INT(w.changes, groups > 1 ? groups : 0);
    if (prefetch_safe) {
        CHECK_INT(w.same_pair, 0);
        CHECK_INT(w.close, 0);
        CHECK_INT(w.same_step, 0);
    }
    /* Every line of an element gets its turn (multichase's mixer), given enough elements. */
    if (elems >= 64 * (st / 64) && st <= 64 * 64)
        CHECK_INT(__builtin_popcountll(w.line_kinds), st / 64);
    double r = chase->run(&s, 3);
    HB_EXPECT(chase->check(&s, r, 3) == 0, "%s", hb_error_msg());
    HB_EXPECT(chase->check(&s, r + 1.0, 3) == -HB_EVALIDATE, "wrong end line passed");
    free(s.a);
}

/* A ring longer than one sweep: runs continue where the last stopped, and check knows the
 * line the chase must stand on. */
static void test_partial_sweeps(void)
{
    size_t elems = HB_LATENCY_SWEEP_LOADS + 4464;
    struct hb_kslice s = make(elems * 256, 0, 0, 9);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_error_msg());
    double r1 = chase->run(&s, 1);
    double r2 = chase->run(&s, 2);
    HB_EXPECT(r1 != r2, "runs did not continue: %g then %g", r1, r2);
    HB_EXPECT(chase->check(&s, r2, 3) == 0, "%s", hb_error_msg());
    HB_EXPECT(chase->check(&s, r1, 3) == -HB_EVALIDATE, "wrong end line passed");
    HB_EXPECT(hb_kernel_registry_loads(chase, elems * 32, 3, 0) == 3.0 * HB_LATENCY_SWEEP_LOADS,
              "loads per sweep are not capped");
    HB_EXPECT(hb_kernel_registry_loads(chase, 800, 3, 64) == 300.0,
              "short ring: one load per line");
    free(s.a);
}

/* n chains step together, each from its own place k/n round the cycle: chain 0 ends where one
 * chain alone would (check holds), every chain stands on a distinct line, each has moved as
 * far as chain 0 (the same distance behind the next chain as at the start), and a slice
 * with fewer strides than chains is refused. */
static void test_chains(int n)
{
    size_t elems = 3000;
    struct hb_kslice one = make(elems * 256, 0, 0, 5), s = make(elems * 256, 0, 0, 5);
    s.chains = n;
    HB_EXPECT(chase->init(&one) == 0 && chase->init(&s) == 0, "%s", hb_error_msg());
    double r1 = chase->run(&one, 7), r = chase->run(&s, 7);
    CHECK(r == r1);
    HB_EXPECT(chase->check(&s, r, 7) == 0, "%d chains: %s", n, hb_error_msg());
    for (int k = 1; k < n; k++) {
        const char *at = s.cursors[k];
        HB_EXPECT(at && at != (const char *)s.cursor, "%d chains: chain %d at %p", n, k,
                  (const void *)at);
        for (int j = 1; j < k; j++)
            HB_EXPECT(at != (const char *)s.cursors[j], "chains %d and %d meet", j, k);
        /* From chain 0, the cycle reaches chain k in k/n of its length, as at the start. */
        size_t steps = 0;
        for (const char *p = s.cursor; p != at && steps <= elems; steps++)
            p = *(const char *const *)(const void *)p;
        CHECK_INT(steps, elems * (size_t)k / (size_t)n);
    }
    struct hb_kslice small = make((size_t)(n - 1) * 256, 0, 0, 5);
    small.chains = n;
    HB_EXPECT(chase->fits(&small) == -EINVAL, "%d chains on %d strides accepted", n, n - 1);
    HB_EXPECT_CONTAINS(hb_error_msg(), "chains need");
    free(one.a);
    free(s.a);
    free(small.a);
}

static void test_seeds(void)
{
    size_t bytes = 3000 * 256;
    struct hb_kslice s1 = make(bytes, 0, 64 * 1024, 7);
    struct hb_kslice s2 = make(bytes, 0, 64 * 1024, 7);
    struct hb_kslice s3 = make(bytes, 0, 64 * 1024, 8);
    HB_EXPECT(chase->init(&s1) == 0 && chase->init(&s2) == 0 && chase->init(&s3) == 0, "%s",
              hb_error_msg());
    size_t same = 0, differ = 0, sequential = 0;
    for (size_t e = 0; e < 3000; e++) {
        size_t a = visited(&s1, 256, e);
        same += a == visited(&s2, 256, e) && next_off(&s1, a) == next_off(&s2, a);
        differ += next_off(&s1, a) / 256 != next_off(&s3, visited(&s3, 256, e)) / 256;
        sequential += next_off(&s1, a) / 256 == e + 1;
    }
    CHECK_INT(same, 3000);
    CHECK(differ > 3000 / 2);
    CHECK(sequential < 3000 / 100);
    free(s1.a);
    free(s2.a);
    free(s3.a);
}

static void test_geometry_errors(void)
{
    struct hb_kslice s = make(4096, 96, 0, 1);
    HB_EXPECT(chase->init(&s) == -EINVAL, "stride 96 accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "stride 96 bytes: expected a power of two of at least 64");
    s.stride = 256;
    s.group_bytes = 384;
    HB_EXPECT(chase->init(&s) == -EINVAL, "group 384 accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "TLB group 384 bytes: expected a multiple of the stride");
    s.group_bytes = 0;
    s.n = 255 / 8;
    HB_EXPECT(chase->init(&s) == -EINVAL, "slice smaller than a stride accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "at least one stride of 256 bytes per thread");
    /* The plan check's question, on the geometry alone. */
    struct hb_kslice g = {.n = 255 / 8, .stride = 256};
    HB_EXPECT(chase->fits(&g) == -EINVAL, "fits: slice smaller than a stride accepted");
    g.n = 256 / 8;
    HB_EXPECT(chase->fits(&g) == 0, "fits: one stride refused: %s", hb_error_msg());
    free(s.a);
}

static void test_corruption(void)
{
    struct hb_kslice s = make(500 * 256, 0, 0, 1);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_error_msg());
    /* Point the successor of element 0's line back at itself: a cycle of one line. */
    size_t at = visited(&s, 256, 0);
    char **slot = (char **)(void *)((char *)s.a + at);
    char *saved = *slot;
    *slot = (char *)s.a + at;
    hb_error_clear();
    HB_EXPECT(chase->check(&s, 0.0, 0) == -HB_EVALIDATE, "short cycle passed");
    HB_EXPECT_CONTAINS(hb_error_msg(), "validation failed: kernel chase array a index");
    HB_EXPECT_CONTAINS(hb_error_msg(), "expected a pointer to an unvisited element");
    *slot = (char *)s.a + 256 * 500;
    HB_EXPECT(chase->check(&s, 0.0, 0) == -HB_EVALIDATE, "pointer past the slice passed");
    HB_EXPECT_CONTAINS(hb_error_msg(), "expected a pointer to a line of the slice");
    *slot = saved;
    HB_EXPECT(chase->check(&s, 0.0, 0) == 0, "%s", hb_error_msg());
    free(s.a);
}

int main(void)
{
    chase = hb_kernel_registry_find("chase");
    HB_EXPECT(chase != NULL, "%s", hb_error_msg());
    test_geometry_errors();
    test_partial_sweeps();
    test_chains(2);
    test_chains(3);
    test_chains(8);
    test_chains(64);
    test_cycle(256, 0, 0, false);                /* one element */
    test_cycle(512 + 100, 0, 0, false);          /* two, and a partial one left out */
    test_cycle(1000 * 256, 0, 0, true);          /* one default group */
    test_cycle(4 << 20, 0, 0, true);             /* 1 MiB: 16 default groups */
    test_cycle((4 << 20) + 3 * 256, 0, 0, true); /* the last group partial */
    test_cycle(1 << 20, 128, 0, true);
    test_cycle(1 << 20, 512, 0, true);
    test_cycle(1 << 20, 4096, 64 * 4096, true);
    test_cycle(1 << 20, 0, HB_CHASE_GROUP_ALL, true);
    test_cycle(1 << 20, 0, 16 * 1024, true);  /* groups of 64 elements */
    test_cycle(200 * 64, 64, 64 * 10, false); /* stride 64: every line, groups of ten */
    test_seeds();
    test_corruption();
    return hb_check_result();
}
