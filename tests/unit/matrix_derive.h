/* What the matrix derivation tests share (test_matrix_hmat.c, test_matrix_ktier.c): a matrix
 * run's derived records from recorded measurements. */
#ifndef TEST_MATRIX_DERIVE_H
#define TEST_MATRIX_DERIVE_H

#include "../hb_check.h"
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

#endif
