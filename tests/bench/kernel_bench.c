/* Standalone driver for comparing kernels with likwid-bench (tests/bench/peers.sh): each
 * array is mmap'd, each thread first-touches its own slice through the kernel's init, and a
 * sample is the time between two team barriers around run(); the best sample counts
 * (STREAM convention). Prints one line: kernel threads bytes simd GB/s. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_simd.h"
#include "hb_bytes.h"

#include <errno.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

struct bench_opts {
    const char *kernel, *simd;
    int threads, reps;
    uint64_t bytes;
    double min_time_s;
    bool thp;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(const char *msg)
{
    fprintf(stderr,
            "hb_kernel_bench: %s\nusage: hb_kernel_bench [--kernel K] [--threads T] [--size "
            "BYTES] [--reps N] [--min-time S] [--simd PATH] [--thp]\nkernels:\n",
            msg);
    hb_kernel_registry_help(stderr);
    return 2;
}

static int opts_parse(int argc, char **argv, struct bench_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--thp") == 0) {
            o->thp = true;
            continue;
        }
        if (v == NULL) return usage("every option but --thp takes a value");
        if (strcmp(argv[i], "--kernel") == 0)
            o->kernel = v;
        else if (strcmp(argv[i], "--simd") == 0)
            o->simd = v;
        else if (strcmp(argv[i], "--threads") == 0)
            o->threads = atoi(v);
        else if (strcmp(argv[i], "--reps") == 0)
            o->reps = atoi(v);
        else if (strcmp(argv[i], "--min-time") == 0)
            o->min_time_s = atof(v);
        else if (strcmp(argv[i], "--size") == 0) {
            if (hb_bytes_parse(v, &o->bytes) < 0) return usage(hb_error_msg());
        } else
            return usage("unknown option");
        i++;
    }
    if (o->threads < 1 || o->reps < 1 || o->min_time_s < 0)
        return usage("--threads and --reps must be at least 1, --min-time not negative");
    return 0;
}

static double *map_array(size_t bytes, bool thp)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (thp) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

int main(int argc, char **argv)
{
    struct bench_opts o = {.kernel = "read",
                           .threads = omp_get_max_threads(),
                           .reps = 10,
                           .bytes = (uint64_t)1 << 30,
                           .min_time_s = 0.2};
    int rc = opts_parse(argc, argv, &o);
    if (rc) return rc;
    const struct hb_kernel *k = hb_kernel_registry_find(o.kernel);
    if (k == NULL) return usage(hb_error_msg());
    if (hb_simd_select(o.simd) < 0) return usage(hb_error_msg());

    /* Slices of whole cache lines keep every thread's part 64-byte aligned. */
    size_t per_thread =
        (size_t)(o.bytes / (uint64_t)k->streams / sizeof(double)) / (size_t)o.threads / 8 * 8;
    size_t total = per_thread * (size_t)o.threads;
    if (per_thread == 0) return usage("--size too small for this many threads");
    double *arr[3] = {NULL, NULL, NULL};
    for (int i = 0; i < k->streams; i++) {
        arr[i] = map_array(total * sizeof(double), o.thp);
        if (arr[i] == NULL) {
            fprintf(stderr, "hb_kernel_bench: mmap of %zu bytes: %s\n", total * sizeof(double),
                    strerror(errno));
            return 3;
        }
    }

    double best = 1e300;
    uint64_t sweeps = 1, sweeps_done = 0;
    int failed = 0;
#pragma omp parallel num_threads(o.threads) reduction(| : failed)
    {
        size_t off = per_thread * (size_t)omp_get_thread_num();
        struct hb_kslice s = {
            .a = arr[0] + off,
            .b = arr[1] ? arr[1] + off : NULL,
            .c = arr[2] ? arr[2] + off : NULL,
            .n = per_thread,
            .seed = 1 + (uint64_t)omp_get_thread_num(),
        };
        if (k->init(&s) < 0) {
            fprintf(stderr, "hb_kernel_bench: %s\n", hb_error_msg());
            failed = 1;
        }
        double t0 = 0, result = 0;
        /* Rep -1 is the warm-up that also sizes a sample to at least min_time_s. */
        for (int rep = -1; rep < o.reps; rep++) {
#pragma omp barrier
#pragma omp master
            t0 = now_s();
#pragma omp barrier
            result = k->run(&s, sweeps);
#pragma omp barrier
#pragma omp master
            {
                double t = now_s() - t0;
                sweeps_done += sweeps;
                if (rep < 0) {
                    double per = t / (double)sweeps;
                    sweeps = per > 0 ? (uint64_t)(o.min_time_s / per) + 1 : 1;
                } else if (t < best)
                    best = t;
            }
#pragma omp barrier
        }
        if (k->check(&s, result, sweeps_done) < 0) {
            fprintf(stderr, "hb_kernel_bench: thread %d: %s\n", omp_get_thread_num(),
                    hb_error_msg());
            failed = 1;
        }
    }
    if (failed) return 1;
    if (k->kind == HB_KIND_LATENCY)
        printf("%s %d %zu %s %.3f ns/load\n", k->name, o.threads,
               total * sizeof(double) * (size_t)k->streams, hb_simd_name(hb_simd_active()),
               best / hb_kernel_registry_loads(k, per_thread, sweeps, 0) * 1e9);
    else
        printf("%s %d %zu %s %.3f GB/s\n", k->name, o.threads,
               total * sizeof(double) * (size_t)k->streams, hb_simd_name(hb_simd_active()),
               hb_kernel_registry_bytes(k, total, sweeps) / best / 1e9);
    for (int i = 0; i < k->streams; i++)
        munmap(arr[i], total * sizeof(double));
    return 0;
}
