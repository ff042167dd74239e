/* check's --baseline: an earlier run's cells and configuration, refused when it comes from
 * another machine (CPU model, NUMA node count). */
#ifndef HB_HEALTH_BASELINE_H
#define HB_HEALTH_BASELINE_H

#include "hb_health_cells.h"
#include "hb_topo.h"

#include <jansson.h>

struct hb_health_baseline {
    struct hb_health_cells cells;
    json_t *config; /* its run record's config (new reference), or NULL */
    bool one_host;  /* one host's run: its cells serve any host of the same machine */
};

/* Read path: 0, or -ENOENT/-EINVAL (exit 2) with one line naming the file and what is wrong:
 * no run record, another CPU model or node count than cpu_model and t say, no cells. */
int hb_health_baseline_load(const char *path, const struct hb_topo *t, const char *cpu_model,
                            struct hb_health_baseline *b);
void hb_health_baseline_free(struct hb_health_baseline *b);

#endif
