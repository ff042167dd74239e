/* check's --history: this host's reference from the run history (src/history's store): each
 * of check's series, the repeats of its last healthy points pooled (the newest
 * HB_HEALTH_HISTORY_POINTS), and the configuration of its newest point. */
#ifndef HB_HEALTH_HISTORY_H
#define HB_HEALTH_HISTORY_H

#include "hb_health_cells.h"

#include <jansson.h>

/* How many of a series' newest points make its reference. */
#define HB_HEALTH_HISTORY_POINTS 5

/* Load host's cells from the history at url into cells and its newest config into *config
 * (new reference, or NULL): 0, or -errno with one line (the database missing or unreadable:
 * -EINVAL/-ENOENT, exit 2; no check series for host: -EINVAL). */
int hb_health_history_load(const char *url, const char *host, struct hb_health_cells *cells,
                           json_t **config);

#endif
