/* Pointer chase: dependent loads over a random cyclic permutation of the slice's 64-byte
 * lines, one load per line, as google/multichase does. Lines are shuffled within groups of
 * group_bytes (so each group's lines fit the TLB reach being probed) and the groups are
 * visited in random order. The first 8 bytes of each line hold the address of the next line;
 * the next 8 hold scratch used while building. Deterministic for a given seed. */
#include "hb_error.h"
#include "hb_kernel_impl.h"

#include <errno.h>
#include <stdlib.h>

#define HB_LINE 64
#define HB_LINE_DOUBLES (HB_LINE / sizeof(double))
#define HB_CHASE_GROUP_DEFAULT (64 * 4096) /* 64 pages of 4 KiB */

struct hb_line {
    struct hb_line *next;
    size_t scratch;
};

static struct hb_line *hb_line_at(double *base, size_t i)
{
    return (struct hb_line *)(void *)((char *)base + i * HB_LINE);
}

/* splitmix64: tiny, seedable with any value, good enough to shuffle. */
static uint64_t hb_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t hb_rand_below(uint64_t *state, size_t bound)
{
    return (size_t)(hb_rand_next(state) % bound);
}

int hb_chase_init(struct hb_kslice *s)
{
    size_t lines = s->n / HB_LINE_DOUBLES;
    if (lines == 0) {
        hb_err_set("kernel chase needs at least one 64-byte line per thread, but the slice "
                   "holds %zu elements (%zu bytes); give each thread at least 64 bytes",
                   s->n, s->n * sizeof(double));
        return -EINVAL;
    }
    size_t group = (s->group_bytes ? s->group_bytes : HB_CHASE_GROUP_DEFAULT) / HB_LINE;
    if (group == 0) group = 1;
    size_t ngroups = (lines + group - 1) / group;
    size_t *order = malloc(ngroups * sizeof(*order));
    if (order == NULL) {
        hb_err_set("kernel chase: cannot allocate the order of %zu line groups", ngroups);
        return -ENOMEM;
    }
    uint64_t rng = s->seed;

    /* Writing every line also first-touches every page of the slice. */
    for (size_t i = 0; i < lines; i++) {
        hb_line_at(s->a, i)->next = NULL;
        hb_line_at(s->a, i)->scratch = i;
    }
    for (size_t g = 0; g < ngroups; g++) {
        size_t lo = g * group, len = lines - lo < group ? lines - lo : group;
        for (size_t j = len - 1; j > 0; j--) {
            size_t k = hb_rand_below(&rng, j + 1);
            size_t t = hb_line_at(s->a, lo + j)->scratch;
            hb_line_at(s->a, lo + j)->scratch = hb_line_at(s->a, lo + k)->scratch;
            hb_line_at(s->a, lo + k)->scratch = t;
        }
        order[g] = g;
    }
    for (size_t g = ngroups - 1; g > 0; g--) {
        size_t k = hb_rand_below(&rng, g + 1), t = order[g];
        order[g] = order[k];
        order[k] = t;
    }

    /* Link the lines in visiting order; the scratch words are read, never the next words
     * being written, so the build needs no second array. */
    struct hb_line *first = NULL, *prev = NULL;
    for (size_t g = 0; g < ngroups; g++) {
        size_t lo = order[g] * group, hi = lo + group < lines ? lo + group : lines;
        for (size_t j = lo; j < hi; j++) {
            struct hb_line *l = hb_line_at(s->a, hb_line_at(s->a, j)->scratch);
            if (prev)
                prev->next = l;
            else
                first = l;
            prev = l;
        }
    }
    prev->next = first;
    free(order);
    return 0;
}

static size_t hb_chase_sweep_loads(size_t lines)
{
    return lines < HB_LATENCY_SWEEP_LOADS ? lines : HB_LATENCY_SWEEP_LOADS;
}

double hb_chase_run(struct hb_kslice *s, uint64_t sweeps)
{
    uint64_t loads = hb_chase_sweep_loads(s->n / HB_LINE_DOUBLES) * sweeps;
    struct hb_line *p = s->cursor ? s->cursor : hb_line_at(s->a, 0);
    for (uint64_t i = 0; i < loads; i++)
        p = p->next;
    s->cursor = p;
    /* Line index where the chase stopped; check() knows where that must be. */
    return (double)(size_t)((char *)p - (char *)s->a) / HB_LINE;
}

int hb_chase_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    size_t lines = s->n / HB_LINE_DOUBLES;
    if (lines == 0) return 0;
    unsigned char *seen = calloc((lines + 7) / 8, 1);
    if (seen == NULL) {
        hb_err_set("kernel chase: cannot allocate the check bitmap for %zu lines", lines);
        return -ENOMEM;
    }
    const char *base = (const char *)s->a;
    const struct hb_line *p = (const struct hb_line *)(const void *)base;
    int rc = 0;
    /* Every run continued from the last, so the chase stands loads mod lines steps past 0. */
    size_t end_step = (size_t)((hb_chase_sweep_loads(lines) * sweeps_done) % lines);
    size_t end_line = 0;
    seen[0] = 1;
    for (size_t step = 1; step <= lines && rc == 0; step++) {
        size_t from = (size_t)((const char *)p - base) / HB_LINE;
        const char *to = (const char *)p->next;
        size_t off = (size_t)(to - base);
        if (to < base || off >= lines * HB_LINE || off % HB_LINE != 0) {
            hb_err_set("validation failed: kernel chase array a index %zu: expected a pointer "
                       "to a line of the slice, observed %p",
                       from * HB_LINE_DOUBLES, (const void *)to);
            rc = -HB_EVALIDATE;
        } else if (step == lines ? off != 0
                                 : (seen[off / HB_LINE / 8] >> (off / HB_LINE % 8)) & 1) {
            hb_err_set("validation failed: kernel chase array a index %zu: expected a pointer "
                       "to %s, observed line %zu after %zu of %zu steps",
                       from * HB_LINE_DOUBLES, step == lines ? "line 0" : "an unvisited line",
                       off / HB_LINE, step, lines);
            rc = -HB_EVALIDATE;
        } else {
            seen[off / HB_LINE / 8] |= (unsigned char)(1u << (off / HB_LINE % 8));
            p = (const struct hb_line *)(const void *)to;
            if (step == end_step) end_line = off / HB_LINE;
        }
    }
    free(seen);
    if (rc == 0 && sweeps_done > 0 && last_result != (double)end_line) {
        hb_err_set("validation failed: kernel chase array a index 0: expected the chase to "
                   "end on line %zu after %llu sweeps, observed line %.17g",
                   end_line, (unsigned long long)sweeps_done, last_result);
        rc = -HB_EVALIDATE;
    }
    return rc;
}
