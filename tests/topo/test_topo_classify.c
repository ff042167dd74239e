/* Hop classes from distance matrices no fixture has: pure arithmetic, no hwloc. */
#include "../hb_check.h"
#include "hb_topo.h"

#include <errno.h>

int main(void)
{
    int hops[16];

    /* Two sockets as most firmware writes them. */
    static const uint64_t two[] = {10, 21, 21, 10};
    CHECK_INT(hb_topo_distances_classify(two, 2, NULL, hops), 2);
    CHECK_INT(hops[0], 0);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[2], 1);
    CHECK_INT(hops[3], 0);

    /* Classes are ranks of distinct values, not distances divided by anything. */
    static const uint64_t three[] = {10, 16, 22, 16, 10, 16, 22, 16, 10};
    CHECK_INT(hb_topo_distances_classify(three, 3, NULL, hops), 3);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[2], 2);
    CHECK_INT(hops[5], 1);
    CHECK_INT(hops[6], 2);

    /* A node's distance to itself is local even when firmware gives it another value; it
     * does not count among the remote classes. */
    static const uint64_t odd_local[] = {10, 20, 30, 20, 15, 20, 30, 20, 10};
    CHECK_INT(hb_topo_distances_classify(odd_local, 3, NULL, hops), 3);
    CHECK_INT(hops[4], 0);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[2], 2);

    /* A remote pair at the local value (an odd firmware table) is still remote: class 1. */
    static const uint64_t flat[] = {10, 10, 10, 10};
    CHECK_INT(hb_topo_distances_classify(flat, 2, NULL, hops), 2);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[3], 0);

    /* Memory-only nodes (no CPUs) neither get a class nor shift the interconnect's: two
     * sockets at 21 stay class 1 beside a CXL node at 14 and 24 (class -1). */
    static const uint64_t cxl[] = {10, 21, 14, 21, 10, 24, 14, 24, 10};
    static const bool cpus[] = {true, true, false};
    CHECK_INT(hb_topo_distances_classify(cxl, 3, cpus, hops), 2);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[3], 1);
    CHECK_INT(hops[2], -1);
    CHECK_INT(hops[5], -1);
    CHECK_INT(hops[6], -1);
    CHECK_INT(hops[8], 0);

    /* Asymmetric matrices (CXL reads vs writes) keep both directions apart. */
    static const uint64_t asym[] = {10, 14, 17, 10};
    CHECK_INT(hb_topo_distances_classify(asym, 2, NULL, hops), 3);
    CHECK_INT(hops[1], 1);
    CHECK_INT(hops[2], 2);

    static const uint64_t one[] = {10};
    CHECK_INT(hb_topo_distances_classify(one, 1, NULL, hops), 1);
    CHECK_INT(hops[0], 0);

    CHECK_INT(hb_topo_distances_classify(one, 0, NULL, hops), -EINVAL);
    CHECK_INT(hb_topo_distances_classify(NULL, 1, NULL, hops), -EINVAL);
    CHECK_INT(hb_topo_distances_classify(one, 1, NULL, NULL), -EINVAL);
    return hb_check_result();
}
