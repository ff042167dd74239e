/* What the matrix derivation tests share (test_matrix_hmat.c, test_matrix_ktier.c): a matrix
 * run's derived records from recorded measurements. */
#ifndef TEST_MATRIX_DERIVE_H
#define TEST_MATRIX_DERIVE_H

#include "../hb_check.h"
#include "hb_interval.h"
#include "hb_suite.h"

/* matrix's derive over measured (consumed) at --threshold threshold (percent). */
static json_t *derive(struct hb_topo *t, json_t *measured, double threshold)
{
    struct hb_options o = {.threshold_pct = threshold, .command = "matrix"};
    struct hb_suite_env env = {t, &o, NULL, 0, NULL, NULL, NULL, NULL};
    json_t *derived = json_array();
    CHECK_INT(hb_suite_derive(&env, measured, derived), 0);
    json_decref(measured);
    return derived;
}

/* A latency cell of host "h" (chase) with n repeats evenly over v x (1 +- spread): value
 * (their median), ci95, ci_coverage, repeats and repeat_values, as a run of repeats gives. */
static json_t *cell_repeats(int i, int j, double v, double spread, int n)
{
    double x[16];
    json_t *rv = json_array();
    for (int r = 0; r < n && r < 16; r++) {
        x[r] = v * (1 - spread + 2 * spread * r / (n - 1));
        json_array_append_new(rv, json_real(x[r]));
    }
    struct hb_interval iv;
    hb_interval_median(x, n, HB_CI_LEVEL, &iv);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:[f, f], s:f, s:i, s:o, "
                     "s:s, s:s}",
                     "suite", "matrix", "role", "foreground", "metric", "latency", "host", "h",
                     "kernel", "chase", "access", "r", "cpu_node", i, "mem_node", j, "value",
                     iv.value, "ci95", iv.lo, iv.hi, "ci_coverage", iv.coverage, "repeats", n,
                     "repeat_values", rv, "status", "ok", "unit", "ns");
}

#endif
