/* Weighted interleave's per-node weights (Linux 6.9+: /sys/kernel/mm/mempolicy/
 * weighted_interleave/nodeN, 1..255): checked before a plan, set for a run and put back after
 * it, also when the run ends on an error, exit() or a signal. */
#ifndef HB_INTERLEAVE_WEIGHTS_H
#define HB_INTERLEAVE_WEIGHTS_H

#include <stdbool.h>

#define HB_INTERLEAVE_WEIGHTS_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"
#define HB_INTERLEAVE_WEIGHTS_MAX 255 /* the largest weight the kernel takes */

/* Does this kernel have weighted interleave? 0, or -EINVAL naming `what` (the option that
 * needs it), the version it needs (6.9) and the running one (uname). */
int hb_interleave_weights_check(const char *what);

/* May this process write the weights (root)? */
bool hb_interleave_weights_writable(void);

/* The weight of node `node` now: 0, or -errno with a message. */
int hb_interleave_weights_read(int node, int *weight);

/* The weights as a run has them: the nodes, the weights in effect, and whether hopbench set
 * them (false: not root, so the kernel's current ones). */
struct hb_interleave_weights_state {
    int n;
    const int *nodes, *weights;
    bool set;
};

/* For the run: set weights[k] on nodes[k] (root; what was there is put back by
 * hb_interleave_weights_restore, at exit() or on a fatal signal), or without root read the current
 * ones. One at a time per process. 0, or -errno with a message (nothing left changed). */
int hb_interleave_weights_apply(const int *nodes, const int *weights, int n);

/* What hb_interleave_weights_apply left in force; NULL when nothing was applied in this process. */
const struct hb_interleave_weights_state *hb_interleave_weights_current(void);

/* Another host of the run kept the kernel's weights (not root there): the run's records, which
 * this process writes, must not say weights_set. */
void hb_interleave_weights_set_elsewhere_failed(void);

/* Put back the weights hb_interleave_weights_apply replaced (nothing when it set none); safe to
 * call twice. */
void hb_interleave_weights_restore(void);

#endif
