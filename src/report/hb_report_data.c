/* What the report keeps of each results file (hb_report_data.h), read record by record. */
#include "hb_report_data.h"
#include "hb_report_kit.h"

#include "hb_escape.h"
#include "hb_grow.h"
#include "hb_report_fleet.h"
#include "hb_interval.h"
#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_units.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hb_report_data_bg_rank(const char *bg)
{
    static const char *const order[] = {"idle", "low", "medium", "high", "very-high", NULL};
    for (int i = 0; order[i]; i++)
        if (strcmp(order[i], bg) == 0) return i;
    return 99;
}

void hb_report_data_evidence_key(char *buf, size_t len, const char *suite, const char *bg,
                                 const char *label)
{
    snprintf(buf, len, "%s\x1f%s\x1f%s%s", suite, bg ? bg : "", bg ? "" : "\x1f*", label);
}

void hb_report_data_series_name(char *buf, size_t len, const json_t *m, const char *extra)
{
    snprintf(buf, len, "%s: %s, CPU node %lld \xe2\x86\x92 memory node %lld%s%s%s",
             hb_jsonl_read_str(m, "host", "?"), hb_jsonl_read_str(m, "kernel", "?"),
             (long long)hb_jsonl_read_num(m, "cpu_node", -1),
             (long long)hb_jsonl_read_num(m, "mem_node", -1), extra ? ", " : "", extra ? extra : "",
             extra ? " pages" : "");
}

bool hb_report_data_budget_take(struct hb_rbudget *b, size_t w, size_t max)
{
    b->total++;
    b->full |= b->used + w > max;
    if (b->full) return false;
    b->used += w;
    b->drawn++;
    return true;
}

int hb_report_data_intern(struct hb_report_in *in, const char *s, uint32_t *id)
{
    *id = hb_strtab_add(&in->str, s, strlen(s));
    return *id == HB_STRTAB_NONE ? -ENOMEM : 0;
}

/* The number at key, NAN when there is none. */
static double report_num_or_nan(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The cells a figure's keys make, at the one rounding of hb_figure_text.h: the headline, an
 * interval ("ci95": the headline's, "KEY_ci95": KEY's) as "[lo, hi]" at its figure's
 * decimals, its unit as people write it, and a ratio to the reference in words with its
 * direction ("0.98x the bandwidth of CPU node 0 -> memory node 0, read"). False for any other
 * key. */
static bool report_figure_cell(FILE *m, const json_t *rec, const char *key)
{
    char text[HB_FIGURE_LEN], base[64];
    size_t len = strlen(key);
    const char *head = hb_jsonl_read_headline_key(rec);
    if (strcmp(key, head) == 0 && json_is_number(json_object_get(rec, key))) {
        fprintf(m, "<td>%s</td>",
                hb_figure_text(hb_jsonl_read_num(rec, key, 0), text, sizeof(text)));
        return true;
    }
    if (strcmp(key, "ci95") == 0 || (len > 5 && strcmp(key + len - 5, "_ci95") == 0)) {
        snprintf(base, sizeof(base), "%.*s",
                 strcmp(key, "ci95") == 0 ? (int)strlen(head) : (int)len - 5,
                 strcmp(key, "ci95") == 0 ? head : key);
        double v = report_num_or_nan(rec, base), lo, hi;
        hb_report_words_ci(json_object_get(rec, key), &lo, &hi);
        const char *ends = hb_report_words_ends(v, lo, hi, text, sizeof(text));
        fprintf(m, "<td>%s</td>", *ends ? ends : "&#8211;");
        return true;
    }
    if (strcmp(key, "unit") == 0 && json_is_string(json_object_get(rec, key))) {
        fputs("<td>", m);
        hb_escape_html(m, hb_units_shown(hb_jsonl_read_str(rec, key, "")));
        fputs("</td>", m);
        return true;
    }
    if (strcmp(key, "ratio_to_reference") == 0) {
        double r = report_num_or_nan(rec, key);
        const char *ref = hb_jsonl_read_str(rec, "reference_label", "");
        char words[160];
        fputs("<td class=\"kv ratio\">", m);
        if (isfinite(r)) {
            fprintf(m, "%.2fx the %s of ", r,
                    hb_units_quantity(hb_jsonl_read_str(rec, "unit", "")));
            hb_escape_html(m, hb_label_words(ref, words, sizeof(words)) ? words : ref);
        } else
            fputs("&#8211;", m);
        fputs("</td>", m);
        return true;
    }
    return false;
}

int hb_report_data_add_row(struct hb_report_in *in, const json_t *rec, const char *const *keys,
                           int n, bool by_key, uint32_t *row)
{
    char *html = NULL;
    size_t len = 0;
    long *end = calloc((size_t)n + 1, sizeof(*end));
    FILE *m = end ? open_memstream(&html, &len) : NULL;
    if (!m) {
        free(end);
        return -ENOMEM;
    }
    for (int c = 0; c < n; c++) {
        if (!report_figure_cell(m, rec, keys[c]))
            hb_report_data_cell_key(m, by_key ? keys[c] : NULL, json_object_get(rec, keys[c]));
        end[c + 1] = ftell(m);
    }
    int rc = fclose(m) == 0 && html ? 0 : -ENOMEM;
    while (rc == 0 && in->ncells + (size_t)n > in->cellcap)
        rc = hb_grow((void **)&in->cells, &in->cellcap, in->cellcap, sizeof(*in->cells));
    if (rc == 0 && in->ncells >= UINT32_MAX - (size_t)n) rc = -ENOMEM;
    for (int c = 0; rc == 0 && c < n; c++) {
        uint32_t id = hb_strtab_add(&in->str, html + end[c], (size_t)(end[c + 1] - end[c]));
        if (id == HB_STRTAB_NONE) rc = -ENOMEM;
        in->cells[in->ncells + (size_t)c] = id;
    }
    free(html);
    free(end);
    if (rc) return rc;
    *row = (uint32_t)in->ncells;
    in->ncells += (size_t)n;
    return 0;
}

const char *hb_report_data_row_cell(const struct hb_report_in *in, uint32_t row, int c)
{
    return hb_strtab_get(&in->str, in->cells[row + (uint32_t)c]);
}

/* A figure into the tally of what its figure's intervals are. */
static void report_fig_count(struct hb_coverage *c, const struct hb_rfig *fig)
{
    hb_coverage_add(c, isfinite(fig->lo) && isfinite(fig->hi), fig->repeats, fig->coverage);
}

int hb_report_data_add_bar(struct hb_rbars *b, const struct hb_rbar *bar)
{
    if (hb_grow((void **)&b->v, &b->cap, b->n, sizeof(*b->v))) return -ENOMEM;
    report_fig_count(&b->cov, &bar->fig);
    b->v[b->n] = *bar;
    b->v[b->n].seq = b->n;
    b->n++;
    return 0;
}

struct hb_rfig hb_report_data_fig(const json_t *m, const char *key)
{
    struct hb_interval iv;
    struct hb_rfig fig = {hb_jsonl_read_num(m, key, 0), NAN, NAN,
                          hb_jsonl_read_num(m, "ci_coverage", NAN),
                          (int)fmin(fmax(hb_jsonl_read_num(m, "repeats", 0), 0.0), 1e9)};
    char ci_key[64];
    snprintf(ci_key, sizeof(ci_key), "%s_ci95", key);
    const json_t *ci = json_object_get(m, ci_key);
    if (json_is_array(ci) && json_array_size(ci) == 2) {
        fig.lo = json_number_value(json_array_get(ci, 0));
        fig.hi = json_number_value(json_array_get(ci, 1));
    } else if (strcmp(key, hb_jsonl_read_headline_key(m)) == 0 && hb_jsonl_read_interval(m, &iv)) {
        fig.lo = iv.lo;
        fig.hi = iv.hi;
    }
    return fig;
}

int hb_report_data_add_point(struct hb_rcurves *c, const char *name, double x, struct hb_rfig y,
                             const char *level)
{
    uint32_t id = hb_strtab_add(&c->names, name, strlen(name));
    if (id == HB_STRTAB_NONE || hb_grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v)))
        return -ENOMEM;
    report_fig_count(&c->cov, &y);
    c->v[c->n] = (struct hb_rpoint){id, x, y, ""};
    snprintf(c->v[c->n++].level, sizeof(c->v[0].level), "%s", level);
    return 0;
}

int hb_report_data_add_comm(struct hb_rcomms *c, const struct hb_rcomm *p)
{
    if (hb_grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v))) return -ENOMEM;
    if (p->metric >= 0 && p->metric < HB_RCOMM_METRICS) report_fig_count(&c->cov[p->metric], &p->y);
    c->v[c->n++] = *p;
    return 0;
}

/* Append row to key's chain when it has room; *full says it had none (nothing added). */
static int report_chain(struct hb_revidence *e, const char *key, uint32_t row)
{
    uint32_t id = hb_strtab_add(&e->keys, key, strlen(key));
    if (id == HB_STRTAB_NONE) return -ENOMEM;
    while (id >= e->chaincap) {
        size_t old = e->chaincap;
        if (hb_grow((void **)&e->chain, &e->chaincap, e->chaincap, sizeof(*e->chain)))
            return -ENOMEM;
        memset(e->chain + old, 0, (e->chaincap - old) * sizeof(*e->chain));
    }
    struct hb_rchain *ch = &e->chain[id];
    ch->total++;
    if (ch->n >= HB_REPORT_EVIDENCE_ROWS) return 0;
    if (e->n >= UINT32_MAX - 1 || hb_grow((void **)&e->v, &e->cap, e->n, sizeof(*e->v)))
        return -ENOMEM;
    e->v[e->n] = (struct hb_rlink){row, UINT32_MAX};
    if (ch->n++)
        e->v[ch->last].next = (uint32_t)e->n;
    else
        ch->first = (uint32_t)e->n;
    ch->last = (uint32_t)e->n++;
    return 0;
}

int hb_report_data_add_evidence(struct hb_report_in *in, const char *key, const char *any_key,
                                const json_t *rec, const char *const *cells, int ncells)
{
    const char *keys[2] = {key, any_key};
    uint32_t ids[2];
    bool room = false;
    for (int k = 0; k < 2; k++) {
        ids[k] = hb_strtab_find(&in->evidence.keys, keys[k], strlen(keys[k]));
        room |= ids[k] == HB_STRTAB_NONE || in->evidence.chain[ids[k]].n < HB_REPORT_EVIDENCE_ROWS;
    }
    if (!room) { /* both chains full: the row is never drawn, so never rendered; counted */
        in->evidence.chain[ids[0]].total++;
        in->evidence.chain[ids[1]].total++;
        return 0;
    }
    uint32_t row;
    int rc = hb_report_data_add_row(in, rec, cells, ncells, false, &row);
    for (int k = 0; rc == 0 && k < 2; k++)
        rc = report_chain(&in->evidence, keys[k], row);
    return rc;
}

void hb_report_data_curves_free(struct hb_rcurves *c)
{
    hb_strtab_free(&c->names);
    free(c->v);
}

void hb_report_data_records_free(struct hb_report_in *in)
{
    hb_strtab_free(&in->str);
    hb_strtab_free(&in->labels[0]);
    hb_strtab_free(&in->labels[1]);
    free(in->cells);
    free(in->basic[0].v);
    free(in->basic[1].v);
    free(in->hops.v);
    free(in->peak_nodes.v);
    hb_report_data_curves_free(&in->loaded);
    hb_report_data_curves_free(&in->mlp);
    for (int i = 0; i < 2; i++) {
        hb_report_data_curves_free(&in->sweep[i]);
        hb_report_data_curves_free(&in->intensity[i]);
    }
    free(in->comm.v);
    for (int i = 0; i < HB_COLL_OPS; i++)
        hb_report_data_curves_free(&in->coll[i]);
    free(in->coll_rows);
    hb_strtab_free(&in->evidence.keys);
    free(in->evidence.chain);
    free(in->evidence.v);
    /* What stays: the file, its notes and summary lines, the derived records' budgets, the fleet's
     * folds. */
    struct hb_report_in keep = *in;
    memset(in, 0, sizeof(*in));
    in->res = keep.res;
    in->notes = keep.notes;
    in->headlines = keep.headlines;
    in->figures = keep.figures;
    in->impossible = keep.impossible;
    in->nimpossible = keep.nimpossible;
    in->fleet = keep.fleet;
    in->cov = keep.cov;
    memcpy(in->matrices, keep.matrices, sizeof(in->matrices));
    memcpy(in->knees, keep.knees, sizeof(in->knees));
    in->fleets = keep.fleets;
    in->verdicts = keep.verdicts;
    in->c2c_studies = keep.c2c_studies;
    in->peaks = keep.peaks;
    in->policy_recs = keep.policy_recs;
    in->comm_matrices = keep.comm_matrices;
    in->coll_places = keep.coll_places;
}

void hb_report_data_in_free(struct hb_report_in *in)
{
    hb_jsonl_load_free(&in->res);
    hb_strtab_free(&in->notes);
    hb_strtab_free(&in->headlines);
    hb_strtab_free(&in->impossible);
    hb_report_data_records_free(in);
    if (in->fleet) hb_report_fleet_free(in->fleet);
    free(in->fleet);
    memset(in, 0, sizeof(*in));
}

/* A value for people: numbers and strings as they are, byte counts in KiB/MiB/GiB, lists
 * joined by commas, objects as "key value" lines; never JSON text. */
void hb_report_data_value_text(FILE *f, const char *key, const json_t *v)
{
    size_t klen = key ? strlen(key) : 0;
    char word[64];
    /* A sysfs choice list ("always [madvise] never") reads as its choice. */
    if (json_is_string(v) && hb_report_words_sysfs_choice(json_string_value(v), word, sizeof(word)))
        hb_escape_html(f, word);
    else if (json_is_string(v))
        hb_escape_html(f, json_string_value(v));
    else if (json_is_number(v) && key &&
             (strcmp(key, "bytes") == 0 || (klen > 6 && strcmp(key + klen - 6, "_bytes") == 0))) {
        static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        double b = json_number_value(v);
        int u = 0;
        while (b >= 1024.0 && u < 4) {
            b /= 1024.0;
            u++;
        }
        fprintf(f, "%.4g %s", b, units[u]);
    } else if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        fprintf(f, "%.4g", json_real_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", f);
    else if (json_is_array(v)) {
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e)
        {
            if (i) fputs(json_is_object(e) ? "<br>" : ", ", f);
            hb_report_data_value_text(f, key, e);
        }
    } else if (json_is_object(v)) {
        const char *k;
        const json_t *e;
        int first = 1;
        json_object_foreach((json_t *)v, k, e)
        {
            fputs(first ? "" : json_is_object(e) ? "<br>" : "; ", f);
            first = 0;
            fputs("<b>", f);
            hb_escape_html(f, k);
            fputs("</b>: ", f);
            hb_report_data_value_text(f, k, e);
        }
    } else
        fputs("&#8211;", f);
}

void hb_report_data_cell(FILE *f, const json_t *v)
{
    hb_report_data_cell_key(f, NULL, v);
}

void hb_report_data_cell_key(FILE *f, const char *key, const json_t *v)
{
    fputs(json_is_object(v) || json_is_array(v) ? "<td class=\"kv\">" : "<td>", f);
    hb_report_data_value_text(f, key, v);
    fputs("</td>", f);
}
