/* Entry points of the kernel families, for the registry table (internal to omp/). Their
 * contracts are those of struct hb_kernel's init, run and check members. */
#ifndef HB_KERNEL_IMPL_H
#define HB_KERNEL_IMPL_H

#include "hb_kernel.h"

/* Initial values of the streaming arrays and triad's default scalar (used when the slice's
 * scalar is 0); chosen so that every result is exact in binary floating point, which makes
 * all SIMD paths agree bit for bit. */
#define HB_STREAM_INIT_A 1.0
#define HB_STREAM_INIT_B 2.0
#define HB_STREAM_INIT_C 0.5
#define HB_STREAM_INIT_D 1.5
#define HB_STREAM_SCALAR 3.0

int hb_kernel_stream_init(struct hb_kslice *s);

double hb_kernel_stream_read_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_read_check(const struct hb_kslice *s, double last_result,
                                uint64_t sweeps_done);
double hb_kernel_stream_write_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_write_check(const struct hb_kslice *s, double last_result,
                                 uint64_t sweeps_done);
double hb_kernel_stream_write_nt_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_write_nt_check(const struct hb_kslice *s, double last_result,
                                    uint64_t sweeps_done);
double hb_kernel_stream_copy_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_copy_check(const struct hb_kslice *s, double last_result,
                                uint64_t sweeps_done);
double hb_kernel_stream_copy_nt_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_copy_nt_check(const struct hb_kslice *s, double last_result,
                                   uint64_t sweeps_done);
double hb_kernel_stream_triad_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_triad_check(const struct hb_kslice *s, double last_result,
                                 uint64_t sweeps_done);
double hb_kernel_stream_triad_nt_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_stream_triad_nt_check(const struct hb_kslice *s, double last_result,
                                    uint64_t sweeps_done);

/* Read:write mixes: plain ones in place, -nt ones from sources only (hb_kernel_stream.c). */
#define HB_MIX_DECL(fn)                                                                            \
    double hb_kernel_stream_##fn##_run(struct hb_kslice *s, uint64_t sweeps);                      \
    int hb_kernel_stream_##fn##_check(const struct hb_kslice *s, double last_result,               \
                                      uint64_t sweeps_done);
HB_MIX_DECL(mix31)
HB_MIX_DECL(mix31_nt)
HB_MIX_DECL(mix21)
HB_MIX_DECL(mix21_nt)
HB_MIX_DECL(mix11)
HB_MIX_DECL(mix11_nt)
#undef HB_MIX_DECL

/* Shared by copy, copy-nt and memcpy: a must equal b, b must still hold its initial value. */
int hb_kernel_stream_check_copy(const char *kernel, const struct hb_kslice *s,
                                uint64_t sweeps_done);

double hb_kernel_memcpy_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_memcpy_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

int hb_kernel_chase_fits(const struct hb_kslice *s);
int hb_kernel_chase_init(struct hb_kslice *s);
double hb_kernel_chase_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_chase_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

#endif
