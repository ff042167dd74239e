#include "hb_plan.h"

#include "hb_error.h"
#include "hb_topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_task *hb_experiment_task(struct hb_experiment *e)
{
    if (e->ntasks == e->task_cap) {
        int cap = e->task_cap ? e->task_cap * 2 : 4;
        struct hb_task *grown = realloc(e->tasks, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_err_set("out of memory for %d tasks of experiment %s", cap, e->name);
            return NULL;
        }
        e->tasks = grown;
        e->task_cap = cap;
    }
    struct hb_task *task = &e->tasks[e->ntasks++];
    memset(task, 0, sizeof(*task));
    return task;
}

void hb_experiment_clear(struct hb_experiment *e)
{
    for (int i = 0; i < e->ntasks; i++)
        hwloc_bitmap_free(e->tasks[i].mem_nodes);
    free(e->tasks);
    e->tasks = NULL;
    e->ntasks = e->task_cap = 0;
}

int hb_plan_add(struct hb_plan *p, struct hb_experiment *e)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 16;
        struct hb_experiment *grown = realloc(p->exps, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_experiment_clear(e);
            hb_err_set("out of memory for a plan of %d experiments", cap);
            return -ENOMEM;
        }
        p->exps = grown;
        p->cap = cap;
    }
    p->exps[p->n++] = *e;
    e->tasks = NULL;
    e->ntasks = e->task_cap = 0;
    return 0;
}

void hb_plan_free(struct hb_plan *p)
{
    for (int i = 0; i < p->n; i++)
        hb_experiment_clear(&p->exps[i]);
    free(p->exps);
    memset(p, 0, sizeof(*p));
}

/* The wire form: the experiment's bytes, each task's bytes, then per task the length of its
 * node set text (0 = no set) and the text. Pointers travel as bytes and are rebuilt. */
int hb_experiment_pack(const struct hb_experiment *e, char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    if (!f) {
        hb_err_set("out of memory packing experiment %s", e->name);
        return -ENOMEM;
    }
    int rc = 0;
    fwrite(e, sizeof(*e), 1, f);
    fwrite(e->tasks, sizeof(*e->tasks), (size_t)e->ntasks, f);
    for (int i = 0; i < e->ntasks && rc == 0; i++) {
        char *text = NULL;
        uint32_t n = 0;
        if (e->tasks[i].mem_nodes) {
            if (hwloc_bitmap_list_asprintf(&text, e->tasks[i].mem_nodes) < 0)
                rc = -ENOMEM;
            else
                n = (uint32_t)strlen(text) + 1;
        }
        fwrite(&n, sizeof(n), 1, f);
        if (n) fwrite(text, 1, n, f);
        free(text);
    }
    if (fclose(f) != 0) rc = -ENOMEM;
    if (rc) {
        free(*buf);
        *buf = NULL;
        hb_err_set("out of memory packing experiment %s", e->name);
    }
    return rc;
}

/* Take n bytes at *pos of buf (len bytes) into dst; false when they are not there. */
static bool plan_take(const char *buf, size_t len, size_t *pos, void *dst, size_t n)
{
    if (len - *pos < n) return false;
    memcpy(dst, buf + *pos, n);
    *pos += n;
    return true;
}

int hb_experiment_unpack(const char *buf, size_t len, struct hb_experiment *e)
{
    size_t pos = 0;
    memset(e, 0, sizeof(*e));
    if (!plan_take(buf, len, &pos, e, sizeof(*e)) || e->ntasks < 0 ||
        (size_t)e->ntasks > (len - pos) / sizeof(*e->tasks)) {
        memset(e, 0, sizeof(*e));
        hb_err_set("a packed experiment of %zu bytes is cut short", len);
        return -EINVAL;
    }
    int ntasks = e->ntasks;
    e->ntasks = e->task_cap = 0;
    e->tasks = calloc((size_t)(ntasks ? ntasks : 1), sizeof(*e->tasks));
    if (!e->tasks) {
        hb_err_set("out of memory for %d tasks of experiment %s", ntasks, e->name);
        return -ENOMEM;
    }
    e->task_cap = ntasks;
    plan_take(buf, len, &pos, e->tasks, sizeof(*e->tasks) * (size_t)ntasks);
    for (int i = 0; i < ntasks; i++)
        e->tasks[i].mem_nodes = NULL;
    e->ntasks = ntasks;
    for (int i = 0; i < ntasks; i++) {
        uint32_t n = 0;
        bool ok = plan_take(buf, len, &pos, &n, sizeof(n)) && len - pos >= n &&
                  (n == 0 || buf[pos + n - 1] == '\0');
        if (ok && n) {
            e->tasks[i].mem_nodes = hwloc_bitmap_alloc();
            ok = e->tasks[i].mem_nodes &&
                 hwloc_bitmap_list_sscanf(e->tasks[i].mem_nodes, buf + pos) == 0;
            pos += n;
        }
        if (!ok) {
            hb_experiment_clear(e);
            hb_err_set("a packed experiment has a bad node set for task %d", i);
            return -EINVAL;
        }
    }
    return 0;
}

int hb_task_mem_nodes(const struct hb_task *task, int **nodes)
{
    int n = task->policy == HB_POLICY_BIND ? 1
            : task->mem_nodes              ? hwloc_bitmap_weight(task->mem_nodes)
                                           : 0;
    *nodes = calloc((size_t)(n > 0 ? n : 1), sizeof(**nodes));
    if (!*nodes || n < 0) {
        free(*nodes);
        *nodes = NULL;
        hb_err_set("out of memory listing the memory nodes of task %s", task->label);
        return -ENOMEM;
    }
    if (task->policy == HB_POLICY_BIND) {
        (*nodes)[0] = task->mem_node;
        return 1;
    }
    int k = 0, node;
    if (n > 0) {
        hwloc_bitmap_foreach_begin(node, task->mem_nodes)(*nodes)[k++] = node;
        hwloc_bitmap_foreach_end();
    }
    return k;
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
