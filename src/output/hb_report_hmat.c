/* Report: the firmware's HMAT beside a measured matrix. */
#include "hb_jsonl_read.h"
#include "hb_report_kit.h"
#include "hb_report_sections.h"
#include "hb_report_draw.h"

#include <string.h>

void hb_report_matrix_hmat(FILE *f, const json_t *m, const char *path)
{
    const json_t *h = json_object_get(m, "hmat");
    if (!json_is_object(h)) {
        const char *note = hb_rec_str(m, "hmat_note", "");
        if (*note) {
            fputs("<p>HMAT: ", f);
            hb_html_esc(f, note);
            fputs("</p>\n", f);
        }
        return;
    }
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    const json_t *flags = json_object_get(h, "flags");
    fputs("<p>firmware HMAT ", f);
    hb_html_esc(f, hb_rec_str(h, "attribute", ""));
    fputs(" (empty: the firmware gives no figure for that initiator)</p>\n", f);
    /* Bandwidth is better higher, latency lower; the ratio follows the measured metric. */
    hb_svg_heatmap(f, rows, cols, json_object_get(h, "values"), flags, "hmat",
                   hb_unit_words(hb_rec_str(h, "unit", "")),
                   strstr(hb_rec_str(h, "attribute", ""), "andwidth"));
    fputs("<p>measured / firmware HMAT</p>\n", f);
    hb_svg_heatmap(f, rows, cols, json_object_get(h, "ratio"), flags, "hmat-ratio", "x HMAT",
                   strcmp(hb_rec_str(m, "metric", ""), "bandwidth") == 0);
    size_t i;
    json_t *fl;
    json_array_foreach(flags, i, fl)
    {
        if (i >= HB_REPORT_MAX_ROWS) break;
        fputs("<p class=\"warn flag\">! HMAT ", f);
        hb_html_esc(f, hb_rec_str(fl, "kind", ""));
        fputs(": ", f);
        hb_html_esc(f, hb_rec_str(fl, "reason", ""));
        fputs("</p>\n", f);
    }
    hb_report_left_out_n(f, json_array_size(flags), HB_REPORT_MAX_ROWS, "HMAT flags", path,
                         "select(.type == \"matrix\") | .hmat.flags[]?");
}
