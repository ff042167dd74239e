/* check's repeats fitted into --max-time (hb_health_fit.h). */
#include "hb_health_fit.h"
#include "hb_suite_check.h"

#include "hb_error.h"
#include "hb_family.h"
#include "hb_opt_doc.h"
#include "hb_signif.h"

#include <errno.h>
#include <math.h>

int hb_health_fit_repeats(const struct hb_options *o, double repeat_s, int *repeats)
{
    bool given = (o->given >> (OPT_MAX_TIME - OPT_KERNEL)) & 1;
    double max_s = given ? o->max_time_s : HB_CHECK_MAX_TIME_S;
    int least = hb_signif_mwu_repeats_for(HB_FAMILY_LEVEL);
    int fit = repeat_s > 0 ? (int)floor(max_s / repeat_s) : HB_CHECK_REPEATS_MAX;
    if (fit < least) {
        hb_error_set("check: --max-time %g%s is too short: one repeat of its plan takes about "
                     "%.1f s and the rank test needs %d; give --max-time %.0f or more (or check "
                     "fewer nodes with --nodes, or a smaller --size)",
                     max_s, given ? "" : " (the default)", repeat_s, least, ceil(repeat_s * least));
        return -EINVAL;
    }
    int most = given ? HB_CHECK_REPEATS_GIVEN_MAX : HB_CHECK_REPEATS_MAX;
    *repeats = fit < most ? fit : most;
    return 0;
}
