/* A run record's configuration blocks checked for the shapes hopbench writes (hb_config.h),
 * by every reader of result files: in a file of its own, so that a reader needs nothing of
 * the capture (sysfs, topology). */
#include "hb_config.h"

#include "hb_error.h"

#include <errno.h>
#include <stdbool.h>

static const char *config_json_kind(const json_t *v)
{
    return json_is_null(v)     ? "null"
           : json_is_array(v)  ? "a list"
           : json_is_string(v) ? "a string"
           : json_is_object(v) ? "an object"
                               : "a number or boolean";
}

int hb_config_check_run(const json_t *run, const char *path, int line)
{
    static const char *const blocks[] = {"config", "config_unreadable"};
    for (int i = 0; i < 2; i++) {
        const json_t *v = json_object_get(run, blocks[i]);
        if (v && !json_is_object(v)) {
            hb_error_set("%s:%d: the run record's %s is %s, not an object of knobs: the file "
                         "was changed or damaged",
                         path, line, blocks[i], config_json_kind(v));
            return -EINVAL;
        }
    }
    /* A fleet's: [{"host": name, "config": {...}}, ...] */
    const json_t *hosts = json_object_get(run, "host_configs"), *h;
    size_t i;
    bool bad = hosts && !json_is_array(hosts);
    json_array_foreach(hosts, i, h) bad = bad || !json_is_string(json_object_get(h, "host")) ||
                                          !json_is_object(json_object_get(h, "config"));
    if (bad) {
        hb_error_set("%s:%d: the run record's host_configs is %s, not a list of {\"host\": name, "
                     "\"config\": {knobs}}: the file was changed or damaged",
                     path, line,
                     json_is_array(hosts) ? "a list with an entry that is not"
                                          : config_json_kind(hosts));
        return -EINVAL;
    }
    return 0;
}
