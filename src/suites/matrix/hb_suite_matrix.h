/* The matrix suite's steps, which the default suite reuses on a machine with several CPU
 * nodes. */
#ifndef HB_SUITE_MATRIX_H
#define HB_SUITE_MATRIX_H

#include "hb_suite_kit.h"

int hb_suite_matrix_plan(const struct hb_suite_env *env, struct hb_plan *out);
int hb_suite_matrix_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);
/* Host by host (env->across): the fleet record from every host's figures (derive_end). */
int hb_suite_matrix_derive_end(const struct hb_suite_env *env, json_t *derived);
/* The columns it reads beyond those always kept (struct hb_suite.reads). */
extern const char *const hb_suite_matrix_reads[];

#endif
