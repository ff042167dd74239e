/* NUMA balancing's mode and the /proc/vmstat counters of page placement (hb_vmstat.h). */
#include "hb_vmstat.h"

#include "hb_error.h"
#include "hb_sysfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HB_NUMA_BALANCING "/proc/sys/kernel/numa_balancing"
#define HB_VMSTAT "/proc/vmstat"
/* /proc/vmstat is a few kilobytes; the cap only stops a runaway read. */
#define HB_VMSTAT_CAP ((size_t)1 << 20)

int hb_vmstat_numa_balancing_mode(int *mode)
{
    char *text = NULL, *end = NULL;
    size_t len = 0;
    int rc = hb_sysfs_read(HB_NUMA_BALANCING, 64, &text, &len);
    if (rc) {
        hb_error_set("cannot read %s: %s", HB_NUMA_BALANCING,
                     rc == -ENOENT ? "this kernel has no automatic NUMA balancing" : strerror(-rc));
        return rc;
    }
    long v = strtol(text, &end, 10);
    bool ok = end != text && (*end == '\n' || !*end) && v >= 0 && v <= 3;
    if (!ok)
        hb_error_set("%s holds '%.*s', not a mode from 0 to 3", HB_NUMA_BALANCING,
                     (int)strcspn(text, "\n"), text);
    free(text);
    if (!ok) return -EINVAL;
    *mode = (int)v;
    return 0;
}

/* The counters hb_vmstat_numa keeps: where pages are placed and moved. */
static bool vmstat_wanted(const char *name, size_t len)
{
    static const char *const prefixes[] = {"numa_", "pgpromote_", "pgdemote_", "pgmigrate_",
                                           "thp_migration_"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        size_t n = strlen(prefixes[i]);
        if (len > n && strncmp(name, prefixes[i], n) == 0) return true;
    }
    return false;
}

json_t *hb_vmstat_numa(void)
{
    char *text = NULL;
    size_t len = 0;
    int rc = hb_sysfs_read(HB_VMSTAT, HB_VMSTAT_CAP, &text, &len);
    if (rc) {
        hb_error_set("cannot read %s: %s", HB_VMSTAT, strerror(-rc));
        return NULL;
    }
    json_t *out = json_object();
    /* "name count" a line. */
    for (char *line = text; out && *line;
         line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
        size_t name = strcspn(line, " \n");
        char *end = NULL;
        unsigned long long v = line[name] == ' ' ? strtoull(line + name + 1, &end, 10) : 0;
        if (!end || !vmstat_wanted(line, name)) continue;
        json_t *key = json_stringn(line, name);
        if (!key || json_object_set_new(out, json_string_value(key), json_integer((json_int_t)v))) {
            json_decref(out);
            out = NULL;
        }
        json_decref(key);
    }
    free(text);
    if (!out) hb_error_set("out of memory reading %s", HB_VMSTAT);
    return out;
}

json_t *hb_vmstat_moved(const json_t *before, const json_t *after)
{
    json_t *moved = json_object();
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)after, name, v)
    {
        json_int_t d = json_integer_value(v) - json_integer_value(json_object_get(before, name));
        if (moved && d != 0 && json_object_set_new(moved, name, json_integer(d))) {
            json_decref(moved);
            moved = NULL;
        }
    }
    return moved;
}
