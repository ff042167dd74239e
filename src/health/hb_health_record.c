/* check's "health" records (hb_health_record.h). */
#include "hb_health_record.h"

#include <math.h>

static const char *const call_names[] = {
    [HB_HEALTH_SAME] = "no_worse",
    [HB_HEALTH_BETTER] = "better",
    [HB_HEALTH_WORSE] = "worse",
    [HB_HEALTH_UNCLEAR] = "unclear",
};

/* A figure, or null where it is not a number (no interval, no test). */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *interval(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) ? json_pack("[f, f]", lo, hi) : json_null();
}

json_t *hb_health_record_cell(const struct hb_health_cell *c, const struct hb_health_cell *ref,
                              const struct hb_health_verdict *v, double p_adjusted)
{
    if (!ref)
        return json_pack("{s:s, s:s, s:s, s:s, s:i}", "name", c->name, "key", c->key, "unit",
                         c->unit, "call", "unjudged", "repeats", c->n);
    return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:i, s:o, s:o, s:i, s:o, s:o, s:o, s:o, "
                     "s:o}",
                     "name", c->name, "key", c->key, "unit", c->unit, "call", call_names[v->call],
                     "value", num(v->now), "ci95", interval(v->now_lo, v->now_hi), "repeats", c->n,
                     "ref_value", num(v->ref), "ref_ci95", interval(v->ref_lo, v->ref_hi),
                     "ref_repeats", ref->n, "change_pct", num(v->change_pct), "shift_pct",
                     num(v->shift_pct), "worst_pct", num(v->worst_pct), "p", num(v->p),
                     "p_adjusted", num(p_adjusted));
}

json_t *hb_health_record_host(const char *host, const char *verdict, int code,
                              const char *reference, const char *source, double threshold_pct,
                              json_t *cells, json_t *failing, json_t *unclear)
{
    return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s?, s:f, s:o, s:o, s:o}", "type", "health",
                     "host", host, "verdict", verdict, "exit", code, "reference", reference,
                     "source", source, "threshold_pct", threshold_pct, "cells", cells, "failing",
                     failing, "unclear", unclear);
}
