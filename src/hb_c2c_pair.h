/* The pinned pair under every c2c study: two threads on chosen CPUs sharing one bound
 * buffer, timed over calibrated samples (internal to src/hb_c2c*.c). */
#ifndef HB_C2C_PAIR_H
#define HB_C2C_PAIR_H

#include "hb_options.h"
#include "hb_topo.h"

#include <stdatomic.h>
#include <stdint.h>

enum hb_c2c_kind { HB_C2C_PINGPONG, HB_C2C_FS_SHARED, HB_C2C_FS_PADDED, HB_C2C_SPIN, HB_C2C_MUTEX };

struct hb_c2c_res {
    double median_s, min_s; /* per sample, warm-up dropped */
    uint64_t n;
    double on_target_pct;
};

/* Measure kind between CPUs a and b with the buffer bound to mem_node: a pilot calibrates
 * the iterations to --min-time, then --reps samples after one warm-up. 0; -HB_EVALIDATE when
 * a count ended off its exact value; -HB_EENV when a thread cannot be pinned; -errno from
 * allocation (message set). */
int hb_c2c_measure(const struct hb_topo *t, const struct hb_options *o, enum hb_c2c_kind kind,
                   int a, int b, int mem_node, struct hb_c2c_res *r);

#endif
