/* An independent reference for hopbench's non-temporal kernels (tests/bench/peers.sh): glibc's
 * memcpy and memset run by OpenMP threads, each on its own slice that it first-touched, as
 * STREAM's Copy does once gcc -O3 has turned its loop into memcpy. Shares no code with
 * hopbench. A sample is the time between two barriers around one call per thread; the best of
 * REPS counts, bytes counted the STREAM way (memcpy: read + written, memset: written).
 *
 *   libc_ref memcpy|memset BYTES [REPS]
 * BYTES is the working set of all arrays together (hopbench's --size): memcpy's two arrays
 * hold half each. Prints: op threads bytes GB/s. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "memcpy") != 0 && strcmp(argv[1], "memset") != 0)) {
        fprintf(stderr, "usage: libc_ref memcpy|memset BYTES [REPS]\n");
        return 2;
    }
    int copy = strcmp(argv[1], "memcpy") == 0, reps = argc > 3 ? atoi(argv[3]) : 10;
    size_t bytes = strtoull(argv[2], NULL, 0), arrays = copy ? 2 : 1;
    int threads = omp_get_max_threads();
    /* Slices of whole 4 KiB pages, so each thread's first touch places its own. */
    size_t slice = bytes / arrays / (size_t)threads / 4096 * 4096, len = slice * (size_t)threads;
    if (slice == 0 || reps < 1) {
        fprintf(stderr, "libc_ref: BYTES too small for %d threads, or REPS < 1\n", threads);
        return 2;
    }
    char *dst = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *src =
        copy ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
    if (dst == MAP_FAILED || src == MAP_FAILED) {
        perror("libc_ref: mmap");
        return 3;
    }
    double best = 1e300, t0 = 0.0;
#pragma omp parallel
    {
        size_t off = slice * (size_t)omp_get_thread_num();
        memset(dst + off, 1, slice);
        if (copy) memset(src + off, 2, slice);
        for (int r = -1; r < reps; r++) {
#pragma omp barrier
#pragma omp master
            t0 = omp_get_wtime();
#pragma omp barrier
            if (copy)
                memcpy(dst + off, src + off, slice);
            else
                memset(dst + off, 3 + r, slice);
#pragma omp barrier
#pragma omp master
            {
                double t = omp_get_wtime() - t0;
                if (r >= 0 && t < best) best = t; /* r = -1: warm-up */
            }
        }
    }
    /* The result must hold, or the figure means nothing. */
    if (dst[len - 1] != (copy ? 2 : 3 + reps - 1)) {
        fprintf(stderr, "libc_ref: %s result wrong\n", argv[1]);
        return 1;
    }
    printf("%s %d %zu %.3f GB/s\n", argv[1], threads, len * arrays,
           (double)(len * arrays) / best / 1e9);
    return 0;
}
