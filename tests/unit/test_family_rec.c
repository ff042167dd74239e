/* A derived record's family of conclusions (hb_family_rec.h): borderline separations drawn
 * alone are inconclusive among many candidates, a clear one stays drawn in a family of 16,
 * unknown noise keeps the old path, and the p, adjusted p and family object written back. */
#include "../hb_check.h"
#include "hb_family_rec.h"
#include "hb_signif.h"

#include <math.h>

/* A figure of n repeats evenly from lo to hi. */
static json_t *fig(double lo, double hi, int n)
{
    json_t *rv = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(rv, json_real(n > 1 ? lo + (hi - lo) * i / (n - 1) : lo));
    return json_pack("{s:f, s:o}", "value", (lo + hi) / 2, "repeat_values", rv);
}

/* A family of `same` candidates of one distribution (intervals overlap) and `border`
 * candidates of 5 repeats against 5 completely apart: how many are drawn. */
static size_t drawn_of(int same, int border, struct hb_family_rec *f)
{
    json_t *a = fig(100, 110, 5), *b = fig(100, 110, 5), *c = fig(120, 130, 5);
    for (int i = 0; i < same + border; i++) {
        json_t *e = json_object();
        bool apart = i >= same;
        CHECK_INT(hb_family_rec_add(f, e, hb_family_rec_p(a, apart ? c : b, 1.0), apart), 0);
        json_decref(e);
    }
    CHECK_INT(hb_family_rec_decide(f), 0);
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += hb_family_rec_drawn(f, i);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    return n;
}

int main(void)
{
    double border = hb_signif_mwu_min_p(5, 5); /* 2 / 252 */
    CHECK_WITHIN(border, 0.0079365, 1e-6);

    /* (a) Alone, a borderline separation is drawn; among 14 candidates of one distribution
     * with another borderline, neither is: 16 * 0.0079 / 2 = 0.063. */
    struct hb_family_rec f = {0};
    CHECK_INT(drawn_of(0, 1, &f), 1);
    CHECK_INT(f.size, 1);
    CHECK_WITHIN(json_real_value(json_object_get(json_array_get(f.entries, 0), "p_adjusted")),
                 border, 1e-12);
    hb_family_rec_free(&f);
    CHECK_INT(drawn_of(14, 2, &f), 0);
    CHECK_INT(f.size, 16);
    json_t *e = json_array_get(f.entries, 15);
    CHECK_WITHIN(json_real_value(json_object_get(e, "p")), border, 1e-12);
    CHECK_WITHIN(json_real_value(json_object_get(e, "p_adjusted")), border * 16 / 2, 1e-12);
    CHECK_WITHIN(json_real_value(json_object_get(json_array_get(f.entries, 0), "p")), 1.0, 1e-12);
    /* Split: every candidate inconclusive, the two whose intervals were apart relabelled. */
    json_t *flags[2] = {json_array(), json_array()};
    hb_family_rec_split(&f, flags, "evidence", "inconclusive");
    CHECK_INT(json_array_size(flags[0]), 0);
    CHECK_INT(json_array_size(flags[1]), 16);
    CHECK_STR(json_string_value(json_object_get(json_array_get(flags[1], 15), "evidence")),
              "inconclusive");
    CHECK(json_object_get(json_array_get(flags[1], 0), "evidence") == NULL);
    json_decref(flags[0]);
    json_decref(flags[1]);
    json_t *fam = hb_family_rec_json(&f);
    char *text = json_dumps(fam, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(text, "{\"level\":0.050000000000000003,\"rule\":\"BH FDR\",\"size\":16}");
    free(text);
    json_decref(fam);
    hb_family_rec_free(&f);

    /* (b) 9 repeats against 9, completely apart, stay drawn among 16: 16 * 2 / C(18, 9). */
    json_t *a = fig(100, 110, 9), *c = fig(150, 160, 9), *b = fig(100, 110, 9);
    for (int i = 0; i < 16; i++) {
        e = json_object();
        hb_family_rec_add(&f, e, hb_family_rec_p(a, i ? b : c, 1.0), i == 0);
        json_decref(e);
    }
    CHECK_INT(hb_family_rec_decide(&f), 0);
    CHECK(hb_family_rec_drawn(&f, 0));
    CHECK_WITHIN(f.adj[0], 16 * hb_signif_mwu_min_p(9, 9), 1e-12);
    CHECK(f.adj[0] < 0.001);
    hb_family_rec_free(&f);

    /* A ratio: a over the scale against b; b at 1.5 times a is no difference at ratio 1/1.5. */
    json_t *d = fig(150, 165, 9);
    CHECK_WITHIN(hb_family_rec_p(a, d, 1.0 / 1.5), 1.0, 1e-12);
    json_decref(d);

    /* Unknown noise: no repeats, no member, drawn by its rule alone, p and p_adjusted null. */
    json_t *one = json_pack("{s:f}", "value", 100.0);
    CHECK(isnan(hb_family_rec_p(one, c, 1.0)));
    e = json_object();
    hb_family_rec_add(&f, e, hb_family_rec_p(one, c, 1.0), true);
    CHECK_INT(hb_family_rec_decide(&f), 0);
    CHECK_INT(f.size, 0);
    CHECK(hb_family_rec_drawn(&f, 0));
    CHECK(json_is_null(json_object_get(e, "p")) && json_is_null(json_object_get(e, "p_adjusted")));
    json_decref(e);
    hb_family_rec_free(&f);
    json_decref(one);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    return hb_check_result();
}
