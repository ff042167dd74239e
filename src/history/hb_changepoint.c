/* The change-point search over many series (hb_changepoint.h): each series on its own
 * (hb_changepoint_series.c, in parallel: a fleet has tens of thousands), then one
 * Benjamini-Hochberg adjustment over every test of every series (hb_family.c's rule), so a
 * fleet's false alarms stay at the level, not at the level per series. */
#include "hb_changepoint.h"

#include "hb_changepoint_knobs.h"
#include "hb_changepoint_series.h"
#include "hb_compare.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_family.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct hb_changepoint_params hb_changepoint_defaults(void)
{
    return (struct hb_changepoint_params){.window = 50,
                                          .min_change = HB_COMPARE_THRESHOLD_PCT,
                                          .fdr = HB_FAMILY_LEVEL,
                                          .recent = 1,
                                          .fdr_later = false,
                                          .one_thread = false};
}

static int check_params(const struct hb_changepoint_params *p)
{
    if (p->window < 8 || p->window > HB_CHANGEPOINT_MAX_WINDOW) {
        hb_error_set("history: --window %zu is outside 8 to %d points (default 50)", p->window,
                     HB_CHANGEPOINT_MAX_WINDOW);
        return -EINVAL;
    }
    if (!(p->fdr > 0.0 && p->fdr <= 0.5)) {
        hb_error_set("history: --fdr %g is outside (0, 0.5] (default %g)", p->fdr, HB_FAMILY_LEVEL);
        return -EINVAL;
    }
    if (!(p->min_change >= 0.0)) {
        hb_error_set("history: --min-change %g is not a percentage of 0 or more (default %g)",
                     p->min_change, HB_COMPARE_THRESHOLD_PCT);
        return -EINVAL;
    }
    return 0;
}

struct found {
    struct hb_changepoint *cps;
    size_t n, members;
    int rc;
};

int hb_changepoint_find(const struct hb_history_series *series, size_t n_series,
                        const struct hb_changepoint_params *params, struct hb_changepoint **out,
                        size_t *n_out, size_t *n_tested)
{
    *out = NULL, *n_out = 0;
    if (n_tested) *n_tested = 0;
    int rc = check_params(params);
    if (rc) return rc;
    struct found *f = calloc(n_series ? n_series : 1, sizeof(*f));
    if (!f) return -ENOMEM;
    /* Series by series, each its own: the answer does not depend on the threads. A message
     * set on a worker thread is copied to this one below (hb_error_set is per thread). */
    char *why = NULL;
#pragma omp parallel for schedule(dynamic, 8) if (!params->one_thread)
    for (size_t i = 0; i < n_series; i++) {
        f[i].rc = hb_changepoint_series(&series[i], i, params, &f[i].cps, &f[i].n, &f[i].members);
        if (f[i].rc == -EINVAL) {
#pragma omp critical(hb_changepoint_why)
            if (!why)
                why = hb_strf("%s (series %s %s %s)", hb_error_msg(), series[i].host,
                              series[i].identity, series[i].metric);
        }
    }
    size_t total = 0, family = 0;
    for (size_t i = 0; i < n_series; i++) {
        if (f[i].rc && !rc) rc = f[i].rc;
        total += f[i].n, family += f[i].members;
    }
    struct hb_changepoint *all = rc || !total ? NULL : malloc(sizeof(*all) * total);
    if (!rc && total && !all) rc = -ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < n_series; i++) {
        if (!all) {
            hb_changepoint_free(f[i].cps, f[i].n);
            continue;
        }
        if (f[i].n) memcpy(all + n, f[i].cps, sizeof(*all) * f[i].n);
        n += f[i].n;
        free(f[i].cps); /* its knobs now belong to all */
    }
    free(f);
    if (rc == -EINVAL)
        hb_error_set("%s", why ? why : "history: a run's config is not a JSON object");
    free(why);
    if (rc) return rc;
    if (!params->fdr_later && (rc = hb_changepoint_fdr(all, &n, family, params))) {
        hb_changepoint_free(all, n);
        return rc;
    }
    if (n == 0) free(all), all = NULL;
    *out = all, *n_out = n;
    if (n_tested) *n_tested = family;
    return 0;
}

int hb_changepoint_fdr(struct hb_changepoint *cps, size_t *n, size_t family,
                       const struct hb_changepoint_params *params)
{
    size_t k = *n, m = family > k ? family : k;
    double *p = malloc(sizeof(*p) * (m ? m : 1));
    if (!p) return -ENOMEM;
    for (size_t i = 0; i < m; i++)
        p[i] = i < k ? cps[i].p : 1.0;
    if (hb_family_adjust(p, m, HB_FAMILY_FDR, p) < 0) {
        free(p);
        return -ENOMEM;
    }
    size_t kept = 0;
    for (size_t i = 0; i < k; i++) {
        cps[i].p_adjusted = p[i];
        if (p[i] < params->fdr)
            cps[kept++] = cps[i];
        else
            hb_changepoint_knobs_free(cps[i].knobs, cps[i].n_knobs);
    }
    free(p);
    *n = kept;
    return 0;
}

void hb_changepoint_free(struct hb_changepoint *cps, size_t n)
{
    for (size_t i = 0; cps && i < n; i++)
        hb_changepoint_knobs_free(cps[i].knobs, cps[i].n_knobs);
    free(cps);
}
