/* The hops suite's records, which `run FILE` shares: pct_of_local_read on each
 * measurement, the verdicts and tables after the run. */
#ifndef HB_SUITE_HOPS_H
#define HB_SUITE_HOPS_H

#include "hb_suite_kit.h"

void hb_hops_derive_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec);
int hb_hops_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);
/* The columns annotate and derive read beyond those always kept (struct hb_suite.reads). */
extern const char *const hb_suite_hops_reads[];
/* The record annotate compares the others with: the reference (struct hb_suite.refers). */
bool hb_hops_derive_refers(const json_t *rec);

#endif
