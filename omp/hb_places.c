#include "hb_places.h"

#include <errno.h>
#include <omp.h>
#include <stdlib.h>

int hb_places_cpus(hwloc_bitmap_t set)
{
    int n = omp_get_num_places();
    if (n <= 0) return -ENODEV;
    hwloc_bitmap_zero(set);
    for (int p = 0; p < n; p++) {
        int k = omp_get_place_num_procs(p);
        int *ids = malloc(sizeof(*ids) * (size_t)(k > 0 ? k : 1));
        if (!ids) return -ENOMEM;
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < k; i++)
            hwloc_bitmap_set(set, (unsigned)ids[i]);
        free(ids);
    }
    return 0;
}
