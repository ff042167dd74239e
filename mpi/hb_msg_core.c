/* The messaging thread's own core (hb_msg_core.h), and the refusal of two ranks on one. */
#include "hb_msg_core.h"

#include "hb_error.h"
#include "hb_ranks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

char (*hb_msg_core_machines(const struct hb_world *w))[HB_HOST_LEN]
{
    char(*all)[HB_HOST_LEN] = calloc((size_t)w->size, HB_HOST_LEN);
    if (!all) hb_world_abort(w, HB_EXIT_ENV, "out of memory for the ranks' host names");
    char me[HB_HOST_LEN] = "";
    if (gethostname(me, sizeof(me) - 1) != 0) snprintf(me, sizeof(me), "unknown");
    hb_ranks_allgather_bytes(me, HB_HOST_LEN, all);
    return all;
}

int hb_msg_core_apart(const struct hb_world *w, const struct hb_topo *t,
                      const char (*machine)[HB_HOST_LEN], const char *command)
{
    int *core = calloc((size_t)w->size, sizeof(*core));
    if (!core) hb_world_abort(w, HB_EXIT_ENV, "out of memory for the ranks' cores");
    hb_ranks_allgather_int(hb_msg_core_now(t), core);
    int code = 0;
    for (int a = 0; a < w->size && !code; a++)
        for (int b = a + 1; b < w->size && !code; b++)
            if (core[a] >= 0 && core[a] == core[b] && strcmp(machine[a], machine[b]) == 0) {
                code = HB_EXIT_ENV;
                if (w->rank == 0)
                    fprintf(stderr,
                            "hopbench: %s: ranks %d and %d message from one core (core L#%d "
                            "of %s): their latency would be the scheduler's; start at most one "
                            "rank per core (on this host: mpirun -np %d --bind-to core hopbench "
                            "%s)\n",
                            command, a, b, core[a], machine[a],
                            hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_CORE), command);
            }
    free(core);
    return code;
}
