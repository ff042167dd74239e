/* What the one-node suites plan alike (lat, bw and the default suite): the CPU and memory
 * nodes the options name, checked (defaults: the first CPU node, local memory), the threads
 * and size, and their latency and bandwidth experiments. */
#ifndef HB_LOCAL_PLAN_H
#define HB_LOCAL_PLAN_H

#include "hb_suite_kit.h"

#include <stdint.h>

/* What bw measures without --kernel. */
#define HB_BW_KERNELS "read"

/* A suite's own experiments on cpu's threads and mem's memory, bytes each. */
typedef int (*hb_local_plan_body)(const struct hb_suite_env *env, struct hb_plan *out, int cpu,
                                  int mem, uint64_t bytes);

/* The nodes, threads and size the options give, checked, then body's experiments. */
int hb_local_plan(const struct hb_suite_env *env, struct hb_plan *out, hb_local_plan_body body);
/* Latency: one chase per --stride and --chains. */
int hb_local_plan_lat(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                      uint64_t bytes);
/* Bandwidth of one kernel on threads threads. */
int hb_local_plan_bw_kernel(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                            int cpu, int mem, int threads, uint64_t bytes);
/* Bandwidth of --kernel a,b,c (default HB_BW_KERNELS) on every core of cpu (or --threads). */
int hb_local_plan_bw(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                     uint64_t bytes);

#endif
