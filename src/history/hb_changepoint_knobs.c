/* The knobs that changed at a change point (hb_changepoint_knobs.h), by compare's config
 * diff (hb_config_diff), so history and compare name a knob alike. */
#include "hb_changepoint_knobs.h"

#include "hb_config.h"
#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct knob_list {
    char **keys;
    size_t n, cap;
};

/* hb_config_diff_fn: one more key. */
static int knob_add(const char *key, const json_t *base, const json_t *new_, void *ctx)
{
    (void)base, (void)new_;
    struct knob_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **keys = realloc(l->keys, sizeof(*keys) * cap);
        if (!keys) return -1;
        l->keys = keys, l->cap = cap;
    }
    return (l->keys[l->n] = strdup(key)) ? (l->n++, 0) : -1;
}

/* The config object of a run's text; NULL with a message when it is not one. */
static json_t *config_of(const char *text, const char *side)
{
    json_error_t err;
    json_t *c = json_loads(text, 0, &err);
    if (!json_is_object(c)) {
        hb_error_set("history: the %s run's config is not a JSON object (%s): '%.40s'", side,
                     c ? "another JSON value" : err.text, text);
        json_decref(c);
        return NULL;
    }
    return c;
}

int hb_changepoint_knobs(const char *before, const char *after, char ***knobs, size_t *n)
{
    *knobs = NULL, *n = 0;
    if (!before || !after) return 0;
    json_t *b = config_of(before, "earlier"), *a = b ? config_of(after, "later") : NULL;
    if (!a) {
        json_decref(b);
        return -EINVAL;
    }
    struct knob_list l = {NULL, 0, 0};
    int rc = hb_config_diff(b, a, knob_add, &l) ? -ENOMEM : 0;
    json_decref(b);
    json_decref(a);
    if (rc) {
        hb_changepoint_knobs_free(l.keys, l.n);
        return rc;
    }
    *knobs = l.keys, *n = l.n;
    return 0;
}

void hb_changepoint_knobs_free(char **knobs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(knobs[i]);
    free(knobs);
}
