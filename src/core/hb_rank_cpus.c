/* HOPBENCH_RANK_CPUS (hb_rank_cpus.h): a rank binds itself to the CPU list of its rank on its
 * host, for launches whose mapper cannot name "CPU nodes only" in one app context. */
#include "hb_rank_cpus.h"

#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_restart.h"

#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#define HB_RANK_CPUS_VAR "HOPBENCH_RANK_CPUS"
#define HB_RANK_CPUS_BOUND "HOPBENCH_RANK_CPUS_BOUND"

/* The index-th ':'-separated list of text into set; the count of lists into *count. Every
 * list is checked, not only this rank's: each rank of the host refuses alike and the first,
 * which speaks, names the list. */
static int rank_cpus_pick(const char *text, long index, hwloc_const_bitmap_t allowed,
                          hwloc_bitmap_t set, long *count)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy) {
        hb_error_set("out of memory reading %s", HB_RANK_CPUS_VAR);
        return -ENOMEM;
    }
    int rc = 0;
    *count = 0;
    if (!*text || text[0] == ':' || text[strlen(text) - 1] == ':' || strstr(text, "::")) rc = -1;
    for (char *w = strtok_r(copy, ":", &save); rc == 0 && w; w = strtok_r(NULL, ":", &save)) {
        /* hwloc reads "0-7,16-23"; anything else left over is not a CPU list. */
        hwloc_bitmap_t one = hwloc_bitmap_alloc();
        bool ok = one && strspn(w, "0123456789,-") == strlen(w) &&
                  hwloc_bitmap_list_sscanf(one, w) == 0 && !hwloc_bitmap_iszero(one);
        bool inside = ok && hwloc_bitmap_isincluded(one, allowed);
        if (inside && *count == index) hwloc_bitmap_copy(set, one);
        hwloc_bitmap_free(one);
        if (!ok) {
            hb_error_set(
                "%s='%s': '%s' is not a CPU list; expected one CPU list per rank of a host, "
                "separated by ':', e.g. 0-7:8-15 (see hopbench topo)",
                HB_RANK_CPUS_VAR, text, w);
            rc = -EINVAL;
        } else if (!inside) {
            char *all = NULL;
            hwloc_bitmap_list_asprintf(&all, allowed);
            hb_error_set("%s='%s': CPUs %s (list %ld) are not all CPUs of this machine that this "
                         "process may use (%s)",
                         HB_RANK_CPUS_VAR, text, w, *count + 1, all ? all : "?");
            free(all);
            rc = -EINVAL;
        }
        (*count)++;
    }
    if (rc == -1) {
        hb_error_set("%s='%s': expected one CPU list per rank of a host, separated by ':', e.g. "
                     "0-7:8-15 (see hopbench topo)",
                     HB_RANK_CPUS_VAR, text);
        rc = -EINVAL;
    }
    free(copy);
    return rc;
}

/* This rank's list bound, or -errno with a message. */
static int rank_cpus_apply(hwloc_topology_t topo, const char *text)
{
    struct hb_launch l;
    bool launched = hb_launcher_launched(&l);
    long index = launched ? l.local_rank : 0;
    if (index < 0) {
        hb_error_set("%s binds each rank by its rank on its host, which %s does not say (no %s); "
                     "bind the ranks with the launcher instead",
                     HB_RANK_CPUS_VAR, l.launcher, l.local_rank_var);
        return -EINVAL;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) {
        hb_error_set("out of memory reading %s", HB_RANK_CPUS_VAR);
        return -ENOMEM;
    }
    long count = 0;
    int rc = rank_cpus_pick(text, index, hwloc_topology_get_allowed_cpuset(topo), set, &count);
    /* Every rank of the host sees the same count: all refuse alike and the first says why. */
    long need = launched && l.local_ranks > index ? l.local_ranks : index + 1;
    if (rc == 0 && count < need) {
        hb_error_set(
            "%s='%s' names %ld CPU list%s, but %s started %ld rank%s on this host: give one "
            "list per rank",
            HB_RANK_CPUS_VAR, text, count, count == 1 ? "" : "s",
            launched ? l.launcher : "this launch", need, need == 1 ? "" : "s");
        rc = -EINVAL;
    }
    if (rc == 0 && hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
        hb_error_set("%s: cannot bind local rank %ld to its CPUs: %s", HB_RANK_CPUS_VAR, index,
                     strerror(errno));
        rc = -HB_EENV;
    }
    hwloc_bitmap_free(set);
    return rc;
}

int hb_rank_cpus_bind(char **argv)
{
    const char *text = getenv(HB_RANK_CPUS_VAR);
    if (!text || getenv(HB_RANK_CPUS_BOUND)) return 0;
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        hb_error_set("%s: cannot read this machine's topology with hwloc: %s", HB_RANK_CPUS_VAR,
                     strerror(errno));
        return -HB_EENV;
    }
    int rc = rank_cpus_apply(topo, text);
    hwloc_topology_destroy(topo);
    if (rc) return rc;
    /* The restarted process (OpenMP reads the new binding as it loads) knows it is bound. */
    setenv(HB_RANK_CPUS_BOUND, "1", 1);
    hb_restart(argv);
    hb_error_set("%s: cannot restart hopbench bound to its CPUs: %s", HB_RANK_CPUS_VAR,
                 strerror(errno));
    return -HB_EENV;
}
