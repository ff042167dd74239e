/* A run's start as check's rows say it: ISO 8601 in UTC. */
#ifndef HB_HISTORY_TIME_H
#define HB_HISTORY_TIME_H

enum { HB_HISTORY_TIME_LEN = 32 };

/* Unix seconds t as "2026-12-07T07:38:41Z" into buf. */
void hb_history_time_iso(long long t, char buf[HB_HISTORY_TIME_LEN]);

#endif
