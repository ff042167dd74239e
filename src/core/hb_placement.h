/* Memory placement: allocate buffers bound to a node, interleaved (evenly or by the kernel's
 * per-node weights) over nodes, or left for first touch, with a chosen page size; then verify where
 * every page really is. */
#ifndef HB_PLACEMENT_H
#define HB_PLACEMENT_H

#include "hb_topo.h"

#include <stddef.h>
#include <stdint.h>

enum hb_policy {
    HB_POLICY_BIND,       /* strict bind to one node (mem_node) */
    HB_POLICY_INTERLEAVE, /* round-robin over a node set */
    HB_POLICY_FIRSTTOUCH, /* no policy; the threads that initialise it place it */
    HB_POLICY_WEIGHTED,   /* MPOL_WEIGHTED_INTERLEAVE over a node set (Linux 6.9+): each node
                             takes pages in proportion to its weight (hb_interleave_weights.h) */
};

enum hb_pages {
    HB_PAGES_4K,   /* base pages; THP disabled for the buffer (MADV_NOHUGEPAGE) */
    HB_PAGES_THP,  /* transparent huge pages asked for (MADV_HUGEPAGE, 2 MiB aligned) */
    HB_PAGES_HUGE, /* hugetlbfs 2 MiB pages (MAP_HUGETLB); must be reserved */
};

/* The names of the values, in enum order, NULL-ended: records, --policy and --pages (the
 * parser, help, man page and completion) all read them here. */
extern const char
    *const hb_placement_policy_names[]; /* "bind", "interleave", "firsttouch", "weighted" */
extern const char *const hb_placement_pages_names[]; /* "4k", "thp", "huge" */
const char *hb_placement_policy_name(enum hb_policy p);
const char *hb_placement_pages_name(enum hb_pages p);

struct hb_buf {
    void *ptr;
    size_t bytes;     /* what was asked */
    size_t map_bytes; /* what was mapped (rounded to the page size) */
    enum hb_policy policy;
    enum hb_pages pages;
    int *nodes; /* OS indexes: [0] for bind, the set for (weighted) interleave; NULL for first
                   touch */
    int nnodes;
};

/* Map a buffer and set its policy; no page is touched yet (the caller's threads first-touch
 * it, which also places first-touch buffers). For BIND the node must exist and have memory,
 * and bytes must fit its free memory (-ENOMEM naming node, size and free, before anything is
 * mapped). Binding is strict: no silent fallback (-EXDEV when the kernel refuses the policy).
 * HUGE with no free reserved 2 MiB pages on the node: -ENOMEM saying how to reserve them.
 * t must be this machine (is_this_system). */
int hb_placement_buf_alloc(const struct hb_topo *t, size_t bytes, enum hb_policy policy,
                           const int *nodes, int nnodes, enum hb_pages pages, struct hb_buf *out);
void hb_placement_buf_free(struct hb_buf *b);

/* Before anything runs: are enough hugetlbfs 2 MiB pages reserved for `bytes` under this
 * policy (the check hb_placement_buf_alloc makes, so a plan fails before its output exists)? 0, or
 * -ENOMEM with the message that says how to reserve them. Always 0 for a topology loaded
 * from XML, which has no page pools to read. */
int hb_placement_buf_check_huge(const struct hb_topo *t, size_t bytes, enum hb_policy policy,
                                const int *nodes, int nnodes);

/* Where the pages of a touched buffer are. */
struct hb_pageloc {
    uint64_t checked;     /* pages looked at */
    uint64_t step_bytes;  /* distance between looked-at addresses */
    int nnodes;           /* entries of on_node and share_pct: the topology's nodes */
    uint64_t *on_node;    /* per node index (not OS index) */
    uint64_t absent;      /* not yet faulted in or unknown */
    double on_target_pct; /* % of checked pages on the intended node(s) */
    double *share_pct;    /* % of checked pages per node index */
};

/* Empty counts for nnodes nodes: 0 or -ENOMEM with a message. Free with hb_placement_pageloc_free.
 */
int hb_placement_pageloc_init(struct hb_pageloc *pl, int nnodes);
void hb_placement_pageloc_free(struct hb_pageloc *pl);

/* Locate pages with move_pages(2): every page (4k/THP), one per 2 MiB for hugetlbfs.
 * The target set is b->nodes (first touch: expected_nodes, e.g. the threads' node; pass
 * NULL to take every node as target). Returns 0 or -errno with a message; on success out
 * holds counts to free with hb_placement_pageloc_free. */
int hb_placement_buf_locate(const struct hb_topo *t, const struct hb_buf *b,
                            const int *expected_nodes, int nexpected, struct hb_pageloc *out);

#endif
