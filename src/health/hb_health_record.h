/* check's verdict as data: one "health" record per host (docs/records.md, derived records), written
 * into the run's output beside the measurements it judges, so a nightly job reads the
 * verdict, each cell's call and the figures behind it from the file, not from the lines. */
#ifndef HB_HEALTH_RECORD_H
#define HB_HEALTH_RECORD_H

#include "hb_health_cells.h"
#include "hb_health_verdict.h"

#include <jansson.h>

/* One cell's entry: its figures, the reference's, the change, the shift and its worse-side
 * bound, the rank test's p (raw and adjusted) and the call; ref NULL: no reference had the
 * cell (a peer without it), call "unjudged". NULL when out of memory. */
json_t *hb_health_record_cell(const struct hb_health_cell *c, const struct hb_health_cell *ref,
                              const struct hb_health_verdict *v, double p_adjusted);

/* The host's record: verdict ("healthy", "degraded", "cannot tell") and its exit code, what it
 * was judged against (reference "baseline", "history" or "peers", and source: the file or URL,
 * NULL for peers), the threshold, the cells (stolen) and the lines for people (failing: the
 * worse cells' and config's; unclear: the unclear cells'; both stolen). NULL when out of
 * memory. */
json_t *hb_health_record_host(const char *host, const char *verdict, int code,
                              const char *reference, const char *source, double threshold_pct,
                              json_t *cells, json_t *failing, json_t *unclear);

#endif
