/* comm's timing schedule as a cost (hb_msg_schedule.h). */
#include "hb_msg_schedule.h"

#include <math.h>
#include <stdint.h>

double hb_msg_schedule_s(double iteration_s, int reps, double min_time_s)
{
    if (!(iteration_s > 0.0)) return reps * min_time_s;
    double total = 0.0, batch = 0.0;
    uint64_t n = 1, done = 0;
    for (;; n *= 2) { /* a bound as the pair's loop has none: batches double past any share */
        batch = (double)n * iteration_s;
        total += batch;
        done += n;
        if (done >= HB_MSG_WARMUP_ITERS && batch >= min_time_s * HB_MSG_WARMUP_SHARE) break;
    }
    total += batch; /* the pilot */
    double iters = ceil(min_time_s / iteration_s);
    return total + reps * (iters > 1.0 ? iters : 1.0) * iteration_s;
}
