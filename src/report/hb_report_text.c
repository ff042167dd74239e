/* report -o FILE.txt or FILE.csv (hb_report.h): result files laid out as the run printed them,
 * in the table or CSV format of hb_sink.h, so a saved table (run-local's table.txt) has the
 * columns, headlines and intervals of the terminal's. */
#include "hb_report.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_run_layout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct hb_table_ctx {
    struct hb_sink *sink;
    const struct hb_results *res; /* the file being read: its run record goes first */
    bool run_written;
    int rc; /* the first write error */
};

static void table_put(struct hb_table_ctx *c, const json_t *rec)
{
    if (c->rc == 0) c->rc = hb_sink_write(c->sink, (json_t *)rec);
}

/* Every record but the run record, in file order, after the run record. */
static int table_take(void *ctx, const json_t *rec)
{
    struct hb_table_ctx *c = ctx;
    if (!c->run_written && c->res->run) table_put(c, c->res->run);
    c->run_written = c->run_written || c->res->run;
    table_put(c, rec);
    return 0;
}

static int table_file(struct hb_table_ctx *c, const char *path)
{
    struct hb_results r;
    c->res = &r;
    c->run_written = false;
    int rc = hb_jsonl_load_read_take(path, table_take, c, &r);
    if (rc) return rc;
    if (!c->run_written && r.run) table_put(c, r.run);
    if (r.run_line2) {
        hb_error_set("%s:%d: a second run record (several runs in one file): give each run a "
                     "file of its own",
                     r.path, r.run_line2);
        rc = -EINVAL;
    } else if (r.skipped_line) {
        fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n", r.path,
                r.skipped_line);
    }
    hb_jsonl_load_free(&r);
    return rc;
}

int hb_report_text(enum hb_format f, const char *out, const char *const *inputs, int nin)
{
    struct hb_table_ctx c = {0};
    int rc = hb_sink_open_whole(f, out, &hb_run_layout, &c.sink);
    for (int i = 0; rc == 0 && i < nin; i++)
        if ((rc = table_file(&c, inputs[i])) == 0 && c.rc) rc = c.rc;
    if (!c.sink) return rc;
    if (rc == 0) return hb_sink_close(c.sink, true);
    /* The reason stays the message, not the closing's "not written". */
    char *why = strdup(hb_error_msg());
    hb_sink_close(c.sink, false);
    if (why) hb_error_set("%s", why);
    free(why);
    return rc;
}
