/* Each host's own topology on rank 0: what a fleet's per-host export writes, since hosts of
 * one fleet need not be alike (fewer cores, other nodes). */
#include "hb_world.h"

#include "hb_comm.h"
#include "hb_error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int hb_world_host_topos(const struct hb_world *w, const struct hb_topo *t, struct hb_topo ***out)
{
    *out = NULL;
    /* The first rank of each host sends its topology as hwloc XML; the others send nothing. */
    char *xml = NULL;
    int len = 0;
    if (w->host_rank == 0 && hwloc_topology_export_xmlbuffer(t->hw, &xml, &len, 0) < 0) len = -1;
    int *lens = NULL, *displs = NULL;
    char *all = NULL;
    int rc = 0;
    if (w->rank == 0) {
        lens = calloc((size_t)w->size, sizeof(*lens));
        displs = calloc((size_t)w->size, sizeof(*displs));
    }
    hb_comm_gather_int(len, lens);
    long total = 0;
    if (w->rank == 0 && lens && displs)
        for (int r = 0; r < w->size; r++) {
            displs[r] = (int)total;
            total += lens[r] > 0 ? lens[r] : 0;
        }
    if (w->rank == 0 && (!lens || !displs || total > INT_MAX || !(all = malloc(total + 1)))) {
        hb_err_set("out of memory gathering the hosts' topologies (%ld bytes)", total);
        rc = -ENOMEM;
    }
    hb_comm_bcast_ints(&rc, 1);
    if (rc == 0) {
        if (w->rank == 0)
            for (int r = 0; r < w->size; r++)
                if (lens[r] < 0) lens[r] = 0;
        hb_comm_gatherv_bytes(xml, len > 0 ? len : 0, all, lens, displs);
    }
    if (xml) hwloc_free_xmlbuffer(t->hw, xml);
    struct hb_topo **topos = NULL;
    if (rc == 0 && w->rank == 0 && !(topos = calloc((size_t)w->nhosts, sizeof(*topos)))) {
        hb_err_set("out of memory holding %d hosts' topologies", w->nhosts);
        rc = -ENOMEM;
    }
    for (int r = 0; rc == 0 && w->rank == 0 && r < w->size; r++) {
        int h = w->rank_host[r];
        if (lens[r] == 0 || topos[h]) continue;
        char name[HB_HOST_LEN + 16];
        snprintf(name, sizeof(name), "host %s", w->hosts[h]);
        rc = hb_topo_load_xmlbuffer(all + displs[r], lens[r], name, &topos[h]);
    }
    for (int h = 0; rc == 0 && w->rank == 0 && h < w->nhosts; h++)
        if (!topos[h]) {
            hb_err_set("host %s sent no topology (hwloc could not write it as XML)", w->hosts[h]);
            rc = -HB_EENV;
        }
    if (rc && topos)
        hb_world_host_topos_free(w, topos);
    else
        *out = topos;
    free(all);
    free(lens);
    free(displs);
    return rc;
}

void hb_world_host_topos_free(const struct hb_world *w, struct hb_topo **topos)
{
    if (!topos) return;
    for (int h = 0; h < w->nhosts; h++)
        hb_topo_free(topos[h]);
    free(topos);
}
