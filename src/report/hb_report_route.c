/* `hopbench report --history DB` (hb_report_route.h): the series the filters let through
 * loaded from the store at once (a report draws a few), their change points found as
 * `history check` finds them (the same engine, defaults and FDR over every series drawn),
 * and the page drawn from memory (hb_report_history.c). Without --history, report is the
 * records' report, untouched. */
#include "hb_report_route.h"

#include "hb_args.h"
#include "hb_changepoint.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_history.h"
#include "hb_history_load.h"
#include "hb_outfile.h"
#include "hb_report.h"
#include "hb_report_history.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

struct given {
    const char *out, *db, *host, *match, *since, *cell;
};

/* The filters as the page says them ("--host n07 --cell 'bw*'"): a new string. */
static char *filters_text(const struct given *g)
{
    return hb_strf("%s%s%s%s%s%s%s%s", g->host ? " --host " : "", g->host ? g->host : "",
                   g->match ? " --match " : "", g->match ? g->match : "",
                   g->since ? " --since " : "", g->since ? g->since : "", g->cell ? " --cell " : "",
                   g->cell ? g->cell : "");
}

static int draw(const struct given *g, long long since)
{
    struct hb_history_filter filter = {g->host, g->match, since};
    struct hb_history_set set;
    int rc = hb_history_load_all(g->db, HB_HISTORY_BUSY_MS, &filter, &set);
    if (rc) return rc;
    struct hb_changepoint_params params = hb_changepoint_defaults();
    struct hb_changepoint *cps = NULL;
    size_t ncp = 0;
    char *filters = filters_text(g);
    rc = filters ? hb_changepoint_find(set.series, set.n, &params, &cps, &ncp, NULL) : -ENOMEM;
    struct hb_outfile *of = NULL;
    FILE *f = NULL;
    if (rc == 0) rc = hb_outfile_open(g->out, false, &of, &f);
    if (rc == 0) {
        struct hb_report_history h = {
            g->db, filters + (*filters == ' '), set.series, set.n, cps, ncp, g->cell};
        int wrc = hb_report_history_write(f, &h);
        int mrc = wrc ? wrc : hb_outfile_mark(of);
        int crc = hb_outfile_close(of, wrc == 0 && mrc == 0);
        rc = wrc ? wrc : mrc ? mrc : crc;
    }
    free(filters);
    hb_changepoint_free(cps, ncp);
    hb_history_load_set_free(&set);
    return rc;
}

/* The options only the history's report reads, given without --history: the first, or NULL. */
static const char *history_only(const struct given *g)
{
    return g->host ? "host" : g->match ? "match" : g->since ? "since" : g->cell ? "cell" : NULL;
}

int hb_report_route_main(int argc, char **argv)
{
    struct given g = {0};
    const char **operands = calloc((size_t)argc + 1, sizeof(*operands));
    int n = 0, rc = operands ? 0 : -ENOMEM;
    const struct hb_arg places[] = {
        {"output", &g.out, NULL, NULL},  {"history", &g.db, NULL, NULL},
        {"host", &g.host, NULL, NULL},   {"match", &g.match, NULL, NULL},
        {"since", &g.since, NULL, NULL}, {"cell", &g.cell, NULL, NULL},
        {NULL, NULL, NULL, NULL}};
    if (rc == 0)
        rc = hb_args_parse(argc, argv, hb_report_operands, hb_report_opts, places, operands, &n);
    if (rc == 0 && !g.db && !history_only(&g)) {
        free(operands);
        return hb_report_main(argc, argv);
    }
    if (rc == 0 && !g.db) {
        hb_error_set("report: --%s is for the history's report: give --history DB with it",
                     history_only(&g));
        rc = -EINVAL;
    }
    if (rc == 0 && n) {
        hb_error_set("report --history draws the database, not result files ('%s'): give one or "
                     "the other",
                     operands[0]);
        rc = -EINVAL;
    }
    if (rc == 0 && !g.out) {
        hb_error_set("report --history needs -o FILE.html; %s",
                     hb_args_usage("report", hb_report_operands));
        rc = -EINVAL;
    }
    long long since = LLONG_MIN;
    if (rc == 0 && g.since) rc = hb_history_since("report: --since", g.since, &since);
    if (rc == 0) rc = hb_outfile_check(g.out, (const char *const[]){g.db, NULL});
    if (rc == 0) rc = draw(&g, since);
    free(operands);
    if (rc) hb_error_print(rc);
    return hb_error_exit_code(rc);
}
