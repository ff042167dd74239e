/* The experiment model (hb_plan.h): plans, experiments and tasks, their parameters, and the
 * wire form an experiment travels in from rank 0 to every rank. */
#include "hb_plan.h"

#include "hb_error.h"
#include "hb_topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_task *hb_plan_experiment_task(struct hb_experiment *e)
{
    if (e->ntasks == e->task_cap) {
        int cap = e->task_cap ? e->task_cap * 2 : 4;
        struct hb_task *grown = realloc(e->tasks, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_error_set("out of memory for %d tasks of experiment %s", cap, e->name);
            return NULL;
        }
        e->tasks = grown;
        e->task_cap = cap;
    }
    struct hb_task *task = &e->tasks[e->ntasks++];
    memset(task, 0, sizeof(*task));
    return task;
}

void hb_plan_experiment_clear(struct hb_experiment *e)
{
    for (int i = 0; i < e->ntasks; i++)
        hwloc_bitmap_free(e->tasks[i].mem_nodes);
    free(e->tasks);
    e->tasks = NULL;
    e->ntasks = e->task_cap = 0;
}

/* The next free key of e, or NULL with a message. */
static struct hb_param *param_new(struct hb_experiment *e, const char *key, enum hb_param_kind kind)
{
    if (e->params.n == HB_PARAMS_MAX || strlen(key) >= HB_PARAM_KEY_LEN) {
        hb_error_set("experiment %s: no room for suite key '%s' (at most %d keys of %d "
                     "characters)",
                     e->name, key, HB_PARAMS_MAX, HB_PARAM_KEY_LEN - 1);
        return NULL;
    }
    struct hb_param *p = &e->params.v[e->params.n++];
    memset(p, 0, sizeof(*p));
    memcpy(p->key, key, strlen(key) + 1);
    p->kind = (unsigned char)kind;
    return p;
}

int hb_plan_param_null(struct hb_experiment *e, const char *key)
{
    return param_new(e, key, HB_PARAM_NULL) ? 0 : -EINVAL;
}

int hb_plan_param_int(struct hb_experiment *e, const char *key, long long v)
{
    struct hb_param *p = param_new(e, key, HB_PARAM_INT);
    if (p) p->v.ints[0] = v;
    return p ? 0 : -EINVAL;
}

long long hb_plan_param_int_of(const struct hb_experiment *e, const char *key, long long dflt)
{
    for (int i = 0; i < e->params.n; i++)
        if (e->params.v[i].kind == HB_PARAM_INT && strcmp(e->params.v[i].key, key) == 0)
            return e->params.v[i].v.ints[0];
    return dflt;
}

const char *hb_plan_param_str_of(const struct hb_experiment *e, const char *key, const char *dflt)
{
    for (int i = 0; i < e->params.n; i++)
        if (e->params.v[i].kind == HB_PARAM_STR && strcmp(e->params.v[i].key, key) == 0)
            return e->params.v[i].v.str;
    return dflt;
}

double hb_plan_param_num_of(const struct hb_experiment *e, const char *key, double dflt)
{
    for (int i = 0; i < e->params.n; i++) {
        const struct hb_param *p = &e->params.v[i];
        if (strcmp(p->key, key) != 0) continue;
        if (p->kind == HB_PARAM_NUM) return p->v.num;
        if (p->kind == HB_PARAM_INT) return (double)p->v.ints[0];
    }
    return dflt;
}

int hb_plan_param_ints_of(const struct hb_experiment *e, const char *key, long long *out)
{
    for (int i = 0; i < e->params.n; i++) {
        const struct hb_param *p = &e->params.v[i];
        if (p->kind != HB_PARAM_INTS || strcmp(p->key, key) != 0) continue;
        memcpy(out, p->v.ints, (size_t)p->nints * sizeof(*out));
        return p->nints;
    }
    return 0;
}

int hb_plan_param_num(struct hb_experiment *e, const char *key, double v)
{
    struct hb_param *p = param_new(e, key, HB_PARAM_NUM);
    if (p) p->v.num = v;
    return p ? 0 : -EINVAL;
}

int hb_plan_param_str(struct hb_experiment *e, const char *key, const char *v)
{
    if (strlen(v) >= HB_PARAM_STR_LEN) {
        hb_error_set("experiment %s: suite key %s '%s' is longer than %d characters", e->name, key,
                     v, HB_PARAM_STR_LEN - 1);
        return -EINVAL;
    }
    struct hb_param *p = param_new(e, key, HB_PARAM_STR);
    if (p) memcpy(p->v.str, v, strlen(v) + 1);
    return p ? 0 : -EINVAL;
}

int hb_plan_param_ints(struct hb_experiment *e, const char *key, const long long *v, int n)
{
    if (n < 0 || n > HB_PARAM_INTS_MAX) {
        hb_error_set("experiment %s: suite key %s holds %d numbers, at most %d", e->name, key, n,
                     HB_PARAM_INTS_MAX);
        return -EINVAL;
    }
    struct hb_param *p = param_new(e, key, HB_PARAM_INTS);
    if (!p) return -EINVAL;
    p->nints = (unsigned char)n;
    memcpy(p->v.ints, v, sizeof(*v) * (size_t)n);
    return 0;
}

static json_t *param_json(const struct hb_param *p)
{
    switch (p->kind) {
    case HB_PARAM_INT:
        return json_integer(p->v.ints[0]);
    case HB_PARAM_NUM: {
        /* As the records always had it: the number's "%g" text read as JSON. */
        char text[32];
        snprintf(text, sizeof(text), "%g", p->v.num);
        return strpbrk(text, ".eEnN") ? json_real(strtod(text, NULL))
                                      : json_integer(strtoll(text, NULL, 10));
    }
    case HB_PARAM_STR:
        return json_string(p->v.str);
    case HB_PARAM_INTS: {
        json_t *a = json_array();
        for (int i = 0; a && i < p->nints; i++)
            json_array_append_new(a, json_integer(p->v.ints[i]));
        return a;
    }
    default:
        return json_null();
    }
}

json_t *hb_plan_params_json(const struct hb_params *p)
{
    json_t *o = json_object();
    for (int i = 0; o && i < p->n; i++)
        if (json_object_set_new(o, p->v[i].key, param_json(&p->v[i])) != 0) {
            json_decref(o);
            return NULL;
        }
    return o;
}

int hb_plan_add(struct hb_plan *p, struct hb_experiment *e)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 16;
        struct hb_experiment *grown = realloc(p->exps, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_plan_experiment_clear(e);
            hb_error_set("out of memory for a plan of %d experiments", cap);
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
        hb_plan_experiment_clear(&p->exps[i]);
    free(p->exps);
    memset(p, 0, sizeof(*p));
}

int hb_plan_threads_on(const struct hb_plan *p, const struct hb_topo *t, int node)
{
    int i = hb_topo_nodes_index(t, node), need = 0;
    for (int x = 0; i >= 0 && x < p->n; x++)
        for (int k = 0; k < p->exps[x].ntasks; k++) {
            const struct hb_task *task = &p->exps[x].tasks[k];
            if (task->cpu_node != node) continue;
            int end = task->first_thread + (task->whole_node ? t->nodes[i].ncores : task->threads);
            if (end > need) need = end;
        }
    return need;
}

/* The wire form: the experiment's bytes, each task's bytes, then per task the length of its
 * node set text (0 = no set) and the text. Pointers travel as bytes and are rebuilt. */
int hb_plan_experiment_pack(const struct hb_experiment *e, char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    if (!f) {
        hb_error_set("out of memory packing experiment %s", e->name);
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
        hb_error_set("out of memory packing experiment %s", e->name);
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

int hb_plan_experiment_unpack(const char *buf, size_t len, struct hb_experiment *e)
{
    size_t pos = 0;
    memset(e, 0, sizeof(*e));
    if (!plan_take(buf, len, &pos, e, sizeof(*e)) || e->ntasks < 0 ||
        (size_t)e->ntasks > (len - pos) / sizeof(*e->tasks)) {
        memset(e, 0, sizeof(*e));
        hb_error_set("a packed experiment of %zu bytes is cut short", len);
        return -EINVAL;
    }
    int ntasks = e->ntasks;
    e->ntasks = e->task_cap = 0;
    e->tasks = calloc((size_t)(ntasks ? ntasks : 1), sizeof(*e->tasks));
    if (!e->tasks) {
        hb_error_set("out of memory for %d tasks of experiment %s", ntasks, e->name);
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
            hb_plan_experiment_clear(e);
            hb_error_set("a packed experiment has a bad node set for task %d", i);
            return -EINVAL;
        }
    }
    return 0;
}

int hb_plan_task_mem_nodes(const struct hb_task *task, int **nodes)
{
    int n = task->policy == HB_POLICY_BIND ? 1
            : task->mem_nodes              ? hwloc_bitmap_weight(task->mem_nodes)
                                           : 0;
    *nodes = calloc((size_t)(n > 0 ? n : 1), sizeof(**nodes));
    if (!*nodes || n < 0) {
        free(*nodes);
        *nodes = NULL;
        hb_error_set("out of memory listing the memory nodes of task %s", task->label);
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

void hb_plan_task_describe(const struct hb_topo *t, struct hb_task *task, const char *access)
{
    int ci = hb_topo_nodes_index(t, task->cpu_node);
    int mi = task->policy == HB_POLICY_BIND ? hb_topo_nodes_index(t, task->mem_node) : -1;
    task->hops = (ci >= 0 && mi >= 0) ? hb_topo_distances_hops(t, ci, mi) : -1;
    task->distance = (ci >= 0 && mi >= 0) ? hb_topo_distances_between(t, ci, mi) : 0;
    snprintf(task->access, sizeof(task->access), "%s", access);
    /* 40555 labels name the memory node; interleave and first touch name the policy. */
    const char *target = task->policy == HB_POLICY_INTERLEAVE   ? "i"
                         : task->policy == HB_POLICY_FIRSTTOUCH ? "ft"
                         : task->policy == HB_POLICY_WEIGHTED   ? "wi"
                                                                : NULL;
    if (target)
        snprintf(task->label, sizeof(task->label), "%d.%d.%s.%s", task->cpu_node,
                 task->first_thread, access, target);
    else
        snprintf(task->label, sizeof(task->label), "%d.%d.%s.%d", task->cpu_node,
                 task->first_thread, access, task->mem_node);
}
