/* The policy suite's derived records (the NUMA gain table, the intensity knee). */
#ifndef HB_SUITE_POLICY_H
#define HB_SUITE_POLICY_H

#include "hb_suite_kit.h"

int hb_policy_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* policy --weights auto (hb_suite_policy_weights.c): the weight search's plan from CPU node
 * cpu, and its derived `weights` record per host. */
int hb_policy_weights_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu);
int hb_policy_weights_derive(json_t *measured, json_t *derived);

#endif
