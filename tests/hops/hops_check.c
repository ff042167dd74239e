/* Checks hopbench output without jq: `plan TOPO.jsonl PLAN.jsonl [LINKS]` holds a hops
 * --dry-run plan to the rules of AMD 40555 as the topology record states them (LINKS, e.g.
 * "0-1,0-2", must then be exactly the crossfire links); `bgrun RESULTS.jsonl` checks a real
 * run with background load: achieved bandwidth reported and full overlap. */
#include "../hb_check.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_nodes;
static int hop[64][64];
static int has_cpus[64], has_mem[64];

static json_t *load_lines(const char *path)
{
    json_error_t err;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    json_t *all = json_array(), *rec;
    while ((rec = json_loadf(f, JSON_DISABLE_EOF_CHECK, &err)))
        json_array_append_new(all, rec);
    fclose(f);
    return all;
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static int num(json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

static void load_topo(const char *path)
{
    json_t *all = load_lines(path);
    json_t *t = json_array_get(all, 0);
    json_t *nodes = json_object_get(t, "nodes"), *hc = json_object_get(t, "hop_class");
    n_nodes = (int)json_array_size(nodes);
    for (int i = 0; i < n_nodes; i++) {
        json_t *n = json_array_get(nodes, (size_t)i);
        CHECK_INT(num(n, "os_index"), i); /* the fixtures number nodes 0..n-1 */
        has_cpus[i] = json_is_true(json_object_get(n, "has_cpus"));
        has_mem[i] = json_is_true(json_object_get(n, "has_memory"));
        for (int j = 0; j < n_nodes; j++)
            hop[i][j] = json_is_array(hc) ? (int)json_integer_value(json_array_get(
                                                json_array_get(hc, (size_t)i), (size_t)j))
                                          : (i == j ? 0 : -1);
    }
    json_decref(all);
}

static void check_label(json_t *task)
{
    char want[64];
    snprintf(want, sizeof(want), "%d.%d.%s.%d", num(task, "cpu_node"), num(task, "first_thread"),
             str(task, "access"), num(task, "mem_node"));
    CHECK_STR(str(task, "label"), want);
    int c = num(task, "cpu_node"), m = num(task, "mem_node");
    json_t *h = json_object_get(task, "hops");
    CHECK_INT(json_is_integer(h) ? json_integer_value(h) : -1, hop[c][m]);
}

static int check_plan(const char *plan_path, const char *links)
{
    json_t *plan = load_lines(plan_path);
    char found[1024] = "";
    int nexp = 0, ncf = 0, nncf = 0, nbg_exps = 0;
    size_t i;
    json_t *e, *cf_last = NULL;
    json_array_foreach(plan, i, e)
    {
        nexp++;
        const char *name = str(e, "name");
        json_t *tasks = json_object_get(e, "tasks");
        size_t k;
        json_t *t;
        bool fg_node[64] = {false};
        json_array_foreach(tasks, k, t)
        {
            check_label(t);
            if (strcmp(str(t, "role"), "foreground") == 0) fg_node[num(t, "cpu_node")] = true;
        }
        bool full = strstr(name, "-full-") != NULL, any_bg = false;
        json_array_foreach(tasks, k, t)
        {
            if (strcmp(str(t, "role"), "background")) continue;
            any_bg = true;
            /* Background threads read their own node's memory. */
            CHECK_INT(num(t, "mem_node"), num(t, "cpu_node"));
            CHECK_STR(str(t, "access"), "r");
            if (!full && fg_node[num(t, "cpu_node")])
                fprintf(stderr, "%s: background on foreground node %d at under/high subscription\n",
                        name, num(t, "cpu_node")),
                    hb_check_failures++;
            if (strstr(name, "-under-")) CHECK_INT(num(t, "threads"), 1);
        }
        nbg_exps += any_bg;
        if (strncmp(name, "hops-crossfire-", 15) == 0) {
            ncf++;
            json_t *a = json_array_get(tasks, 0), *b = json_array_get(tasks, 1);
            CHECK_INT(json_array_size(tasks), 2);
            int x = num(a, "cpu_node"), y = num(b, "cpu_node");
            CHECK_INT(num(a, "mem_node"), y);
            CHECK_INT(num(b, "mem_node"), x);
            CHECK_INT(hop[x][y], 1);
            CHECK_INT(num(a, "hops"), 1);
            CHECK_INT(num(b, "hops"), 1);
            if (strncmp(name, "hops-crossfire-r-", 17) == 0) {
                size_t l = strlen(found);
                snprintf(found + l, sizeof(found) - l, "%s%d-%d", l ? "," : "", x, y);
            }
            cf_last = e;
        } else if (strncmp(name, "hops-no-crossfire-", 18) == 0) {
            nncf++;
            /* The twin is the crossfire experiment just before it. */
            CHECK(cf_last != NULL);
            if (!cf_last) continue;
            json_t *ta = json_array_get(json_object_get(cf_last, "tasks"), 0);
            json_t *tb = json_array_get(json_object_get(cf_last, "tasks"), 1);
            json_t *a = json_array_get(tasks, 0), *b = json_array_get(tasks, 1);
            CHECK_STR(str(a, "label"), str(ta, "label"));
            CHECK_INT(num(b, "cpu_node"), num(tb, "cpu_node"));
            CHECK_INT(num(b, "hops"), num(tb, "hops"));
            CHECK(num(b, "mem_node") != num(tb, "mem_node"));
            CHECK(num(b, "mem_node") != num(a, "mem_node"));
        }
    }
    /* Every hop-1 link with CPUs and memory at both ends is a crossfire case. */
    char expect[1024] = "";
    for (int x = 0; x < n_nodes; x++)
        for (int y = x + 1; y < n_nodes; y++)
            if (hop[x][y] == 1 && has_cpus[x] && has_cpus[y] && has_mem[x] && has_mem[y]) {
                size_t l = strlen(expect);
                snprintf(expect + l, sizeof(expect) - l, "%s%d-%d", l ? "," : "", x, y);
            }
    CHECK_STR(found, expect);
    if (links) CHECK_STR(found, links);
    CHECK(nexp > 0);
    CHECK(nncf <= ncf);
    printf("%d experiments, %d crossfire, %d no-crossfire, %d with background; links %s\n", nexp,
           ncf, nncf, nbg_exps, found);
    json_decref(plan);
    return hb_check_result();
}

static int check_bgrun(const char *path)
{
    json_t *all = load_lines(path);
    size_t i;
    json_t *r;
    int loaded = 0;
    json_array_foreach(all, i, r)
    {
        if (strcmp(str(r, "type"), "measurement") || strcmp(str(r, "role"), "foreground")) continue;
        CHECK_STR(str(r, "status"), "ok");
        json_t *bg = json_object_get(r, "background");
        if (json_array_size(bg) == 0) continue;
        loaded++;
        CHECK(json_real_value(json_object_get(r, "bg_overlap")) == 1.0);
        json_t *b = json_array_get(bg, 0);
        double target = json_number_value(json_object_get(b, "target_GBps"));
        double got = json_number_value(json_object_get(b, "achieved_GBps"));
        CHECK(got > 0.0);
        /* A paced thread never runs ahead of its target by more than one chunk's worth. */
        if (target > 0.0) CHECK(got < target * 1.25);
        CHECK(json_is_number(json_object_get(r, "pct_of_local_read")));
        printf("%s: target %.2f GB/s, achieved %.2f GB/s, overlap %.3f\n", str(r, "label"), target,
               got, json_real_value(json_object_get(r, "bg_overlap")));
    }
    CHECK(loaded > 0);
    json_decref(all);
    return hb_check_result();
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "plan") == 0) {
        load_topo(argv[2]);
        return check_plan(argv[3], argc > 4 ? argv[4] : NULL);
    }
    if (argc == 3 && strcmp(argv[1], "bgrun") == 0) return check_bgrun(argv[2]);
    fprintf(stderr, "usage: hops_check plan TOPO.jsonl PLAN.jsonl [LINKS] | bgrun RESULTS.jsonl\n");
    return 2;
}
