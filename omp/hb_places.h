/* The CPUs this process was started on, as OpenMP saw them. */
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
int hb_omp_env_check(void);

#endif
