/* The firmware distances between nodes and the hop classes drawn from them. */
#include "hb_topo.h"
#include "hb_topo_read.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>

static int topo_cmp_u64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

int hb_topo_distances_classify(const uint64_t *distances, int n, const bool *cpu_node,
                               int *hop_class)
{
    if (!distances || !hop_class || n < 1) {
        hb_error_set("cannot classify a %d x %d distance matrix: need at least 1 x 1", n, n);
        return -EINVAL;
    }
    size_t cells = (size_t)n * (size_t)n;
    uint64_t *sorted = malloc(cells * sizeof(*sorted));
    if (!sorted) {
        hb_error_set("out of memory ranking a %d x %d distance matrix", n, n);
        return -ENOMEM;
    }
    /* The interconnect: distances between two different CPU nodes only. */
    size_t nremote = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j && (!cpu_node || (cpu_node[i] && cpu_node[j])))
                sorted[nremote++] = distances[(size_t)i * (size_t)n + (size_t)j];
    qsort(sorted, nremote, sizeof(*sorted), topo_cmp_u64);
    size_t ndistinct = 0;
    for (size_t k = 0; k < nremote; k++)
        if (k == 0 || sorted[k] != sorted[ndistinct - 1]) sorted[ndistinct++] = sorted[k];
    int nclasses = 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            size_t c = (size_t)i * (size_t)n + (size_t)j;
            if (i == j) {
                hop_class[c] = 0; /* local by definition, whatever the firmware says */
                continue;
            }
            if (cpu_node && !(cpu_node[i] && cpu_node[j])) {
                hop_class[c] = -1; /* no interconnect hop: reported by distance and kind */
                continue;
            }
            const uint64_t *at =
                bsearch(&distances[c], sorted, ndistinct, sizeof(*sorted), topo_cmp_u64);
            hop_class[c] = 1 + (int)(at - sorted);
            if (hop_class[c] + 1 > nclasses) nclasses = hop_class[c] + 1;
        }
    }
    free(sorted);
    return nclasses;
}

/* The firmware latency matrix between NUMA nodes: "NUMALatency" as Linux (ACPI SLIT) and XML
 * give it, else any latency matrix between NUMA nodes. One that leaves a node out is not
 * used: hop classes need every pair. */
int hb_topo_distances_read(struct hb_topo *t)
{
    int rc = 0;
    struct hwloc_distances_s *d = NULL;
    unsigned nr = 1;
    if (hwloc_distances_get_by_name(t->hw, "NUMALatency", &nr, &d, 0) < 0 || nr == 0) {
        nr = 1;
        d = NULL;
        if (hwloc_distances_get_by_type(t->hw, HWLOC_OBJ_NUMANODE, &nr, &d,
                                        HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) < 0 ||
            nr == 0)
            return 0;
    }
    int n = t->nnodes;
    int *idx = NULL;
    bool *cpu_node = NULL;
    if (d->nbobjs != (unsigned)n) goto out;
    idx = calloc((size_t)n, sizeof(*idx));
    if (!idx) {
        hb_error_set("out of memory reading the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int k = 0; k < n; k++) {
        idx[k] = d->objs[k]->type == HWLOC_OBJ_NUMANODE
                     ? hb_topo_nodes_index(t, (int)d->objs[k]->os_index)
                     : -1;
        if (idx[k] < 0) goto out;
    }
    size_t cells = (size_t)n * (size_t)n;
    t->distances = calloc(cells, sizeof(*t->distances));
    t->hop_class = calloc(cells, sizeof(*t->hop_class));
    if (!t->distances || !t->hop_class) {
        hb_error_set("out of memory storing the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            t->distances[idx[a] * n + idx[b]] = d->values[a * n + b];
    cpu_node = calloc((size_t)n, sizeof(*cpu_node));
    if (!cpu_node) {
        hb_error_set("out of memory ranking the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int k = 0; k < n; k++)
        cpu_node[k] = hb_topo_nodes_is_cpu_node_of_machine(t, k);
    rc = hb_topo_distances_classify(t->distances, n, cpu_node, t->hop_class);
    if (rc > 0) {
        t->nclasses = rc;
        rc = 0;
    }
out:
    free(idx);
    free(cpu_node);
    hwloc_distances_release(t->hw, d);
    return rc;
}

static bool topo_pair_ok(const struct hb_topo *t, int i, int j)
{
    return i >= 0 && j >= 0 && i < t->nnodes && j < t->nnodes;
}

uint64_t hb_topo_distances_between(const struct hb_topo *t, int i, int j)
{
    if (!t->distances || !topo_pair_ok(t, i, j)) return 0;
    return t->distances[i * t->nnodes + j];
}

int hb_topo_distances_hops(const struct hb_topo *t, int i, int j)
{
    if (!topo_pair_ok(t, i, j)) return -1;
    if (i == j) return 0;
    return t->hop_class ? t->hop_class[i * t->nnodes + j] : -1;
}
