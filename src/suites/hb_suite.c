/* The suite table and the dispatcher: each suite is one struct hb_suite, defined in its
 * own file and listed here once. */
#include "hb_suite.h"

#include "hb_bounds.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_nodeset.h"
#include "hb_version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct hb_suite hb_suite_default;
extern const struct hb_suite hb_suite_bw;
extern const struct hb_suite hb_suite_lat;
extern const struct hb_suite hb_suite_matrix;
extern const struct hb_suite hb_suite_hops;
extern const struct hb_suite hb_suite_loaded;
extern const struct hb_suite hb_suite_run;
extern const struct hb_suite hb_suite_policy;
extern const struct hb_suite hb_suite_peak;
extern const struct hb_suite hb_suite_sweep;
extern const struct hb_suite hb_suite_c2c;
extern const struct hb_suite hb_suite_migrate;
extern const struct hb_suite hb_suite_balance;
extern const struct hb_suite hb_suite_comm;
extern const struct hb_suite hb_suite_coll;
extern const struct hb_suite hb_suite_check;

/* The suites in --help's order, the default first, one a line: a new suite is its extern
 * line and its row here. */
// clang-format off
const struct hb_suite *const hb_suites[] = {
    &hb_suite_default,
    &hb_suite_bw,
    &hb_suite_lat,
    &hb_suite_matrix,
    &hb_suite_hops,
    &hb_suite_loaded,
    &hb_suite_run,
    &hb_suite_policy,
    &hb_suite_peak,
    &hb_suite_sweep,
    &hb_suite_c2c,
    &hb_suite_migrate,
    &hb_suite_balance,
    &hb_suite_comm,
    &hb_suite_coll,
    &hb_suite_check,
    NULL,
};
// clang-format on

const struct hb_suite *hb_suite_find(const char *command)
{
    for (const struct hb_suite *const *s = hb_suites; *s; s++)
        if (strcmp((*s)->name, command) == 0) return *s;
    return NULL;
}

/* Every experiment's strict binds (and first-touch sets on their own node) must fit each
 * node together, not just task by task. */
static int suite_check_totals(const struct hb_suite_env *env, const struct hb_plan *plan)
{
    const struct hb_topo *t = env->topo;
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        for (int i = 0; i < t->nnodes; i++) {
            int os = t->nodes[i].os_index, n = 0;
            uint64_t sum = 0;
            const char *from = NULL; /* a scenario line among them: its size is to name */
            for (int k = 0; k < e->ntasks; k++) {
                const struct hb_task *task = &e->tasks[k];
                if ((task->policy == HB_POLICY_BIND && task->mem_node == os) ||
                    (task->policy == HB_POLICY_FIRSTTOUCH && task->cpu_node == os)) {
                    if (__builtin_add_overflow(sum, task->bytes, &sum)) sum = UINT64_MAX;
                    n++;
                    if (!from && task->size_from[0]) from = task->size_from;
                }
            }
            int rc = n > 1 ? hb_suite_kit_check_fits_from(env, os, sum, n, from) : 0;
            if (rc && from) {
                /* The line comes first, as every scenario message has it. */
                char *why = strdup(hb_error_msg());
                hb_error_set("%s (experiment %s)", why ? why : "does not fit", e->name);
                free(why);
                return rc;
            }
            if (rc) {
                /* Name the experiment: one-node or loaded piles many tasks on one node. */
                char *why = strdup(hb_error_msg());
                hb_error_set("%s: %s", e->name, why ? why : "does not fit");
                free(why);
                return rc;
            }
        }
    }
    return 0;
}

int hb_suite_check_nodes(const struct hb_topo *t, const struct hb_options *o)
{
    const hwloc_const_bitmap_t set = o->nodes;
    if (!set) return 0;
    int node, bad = -1;
    hwloc_bitmap_foreach_begin(node, set) if (bad < 0 && hb_topo_nodes_index(t, node) < 0) bad =
        node;
    hwloc_bitmap_foreach_end();
    if (bad >= 0) {
        char *valid = hb_topo_nodes_list(t, false, false);
        hb_error_set("--nodes %s: node %d does not exist; valid nodes: %s", o->nodes_text, bad,
                     hb_text_or_oom(valid));
        free(valid);
        return -EINVAL;
    }
    /* Every cross-node suite runs on a CPU node against memory: both must be chosen. */
    for (int need_cpus = 1; need_cpus >= 0; need_cpus--) {
        hwloc_bitmap_t have = hb_topo_nodeset(t, need_cpus, !need_cpus);
        bool none = have && !hwloc_bitmap_intersects(have, set);
        hwloc_bitmap_free(have);
        if (!none) continue;
        char *valid = hb_topo_nodes_list(t, need_cpus, !need_cpus);
        hb_error_set("--nodes %s: no node with %s among them; nodes with %s: %s", o->nodes_text,
                     need_cpus ? "CPUs" : "memory", need_cpus ? "CPUs" : "memory",
                     hb_text_or_oom(valid));
        free(valid);
        return -EINVAL;
    }
    return 0;
}

/* A study between memory nodes on a machine, or among --nodes, with too few: refused before
 * anything is planned, naming the count and what the study needs. The machine's count is the
 * environment's (exit 3); --nodes that leave too few, a usage error (2). */
static int suite_check_mem_nodes(const struct hb_suite_env *env, const struct hb_suite *s)
{
    const struct hb_topo *t = env->topo;
    int have = hb_topo_nodes_count_mem_nodes(t), chosen = 0;
    for (int i = 0; i < t->nnodes; i++)
        chosen += t->nodes[i].has_memory && hb_suite_kit_node_on(env, i);
    if (have < s->needs_mem_nodes) {
        hb_error_set("%s needs %d or more NUMA nodes with memory (it %s); %s has %d: run it on "
                     "a machine with more",
                     s->name, s->needs_mem_nodes, s->needs_why,
                     t->is_this_system ? "this machine" : t->source, have);
        return -HB_EENV;
    }
    if (chosen < s->needs_mem_nodes) {
        hb_error_set("--nodes %s: %s needs %d or more nodes with memory (it %s); these have %d",
                     env->opts->nodes_text, s->name, s->needs_mem_nodes, s->needs_why, chosen);
        return -EINVAL;
    }
    return 0;
}

int hb_suite_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const char *cmd = env->opts->command;
    const struct hb_suite *s = hb_suite_find(cmd);
    if (!s) {
        hb_error_set("'%s' is not a suite", cmd);
        return -EINVAL;
    }
    if (env->opts->nstrides > 1 && !(s->flags & HB_SUITE_STRIDE_LIST)) {
        hb_error_set("--stride with %d values: a list of strides is swept by lat and sweep; give "
                     "%s one stride",
                     env->opts->nstrides, cmd[0] ? cmd : "the default suite");
        return -EINVAL;
    }
    if (env->opts->nchains > 1 && !(s->flags & HB_SUITE_CHAINS_LIST)) {
        hb_error_set("--chains with %d values: a list of chain counts is measured by lat; give "
                     "%s one count",
                     env->opts->nchains, cmd[0] ? cmd : "the default suite");
        return -EINVAL;
    }
    if (env->opts->nsizes > 1 && !(s->flags & HB_SUITE_SIZE_LIST)) {
        hb_error_set("--size with %d values: a list of sizes is comm's message sizes; give %s one "
                     "size",
                     env->opts->nsizes, cmd[0] ? cmd : "the default suite");
        return -EINVAL;
    }
    int rc = suite_check_mem_nodes(env, s);
    if (rc == 0) rc = s->plan(env, out);
    return rc ? rc : suite_check_totals(env, out);
}

int hb_suite_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    if (!s) return 0;
    /* The cross-node suites say how they grouped memory of other kinds or tiers. */
    if (s->tiers) hb_suite_kit_tiers_note(env, s->tiers, derived);
    return s->derive ? s->derive(env, measured, derived) : 0;
}

void hb_suite_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    hb_suite_mlp_annotate(measured, rec);
    if (s && s->annotate) s->annotate(env, measured, rec);
    /* A cache is what sweep and c2c measure: their rows carry no "not memory" warning. */
    if (s && (s->flags & HB_SUITE_CACHES) &&
        strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0)
        json_object_set_new(rec, "cache_intended", json_true());
    hb_bounds_check(rec);
}

/* hb_suite_mlp_annotate looks for the one-chain record of a chase with more chains. */
static bool suite_chains(const struct hb_suite_env *env)
{
    return env->opts->nchains > 1 || env->opts->chains[0] > 1;
}

bool hb_suite_annotate_reads(const struct hb_suite_env *env)
{
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    return suite_chains(env) || (s && s->refers);
}

bool hb_suite_refers(const struct hb_suite_env *env, const json_t *rec)
{
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    return (suite_chains(env) && hb_suite_mlp_refers(rec)) || (s && s->refers && s->refers(rec));
}

double hb_suite_estimate(const void *ctx, const struct hb_experiment *e, int *records)
{
    const struct hb_suite_env *env = ctx;
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    return s && s->estimate ? s->estimate(env, e, records) : -1.0;
}

double hb_suite_kernel_bps(const void *ctx, const char *kernel)
{
    const struct hb_suite_env *env = ctx;
    struct hb_kernel_ref k;
    return env->lookup && env->lookup(kernel, &k) == 0 ? k.model_bps : 0.0;
}

/* The one-node note when memory for the whole one runs out. */
#define HB_ONE_NODE_NOTE_SHORT                                                                     \
    "this machine has one NUMA node: the studies between memory nodes need two or more"

const char *hb_suite_note(const struct hb_suite_env *env)
{
    if (hb_topo_nodes_count_cpu_nodes(env->topo) > 1 ||
        hb_topo_nodes_count_mem_nodes(env->topo) > 1)
        return NULL;
    /* The studies that refuse such a machine, from the suite table; made once (the table
     * does not change), grown to fit however many there are. */
    static char *note;
    if (note) return note;
    size_t len = 0;
    FILE *f = open_memstream(&note, &len);
    if (!f) return HB_ONE_NODE_NOTE_SHORT;
    fputs("this machine has one NUMA node: the studies between memory nodes (", f);
    const char *sep = "";
    for (const struct hb_suite *const *s = hb_suites; *s; s++)
        if ((*s)->needs_mem_nodes > 1) {
            fprintf(f, "%s%s", sep, (*s)->name);
            sep = ", ";
        }
    fputs(") need two or more nodes with memory, and matrix, policy and loaded measure this "
          "node alone; on a multi-node machine run: mpirun -np <nodes> --map-by numa "
          "--bind-to numa hopbench matrix (or " HB_DATADIR "/hopbench/hopbench-mpirun.sh matrix)",
          f);
    if (fclose(f) != 0) {
        free(note);
        note = NULL;
        return HB_ONE_NODE_NOTE_SHORT;
    }
    return note;
}
