/* Output sinks (hb_sink.h): a record written as JSON Lines, CSV or a table row, each flushed
 * whole into its output file. */
#include "hb_sink.h"

#include "hb_error.h"
#include "hb_escape.h"
#include "hb_json_text.h"
#include "hb_outfile.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct hb_sink {
    enum hb_format format;
    const struct hb_layout *layout;
    FILE *f;
    struct hb_outfile *out;
    bool csv_header_done;
    int unflushed; /* records of a burst layout written since the last flush */
};

/* An interval's key ("ci95", "concurrency_ci95"): CSV gives its ends as two columns,
 * KEY_lo and KEY_hi, never as one cell to take apart. */
static bool csv_is_interval(const char *key)
{
    size_t n = strlen(key);
    return n >= 4 && strcmp(key + n - 4, "ci95") == 0;
}

static void csv_names(struct hb_sink *s)
{
    for (int i = 0; s->layout->csv[i]; i++) {
        const char *c = s->layout->csv[i];
        if (csv_is_interval(c))
            fprintf(s->f, "%s%s_lo,%s_hi", i ? "," : "", c, c);
        else
            fprintf(s->f, "%s%s", i ? "," : "", c);
    }
    fputc('\n', s->f);
    s->csv_header_done = true;
}

static int sink_open_keep(enum hb_format f, const char *path, const struct hb_layout *layout,
                          bool keep, struct hb_sink **out)
{
    struct hb_sink *s = calloc(1, sizeof(*s));
    if (!s) return -ENOMEM;
    s->format = f;
    s->layout = layout;
    int rc = hb_outfile_open(path, keep, &s->out, &s->f);
    if (rc) {
        free(s);
        return rc;
    }
    if (f == HB_FORMAT_CSV && layout->csv_names_first) csv_names(s);
    *out = s;
    return 0;
}

int hb_sink_open(enum hb_format f, const char *path, const struct hb_layout *layout,
                 struct hb_sink **out)
{
    return sink_open_keep(f, path, layout, true, out);
}

int hb_sink_open_whole(enum hb_format f, const char *path, const struct hb_layout *layout,
                       struct hb_sink **out)
{
    return sink_open_keep(f, path, layout, false, out);
}

/* The layout's entry for rec's type, or NULL. */
static const struct hb_layout_type *sink_type(const struct hb_layout *l, json_t *rec)
{
    const char *type = json_string_value(json_object_get(rec, "type"));
    for (int i = 0; type && l->types[i].type; i++)
        if (strcmp(l->types[i].type, type) == 0) return &l->types[i];
    return NULL;
}

/* The layout's hooks for the reals at key, or NULL. */
static const struct hb_layout_real *sink_real(const struct hb_layout *l, const char *key)
{
    for (int i = 0; l->reals && l->reals[i].key; i++) /* the first letter rules most out */
        if (l->reals[i].key[0] == key[0] && strcmp(l->reals[i].key, key) == 0) return &l->reals[i];
    return NULL;
}

/* A value as JSON text (arrays and objects compact), reals at the layout's digits. */
static char *sink_json_text(const struct hb_sink *s, json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(s->layout->digits));
}

/* CSV cell: strings quoted when needed, arrays and objects as compact JSON in quotes. */
static void csv_cell(struct hb_sink *s, const char *key, json_t *v)
{
    if (!v || json_is_null(v)) return;
    if (json_is_string(v)) {
        hb_escape_csv(s->f, json_string_value(v));
        return;
    }
    const struct hb_layout_real *r = json_is_real(v) ? sink_real(s->layout, key) : NULL;
    if (r && r->csv) {
        r->csv(s->f, json_real_value(v));
        return;
    }
    if (json_is_number(v)) { /* no character of a number needs quoting */
        hb_json_text_put(s->f, v, s->layout->digits);
        return;
    }
    char *text = sink_json_text(s, v);
    if (!text) return;
    hb_escape_csv(s->f, text);
    free(text);
}

/* CSV: the layout's row types in its one column set. */
static void csv_write(struct hb_sink *s, json_t *rec)
{
    const struct hb_layout_type *t = sink_type(s->layout, rec);
    if (!t || !t->csv_row) return;
    if (!s->csv_header_done) csv_names(s);
    for (int i = 0; s->layout->csv[i]; i++) {
        const char *c = s->layout->csv[i];
        json_t *v = json_object_get(rec, c);
        if (i) fputc(',', s->f);
        if (!csv_is_interval(c)) {
            csv_cell(s, c, v);
            continue;
        }
        csv_cell(s, c, json_array_get(v, 0));
        fputc(',', s->f);
        csv_cell(s, c, json_array_get(v, 1));
    }
    fputc('\n', s->f);
}

/* JSONL: the record whole, or the keys its type lists (reals through the layout's hooks). */
static void jsonl_write(struct hb_sink *s, json_t *rec)
{
    const struct hb_layout_type *t = sink_type(s->layout, rec);
    if (t && t->json_skip) return;
    /* A failed write shows in the stream's error flag, which the mark reads. */
    if (!t || !t->json) {
        hb_json_text_put(s->f, rec, s->layout->digits);
        fputc('\n', s->f);
        return;
    }
    fputc('{', s->f);
    for (int i = 0, n = 0; t->json[i]; i++) {
        json_t *v = json_object_get(rec, t->json[i]);
        if (!v) continue;
        if (n++) fputc(',', s->f);
        fputc('"', s->f);
        fputs(t->json[i], s->f);
        fputs("\":", s->f);
        const struct hb_layout_real *r = json_is_real(v) ? sink_real(s->layout, t->json[i]) : NULL;
        if (r && r->json)
            r->json(s->f, json_real_value(v));
        else
            hb_json_text_put(s->f, v, s->layout->digits);
    }
    fputs("}\n", s->f);
}

/* Table: the layout's printer for people. */
static void table_write(struct hb_sink *s, json_t *rec)
{
    s->layout->table_print(s->f, rec);
}

/* The formats' writers, in enum hb_format's order. */
static void (*const format_writers[HB_FORMAT_COUNT])(struct hb_sink *s, json_t *rec) = {
    [HB_FORMAT_TABLE] = table_write, [HB_FORMAT_CSV] = csv_write, [HB_FORMAT_JSONL] = jsonl_write};

int hb_sink_write(struct hb_sink *s, json_t *rec)
{
    format_writers[s->format](s, rec);
    if (s->layout->burst && ++s->unflushed < HB_SINK_BURST) return 0;
    s->unflushed = 0;
    return hb_outfile_mark(s->out);
}

int hb_sink_block_open(struct hb_sink *s, struct hb_sink_block *b)
{
    *b = (struct hb_sink_block){0};
    if (s->format == HB_FORMAT_CSV && !s->csv_header_done) csv_names(s);
    b->f = open_memstream(&b->text, &b->len);
    /* one thread writes a block: no lock taken per character */
    if (b->f) __fsetlocking(b->f, FSETLOCKING_BYCALLER);
    return b->f ? 0 : -ENOMEM;
}

void hb_sink_block_write(const struct hb_sink *s, struct hb_sink_block *b, json_t *rec)
{
    struct hb_sink into = *s;
    into.f = b->f;
    format_writers[s->format](&into, rec);
}

void hb_sink_block_free(struct hb_sink_block *b)
{
    if (b->f) fclose(b->f);
    free(b->text);
    *b = (struct hb_sink_block){0};
}

int hb_sink_block_put(struct hb_sink *s, struct hb_sink_block *b)
{
    /* A memory stream that could not grow has lost records: no write may pass for whole. */
    bool lost = fflush(b->f) != 0 || ferror(b->f);
    if (!lost) fwrite(b->text, 1, b->len, s->f);
    hb_sink_block_free(b);
    s->unflushed = 0;
    return lost ? -ENOMEM : hb_outfile_mark(s->out);
}

int hb_sink_close(struct hb_sink *s, bool complete)
{
    if (!s) return 0;
    if (s->format == HB_FORMAT_TABLE && s->layout->table_end) s->layout->table_end(s->f);
    int rc = hb_outfile_close(s->out, complete);
    free(s);
    return rc;
}
