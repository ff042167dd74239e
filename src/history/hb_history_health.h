/* Which hosts of a check run the history leaves out: those its own verdict (the file's
 * "health" records) did not find healthy. check --history judges a host against its newest
 * points, so a degraded check stored there would move the reference toward the fault; a check
 * that had nothing to judge against yet (every cell unjudged: the first checks of a host) is
 * stored, as it is how a history starts. */
#ifndef HB_HISTORY_HEALTH_H
#define HB_HISTORY_HEALTH_H

#include <jansson.h>

/* For a run whose command is check: *out an object host -> the verdict that leaves it out
 * ("degraded", or "cannot tell" where a cell was unclear); an empty object for any other
 * run. 0, or -errno with a message naming path (the file read a second time, its health
 * records only). */
int hb_history_health_left_out(const char *path, const json_t *run, json_t **out);

#endif
