/* An independent reference for hopbench's idle latency (tests/bench/peers.sh): google/multichase's
 * default "simple" chase written again from its description, sharing no code with hopbench. The
 * arena (4 KiB pages, THP off, as multichase's default) is cut into elements of -s bytes
 * (default 256); element x holds its pointer at a word offset taken from 64 random
 * permutations of the element's words, column x mod 64 (multichase's mixer, one thread); the
 * elements are permuted within TLB groups of -T bytes (default 256 KiB), the groups in random
 * order, and the chase follows that order around one cycle. Samples of about 0.5 s, the first
 * dropped; prints the best and the average ns per load (multichase prints the best).
 *
 *   chase_ref [-m BYTES] [-s STRIDE] [-T TLB_BYTES] [-n SAMPLES]
 * Run it pinned (taskset -c CPU) and bound (numactl --membind) as the tool it is compared with. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIXERS 64

static uint64_t rng_state = 1;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Knuth's inside-out shuffle: perm[0..n) becomes a random order of base..base+n. */
static void random_permutation(size_t *perm, size_t n, size_t base)
{
    for (size_t i = 0; i < n; i++) {
        size_t t = (size_t)(rng() % (i + 1));
        if (t != i) perm[i] = perm[t];
        perm[t] = base + i;
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k':
    case 'K':
        v *= 1024;
        break;
    case 'm':
    case 'M':
        v *= 1024 * 1024;
        break;
    case 'g':
    case 'G':
        v *= 1024.0 * 1024 * 1024;
        break;
    default:
        break;
    }
    return (size_t)v;
}

int main(int argc, char **argv)
{
    size_t total = (size_t)1 << 30, stride = 256, tlb = 64 * 4096;
    int samples = 5, c;
    while ((c = getopt(argc, argv, "m:s:T:n:")) != -1) {
        switch (c) {
        case 'm':
            total = parse_size(optarg);
            break;
        case 's':
            stride = parse_size(optarg);
            break;
        case 'T':
            tlb = parse_size(optarg);
            break;
        case 'n':
            samples = atoi(optarg);
            break;
        default:
            fprintf(stderr,
                    "usage: chase_ref [-m BYTES] [-s STRIDE] [-T TLB_BYTES] [-n SAMPLES]\n");
            return 2;
        }
    }
    if (stride < 8 || samples < 1) {
        fprintf(stderr, "chase_ref: stride must be at least 8 bytes, samples at least 1\n");
        return 2;
    }
    /* As multichase: the group a multiple of the stride, the arena a multiple of the group. */
    tlb = tlb < stride ? stride : tlb - tlb % stride;
    total -= total % tlb;
    size_t words = stride / 8, nelts = total / stride, per_group = tlb / stride;
    size_t ngroups = total / tlb;
    char *arena = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (arena == MAP_FAILED || madvise(arena, total, MADV_NOHUGEPAGE) != 0) {
        perror("chase_ref: mmap");
        return 3;
    }
    size_t *mixer = malloc(MIXERS * sizeof(*mixer)), *col = malloc(words * sizeof(*col));
    size_t *groups = malloc(ngroups * sizeof(*groups)), *perm = malloc(nelts * sizeof(*perm));
    if (!mixer || !col || !groups || !perm) {
        fprintf(stderr, "chase_ref: out of memory\n");
        return 3;
    }
    for (size_t m = 0; m < MIXERS; m++) {
        random_permutation(col, words, 0);
        mixer[m] = col[0];
    }
    random_permutation(groups, ngroups, 0);
    for (size_t g = 0; g < ngroups; g++)
        random_permutation(perm + g * per_group, per_group, groups[g] * per_group);
#define SLOT(x) (arena + stride * (x) + mixer[(x) % MIXERS] * 8)
    for (size_t i = 0; i < nelts; i++)
        *(char **)(void *)SLOT(perm[i]) = SLOT(perm[(i + 1) % nelts]);
    char **p = (char **)(void *)SLOT(perm[0]);

    double best = 1e300, sum = 0;
    for (int s = 0; s <= samples; s++) {
        uint64_t loads = 0;
        double t0 = now_ns(), t;
        do {
            for (int i = 0; i < 1 << 16; i++)
                p = (char **)(void *)*p;
            loads += 1 << 16;
            t = now_ns() - t0;
        } while (t < 5e8);
        if (s == 0) continue; /* first sample dropped, as multichase does */
        double ns = t / (double)loads;
        sum += ns;
        if (ns < best) best = ns;
    }
    printf("best_ns %.2f avg_ns %.2f end %p\n", best, sum / samples, (void *)p);
    return 0;
}
