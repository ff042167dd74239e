/* Pointer chase: dependent loads over a random cycle, google/multichase's default method. The
 * slice is cut into elements of `stride` bytes; each element contributes one line, chosen at
 * random inside it (multichase's "mixer"), so the lines it visits are not all at the same
 * offset. Elements are shuffled within groups of group_bytes (the TLB reach being probed) and
 * the groups are visited in random order. The shuffle also refuses, wherever the group leaves
 * a choice, two consecutive lines less than 128 bytes apart (same adjacent-line pair, or next
 * line) and two equal steps in a row (what a stride prefetcher locks on to).
 *
 * Layout: the first 8 bytes of a visited line hold the address of the next one. Line 0 of
 * every element keeps two scratch words: the element at that position of the visiting order,
 * and which line of the element is visited. Deterministic for a given seed. */
#include "hb_error.h"
#include "hb_kernel_impl.h"

#include <errno.h>
#include <stdlib.h>

#define HB_LINE 64
#define HB_LINE_DOUBLES (HB_LINE / sizeof(double))
/* How many random swaps may mend one position the shuffle could not keep prefetcher-safe. */
#define HB_CHASE_MEND_TRIES 64

struct hb_line {
    struct hb_line *next;
    size_t seq;  /* element visited at this element's position (line 0 of each element) */
    size_t line; /* the line of this element that the chase visits (line 0 of each element) */
};

struct hb_chase_geom {
    char *base;
    size_t stride, elems, group; /* group: elements per group */
};

static int chase_geom(const struct hb_kslice *s, struct hb_chase_geom *g)
{
    g->base = (char *)s->a;
    g->stride = s->stride ? s->stride : HB_CHASE_STRIDE_DEFAULT;
    size_t group_bytes = s->group_bytes ? s->group_bytes : HB_CHASE_GROUP_DEFAULT;
    if (g->stride < HB_LINE || (g->stride & (g->stride - 1))) {
        hb_error_set("kernel chase: stride %zu bytes: expected a power of two of at least 64",
                     g->stride);
        return -EINVAL;
    }
    g->elems = s->n * sizeof(double) / g->stride;
    if (g->elems == 0) {
        /* What size would do is the plan check's to say: it knows the threads. */
        hb_error_set("kernel chase needs at least one stride of %zu bytes per thread, but the "
                     "slice holds %zu bytes",
                     g->stride, s->n * sizeof(double));
        return -EINVAL;
    }
    if (s->chains > 1 && g->elems < (size_t)s->chains) {
        hb_error_set("%d chains need %d strides of %zu bytes per thread, but the "
                     "slice holds %zu bytes",
                     s->chains, s->chains, g->stride, s->n * sizeof(double));
        return -EINVAL;
    }
    if (group_bytes == HB_CHASE_GROUP_ALL) {
        g->group = g->elems;
    } else if (group_bytes < g->stride || group_bytes % g->stride) {
        hb_error_set("kernel chase: TLB group %zu bytes: expected a multiple of the stride (%zu)",
                     group_bytes, g->stride);
        return -EINVAL;
    } else {
        g->group = group_bytes / g->stride;
    }
    return 0;
}

static struct hb_line *line_at(const struct hb_chase_geom *g, size_t e)
{
    return (struct hb_line *)(void *)(g->base + e * g->stride);
}

/* Byte offset of the line the chase visits in element e. */
static size_t visit_off(const struct hb_chase_geom *g, size_t e)
{
    return e * g->stride + line_at(g, e)->line * HB_LINE;
}

static size_t seq_at(const struct hb_chase_geom *g, size_t pos)
{
    return line_at(g, pos % g->elems)->seq;
}

/* splitmix64: tiny, seedable with any value, good enough to shuffle. */
static uint64_t rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t rand_below(uint64_t *state, size_t bound)
{
    return (size_t)(rand_next(state) % bound);
}

/* Can the chase go x -> y (-> z)? Offsets of visited lines; z == SIZE_MAX: no third. */
static bool steps_ok(size_t x, size_t y, size_t z)
{
    long long d1 = (long long)y - (long long)x;
    if (d1 > -2 * HB_LINE && d1 < 2 * HB_LINE) return false;
    if (z == SIZE_MAX) return true;
    long long d2 = (long long)z - (long long)y;
    return d2 != d1 && !(d2 > -2 * HB_LINE && d2 < 2 * HB_LINE);
}

/* Is the element at position pos safe with the two positions before it? Positions before 0
 * wrap to the end of the cycle only once it is complete (`whole`). */
static bool pos_ok_back(const struct hb_chase_geom *g, size_t pos, size_t elem, bool whole)
{
    size_t y = visit_off(g, elem);
    if (pos == 0 && !whole) return true;
    size_t p1 = (pos + g->elems - 1) % g->elems, x = visit_off(g, seq_at(g, p1));
    if (pos == 1 && !whole) return steps_ok(x, y, SIZE_MAX);
    size_t p2 = (p1 + g->elems - 1) % g->elems;
    return steps_ok(visit_off(g, seq_at(g, p2)), x, y) && steps_ok(x, y, SIZE_MAX);
}

/* Every step through position pos, in the finished cycle, is prefetcher-safe. */
static bool pos_ok(const struct hb_chase_geom *g, size_t pos)
{
    size_t n = g->elems;
    if (n < 4) return true;
    size_t a = visit_off(g, seq_at(g, pos + n - 2)), b = visit_off(g, seq_at(g, pos + n - 1));
    size_t c = visit_off(g, seq_at(g, pos)), d = visit_off(g, seq_at(g, pos + 1));
    size_t e = visit_off(g, seq_at(g, pos + 2));
    return steps_ok(a, b, c) && steps_ok(b, c, d) && steps_ok(c, d, e);
}

static void swap_seq(const struct hb_chase_geom *g, size_t i, size_t j)
{
    size_t t = line_at(g, i)->seq;
    line_at(g, i)->seq = line_at(g, j)->seq;
    line_at(g, j)->seq = t;
}

/* Fisher-Yates over positions [lo, hi) that prefers, at each position, the first candidate
 * from a random start that keeps the steps so far prefetcher-safe. */
static void shuffle_run(const struct hb_chase_geom *g, size_t lo, size_t hi, uint64_t *rng)
{
    for (size_t i = lo; i + 1 < hi; i++) {
        size_t len = hi - i, k = rand_below(rng, len), pick = i + k;
        for (size_t t = 0; t < len; t++) {
            size_t j = i + (k + t) % len;
            if (pos_ok_back(g, i, line_at(g, j)->seq, false)) {
                pick = j;
                break;
            }
        }
        swap_seq(g, i, pick);
    }
}

/* Positions the shuffle left unsafe (group ends, the wrap to position 0): swap with random
 * positions of the same visit slot (slot_lo: first position of each of the nslots slots,
 * ascending) while that makes both places safe. */
static void mend_slots(const struct hb_chase_geom *g, const size_t *slot_lo, size_t nslots,
                       uint64_t *rng)
{
    for (size_t pos = 0, slot = 0; pos < g->elems; pos++) {
        while (slot + 1 < nslots && slot_lo[slot + 1] <= pos)
            slot++;
        if (pos_ok(g, pos)) continue;
        size_t lo = slot_lo[slot], hi = slot + 1 < nslots ? slot_lo[slot + 1] : g->elems;
        for (int t = 0; t < HB_CHASE_MEND_TRIES; t++) {
            size_t j = lo + rand_below(rng, hi - lo);
            swap_seq(g, pos, j);
            if (pos_ok(g, pos) && pos_ok(g, j)) break;
            swap_seq(g, pos, j);
        }
    }
}

int hb_kernel_chase_fits(const struct hb_kslice *s)
{
    struct hb_chase_geom g;
    return chase_geom(s, &g);
}

int hb_kernel_chase_init(struct hb_kslice *s)
{
    struct hb_chase_geom g;
    int rc = chase_geom(s, &g);
    if (rc) return rc;
    size_t ngroups = (g.elems + g.group - 1) / g.group;
    size_t *order = malloc(ngroups * sizeof(*order));
    size_t *group_lo = malloc(ngroups * sizeof(*group_lo));
    if (order == NULL || group_lo == NULL) {
        free(order);
        free(group_lo);
        hb_error_set("kernel chase: cannot allocate the order of %zu groups", ngroups);
        return -ENOMEM;
    }
    uint64_t rng = s->seed;
    size_t lines_per_elem = g.stride / HB_LINE;

    /* Writing every line also first-touches every page of the slice. */
    for (size_t i = 0; i < s->n / HB_LINE_DOUBLES; i++)
        ((struct hb_line *)(void *)(g.base + i * HB_LINE))->next = NULL;
    for (size_t e = 0; e < g.elems; e++)
        line_at(&g, e)->line = rand_below(&rng, lines_per_elem);
    for (size_t i = 0; i < ngroups; i++)
        order[i] = i;
    for (size_t i = ngroups - 1; i > 0; i--) {
        size_t k = rand_below(&rng, i + 1), t = order[i];
        order[i] = order[k];
        order[k] = t;
    }
    /* Visit slot i takes the positions after the groups visited before it. */
    size_t pos = 0;
    for (size_t i = 0; i < ngroups; i++) {
        size_t lo = order[i] * g.group, len = g.elems - lo < g.group ? g.elems - lo : g.group;
        group_lo[i] = pos;
        for (size_t j = 0; j < len; j++)
            line_at(&g, pos + j)->seq = lo + j;
        shuffle_run(&g, pos, pos + len, &rng);
        pos += len;
    }
    mend_slots(&g, group_lo, ngroups, &rng);

    for (size_t p = 0; p < g.elems; p++) {
        struct hb_line *from = (struct hb_line *)(void *)(g.base + visit_off(&g, seq_at(&g, p)));
        from->next = (struct hb_line *)(void *)(g.base + visit_off(&g, seq_at(&g, p + 1)));
    }
    free(order);
    free(group_lo);
    return 0;
}

/* Loads in one sweep: the whole cycle, or HB_LATENCY_SWEEP_LOADS of it. */
static size_t chase_sweep_loads(size_t elems)
{
    return elems < HB_LATENCY_SWEEP_LOADS ? elems : HB_LATENCY_SWEEP_LOADS;
}

/* Where the chase visits position pos of its order (line 0 of each element keeps the order). */
static const struct hb_line *chase_at(const struct hb_chase_geom *g, size_t pos)
{
    return (const struct hb_line *)(const void *)(g->base + visit_off(g, seq_at(g, pos)));
}

/* The chase starts at position 0 of its order (any line of the cycle would do; from there,
 * chain k of n starts k/n of the way round). */
static const struct hb_line *chase_start(const struct hb_chase_geom *g)
{
    return chase_at(g, 0);
}

/* n chases in lockstep, `steps` each: every step issues n independent loads, so the core can
 * keep up to n misses in flight (multichase's parallel chases in one thread). Inlined with n
 * a constant, the cursors live in registers. */
static inline __attribute__((always_inline)) void chase_lockstep(const struct hb_line **c, int n,
                                                                 uint64_t steps)
{
    const struct hb_line *p[HB_CHASE_MAX_CHAINS];
    for (int k = 0; k < n; k++)
        p[k] = c[k];
    for (uint64_t i = 0; i < steps; i++)
        for (int k = 0; k < n; k++)
            p[k] = p[k]->next;
    for (int k = 0; k < n; k++)
        c[k] = p[k];
}

/* Chain k starts k/n of the way round the cycle (chains never meet: they move together). */
static void chase_chains(struct hb_kslice *s, const struct hb_chase_geom *g, int n, uint64_t steps)
{
    const struct hb_line *c[HB_CHASE_MAX_CHAINS];
    c[0] = s->cursor ? s->cursor : chase_start(g);
    for (int k = 1; k < n; k++)
        c[k] = s->cursors[k] ? s->cursors[k] : chase_at(g, g->elems * (size_t)k / (size_t)n);
    switch (n) {
    case 2:
        chase_lockstep(c, 2, steps);
        break;
    case 4:
        chase_lockstep(c, 4, steps);
        break;
    case 8:
        chase_lockstep(c, 8, steps);
        break;
    case 16:
        chase_lockstep(c, 16, steps);
        break;
    default:
        chase_lockstep(c, n, steps);
        break;
    }
    s->cursor = (void *)(uintptr_t)c[0];
    for (int k = 1; k < n; k++)
        s->cursors[k] = (void *)(uintptr_t)c[k];
}

double hb_kernel_chase_run(struct hb_kslice *s, uint64_t sweeps)
{
    struct hb_chase_geom g;
    if (chase_geom(s, &g) != 0) return -1.0;
    uint64_t loads = chase_sweep_loads(g.elems) * sweeps;
    int n = s->chains > 1 ? s->chains : 1;
    if (n > 1) {
        chase_chains(s, &g, n, loads);
        return (double)(size_t)((const char *)s->cursor - g.base) / HB_LINE;
    }
    const struct hb_line *p = s->cursor ? s->cursor : chase_start(&g);
    for (uint64_t i = 0; i < loads; i++)
        p = p->next;
    s->cursor = (void *)(uintptr_t)p;
    /* Line index where the chase stopped; check() knows where that must be. */
    return (double)(size_t)((const char *)p - g.base) / HB_LINE;
}

int hb_kernel_chase_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done)
{
    struct hb_chase_geom g;
    int rc = chase_geom(s, &g);
    if (rc) return rc;
    unsigned char *seen = calloc((g.elems + 7) / 8, 1);
    if (seen == NULL) {
        hb_error_set("kernel chase: cannot allocate the check bitmap for %zu elements", g.elems);
        return -ENOMEM;
    }
    const struct hb_line *start = chase_start(&g), *p = start;
    /* Every run continued from the last, so the chase stands loads mod elems steps on. */
    size_t end_step = (size_t)((chase_sweep_loads(g.elems) * sweeps_done) % g.elems);
    size_t end_line = (size_t)((const char *)start - g.base) / HB_LINE;
    size_t first = (size_t)((const char *)start - g.base) / g.stride;
    seen[first / 8] = (unsigned char)(1u << (first % 8));
    for (size_t step = 1; step <= g.elems && rc == 0; step++) {
        size_t from = (size_t)((const char *)p - g.base) / HB_LINE;
        const char *to = (const char *)p->next;
        size_t off = (size_t)(to - g.base), e = off / g.stride;
        if (to < g.base || off >= g.elems * g.stride || off % HB_LINE != 0) {
            hb_error_set("validation failed: kernel chase array a index %zu: expected a pointer "
                         "to a line of the slice, observed %p",
                         from * HB_LINE_DOUBLES, (const void *)to);
            rc = -HB_EVALIDATE;
        } else if (step == g.elems ? to != (const char *)start : (seen[e / 8] >> (e % 8)) & 1) {
            hb_error_set("validation failed: kernel chase array a index %zu: expected a pointer "
                         "to %s, observed line %zu after %zu of %zu steps",
                         from * HB_LINE_DOUBLES,
                         step == g.elems ? "the first line" : "an unvisited element", off / HB_LINE,
                         step, g.elems);
            rc = -HB_EVALIDATE;
        } else {
            seen[e / 8] |= (unsigned char)(1u << (e % 8));
            p = (const struct hb_line *)(const void *)to;
            if (step == end_step) end_line = off / HB_LINE;
        }
    }
    free(seen);
    if (rc == 0 && sweeps_done > 0 && last_result != (double)end_line) {
        hb_error_set("validation failed: kernel chase array a index 0: expected the chase to "
                     "end on line %zu after %llu sweeps, observed line %.17g",
                     end_line, (unsigned long long)sweeps_done, last_result);
        rc = -HB_EVALIDATE;
    }
    return rc;
}
