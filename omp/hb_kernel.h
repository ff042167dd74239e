/* Kernel registry (docs/design.md#kernels): one const descriptor per kernel, default first.
 * Metadata says what a kernel moves; bandwidth is computed from it in one place
 * (hb_kernel_registry_bytes), never inside a kernel. */
#ifndef HB_KERNEL_H
#define HB_KERNEL_H

#include "hb_chase.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hb_kernel_kind {
    HB_KIND_BANDWIDTH, /* streams over arrays; figure = bytes / time */
    HB_KIND_LATENCY,   /* dependent loads; figure = time / load */
};

/* One thread's part of a task's arrays. Arrays are 64-byte aligned at the start of the
 * slice; n is any count (kernels handle the tail). */
/* Arrays a kernel may stream (a, b, c, d). */
#define HB_KERNEL_MAX_STREAMS 4

struct hb_kslice {
    double *a, *b, *c, *d; /* streams in kernel order; NULL when unused */
    size_t n;              /* elements (doubles) per array in this slice */
    double scalar;         /* triad's scalar */
    uint64_t seed;         /* chase: permutation seed */
    size_t stride;         /* chase: one visited line per this many bytes; 0 = default (256) */
    size_t group_bytes;    /* chase: shuffle within groups of this size (TLB reach); 0 = default
                            * (256 KiB), HB_CHASE_GROUP_ALL = the whole slice */
    double param;          /* intensity: flops per byte loaded (the task's param) */
    void *cursor;          /* chase: the line the last run stopped on (NULL = line 0) */
    int chains;            /* chase: independent chases run interleaved; 0 or 1 = one */
    void *cursors[HB_CHASE_MAX_CHAINS]; /* chase: where chains 1.. stopped (NULL = not begun) */
};

struct hb_kernel {
    const char *name;
    const char *desc;
    enum hb_kernel_kind kind;
    int streams;          /* arrays used, at most HB_KERNEL_MAX_STREAMS: the task's bytes are split
                           * evenly among them */
    double bytes_read;    /* per element per sweep (chase: 8, i.e. 64 per line it loads) */
    double bytes_written; /* likewise; write-allocate traffic is not counted (STREAM rule) */
    double flops;         /* per element per sweep */
    bool nt;              /* stores are non-temporal */
    bool dst_read;        /* every store lands on a line the kernel just read (in place) */
    const char *access;   /* "r", "w" or "rw" (40555 label letter) */
    /* The dry run's estimate of one thread's sweep: bytes of the task a second at param 0 (a
     * modest machine's, about 0.7x the 2-core VM's: tests/bench/estimates.sh); intensity adds
     * its flops (hb_estimate.h). Latency kernels: unused, a chase is loads. */
    double model_bps;
    /* Can init take this slice? Its geometry only (n, stride, group_bytes; no memory is
     * touched): 0, or -EINVAL with a message. NULL: any slice. The plan check asks it of
     * every task's slices, so a dry run refuses what init would; init applies it too. */
    int (*fits)(const struct hb_kslice *s);
    /* First touch and fill of the slice by the thread that will use it. 0 or -errno. */
    int (*init)(struct hb_kslice *s);
    /* `sweeps` passes over the slice with the active SIMD path. The return value depends on
     * the data (defeats dead-code elimination and feeds check). */
    double (*run)(struct hb_kslice *s, uint64_t sweeps);
    /* Validate after sweeps_done passes in total, given the last run()'s return value:
     * 0, or -HB_EVALIDATE with a message naming array, index, expected and observed. */
    int (*check)(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);
};

extern const struct hb_kernel hb_kernel_registry[]; /* default first, NULL name terminates */

/* The kernel with this name, or NULL (then hb_error_set names it and lists valid ones). */
const struct hb_kernel *hb_kernel_registry_find(const char *name);

/* Every name of a comma-separated list ("" = none) is a kernel: 0, or -EINVAL naming the
 * first that is not (hb_kernel_registry_find's message). Checked before any suite plans, whether or
 * not the command uses kernels. */
int hb_kernel_registry_check_list(const char *list);

/* Number of kernels in the registry. */
int hb_kernel_registry_count(void);

/* Bytes moved by `sweeps` passes over `elements` elements (per array): the one place where
 * bandwidth accounting lives. */
double hb_kernel_registry_bytes(const struct hb_kernel *k, uint64_t elements, uint64_t sweeps);

/* The write-allocate model of the same passes: ordinary stores to lines the kernel did not
 * read first fetch each line before writing it (copy 24 B per element instead of 16, triad 32
 * instead of 24); non-temporal stores and in-place updates fetch nothing extra. A model of
 * what the memory system moves, not a counter reading. */
double hb_kernel_registry_bytes_wa_model(const struct hb_kernel *k, uint64_t elements,
                                         uint64_t sweeps);

/* Dependent loads one thread does in `sweeps` sweeps of a latency kernel over its `elements`
 * elements: one load per `stride` bytes (0 = the default stride), at most
 * HB_LATENCY_SWEEP_LOADS a sweep. */
double hb_kernel_registry_loads(const struct hb_kernel *k, uint64_t elements, uint64_t sweeps,
                                uint64_t stride);

/* Help text generated from the table: one line per kernel (name, streams, bytes, flops, NT,
 * description). */
void hb_kernel_registry_help(FILE *f);

/* Comma-separated kernel names (for error messages). */
const char *hb_kernel_registry_names(void);

#endif
