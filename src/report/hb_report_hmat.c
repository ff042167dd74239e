/* Report: the firmware's HMAT and the kernel's memory tiers beside a measured matrix. */
#include "hb_jsonl_read.h"
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_sections.h"
#include "hb_report_draw.h"

#include <stdio.h>
#include <string.h>

void hb_report_hmat_matrix(FILE *f, const json_t *m, const char *path)
{
    const json_t *h = json_object_get(m, "hmat");
    if (!json_is_object(h)) {
        const char *note = hb_jsonl_read_str(m, "hmat_note", "");
        if (*note) {
            fputs("<p>HMAT: ", f);
            hb_escape_html(f, note);
            fputs("</p>\n", f);
        }
        return;
    }
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    const json_t *flags = json_object_get(h, "flags");
    fputs("<p>firmware HMAT ", f);
    hb_escape_html(f, hb_jsonl_read_str(h, "attribute", ""));
    fputs(" (empty: the firmware gives no figure for that initiator)</p>\n", f);
    /* Bandwidth is better higher, latency lower; the ratio follows the measured metric. */
    hb_report_draw_svg_heatmap(f, rows, cols, json_object_get(h, "values"), flags, "hmat",
                               hb_units_shown(hb_jsonl_read_str(h, "unit", "")),
                               strstr(hb_jsonl_read_str(h, "attribute", ""), "andwidth"));
    fputs("<p>measured / firmware HMAT</p>\n", f);
    hb_report_draw_svg_heatmap(f, rows, cols, json_object_get(h, "ratio"), flags, "hmat-ratio",
                               "x HMAT",
                               strcmp(hb_jsonl_read_str(m, "metric", ""), "bandwidth") == 0);
    size_t i;
    json_t *fl;
    json_array_foreach(flags, i, fl)
    {
        if (i >= HB_REPORT_MAX_ROWS) break;
        fputs("<p class=\"warn flag\">! HMAT ", f);
        hb_escape_html(f, hb_jsonl_read_str(fl, "kind", ""));
        fputs(": ", f);
        hb_escape_html(f, hb_jsonl_read_str(fl, "reason", ""));
        fputs("</p>\n", f);
    }
    hb_report_kit_left_out_n(f, json_array_size(flags), HB_REPORT_MAX_ROWS, "HMAT flags", path,
                             "select(.type == \"matrix\") | .hmat.flags[]?");
}

/* One line per kernel-tier disagreement of kind ("flags" or "inconclusive"), the first
 * HB_REPORT_MAX_ROWS of them. */
static void report_ktier_list(FILE *f, const json_t *k, const char *kind, const char *path)
{
    bool flag = strcmp(kind, "flags") == 0;
    const json_t *list = json_object_get(k, kind);
    size_t i;
    json_t *fl;
    json_array_foreach(list, i, fl)
    {
        if (i >= HB_REPORT_MAX_ROWS) break;
        fputs(flag ? "<p class=\"warn flag\">! kernel tier: "
                   : "<p class=\"note\">kernel tier, inconclusive (within the noise): ",
              f);
        hb_escape_html(f, hb_jsonl_read_str(fl, "reason", ""));
        fputs("</p>\n", f);
    }
    char select[96];
    snprintf(select, sizeof(select), "select(.type == \"matrix\") | .kernel_tiers.%s[]?", kind);
    hb_report_kit_left_out_n(f, json_array_size(list), HB_REPORT_MAX_ROWS,
                             flag ? "kernel tier flags" : "kernel tier inconclusives", path,
                             select);
}

void hb_report_hmat_kernel_tiers(FILE *f, const json_t *m, const char *path)
{
    const json_t *k = json_object_get(m, "kernel_tiers");
    if (!json_is_object(k)) return;
    fputs("<p class=\"ktiers\">kernel memory tiers:", f);
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(k, "tiers"), i, x)
        fprintf(f, "%s node %lld memory_tier%lld", i ? "," : "",
                (long long)json_integer_value(json_object_get(x, "node")),
                (long long)json_integer_value(json_object_get(x, "kernel_tier")));
    fputs(" (a higher number is a slower tier)</p>\n", f);
    report_ktier_list(f, k, "flags", path);
    report_ktier_list(f, k, "inconclusive", path);
}
