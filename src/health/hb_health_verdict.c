/* One cell's verdict by compare's rules (hb_health_verdict.h): the rank test, the
 * threshold, and the shift's interval for "no worse". */
#include "hb_health_verdict.h"

#include "hb_family.h"
#include "hb_interval.h"
#include "hb_shift.h"
#include "hb_signif.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Median and interval of n values (copied: hb_interval_median sorts). */
static bool median_of(const double *v, int n, double *mid, double *lo, double *hi)
{
    double *tmp = malloc(sizeof(*tmp) * (size_t)(n ? n : 1));
    struct hb_interval iv;
    if (!tmp) return false;
    memcpy(tmp, v, sizeof(*tmp) * (size_t)n);
    bool ok = n > 0 && hb_interval_median(tmp, n, HB_CI_LEVEL, &iv) == 0;
    free(tmp);
    *mid = ok ? iv.value : NAN;
    *lo = ok ? iv.lo : NAN;
    *hi = ok ? iv.hi : NAN;
    return true;
}

bool hb_health_verdict_test(const double *now, int n, const double *ref, int nref,
                            struct hb_health_verdict *v)
{
    memset(v, 0, sizeof(*v));
    if (!median_of(now, n, &v->now, &v->now_lo, &v->now_hi) ||
        !median_of(ref, nref, &v->ref, &v->ref_lo, &v->ref_hi))
        return false;
    v->change_pct = (v->now / v->ref - 1.0) * 100.0;
    v->p = hb_signif_mwu(now, n, ref, nref, NULL);
    v->decidable = hb_signif_mwu_min_p(n, nref) <= HB_FAMILY_LEVEL;
    v->call = HB_HEALTH_UNCLEAR;
    return true;
}

void hb_health_verdict_call(struct hb_health_verdict *v, const double *now, int n,
                            const double *ref, int nref, double p_adjusted, double threshold_pct,
                            bool higher_better)
{
    v->call = HB_HEALTH_UNCLEAR;
    v->shift_pct = v->worst_pct = NAN;
    struct hb_shift sh;
    bool shown = hb_shift_log(ref, nref, now, n, HB_CI_LEVEL, &sh) && sh.coverage >= HB_CI_LEVEL;
    if (shown) {
        v->shift_pct = (sh.ratio - 1.0) * 100.0;
        v->worst_pct = ((higher_better ? sh.lo : sh.hi) - 1.0) * 100.0;
    }
    if (!v->decidable || !isfinite(v->change_pct)) return;
    if (p_adjusted < HB_FAMILY_LEVEL && fabs(v->change_pct) > threshold_pct)
        v->call = (higher_better ? -v->change_pct : v->change_pct) > 0 ? HB_HEALTH_WORSE
                                                                       : HB_HEALTH_BETTER;
    else if (shown &&
             (higher_better ? v->worst_pct >= -threshold_pct : v->worst_pct <= threshold_pct))
        v->call = HB_HEALTH_SAME;
}
