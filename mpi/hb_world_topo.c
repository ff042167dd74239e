/* Each host's own topology on rank 0: what a fleet's per-host export writes, since hosts of
 * one fleet need not be alike (fewer cores, other nodes), and each host's NICs for comm. */
#include "hb_world.h"

#include "hb_ranks.h"
#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int hb_world_topo_host_topos(const struct hb_world *w, const struct hb_topo *t,
                             struct hb_topo ***out)
{
    *out = NULL;
    /* The first rank of each host sends its topology as hwloc XML; the others send nothing. */
    char *xml = NULL;
    int len = 0;
    if (w->host_rank == 0 && hwloc_topology_export_xmlbuffer(t->hw, &xml, &len, 0) < 0) len = -1;
    struct hb_host_bytes g;
    int rc = hb_world_gather_hosts(w, xml, len, &g);
    if (xml) hwloc_free_xmlbuffer(t->hw, xml);
    struct hb_topo **topos = NULL;
    if (rc == 0 && w->rank == 0 && !(topos = calloc((size_t)w->nhosts, sizeof(*topos)))) {
        hb_error_set("out of memory holding %d hosts' topologies", w->nhosts);
        rc = -ENOMEM;
    }
    for (int r = 0; rc == 0 && w->rank == 0 && r < w->size; r++) {
        int h = w->rank_host[r];
        if (g.lens[r] == 0 || topos[h]) continue;
        char name[HB_HOST_LEN + 16];
        snprintf(name, sizeof(name), "host %s", w->hosts[h]);
        rc = hb_topo_load_xmlbuffer(g.all + g.displs[r], g.lens[r], name, &topos[h]);
    }
    for (int h = 0; rc == 0 && w->rank == 0 && h < w->nhosts; h++)
        if (!topos[h]) {
            hb_error_set("host %s sent no topology (hwloc could not write it as XML)", w->hosts[h]);
            rc = -HB_EENV;
        }
    if (rc && topos)
        hb_world_topo_host_topos_free(w, topos);
    else
        *out = topos;
    hb_world_gather_host_bytes_free(&g);
    return rc;
}

void hb_world_topo_host_topos_free(const struct hb_world *w, struct hb_topo **topos)
{
    if (!topos) return;
    for (int h = 0; h < w->nhosts; h++)
        hb_topo_load_free(topos[h]);
    free(topos);
}

json_t *hb_world_topo_host_nics(const struct hb_world *w, struct hb_topo **topos)
{
    json_t *all = json_object();
    for (int h = 0; all && h < w->nhosts; h++)
        if (json_object_set_new(all, w->hosts[h], hb_topo_nics_json(topos[h]))) {
            json_decref(all);
            all = NULL;
        }
    if (!all) hb_error_set("out of memory listing %d hosts' NICs", w->nhosts);
    return all;
}
