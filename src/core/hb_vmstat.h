/* What the kernel's automatic NUMA balancing is set to and what it did: its mode and the
 * /proc/vmstat counters of page placement, read before and after a run to say what moved. */
#ifndef HB_VMSTAT_H
#define HB_VMSTAT_H

#include <jansson.h>

/* /proc/sys/kernel/numa_balancing: 0 off, 1 on, 2 memory tiering, 3 both. 0 with *mode, or
 * -errno with a message (-ENOENT: a kernel built without NUMA balancing). */
int hb_vmstat_numa_balancing_mode(int *mode);

/* The /proc/vmstat counters of page placement (numa_*, pgpromote_*, pgdemote_*,
 * pgmigrate_*, thp_migration_*) as {name: count}; NULL with a message when unreadable or out
 * of memory. */
json_t *hb_vmstat_numa(void);

/* The counters of `after` that moved since `before`, {name: after - before}; NULL when out
 * of memory. */
json_t *hb_vmstat_moved(const json_t *before, const json_t *after);

#endif
