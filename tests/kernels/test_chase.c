/* Pointer chase: the cycle visits every line exactly once, stays inside its groups until it
 * leaves them for good, depends only on the seed, and corrupt links are caught. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "../hb_check.h"

#include <errno.h>
#include <stdint.h>

static const struct hb_kernel *chase;

static struct hb_kslice make(size_t lines, size_t extra, uint64_t seed, size_t group_bytes)
{
    struct hb_kslice s = {.n = lines * 8 + extra, .seed = seed, .group_bytes = group_bytes};
    s.a = aligned_alloc(64, (lines + 1) * 64);
    HB_EXPECT(s.a != NULL, "out of memory");
    return s;
}

/* Line index that line i links to. */
static size_t next_of(const struct hb_kslice *s, size_t i)
{
    char *const *slot = (char *const *)(const void *)((const char *)s->a + i * 64);
    return (size_t)(*slot - (const char *)s->a) / 64;
}

/* Walks the cycle independently of the kernel's check; returns group changes seen. */
static size_t expect_full_cycle(const struct hb_kslice *s, size_t lines, size_t group_lines)
{
    unsigned char *seen = calloc(lines, 1);
    size_t at = 0, changes = 0;
    for (size_t step = 0; step < lines; step++) {
        HB_EXPECT(!seen[at], "line %zu visited twice", at);
        seen[at] = 1;
        size_t nx = next_of(s, at);
        HB_EXPECT(nx < lines, "link out of the slice: %zu", nx);
        changes += nx / group_lines != at / group_lines;
        at = nx;
    }
    HB_EXPECT(at == 0, "cycle of %zu lines does not close", lines);
    free(seen);
    return changes;
}

static void test_cycle(size_t lines, size_t extra, size_t group_bytes)
{
    struct hb_kslice s = make(lines, extra, 42, group_bytes);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_err_msg());
    HB_EXPECT(chase->check(&s, 0.0, 0) == 0, "%s", hb_err_msg());
    size_t group_lines = (group_bytes ? group_bytes : 64 * 4096) / 64;
    if (group_lines == 0) group_lines = 1;
    size_t groups = (lines + group_lines - 1) / group_lines;
    size_t changes = expect_full_cycle(&s, lines, group_lines);
    HB_EXPECT(changes == (groups > 1 ? groups : 0), "lines %zu groups %zu: left a group %zu times",
              lines, groups, changes);
    double r = chase->run(&s, 3);
    HB_EXPECT(r == 0.0, "ended on line %g", r);
    HB_EXPECT(chase->check(&s, r, 3) == 0, "%s", hb_err_msg());
    HB_EXPECT(chase->check(&s, 1.0, 3) == -HB_EVALIDATE, "wrong end line passed");
    free(s.a);
}

/* A ring longer than one sweep: runs continue where the last stopped, and check knows the
 * line the chase must stand on. */
static void test_partial_sweeps(void)
{
    size_t lines = HB_LATENCY_SWEEP_LOADS + 4464;
    struct hb_kslice s = make(lines, 0, 9, 0);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_err_msg());
    double r1 = chase->run(&s, 1);
    double r2 = chase->run(&s, 2);
    HB_EXPECT(r1 != 0.0 && r2 != r1, "runs did not continue: %g then %g", r1, r2);
    HB_EXPECT(chase->check(&s, r2, 3) == 0, "%s", hb_err_msg());
    HB_EXPECT(chase->check(&s, r1, 3) == -HB_EVALIDATE, "wrong end line passed");
    HB_EXPECT(hb_kernel_loads(chase, lines * 8, 3) == 3.0 * HB_LATENCY_SWEEP_LOADS,
              "loads per sweep are not capped");
    HB_EXPECT(hb_kernel_loads(chase, 800, 3) == 300.0, "short ring: one load per line");
    free(s.a);
}

static void test_seeds(void)
{
    size_t lines = 3000;
    struct hb_kslice s1 = make(lines, 0, 7, 64 * 64);
    struct hb_kslice s2 = make(lines, 0, 7, 64 * 64);
    struct hb_kslice s3 = make(lines, 0, 8, 64 * 64);
    HB_EXPECT(chase->init(&s1) == 0 && chase->init(&s2) == 0 && chase->init(&s3) == 0, "%s",
              hb_err_msg());
    size_t same = 0, differ = 0;
    for (size_t i = 0; i < lines; i++) {
        same += next_of(&s1, i) == next_of(&s2, i);
        differ += next_of(&s1, i) != next_of(&s3, i);
    }
    HB_EXPECT(same == lines, "same seed, %zu of %zu links equal", same, lines);
    HB_EXPECT(differ > lines / 2, "other seed, only %zu of %zu links differ", differ, lines);
    size_t identity = 0;
    for (size_t i = 0; i < lines; i++)
        identity += next_of(&s1, i) == i + 1;
    HB_EXPECT(identity < lines / 10, "%zu sequential links: not shuffled", identity);
    free(s1.a);
    free(s2.a);
    free(s3.a);
}

static void test_corruption(void)
{
    size_t lines = 500;
    struct hb_kslice s = make(lines, 0, 1, 0);
    HB_EXPECT(chase->init(&s) == 0, "%s", hb_err_msg());
    /* Point the successor of line 0 back at line 0: a cycle of one line. */
    size_t first = next_of(&s, 0);
    char **slot0 = (char **)(void *)s.a;
    char *saved = *slot0;
    *slot0 = (char *)s.a;
    hb_err_clear();
    HB_EXPECT(chase->check(&s, 0.0, 1) == -HB_EVALIDATE, "short cycle passed");
    HB_EXPECT_CONTAINS(hb_err_msg(), "validation failed: kernel chase array a index 0: expected "
                                     "a pointer to an unvisited line, observed line 0");
    *slot0 = (char *)s.a + 64 * lines;
    HB_EXPECT(chase->check(&s, 0.0, 1) == -HB_EVALIDATE, "pointer past the slice passed");
    HB_EXPECT_CONTAINS(hb_err_msg(), "expected a pointer to a line of the slice");
    *slot0 = saved;
    HB_EXPECT(next_of(&s, 0) == first && chase->check(&s, 0.0, 1) == 0, "%s", hb_err_msg());
    free(s.a);
}

int main(void)
{
    chase = hb_kernel_find("chase");
    HB_EXPECT(chase != NULL, "%s", hb_err_msg());
    test_partial_sweeps();
    for (size_t n = 1; n < 8; n += 6) {
        struct hb_kslice s = make(0, n, 1, 0);
        HB_EXPECT(chase->init(&s) == -EINVAL, "init of %zu elements", n);
        HB_EXPECT_CONTAINS(hb_err_msg(), "at least one 64-byte line");
        free(s.a);
    }
    test_cycle(1, 0, 0);
    test_cycle(2, 0, 0);
    test_cycle(7, 7, 0);          /* n = 63: the partial line is left out */
    test_cycle(1000, 3, 0);       /* one default group */
    test_cycle(12500, 3, 0);      /* n = 100003, four groups, the last partial */
    test_cycle(1000, 0, 64 * 16); /* many groups of 16 lines */
    test_cycle(1000, 0, 100);     /* groups smaller than a line mean one line each */
    test_cycle(1001, 0, 64 * 10);
    test_seeds();
    test_corruption();
    return 0;
}
