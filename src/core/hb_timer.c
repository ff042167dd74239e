/* The clock (hb_timer.h): CLOCK_MONOTONIC and its measured granularity. */
#include "hb_timer.h"

#include <time.h>

double hb_timer_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* STREAM's checktick idea: the smallest non-zero step seen over many back-to-back reads. */
double hb_timer_granularity(void)
{
    static double tick;
    if (tick > 0.0) return tick;
    double best = 1.0;
    for (int i = 0; i < 64; i++) {
        double t0 = hb_timer_now(), t1;
        while ((t1 = hb_timer_now()) == t0)
            ;
        if (t1 - t0 < best) best = t1 - t0;
    }
    tick = best;
    return tick;
}

double hb_timer_min_sample(double min_time)
{
    double ticks = 20.0 * hb_timer_granularity();
    return min_time > ticks ? min_time : ticks;
}
