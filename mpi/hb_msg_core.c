/* The messaging thread's own core (hb_msg_core.h). */
#include "hb_msg_core.h"

#include "hb_error.h"

#include <errno.h>
#include <string.h>

int hb_msg_own_core(const struct hb_world *w, const struct hb_topo *t)
{
    int below = 0;
    hb_world_node_ranks(w, &below);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set || hwloc_bitmap_list_sscanf(set, w->cpus) != 0) {
        hwloc_bitmap_free(set);
        return 0; /* no binding text ("unknown"): the layout check has said so already */
    }
    int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t->hw, set, HWLOC_OBJ_CORE), rc = 0;
    if (cores > 1) {
        int k = below == 0 ? 0 : cores - 1 - (below - 1) % (cores - 1);
        hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(t->hw, set, HWLOC_OBJ_CORE, k);
        if (core) hwloc_bitmap_and(set, set, core->cpuset);
        if (core && hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD) != 0) {
            hb_err_set("rank %d cannot bind its messaging thread to core %d of its CPUs %s: %s",
                       w->rank, k, w->cpus, strerror(errno));
            rc = -HB_EENV;
        }
    }
    hwloc_bitmap_free(set);
    return rc;
}

int hb_msg_cpu_now(const struct hb_topo *t)
{
    hwloc_bitmap_t at = hwloc_bitmap_alloc();
    int cpu = at && hwloc_get_last_cpu_location(t->hw, at, HWLOC_CPUBIND_THREAD) == 0
                  ? hwloc_bitmap_first(at)
                  : -1;
    hwloc_bitmap_free(at);
    return cpu;
}

int hb_msg_core_now(const struct hb_topo *t)
{
    int cpu = hb_msg_cpu_now(t);
    hwloc_obj_t pu = cpu >= 0 ? hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu) : NULL;
    hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
    return core ? (int)core->logical_index : -1;
}
