/* Configurations side by side: the knobs in which two differ (compare, the fleet), and a
 * knob's value as the words those lines print. */
#include "hb_config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *hb_config_diff_words(const json_t *v)
{
    char *s = NULL;
    if (!v) return strdup("absent");
    if (json_is_null(v)) return strdup("unreadable");
    if (json_is_string(v)) return strdup(json_string_value(v));
    /* A CPU-set list: [{"value": v, "cpus": "0-3"}, ...] */
    const json_t *first = json_is_array(v) ? json_array_get(v, 0) : NULL;
    if (json_is_string(json_object_get(first, "value")) &&
        json_is_string(json_object_get(first, "cpus"))) {
        if (json_array_size(v) == 1)
            return strdup(json_string_value(json_object_get(first, "value")));
        size_t len = 0;
        FILE *f = open_memstream(&s, &len);
        size_t i;
        const json_t *g;
        json_array_foreach(v, i, g) if (f)
            fprintf(f, "%s%s on %s", i ? ", " : "", json_string_value(json_object_get(g, "value")),
                    json_string_value(json_object_get(g, "cpus")));
        if (!f || fclose(f) != 0) {
            free(s);
            return NULL;
        }
        return s;
    }
    if (!json_is_object(v) && !json_is_array(v))
        return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    /* Objects and lists in words too ("node0: [2048kB: [free: 0, total: 8]]"), never JSON. */
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    const char *key;
    json_t *e;
    size_t i, n = 0;
    if (f && json_is_object(v)) json_object_foreach((json_t *)v, key, e)
        {
            char *w = hb_config_diff_words(e);
            bool nest = json_is_object(e) || json_is_array(e);
            fprintf(f, "%s%s: %s%s%s", n++ ? ", " : "", key, nest ? "[" : "", w ? w : "?",
                    nest ? "]" : "");
            free(w);
        }
    if (f && json_is_array(v)) json_array_foreach(v, i, e)
        {
            char *w = hb_config_diff_words(e);
            fprintf(f, "%s%s", i ? ", " : "", w ? w : "?");
            free(w);
        }
    if (!f || fclose(f) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* State, not configuration: free huge pages change with whatever ran last, while the
 * reservation (total) is what an administrator set. Two runs never differ by these. */
static bool config_volatile(const char *path)
{
    size_t n = strlen(path);
    return strncmp(path, "hugepages.", 10) == 0 && n >= 5 && strcmp(path + n - 5, ".free") == 0;
}

static int config_diff_at(const char *prefix, const json_t *base, const json_t *new_,
                          hb_config_diff_fn fn, void *ctx)
{
    const char *key;
    const json_t *b, *n;
    int rc = 0;
    json_object_foreach((json_t *)base, key, b)
    {
        n = json_object_get(new_, key);
        if (!n && !*prefix) continue; /* a knob NEW's hopbench did not read: no difference */
        char *path = NULL;
        if (asprintf(&path, "%s%s", prefix, key) < 0) return -1;
        if (json_is_object(b) && json_is_object(n)) {
            char *dot = NULL;
            rc = asprintf(&dot, "%s.", path) < 0 ? -1 : config_diff_at(dot, b, n, fn, ctx);
            free(dot);
        } else if ((!n || !json_equal((json_t *)b, (json_t *)n)) && !config_volatile(path)) {
            rc = fn(path, b, n, ctx);
        }
        free(path);
        if (rc) return rc;
    }
    json_object_foreach((json_t *)new_, key, n)
    {
        if (!*prefix || json_object_get(base, key)) continue; /* nor one BASE's did not read */
        char *path = NULL;
        if (asprintf(&path, "%s%s", prefix, key) < 0) return -1;
        rc = config_volatile(path) ? 0 : fn(path, NULL, n, ctx);
        free(path);
        if (rc) return rc;
    }
    return 0;
}

int hb_config_diff(const json_t *base, const json_t *new_, hb_config_diff_fn fn, void *ctx)
{
    return config_diff_at("", base, new_, fn, ctx);
}

char *hb_config_diff_pairs(const json_t *words)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    const char *key;
    const json_t *v;
    int n = 0;
    json_object_foreach((json_t *)words, key, v) if (f)
        fprintf(f, "%s%s=%s", n++ ? ", " : "", key, json_string_value(v));
    if (!f || fclose(f) != 0) {
        free(s);
        return NULL;
    }
    return s;
}
