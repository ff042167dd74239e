/* coll's communicators (hb_suite_coll.h): which nodes' ranks each holds, chosen by hop class
 * from the firmware distances, so that one launch times a collective inside a package, across
 * one hop, two hops ..., and over the whole world. */
#include "hb_suite_coll.h"

#include "hb_error.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node that takes part: CPUs (a rank sits there) and chosen by --nodes. */
static bool coll_node_in(const struct hb_suite_env *env, int i)
{
    return env->topo->nodes[i].has_cpus && hb_suite_kit_node_on(env, i);
}

/* The most hops between two members of on (0 for one member). */
static int coll_span(const struct hb_topo *t, const bool *on)
{
    int span = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; on[i] && j < t->nnodes; j++)
            if (on[j] && hb_topo_distances_hops(t, i, j) > span)
                span = hb_topo_distances_hops(t, i, j);
    return span;
}

static int coll_count(const struct hb_topo *t, const bool *on)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        n += on[i];
    return n;
}

/* Append a group unless one with the same members is there already; takes on. */
static int coll_add(const struct hb_topo *t, struct hb_coll_group **g, int *n, const char *cls,
                    bool *on)
{
    for (int k = 0; k < *n; k++)
        if (memcmp((*g)[k].on, on, sizeof(*on) * (size_t)t->nnodes) == 0) {
            free(on);
            return 0;
        }
    struct hb_coll_group *grown = realloc(*g, sizeof(**g) * (size_t)(*n + 1));
    if (!grown) {
        free(on);
        hb_error_set("out of memory choosing coll's communicators");
        return -ENOMEM;
    }
    *g = grown;
    struct hb_coll_group *x = &grown[(*n)++];
    snprintf(x->cls, sizeof(x->cls), "%s", cls);
    x->span_hops = t->hop_class ? coll_span(t, on) : -1;
    x->on = on;
    return 0;
}

static bool *coll_none(const struct hb_topo *t)
{
    bool *on = calloc((size_t)t->nnodes, sizeof(*on));
    if (!on) hb_error_set("out of memory choosing coll's communicators");
    return on;
}

/* The nodes of the first package that holds two taking part or more (NULL *on: none). */
static int coll_package(const struct hb_suite_env *env, bool **out)
{
    const struct hb_topo *t = env->topo;
    *out = NULL;
    for (int i = 0; i < t->nnodes; i++) {
        if (!coll_node_in(env, i)) continue;
        hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, t->nodes[i].obj);
        if (!pkg) continue;
        bool *on = coll_none(t);
        if (!on) return -ENOMEM;
        for (int j = 0; j < t->nnodes; j++)
            on[j] = coll_node_in(env, j) && hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE,
                                                                           t->nodes[j].obj) == pkg;
        if (coll_count(t, on) >= 2) {
            *out = on;
            return 0;
        }
        free(on);
    }
    return 0;
}

/* From each start node in turn, the nodes within k hops of every member so far; the first
 * such set that spans exactly k (NULL *on: none). */
static int coll_within(const struct hb_suite_env *env, int k, bool **out)
{
    const struct hb_topo *t = env->topo;
    *out = NULL;
    for (int s = 0; s < t->nnodes; s++) {
        if (!coll_node_in(env, s)) continue;
        bool *on = coll_none(t);
        if (!on) return -ENOMEM;
        on[s] = true;
        for (int j = 0; j < t->nnodes; j++) {
            bool near = coll_node_in(env, j);
            for (int i = 0; near && i < t->nnodes; i++)
                near = !on[i] || hb_topo_distances_hops(t, i, j) <= k;
            on[j] = on[j] || near;
        }
        if (coll_count(t, on) >= 2 && coll_span(t, on) == k) {
            *out = on;
            return 0;
        }
        free(on);
    }
    return 0;
}

int hb_coll_groups(const struct hb_suite_env *env, struct hb_coll_group **out, int *n)
{
    const struct hb_topo *t = env->topo;
    *out = NULL;
    *n = 0;
    bool *world = coll_none(t);
    if (!world) return -ENOMEM;
    for (int i = 0; i < t->nnodes; i++)
        world[i] = coll_node_in(env, i);
    int all = coll_count(t, world), rc = 0;
    bool *on = NULL;
    if ((rc = coll_package(env, &on)) == 0 && on && coll_count(t, on) < all)
        rc = coll_add(t, out, n, "package", on);
    else
        free(on);
    for (int k = 1; rc == 0 && t->hop_class && k < t->nclasses; k++) {
        char cls[24];
        snprintf(cls, sizeof(cls), "hops-%d", k);
        if ((rc = coll_within(env, k, &on)) == 0 && on && coll_count(t, on) < all)
            rc = coll_add(t, out, n, cls, on);
        else
            free(on);
    }
    /* The world last, always: a smaller set that equals it was never added. */
    if (rc == 0) return coll_add(t, out, n, "world", world);
    free(world);
    hb_coll_groups_free(*out, *n);
    *out = NULL;
    *n = 0;
    return rc;
}

void hb_coll_groups_free(struct hb_coll_group *g, int n)
{
    for (int k = 0; k < n; k++)
        free(g[k].on);
    free(g);
}
