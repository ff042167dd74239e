#include "hb_output.h"

#include "hb_error.h"
#include "hb_escape.h"
#include "hb_outfile.h"
#include "hb_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hb_sink {
    enum hb_format format;
    FILE *f;
    struct hb_outfile *out;
    bool csv_header_done;
};

int hb_sink_open(enum hb_format f, const char *path, struct hb_sink **out)
{
    struct hb_sink *s = calloc(1, sizeof(*s));
    if (!s) return -ENOMEM;
    s->format = f;
    int rc = hb_outfile_open(path, true, &s->out, &s->f);
    if (rc) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* CSV cell: strings quoted when needed, arrays and objects as compact JSON in quotes. */
static void hb_csv_cell(FILE *f, json_t *v)
{
    if (!v || json_is_null(v)) return;
    if (json_is_string(v)) {
        hb_esc_csv(f, json_string_value(v));
        return;
    }
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
    if (!text) return;
    hb_esc_csv(f, text);
    free(text);
}

/* CSV carries measurement-like records (measurements and matrix cells) in one column set. */
static void hb_csv_write(struct hb_sink *s, json_t *rec)
{
    const char *type = json_string_value(json_object_get(rec, "type"));
    if (!type || (strcmp(type, "measurement") != 0 && strcmp(type, "cell") != 0)) return;
    if (!s->csv_header_done) {
        for (int i = 0; hb_record_columns[i]; i++)
            fprintf(s->f, "%s%s", i ? "," : "", hb_record_columns[i]);
        fputc('\n', s->f);
        s->csv_header_done = true;
    }
    for (int i = 0; hb_record_columns[i]; i++) {
        if (i) fputc(',', s->f);
        hb_csv_cell(s->f, json_object_get(rec, hb_record_columns[i]));
    }
    fputc('\n', s->f);
}

int hb_sink_write(struct hb_sink *s, json_t *rec)
{
    switch (s->format) {
    case HB_FORMAT_JSONL:
        /* A failed write shows in the stream's error flag, which the mark below reads. */
        (void)json_dumpf(rec, s->f, JSON_COMPACT | JSON_REAL_PRECISION(10));
        fputc('\n', s->f);
        break;
    case HB_FORMAT_CSV:
        hb_csv_write(s, rec);
        break;
    case HB_FORMAT_TABLE:
        hb_table_print(s->f, rec);
        break;
    }
    return hb_outfile_mark(s->out);
}

int hb_sink_close(struct hb_sink *s, bool complete)
{
    if (!s) return 0;
    int rc = hb_outfile_close(s->out, complete);
    free(s);
    return rc;
}
