/* The hosts of a check run that the history leaves out (hb_history_health.h). */
#include "hb_history_health.h"

#include "hb_jsonl_read.h"

#include <errno.h>
#include <string.h>

/* Only the health records are kept: a check's file is small, but nothing else is needed. */
static int take_health(void *ctx, const json_t *rec)
{
    (void)ctx;
    return strcmp(hb_jsonl_read_str(rec, "type", ""), "health") == 0;
}

int hb_history_health_left_out(const char *path, const json_t *run, json_t **out)
{
    *out = json_object();
    if (!*out) return -ENOMEM;
    if (strcmp(hb_jsonl_read_str(run, "command", ""), "check") != 0) return 0;
    struct hb_results res;
    int rc = hb_jsonl_load_read_take(path, take_health, NULL, &res);
    if (rc) {
        json_decref(*out);
        *out = NULL;
        return rc;
    }
    size_t i;
    const json_t *rec;
    json_array_foreach(res.records, i, rec)
    {
        const char *verdict = hb_jsonl_read_str(rec, "verdict", "");
        bool unclear = json_array_size(json_object_get(rec, "unclear")) > 0;
        if (strcmp(verdict, "degraded") != 0 && !(strcmp(verdict, "cannot tell") == 0 && unclear))
            continue;
        if (json_object_set_new(*out, hb_jsonl_read_str(rec, "host", ""), json_string(verdict))) {
            rc = -ENOMEM;
            break;
        }
    }
    hb_jsonl_load_free(&res);
    return rc;
}
