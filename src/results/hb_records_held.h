/* A debug gauge of the measurement records rank 0 holds in memory at once, so tests can check
 * that gathering a fleet's results stays bounded (docs/design.md#gather). */
#ifndef HB_RECORDS_HELD_H
#define HB_RECORDS_HELD_H

/* n records more in memory (negative: fewer). */
void hb_records_held_add(long n);
/* The most held at once so far. */
long hb_records_held_max(void);
/* When the variable HOPBENCH_DEBUG_HELD names a file: the most held, one line, written there.
 * 0, or -HB_EENV with a message. */
int hb_records_held_report(void);

#endif
