/* The CPUs this process was started on, as OpenMP saw them. */
#ifndef HB_PLACES_H
#define HB_PLACES_H

#include <hwloc.h>

/* Fill `set` with the union of the OpenMP places: the launcher's binding, read by libgomp
 * before it bound the initial thread to the first place (OMP_PROC_BIND), after which the
 * process affinity shows one core only. Returns 0, or -ENODEV when there are no places
 * (OMP_PLACES unset): then the caller reads the process binding instead. */
int hb_places_cpus(hwloc_bitmap_t set);

#endif
