/* Commands that print and measure nothing. */
#ifndef HB_PRINT_H
#define HB_PRINT_H

#include "hb_estimate.h"
#include "hb_options.h"
#include "hb_plan.h"
#include "hb_topo.h"

/* `hopbench topo`: the topology record (table or JSON Lines) with the exact mpirun and srun
 * lines for one rank per node. 0 or -errno from the sink (message set). */
int hb_print_topo(const struct hb_topo *t, const struct hb_options *o);

/* `--dry-run`: the plan as JSON Lines, one "experiment" record each, then a "plan_summary"
 * (experiments, measurements, repeats, estimated_s, cpu_nodes, mem_nodes, hosts: [where]).
 * 0 or -errno from the sink. */
int hb_print_plan(const struct hb_plan *plan, const struct hb_options *o,
                  const struct hb_estimate *est, const char *where);
/* "hopbench: plan: 8 experiments, 8 measurements x 5 repeats, about 45 s" on stderr. */
void hb_print_plan_line(const struct hb_estimate *est);

#endif
