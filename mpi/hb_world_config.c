/* Each host's configuration on rank 0, for the run record and the fleet: hosts of one fleet
 * are configured apart, and a drift between them explains an outlier. */
#include "hb_world.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One host's entry from the JSON text its first rank sent; NULL with a message. */
static json_t *world_config_entry(const char *host, const char *text, int len)
{
    json_error_t err;
    json_t *cfg = len > 0 ? json_loadb(text, (size_t)len, 0, &err) : NULL;
    if (!json_is_object(cfg)) {
        json_decref(cfg);
        hb_error_set("host %s sent no configuration%s%s", host, len > 0 ? ": " : "",
                     len > 0 ? err.text : " (out of memory there)");
        return NULL;
    }
    json_t *entry =
        json_pack("{s:s, s:O, s:O}", "host", host, "config", json_object_get(cfg, "config"),
                  "config_unreadable", json_object_get(cfg, "config_unreadable"));
    json_decref(cfg);
    if (!entry) hb_error_set("host %s sent a configuration without its two parts", host);
    return entry;
}

int hb_world_config_host_configs(const struct hb_world *w, const json_t *mine, json_t **out)
{
    *out = NULL;
    char *text = w->host_rank == 0 && mine ? json_dumps(mine, JSON_COMPACT) : NULL;
    size_t len = text ? strlen(text) : 0;
    struct hb_host_bytes g;
    int rc = hb_world_gather_hosts(w, text, len > (size_t)INT32_MAX ? -1 : (int)len, &g);
    free(text);
    json_t *all = rc == 0 && w->rank == 0 ? json_array() : NULL;
    if (rc == 0 && w->rank == 0 && !all) {
        hb_error_set("out of memory holding %d hosts' configurations", w->nhosts);
        rc = -ENOMEM;
    }
    for (int h = 0; all && rc == 0 && h < w->nhosts; h++) {
        int r = 0;
        while (r < w->size && w->rank_host[r] != h)
            r++;
        json_t *entry = world_config_entry(w->hosts[h], g.all + g.displs[r], g.lens[r]);
        if (!entry || json_array_append_new(all, entry)) rc = -HB_EENV;
    }
    hb_world_gather_host_bytes_free(&g);
    if (rc)
        json_decref(all);
    else
        *out = all;
    return rc;
}
