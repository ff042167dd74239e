/* check's repeats, fitted into --max-time (default HB_CHECK_MAX_TIME_S) from the estimate of
 * one repeat of its plan: as many as fit, from the fewest the rank test needs to decide to
 * HB_CHECK_REPEATS_MAX by default, HB_CHECK_REPEATS_GIVEN_MAX when --max-time is given. */
#ifndef HB_HEALTH_FIT_H
#define HB_HEALTH_FIT_H

#include "hb_options.h"

/* *repeats for a plan of repeat_s seconds a repeat: 0, or -EINVAL with one line saying the
 * least --max-time that fits when even the fewest do not. */
int hb_health_fit_repeats(const struct hb_options *o, double repeat_s, int *repeats);

#endif
