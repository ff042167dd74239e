/* Memory placement (hb_placement.h): allocate bound, (weighted) interleaved or first-touch
 * buffers with a chosen page size, then ask the kernel where every page landed. */
#include "hb_placement.h"

#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_bytes.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc defines MAP_HUGE_SHIFT but not the size flags (they live in linux/mman.h, which
 * clashes with sys/mman.h). 21 = log2(2 MiB). */
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

/* Linux 6.9's policy; older headers lack it (the value is fixed by the kernel's ABI). */
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif

#define HB_HUGE_BYTES ((size_t)2 << 20)
#define HB_BASE_BYTES ((size_t)4096)
/* move_pages(2) takes arrays; this many pages per call keeps them at 1 MiB. */
#define HB_LOCATE_BATCH 65536

const char *const hb_placement_policy_names[] = {
    [HB_POLICY_BIND] = "bind",
    [HB_POLICY_INTERLEAVE] = "interleave",
    [HB_POLICY_FIRSTTOUCH] = "firsttouch",
    [HB_POLICY_WEIGHTED] = "weighted",
    NULL,
};

const char *const hb_placement_pages_names[] = {
    [HB_PAGES_4K] = "4k",
    [HB_PAGES_THP] = "thp",
    [HB_PAGES_HUGE] = "huge",
    NULL,
};

#define HB_COUNT(a) (sizeof(a) / sizeof((a)[0]) - 1) /* names before the NULL */

const char *hb_placement_policy_name(enum hb_policy p)
{
    return (unsigned)p < HB_COUNT(hb_placement_policy_names) ? hb_placement_policy_names[p]
                                                             : "unknown";
}

const char *hb_placement_pages_name(enum hb_pages p)
{
    return (unsigned)p < HB_COUNT(hb_placement_pages_names) ? hb_placement_pages_names[p]
                                                            : "unknown";
}

/* Free reserved 2 MiB pages of one node; -1 when sysfs cannot say. */
static long placement_free_hugepages(int os_index)
{
    char path[128];
    snprintf(path, sizeof(path),
             "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/free_hugepages", os_index);
    FILE *f = fopen(path, "r");
    long n = -1;
    if (!f) return -1;
    if (fscanf(f, "%ld", &n) != 1) n = -1;
    fclose(f);
    return n;
}

/* Every node the buffer may take pages from must exist, have memory and (for BIND) room. */
static int placement_check_nodes(const struct hb_topo *t, size_t bytes, enum hb_policy policy,
                                 const int *nodes, int nnodes, enum hb_pages pages)
{
    if (policy == HB_POLICY_FIRSTTOUCH) return 0;
    if (!nodes || nnodes < 1 || nnodes > t->nnodes || (policy == HB_POLICY_BIND && nnodes != 1)) {
        if (policy == HB_POLICY_BIND)
            hb_error_set("bind placement got %d nodes; it needs exactly one", nnodes);
        else
            hb_error_set("%s placement got %d nodes; it needs between 1 and %d",
                         hb_placement_policy_name(policy), nnodes, t->nnodes);
        return -EINVAL;
    }
    for (int k = 0; k < nnodes; k++) {
        int i = hb_topo_nodes_index(t, nodes[k]);
        if (i >= 0 && t->nodes[i].has_memory) continue;
        char *list = hb_topo_nodes_list(t, false, i >= 0);
        if (i < 0)
            hb_error_set("unknown NUMA node %d; valid nodes: %s", nodes[k], hb_text_or_oom(list));
        else
            hb_error_set("NUMA node %d has no memory; nodes with memory: %s", nodes[k],
                         hb_text_or_oom(list));
        free(list);
        return -EINVAL;
    }
    /* Reserved huge pages are not part of MemFree; placement_check_huge counts those. */
    if (policy == HB_POLICY_BIND && pages != HB_PAGES_HUGE) {
        uint64_t free_bytes = hb_topo_nodes_memfree_read(t, hb_topo_nodes_index(t, nodes[0]));
        if (bytes > free_bytes) {
            char need[32], have[32];
            hb_error_set("buffer of %s does not fit node %d: %s free",
                         hb_bytes_format(bytes, need, sizeof(need)), nodes[0],
                         hb_bytes_format(free_bytes, have, sizeof(have)));
            return -ENOMEM;
        }
    }
    return 0;
}

/* hugetlbfs pages come from a per-node pool; a fault on a node whose pool is empty kills the
 * process with SIGBUS, so count before mapping. Interleave needs its share on every node of
 * the set; first touch may land anywhere, so it is checked against all nodes together. */
static int placement_check_huge(const struct hb_topo *t, size_t map_bytes, enum hb_policy policy,
                                const int *nodes, int nnodes)
{
    long pages = (long)(map_bytes / HB_HUGE_BYTES);
    if (policy == HB_POLICY_FIRSTTOUCH) {
        long found = 0;
        for (int i = 0; i < t->nnodes; i++) {
            long n = placement_free_hugepages(t->nodes[i].os_index);
            found += n > 0 ? n : 0;
        }
        if (found >= pages) return 0;
        hb_error_set("--pages huge needs %ld free 2 MiB huge pages, found %ld on all nodes; "
                     "reserve them with: echo %ld > "
                     "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages",
                     pages, found, pages);
        return -ENOMEM;
    }
    /* Weighted interleave's shares follow the kernel's weights, unknown here: any node may
     * be asked for all of them. */
    long share = policy == HB_POLICY_WEIGHTED ? pages : (pages + nnodes - 1) / nnodes;
    for (int k = 0; k < nnodes; k++) {
        long found = placement_free_hugepages(nodes[k]);
        if (found >= share) continue;
        hb_error_set("--pages huge needs %ld free 2 MiB huge pages on node %d, found %ld; reserve "
                     "them with: echo %ld > "
                     "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
                     share, nodes[k], found < 0 ? 0 : found, share, nodes[k]);
        return -ENOMEM;
    }
    return 0;
}

int hb_placement_buf_check_huge(const struct hb_topo *t, size_t bytes, enum hb_policy policy,
                                const int *nodes, int nnodes)
{
    if (!t->is_this_system) return 0;
    return placement_check_huge(t, (bytes + HB_HUGE_BYTES - 1) / HB_HUGE_BYTES * HB_HUGE_BYTES,
                                policy, nodes, nnodes);
}

/* Map map_bytes with the page size asked for. THP needs a 2 MiB aligned range or the kernel
 * cannot use huge pages at its ends, so THP maps 2 MiB more and trims. */
static int placement_map(size_t map_bytes, enum hb_pages pages, void **out)
{
    int prot = PROT_READ | PROT_WRITE;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
    char size[32];
    if (pages == HB_PAGES_HUGE) {
        void *p = mmap(NULL, map_bytes, prot, flags | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
        int err = errno;
        if (p == MAP_FAILED) {
            hb_error_set("cannot map %s of 2 MiB huge pages: %s",
                         hb_bytes_format(map_bytes, size, sizeof(size)), strerror(err));
            return -err;
        }
        *out = p;
        return 0;
    }
    size_t span = pages == HB_PAGES_THP ? map_bytes + HB_HUGE_BYTES : map_bytes;
    char *raw = mmap(NULL, span, prot, flags, -1, 0);
    int err = errno;
    if (raw == MAP_FAILED) {
        hb_error_set("cannot map %s: %s", hb_bytes_format(map_bytes, size, sizeof(size)),
                     strerror(err));
        return -err;
    }
    char *p = raw;
    if (pages == HB_PAGES_THP) {
        p = (char *)(((uintptr_t)raw + HB_HUGE_BYTES - 1) & ~(uintptr_t)(HB_HUGE_BYTES - 1));
        if (p > raw) munmap(raw, (size_t)(p - raw));
        if (raw + span > p + map_bytes)
            munmap(p + map_bytes, (size_t)(raw + span - (p + map_bytes)));
    }
    int advice = pages == HB_PAGES_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE;
    if (madvise(p, map_bytes, advice) != 0) {
        err = errno;
        munmap(p, map_bytes);
        hb_error_set("cannot ask for %s pages on a buffer of %s: %s",
                     hb_placement_pages_name(pages), hb_bytes_format(map_bytes, size, sizeof(size)),
                     strerror(err));
        return -err;
    }
    *out = p;
    return 0;
}

/* MPOL_WEIGHTED_INTERLEAVE on the range with mbind(2) itself: hwloc has no such policy. The
 * mask spans the largest node; maxnode is one more than its bits, as the kernel reads it. */
static int placement_set_weighted(struct hb_buf *b)
{
    int top = 0;
    for (int k = 0; k < b->nnodes; k++)
        top = b->nodes[k] > top ? b->nodes[k] : top;
    size_t bits = sizeof(unsigned long) * 8, nlongs = (size_t)top / bits + 1;
    unsigned long *mask = calloc(nlongs, sizeof(*mask));
    if (!mask) {
        hb_error_set("out of memory building a node mask up to node %d", top);
        return -ENOMEM;
    }
    for (int k = 0; k < b->nnodes; k++)
        mask[(size_t)b->nodes[k] / bits] |= 1UL << ((size_t)b->nodes[k] % bits);
    long rc = syscall(SYS_mbind, b->ptr, b->map_bytes, MPOL_WEIGHTED_INTERLEAVE, mask,
                      nlongs * bits + 1, 0);
    int err = errno;
    free(mask);
    if (rc == 0) return 0;
    hb_error_set("the kernel refuses weighted interleave (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9+) "
                 "over %d node(s): %s",
                 b->nnodes, strerror(err));
    return -EXDEV;
}

/* Strict policy on the range: MPOL_BIND or MPOL_INTERLEAVE through hwloc, by OS node index. */
static int placement_set_policy(const struct hb_topo *t, struct hb_buf *b)
{
    if (b->policy == HB_POLICY_FIRSTTOUCH) return 0;
    if (b->policy == HB_POLICY_WEIGHTED) return placement_set_weighted(b);
    int rc = 0;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) {
        hb_error_set("out of memory building a node set");
        return -ENOMEM;
    }
    for (int k = 0; k < b->nnodes; k++)
        hwloc_bitmap_set(set, (unsigned)b->nodes[k]);
    hwloc_membind_policy_t policy =
        b->policy == HB_POLICY_BIND ? HWLOC_MEMBIND_BIND : HWLOC_MEMBIND_INTERLEAVE;
    int flags = HWLOC_MEMBIND_STRICT | HWLOC_MEMBIND_BYNODESET;
    if (hwloc_set_area_membind(t->hw, b->ptr, b->map_bytes, set, policy, flags) != 0) {
        int err = errno;
        char *nodes = hb_nodeset_print(set);
        hb_error_set("the kernel refuses to %s memory to node(s) %s: %s",
                     hb_placement_policy_name(b->policy), hb_text_or_oom(nodes), strerror(err));
        free(nodes);
        rc = -EXDEV;
    }
    hwloc_bitmap_free(set);
    return rc;
}

int hb_placement_buf_alloc(const struct hb_topo *t, size_t bytes, enum hb_policy policy,
                           const int *nodes, int nnodes, enum hb_pages pages, struct hb_buf *out)
{
    int rc = 0;
    memset(out, 0, sizeof(*out));
    if (!t->is_this_system) {
        hb_error_set("cannot allocate on a topology loaded from %s", t->source);
        return -EINVAL;
    }
    if (bytes == 0 || (unsigned)policy >= HB_COUNT(hb_placement_policy_names) ||
        (unsigned)pages >= HB_COUNT(hb_placement_pages_names)) {
        hb_error_set("cannot allocate %zu bytes with policy %d, pages %d: need bytes > 0, policy "
                     "bind|interleave|firsttouch|weighted, pages 4k|thp|huge",
                     bytes, (int)policy, (int)pages);
        return -EINVAL;
    }
    rc = placement_check_nodes(t, bytes, policy, nodes, nnodes, pages);
    if (rc < 0) return rc;
    size_t unit = pages == HB_PAGES_4K ? HB_BASE_BYTES : HB_HUGE_BYTES;
    size_t map_bytes = (bytes + unit - 1) / unit * unit;
    if (pages == HB_PAGES_HUGE) {
        rc = placement_check_huge(t, map_bytes, policy, nodes, nnodes);
        if (rc < 0) return rc;
    }
    struct hb_buf b = {.bytes = bytes, .map_bytes = map_bytes, .policy = policy, .pages = pages};
    if (policy != HB_POLICY_FIRSTTOUCH) {
        b.nodes = malloc((size_t)nnodes * sizeof(*nodes));
        if (!b.nodes) {
            hb_error_set("out of memory for a set of %d nodes", nnodes);
            return -ENOMEM;
        }
        b.nnodes = nnodes;
        memcpy(b.nodes, nodes, (size_t)nnodes * sizeof(*nodes));
    }
    rc = placement_map(map_bytes, pages, &b.ptr);
    if (rc == 0) rc = placement_set_policy(t, &b);
    if (rc < 0) {
        if (b.ptr) munmap(b.ptr, b.map_bytes);
        free(b.nodes);
        return rc;
    }
    *out = b;
    return 0;
}

void hb_placement_buf_free(struct hb_buf *b)
{
    if (!b) return;
    if (b->ptr) munmap(b->ptr, b->map_bytes);
    free(b->nodes);
    memset(b, 0, sizeof(*b));
}

int hb_placement_pageloc_init(struct hb_pageloc *pl, int nnodes)
{
    memset(pl, 0, sizeof(*pl));
    pl->on_node = calloc((size_t)(nnodes > 0 ? nnodes : 1), sizeof(*pl->on_node));
    pl->share_pct = calloc((size_t)(nnodes > 0 ? nnodes : 1), sizeof(*pl->share_pct));
    if (!pl->on_node || !pl->share_pct) {
        hb_placement_pageloc_free(pl);
        hb_error_set("out of memory counting pages on %d nodes", nnodes);
        return -ENOMEM;
    }
    pl->nnodes = nnodes;
    return 0;
}

void hb_placement_pageloc_free(struct hb_pageloc *pl)
{
    free(pl->on_node);
    free(pl->share_pct);
    memset(pl, 0, sizeof(*pl));
}

/* Ask the kernel where n pages are; status[k] is a node OS index or a negative errno. */
static int placement_move_pages(void **addrs, unsigned long n, int *status)
{
    if (syscall(SYS_move_pages, 0, n, addrs, NULL, status, 0) != 0) {
        int err = errno;
        hb_error_set("move_pages cannot locate %lu pages: %s", n, strerror(err));
        return -err;
    }
    return 0;
}

int hb_placement_buf_locate(const struct hb_topo *t, const struct hb_buf *b,
                            const int *expected_nodes, int nexpected, struct hb_pageloc *out)
{
    memset(out, 0, sizeof(*out));
    if (!t->is_this_system || !b->ptr) {
        hb_error_set("cannot locate pages of %s: %s", b->ptr ? "a buffer" : "an unmapped buffer",
                     t->is_this_system ? "map it first" : "topology is not this machine");
        return -EINVAL;
    }
    /* Target set by node index; NULL expected nodes and no policy set mean "anywhere". */
    bool *target = calloc((size_t)t->nnodes, sizeof(*target));
    void **addrs = NULL;
    int *status = NULL;
    int rc = target ? hb_placement_pageloc_init(out, t->nnodes) : -ENOMEM;
    if (rc) {
        free(target);
        hb_error_set("out of memory locating pages on %d nodes", t->nnodes);
        return rc;
    }
    const int *want = expected_nodes ? expected_nodes : b->nodes;
    int nwant = expected_nodes ? nexpected : b->nnodes;
    for (int k = 0; k < nwant; k++) {
        int i = hb_topo_nodes_index(t, want[k]);
        if (i >= 0) target[i] = true;
    }
    if (!expected_nodes && b->policy == HB_POLICY_FIRSTTOUCH)
        for (int i = 0; i < t->nnodes; i++)
            target[i] = true;

    size_t step = b->pages == HB_PAGES_HUGE ? HB_HUGE_BYTES : HB_BASE_BYTES;
    uint64_t npages = (b->bytes + step - 1) / step;
    size_t batch = npages < HB_LOCATE_BATCH ? (size_t)npages : HB_LOCATE_BATCH;
    addrs = malloc(batch * sizeof(*addrs));
    status = malloc(batch * sizeof(*status));
    if (!addrs || !status) {
        hb_error_set("out of memory locating %" PRIu64 " pages", npages);
        rc = -ENOMEM;
        goto out;
    }
    uint64_t on_target = 0;
    for (uint64_t first = 0; first < npages; first += batch) {
        size_t n = npages - first < batch ? (size_t)(npages - first) : batch;
        for (size_t k = 0; k < n; k++)
            addrs[k] = (char *)b->ptr + (first + k) * step;
        rc = placement_move_pages(addrs, n, status);
        if (rc < 0) goto out;
        for (size_t k = 0; k < n; k++) {
            /* -ENOENT: never touched; -EFAULT and others: nothing the kernel can place. */
            int i = status[k] >= 0 ? hb_topo_nodes_index(t, status[k]) : -1;
            if (i < 0) {
                out->absent++;
                continue;
            }
            out->on_node[i]++;
            on_target += target[i];
        }
    }
    out->checked = npages;
    out->step_bytes = step;
    for (int i = 0; i < t->nnodes && npages; i++)
        out->share_pct[i] = 100.0 * (double)out->on_node[i] / (double)npages;
    out->on_target_pct = npages ? 100.0 * (double)on_target / (double)npages : 0.0;
out:
    free(target);
    free(addrs);
    free(status);
    if (rc) hb_placement_pageloc_free(out);
    return rc;
}
