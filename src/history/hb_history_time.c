/* A run's start in ISO 8601 UTC (hb_history_time.h), for the change-point and config rows. */
#include "hb_history_time.h"

#include <time.h>

void hb_history_time_iso(long long t, char buf[HB_HISTORY_TIME_LEN])
{
    time_t tt = (time_t)t;
    struct tm tmv;
    gmtime_r(&tt, &tmv);
    strftime(buf, HB_HISTORY_TIME_LEN, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}
