/* A derived record's family of conclusions (hb_family_rec.h): rank-test p per candidate over
 * the two figures' repeat_values, adjusted over the family, and the decisions written back. */
#include "hb_family_rec.h"

#include "hb_grow.h"
#include "hb_signif.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

double *hb_family_rec_values(const json_t *rec, int *n)
{
    const json_t *rv = json_object_get(rec, "repeat_values"), *x;
    double *v = json_array_size(rv) ? malloc(sizeof(*v) * json_array_size(rv)) : NULL;
    size_t i;
    *n = 0;
    if (!v) return NULL;
    json_array_foreach(rv, i, x) if (json_is_number(x) && isfinite(json_number_value(x)))
        v[(*n)++] = json_number_value(x);
    return v;
}

double hb_family_rec_p_of(const double *a, int na, const double *b, int nb)
{
    return na < 2 || nb < 2 ? NAN : hb_signif_mwu(a, na, b, nb, NULL);
}

double hb_family_rec_p(const json_t *a, const json_t *b, double scale)
{
    int na = 0, nb = 0;
    double *x = a ? hb_family_rec_values(a, &na) : NULL;
    double *y = b ? hb_family_rec_values(b, &nb) : NULL;
    for (int i = 0; i < na; i++)
        x[i] /= scale;
    double p = hb_family_rec_p_of(x, na, y, nb);
    free(x);
    free(y);
    return p;
}

int hb_family_rec_add(struct hb_family_rec *f, json_t *entry, double p, bool apart)
{
    size_t cap = f->cap;
    if (!f->entries) f->entries = json_array();
    if (!f->entries || hb_grow((void **)&f->p, &cap, f->n, sizeof(*f->p)) ||
        hb_grow((void **)&f->apart, &f->cap, f->n, sizeof(*f->apart)) ||
        json_array_append(f->entries, entry)) {
        f->failed = true;
        return -ENOMEM;
    }
    f->p[f->n] = p;
    f->apart[f->n++] = apart;
    return 0;
}

static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

int hb_family_rec_decide(struct hb_family_rec *f)
{
    free(f->adj);
    f->adj = f->n ? malloc(sizeof(*f->adj) * f->n) : NULL;
    f->size = f->adj ? hb_family_adjust(f->p, f->n, HB_FAMILY_FDR, f->adj) : 0;
    if (f->n && (!f->adj || f->size < 0 || f->failed)) {
        free(f->adj);
        f->adj = NULL;
        f->size = 0;
        f->failed = true;
        return -ENOMEM;
    }
    for (size_t i = 0; i < f->n; i++) {
        json_t *e = json_array_get(f->entries, i);
        json_object_set_new(e, "p", real_or_null(f->p[i]));
        json_object_set_new(e, "p_adjusted", real_or_null(f->adj[i]));
    }
    return 0;
}

bool hb_family_rec_drawn(const struct hb_family_rec *f, size_t i)
{
    if (!f->apart[i]) return false;
    return !f->adj || !isfinite(f->adj[i]) || f->adj[i] < HB_FAMILY_LEVEL;
}

void hb_family_rec_split(const struct hb_family_rec *f, json_t *flags[2], const char *key,
                         const char *word)
{
    for (size_t i = 0; i < f->n; i++) {
        json_t *e = json_array_get(f->entries, i);
        bool drawn = hb_family_rec_drawn(f, i);
        if (f->apart[i] && !drawn) json_object_set_new(e, key, json_string(word));
        json_array_append(flags[!drawn], e);
    }
}

void hb_family_rec_demote(const struct hb_family_rec *f, const char *key, const char *word,
                          const char *unset)
{
    for (size_t i = 0; i < f->n; i++) {
        json_t *e = json_array_get(f->entries, i);
        if (!f->apart[i] || hb_family_rec_drawn(f, i)) continue;
        json_object_set_new(e, key, json_string(word));
        if (unset) json_object_set_new(e, unset, json_null());
    }
}

json_t *hb_family_rec_json(const struct hb_family_rec *f)
{
    return json_pack("{s:s, s:f, s:I}", "rule", hb_family_rule_name(HB_FAMILY_FDR), "level",
                     HB_FAMILY_LEVEL, "size", (json_int_t)f->size);
}

void hb_family_rec_free(struct hb_family_rec *f)
{
    json_decref(f->entries);
    free(f->p);
    free(f->adj);
    free(f->apart);
    *f = (struct hb_family_rec){0};
}
