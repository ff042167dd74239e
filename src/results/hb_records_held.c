/* The debug gauge of records rank 0 holds at once (hb_records_held.h). */
#include "hb_records_held.h"

#include "hb_error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long held_now, held_most;

void hb_records_held_add(long n)
{
    held_now += n;
    if (held_now > held_most) held_most = held_now;
}

long hb_records_held_max(void)
{
    return held_most;
}

int hb_records_held_report(void)
{
    const char *path = getenv("HOPBENCH_DEBUG_HELD");
    if (!path || !path[0]) return 0;
    FILE *f = fopen(path, "w");
    bool ok = f && fprintf(f, "%ld\n", held_most) > 0;
    if (f && fclose(f) != 0) ok = false;
    if (ok) return 0;
    hb_error_set("HOPBENCH_DEBUG_HELD=%s: cannot write the count there: %s", path, strerror(errno));
    return -HB_EENV;
}
