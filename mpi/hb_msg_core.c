/* The messaging thread's own core (hb_msg_core.h). */
#include "hb_msg_core.h"

#include "hb_error.h"

#include <errno.h>
#include <string.h>

int hb_msg_core_own(const struct hb_world *w, const struct hb_topo *t)
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
            hb_error_set("rank %d cannot bind its messaging thread to core %d of its CPUs %s: %s",
                         w->rank, k, w->cpus, strerror(errno));
            rc = -HB_EENV;
        }
    }
    hwloc_bitmap_free(set);
    return rc;
}

int hb_msg_core_cpu_now(const struct hb_topo *t)
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
    /* Where the thread is bound, not where it ran last: an unbound rank may pass through any
     * core, and a snapshot of two would say nothing. */
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int core = -1;
    if (set && hwloc_get_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD) == 0 &&
        hwloc_get_nbobjs_inside_cpuset_by_type(t->hw, set, HWLOC_OBJ_CORE) == 1) {
        hwloc_obj_t c = hwloc_get_obj_inside_cpuset_by_type(t->hw, set, HWLOC_OBJ_CORE, 0);
        core = c ? (int)c->logical_index : -1;
    }
    hwloc_bitmap_free(set);
    return core;
}
