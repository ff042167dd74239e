/* The c2c section's parts besides its heatmaps: each matrix's notes (why a cell is empty) and
 * the false-sharing and lock studies with their notes. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_report_axis.h"

#include <string.h>

void hb_report_c2c_matrix_notes(FILE *f, const json_t *m)
{
    size_t i;
    json_t *n;
    json_array_foreach(json_object_get(m, "notes"), i, n)
    {
        if (!json_string_value(n) || i >= HB_REPORT_MAX_ROWS) continue;
        fputs("<p class=\"note c2cnote\">", f);
        hb_escape_html(f, json_string_value(n));
        fputs("</p>\n", f);
    }
}

/* One study record as a row: what, where, its figure, status and note. */
static void c2c_study_row(FILE *f, const json_t *r)
{
    bool lock = strcmp(hb_jsonl_read_str(r, "type", ""), "c2c_lock") == 0;
    char num[32];
    fputs("<tr><td>", f);
    if (lock) {
        fputs("lock hand-off, ", f);
        hb_escape_html(f, hb_jsonl_read_str(r, "lock", "?"));
    } else
        fputs("false sharing", f);
    fputs("</td>", f);
    hb_report_data_cell(f, json_object_get(r, "placement"));
    hb_report_data_cell(f, json_object_get(r, "cpus"));
    const char *key = lock ? "ns_per_handoff" : "slowdown";
    if (json_is_number(json_object_get(r, key)))
        fprintf(f, "<td>%s %s</td>",
                hb_report_axis_num_plain(hb_jsonl_read_num(r, key, 0), num, sizeof(num)),
                lock ? "ns per hand-off" : "x slower than padded");
    else
        fputs("<td>&#8211;</td>", f);
    hb_report_data_cell(f, json_object_get(r, "status"));
    fputs("<td class=\"kv\">", f);
    hb_escape_html(f, *hb_jsonl_read_str(r, "note", "") ? hb_jsonl_read_str(r, "note", "")
                                                        : "\xe2\x80\x93");
    fputs("</td></tr>\n", f);
}

void hb_report_c2c_studies(FILE *f, const struct hb_report_in *in, int nin)
{
    for (int i = 0; i < nin; i++) {
        if (!in[i].c2c_studies.total) continue;
        fputs("<div class=\"row\" style=\"margin-top:24px\"><div class=\"panel\">", f);
        hb_report_kit_caption(f, &in[i].res, "false sharing and lock hand-off");
        fputs("<table class=\"numbers c2cstudies\"><tr><th>study</th><th>placement</th>"
              "<th>CPUs</th><th>figure</th><th>status</th><th>note</th></tr>\n",
              f);
        size_t k;
        json_t *r;
        json_array_foreach(in[i].res.records, k,
                           r) if (strncmp(hb_jsonl_read_str(r, "type", ""), "c2c_", 4) == 0)
            c2c_study_row(f, r);
        fputs("</table>\n", f);
        hb_report_kit_left_out(f, 0, &in[i].c2c_studies, "studies", in[i].res.path,
                               "select(.type | startswith(\"c2c_\"))");
        fputs("</div></div>\n", f);
    }
}
