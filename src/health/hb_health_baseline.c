/* check's --baseline (hb_health_baseline.h): read, checked to be this machine's, its cells. */
#include "hb_health_baseline.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The CPU model and node count the run record gives, against this machine's. */
static int same_machine(const char *path, const json_t *run, const struct hb_topo *t,
                        const char *cpu_model)
{
    const char *model = hb_jsonl_read_str(json_object_get(run, "config"), "cpu_model", "");
    size_t nodes = json_array_size(json_object_get(json_object_get(run, "topology"), "nodes"));
    if (strcmp(model, cpu_model) != 0) {
        hb_error_set("check: --baseline %s comes from another machine: CPU model '%s', this "
                     "machine's '%s'; give a baseline of a machine like this one",
                     path, model, cpu_model);
        return -EINVAL;
    }
    if (nodes != (size_t)t->nnodes) {
        hb_error_set("check: --baseline %s comes from another machine: %zu NUMA nodes, this "
                     "machine has %d; give a baseline of a machine like this one",
                     path, nodes, t->nnodes);
        return -EINVAL;
    }
    return 0;
}

int hb_health_baseline_load(const char *path, const struct hb_topo *t, const char *cpu_model,
                            struct hb_health_baseline *b)
{
    memset(b, 0, sizeof(*b));
    struct hb_results res;
    int rc = hb_jsonl_load_read_take(path, NULL, NULL, &res);
    if (rc) {
        char *why = strdup(hb_error_msg());
        hb_error_set("check: --baseline %s: %s", path, why ? why : "unreadable");
        free(why);
        return rc == -ENOMEM ? rc : -EINVAL;
    }
    if (!res.run) {
        hb_error_set("check: --baseline %s has no run record: give the output of an earlier "
                     "hopbench check (or of a run that measured these cells)",
                     path);
        rc = -EINVAL;
    }
    if (rc == 0) rc = same_machine(path, res.run, t, cpu_model);
    if (rc == 0) rc = hb_health_cells_of(res.records, &b->cells);
    if (rc == 0 && b->cells.n == 0) {
        hb_error_set("check: --baseline %s has none of check's cells (idle latency, local and "
                     "remote read, peak read, with repeats): give an earlier check's output",
                     path);
        rc = -EINVAL;
    }
    if (rc == 0) {
        b->config = json_incref(json_object_get(res.run, "config"));
        b->one_host = json_array_size(json_object_get(res.run, "hosts")) <= 1;
    }
    hb_jsonl_load_free(&res);
    if (rc) hb_health_baseline_free(b);
    return rc;
}

void hb_health_baseline_free(struct hb_health_baseline *b)
{
    hb_health_cells_free(&b->cells);
    json_decref(b->config);
    b->config = NULL;
}
