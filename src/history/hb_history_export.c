/* `hopbench history export` (hb_history.h): the series for the dashboards sites run, each
 * point one line of InfluxDB line protocol or one CSV row, its identity split back into
 * tags; or check's change points as Grafana annotations. Written whole or not at all
 * (hb_outfile.h). */
#include "hb_history.h"

#include "hb_error.h"
#include "hb_strf.h"
#include "hb_escape.h"
#include "hb_history_add.h"
#include "hb_history_load.h"
#include "hb_history_schema.h"
#include "hb_outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* compare's identity ("suite experiment label cpu=C mem=M kernel threads=T bytes=B") in its
 * parts, pointing into buf (a copy). */
struct ident_parts {
    const char *suite, *experiment, *label, *cpu, *mem, *kernel, *threads, *bytes;
};

static void split_identity(const char *identity, char *buf, size_t len, struct ident_parts *p)
{
    snprintf(buf, len, "%s", identity);
    *p = (struct ident_parts){"", "", "", "", "", "", "", ""};
    /* The tail starts at the last " cpu=": a label may hold spaces, the tail's words never. */
    char *tail = NULL;
    for (char *at = strstr(buf, " cpu="); at; at = strstr(at + 1, " cpu="))
        tail = at;
    if (tail) *tail++ = '\0';
    char *save = NULL;
    p->suite = strtok_r(buf, " ", &save);
    p->experiment = p->suite ? strtok_r(NULL, " ", &save) : NULL;
    p->label = p->experiment ? strtok_r(NULL, "", &save) : NULL;
    if (!p->suite) p->suite = "";
    if (!p->experiment) p->experiment = "";
    if (!p->label) p->label = "";
    for (char *w = tail ? strtok_r(tail, " ", &save) : NULL; w; w = strtok_r(NULL, " ", &save)) {
        if (strncmp(w, "cpu=", 4) == 0)
            p->cpu = w + 4;
        else if (strncmp(w, "mem=", 4) == 0)
            p->mem = w + 4;
        else if (strncmp(w, "threads=", 8) == 0)
            p->threads = w + 8;
        else if (strncmp(w, "bytes=", 6) == 0)
            p->bytes = w + 6;
        else
            p->kernel = w;
    }
}

/* A tag key or value, or the measurement, as line protocol reads it back: comma, equals
 * and space escaped (equals not in the measurement), control bytes as ' '. */
static void influx_esc(FILE *f, const char *s, bool measurement)
{
    for (; *s; s++) {
        if (*s == ',' || *s == ' ' || (*s == '=' && !measurement) || *s == '\\') fputc('\\', f);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
}

/* ",key=value" when there is a value ("-" is none: a record without that node). */
static void influx_tag(FILE *f, const char *key, const char *value)
{
    if (!value || !value[0] || strcmp(value, "-") == 0) return;
    fprintf(f, ",%s=", key);
    influx_esc(f, value, false);
}

static void influx_field(FILE *f, const char *key, double v, bool first)
{
    char text[40];
    if (!isfinite(v)) return;
    hb_history_add_real_text(text, v);
    fprintf(f, "%s%s=%s", first ? " " : ",", key, text);
}

static void influx_point(FILE *f, const struct hb_history_series *s, const struct ident_parts *id,
                         const struct hb_history_point *p)
{
    influx_esc(f, "hopbench", true);
    influx_tag(f, "host", s->host);
    influx_tag(f, "suite", id->suite);
    influx_tag(f, "experiment", id->experiment);
    influx_tag(f, "label", id->label);
    influx_tag(f, "cpu_node", id->cpu);
    influx_tag(f, "mem_node", id->mem);
    influx_tag(f, "kernel", id->kernel);
    influx_tag(f, "threads", id->threads);
    influx_tag(f, "bytes", id->bytes);
    influx_tag(f, "metric", s->metric);
    influx_tag(f, "unit", s->unit);
    influx_field(f, "value", p->value, true);
    influx_field(f, "ci_low", p->ci_lo, false);
    influx_field(f, "ci_high", p->ci_hi, false);
    fprintf(f, " %lld000000000\n", p->time);
}

static const char *const csv_names[] = {"host",     "suite",   "experiment", "label",  "cpu_node",
                                        "mem_node", "kernel",  "threads",    "bytes",  "metric",
                                        "unit",     "time",    "run",        "commit", "value",
                                        "ci_low",   "ci_high", "repeats",    NULL};

static void csv_real(FILE *f, double v)
{
    char text[40];
    if (isfinite(v)) {
        hb_history_add_real_text(text, v);
        fputs(text, f);
    }
}

static void csv_point(FILE *f, const struct hb_history_series *s, const struct ident_parts *id,
                      const struct hb_history_point *p)
{
    const char *cells[] = {s->host,    id->suite,   id->experiment, id->label, id->cpu, id->mem,
                           id->kernel, id->threads, id->bytes,      s->metric, s->unit};
    for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
        hb_escape_csv(f, cells[i]);
        fputc(',', f);
    }
    fprintf(f, "%lld,%lld,", p->time, p->run_id);
    hb_escape_csv(f, p->commit ? p->commit : "");
    fputc(',', f);
    csv_real(f, p->value);
    fputc(',', f);
    csv_real(f, p->ci_lo);
    fputc(',', f);
    csv_real(f, p->ci_hi);
    fputc(',', f);
    for (size_t r = 0; r < p->n_repeats; r++) {
        if (r) fputc(' ', f);
        csv_real(f, p->repeats[r]);
    }
    fputc('\n', f);
}

/* Where export_host writes. */
struct points_out {
    const struct hb_history_opts *o;
    FILE *f;
    struct hb_outfile *of;
};

/* One host's points (hb_history_load_each's fn), marked complete in the file. */
static int export_host(void *ctx, const struct hb_history_series *s, size_t n)
{
    const struct points_out *out = ctx;
    for (size_t i = 0; i < n; i++) {
        char buf[1024];
        struct ident_parts id;
        split_identity(s[i].identity, buf, sizeof(buf), &id);
        for (size_t k = 0; k < s[i].n_points; k++)
            (out->o->exporting == HB_HISTORY_CSV ? csv_point : influx_point)(out->f, &s[i], &id,
                                                                             &s[i].points[k]);
    }
    return hb_outfile_mark(out->of);
}

/* Every point of every series the filters let through, host by host. */
static int export_points(struct hb_history_db *db, const struct hb_history_opts *o, FILE *f,
                         struct hb_outfile *of)
{
    const struct hb_history_filter flt = {o->host, o->match, o->since};
    struct points_out out = {o, f, of};
    if (o->exporting == HB_HISTORY_CSV)
        for (int i = 0; csv_names[i]; i++)
            fprintf(f, "%s%s", csv_names[i], csv_names[i + 1] ? "," : "\n");
    return hb_history_load_each(db, &flt, export_host, &out, NULL);
}

/* check's change points as Grafana annotations (POST /api/annotations takes each): time
 * in milliseconds, tags, and the row in words. */
static int export_grafana(struct hb_history_db *db, const struct hb_history_opts *o, FILE *f)
{
    json_t *rows = json_array(), *out = json_array();
    int rc = rows && out ? hb_history_check_change_rows(db, o, rows) : -ENOMEM;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *host = json_string_value(json_object_get(row, "host"));
        const char *series = json_string_value(json_object_get(row, "series"));
        const char *metric = json_string_value(json_object_get(row, "metric"));
        const char *dir = json_string_value(json_object_get(row, "direction"));
        const char *kind = json_string_value(json_object_get(row, "kind"));
        const char *knobs = json_string_value(json_object_get(row, "knobs"));
        json_t *at = json_object_get(row, "at_run");
        char *text = hb_strf("%s %s %+.2f%%: %s %s on %s (p adj %.3g)%s%s", dir, kind,
                             json_number_value(json_object_get(row, "change_pct")), series, metric,
                             host, json_number_value(json_object_get(row, "p_adjusted")),
                             knobs && knobs[0] ? "; config changed: " : "", knobs ? knobs : "");
        json_t *tags = json_pack("[s, s, s, s, s]", "hopbench", host, dir, kind, metric);
        json_t *a = text && tags ? json_object() : NULL;
        if (a) {
            json_object_set_new(
                a, "time",
                json_integer(json_integer_value(json_object_get(row, "at_time_unix")) * 1000));
            json_object_set_new(a, "tags", tags);
            json_object_set_new(a, "text", json_string(text));
            json_object_set(a, "run", at);
            json_object_set(a, "change_point", row);
        } else {
            json_decref(tags);
        }
        free(text);
        if (!a || json_array_append_new(out, a)) rc = -ENOMEM;
    }
    if (rc == 0 && (json_dumpf(out, f, JSON_INDENT(1)) || fputc('\n', f) == EOF)) rc = -EIO;
    if (rc == -ENOMEM) hb_error_set("history export: out of memory");
    json_decref(rows);
    json_decref(out);
    return rc;
}

int hb_history_export(const struct hb_history_opts *o)
{
    struct hb_history_db *db = NULL;
    struct hb_outfile *of = NULL;
    FILE *f = NULL;
    const struct hb_history_db_how how = {o->busy_ms, false};
    const char *target = o->output ? o->output : "";
    int rc = hb_outfile_check(target, (const char *const[]){o->db, NULL});
    if (rc == 0) rc = hb_history_db_open(o->db, &how, &db);
    if (rc == 0) rc = hb_history_schema_ready(db, false);
    if (rc == 0) rc = hb_outfile_open(target, false, &of, &f);
    if (rc == 0)
        rc = o->exporting == HB_HISTORY_GRAFANA ? export_grafana(db, o, f)
                                                : export_points(db, o, f, of);
    if (rc == -EIO) hb_error_set("history export: cannot write %s", hb_outfile_name(of));
    if (of) {
        int crc = hb_outfile_close(of, rc == 0);
        if (rc == 0) rc = crc;
    }
    hb_history_db_close(db);
    return rc;
}
