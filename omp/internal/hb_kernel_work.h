/* Entry points of the workload kernels of the policy study (gups, blur3, dgemm, fir,
 * intensity), for the registry table (internal to omp/). Their contracts are those of
 * struct hb_kernel's init, run and check members. */
#ifndef HB_KERNEL_WORK_H
#define HB_KERNEL_WORK_H

#include "hb_kernel.h"

/* dgemm: a batch of independent HB_DGEMM_N x HB_DGEMM_N products per slice (c = a x b on
 * arrays b and c, result in a), so flops per element are a constant of the registry. */
#define HB_DGEMM_N 128
/* blur3: rows of this many doubles; fir: taps of the filter. */
#define HB_BLUR_W 512
#define HB_FIR_TAPS 64

int hb_kernel_gups_init(struct hb_kslice *s);
double hb_kernel_gups_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_gups_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

int hb_kernel_blur3_init(struct hb_kslice *s);
double hb_kernel_blur3_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_blur3_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

int hb_kernel_dgemm_fits(const struct hb_kslice *s);
int hb_kernel_dgemm_init(struct hb_kslice *s);
double hb_kernel_dgemm_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_dgemm_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

int hb_kernel_fir_init(struct hb_kslice *s);
double hb_kernel_fir_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_fir_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

int hb_kernel_intensity_init(struct hb_kslice *s);
double hb_kernel_intensity_run(struct hb_kslice *s, uint64_t sweeps);
int hb_kernel_intensity_check(const struct hb_kslice *s, double last_result, uint64_t sweeps_done);

/* Flops per 8-byte element the intensity kernel does for a param (flops per byte loaded):
 * 8 x param rounded to 1 (one add) or to an even count (FMAs of 2 flops each). */
uint64_t hb_kernel_intensity_flops(double param);

#endif
