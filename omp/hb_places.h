/* The OpenMP settings of this process: the CPUs it was started on as OpenMP saw them, the
 * OMP_* variables checked, and hopbench's defaults for them. */
#ifndef HB_PLACES_H
#define HB_PLACES_H

#include <hwloc.h>

/* Fill `set` with the union of the OpenMP places: the launcher's binding, read by libgomp
 * before it bound the initial thread to the first place (OMP_PROC_BIND), after which the
 * process affinity shows one core only. Returns 0, or -ENODEV when there are no places
 * (OMP_PLACES unset): then the caller reads the process binding instead. */
int hb_places_cpus(hwloc_bitmap_t set);

/* OpenMP settings the runtime would ignore are refused, never recorded as if used:
 * OMP_PLACES, OMP_PROC_BIND and OMP_NUM_THREADS must have OpenMP's syntax. 0, or -EINVAL
 * naming the variable, its value and what is valid. */
int hb_places_omp_env_check(void);

/* libgomp reads OMP_PLACES / OMP_PROC_BIND when it loads, before main: unless both are set
 * (or this is the restarted process), set OMP_PLACES=cores, OMP_PROC_BIND=close and
 * HOPBENCH_OMP_DEFAULTS=1 (the run record says they were ours) and execv argv again so they
 * take effect. Returns only when nothing was set or the restart failed (not fatal: threads
 * are still checked against their node before anything is timed). */
void hb_places_defaults(char **argv);

#endif
