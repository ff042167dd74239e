#include "hb_plan.h"

#include "hb_topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_plan_add(struct hb_plan *p, const struct hb_experiment *e)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 16;
        struct hb_experiment *grown = realloc(p->exps, sizeof(*grown) * (size_t)cap);
        if (!grown) return -ENOMEM;
        p->exps = grown;
        p->cap = cap;
    }
    p->exps[p->n++] = *e;
    return 0;
}

void hb_plan_free(struct hb_plan *p)
{
    free(p->exps);
    memset(p, 0, sizeof(*p));
}

int hb_task_mem_nodes(const struct hb_task *task, int nodes[HB_MAX_NODES])
{
    int n = 0;
    if (task->policy == HB_POLICY_BIND) {
        nodes[n++] = task->mem_node;
        return n;
    }
    for (int b = 0; b < 64 && n < HB_MAX_NODES; b++)
        if ((task->mem_nodes_mask >> b) & 1) nodes[n++] = b;
    return n;
}

void hb_task_describe(const struct hb_topo *t, struct hb_task *task, const char *access)
{
    int ci = hb_topo_node_index(t, task->cpu_node);
    int mi = task->policy == HB_POLICY_BIND ? hb_topo_node_index(t, task->mem_node) : -1;
    task->hops = (ci >= 0 && mi >= 0) ? hb_topo_hops(t, ci, mi) : -1;
    task->distance = (ci >= 0 && mi >= 0) ? hb_topo_distance(t, ci, mi) : 0;
    snprintf(task->access, sizeof(task->access), "%s", access);
    /* 40555 labels name the memory node; interleave and first touch name the policy. */
    const char *target = task->policy == HB_POLICY_INTERLEAVE   ? "i"
                         : task->policy == HB_POLICY_FIRSTTOUCH ? "ft"
                                                                : NULL;
    if (target)
        snprintf(task->label, sizeof(task->label), "%d.%d.%s.%s", task->cpu_node,
                 task->first_thread, access, target);
    else
        snprintf(task->label, sizeof(task->label), "%d.%d.%s.%d", task->cpu_node,
                 task->first_thread, access, task->mem_node);
}
