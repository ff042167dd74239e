/* The fleet section of the history's report (hb_report_history.h): for each "identity
 * metric" that --cell matches, a heatmap of host x night (each cell the night's run, coloured
 * on one scale for the fleet, the better end as in every heatmap) with the hosts that changed
 * most on top, and their change points in a table. Bounded: the latest nights and the most
 * changed hosts, the rest counted. */
#include "hb_report_history.h"

#include "hb_escape.h"
#include "hb_report_axis.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FLEET_NIGHTS 120 /* the latest nights drawn */
#define FLEET_HOSTS 60   /* the most changed hosts drawn */
#define FLEET_CELLS 4    /* "identity metric"s drawn */
#define FLEET_LEFT 130   /* host names */
#define FLEET_TOP 10
#define FLEET_ROW 14
#define FLEET_DAY 86400LL

struct host_row {
    size_t series;
    double most;                     /* the largest |change| of its change points, 0 without */
    const struct hb_changepoint *cp; /* that change point, or NULL */
};

static int row_cmp(const void *a, const void *b)
{
    const struct host_row *x = a, *y = b;
    if (x->most != y->most) return x->most < y->most ? 1 : -1;
    return (x->series > y->series) - (x->series < y->series);
}

static int long_cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Whether series s is of the cell "identity metric" that matches the glob. */
static bool in_cell(const struct hb_history_series *s, const char *glob, char **key)
{
    char *k = NULL;
    if (asprintf(&k, "%s %s", s->identity, s->metric) < 0) return false;
    bool yes = fnmatch(glob, k, 0) == 0;
    if (yes && key)
        *key = k;
    else
        free(k);
    return yes;
}

static bool same_cell(const struct hb_history_series *a, const struct hb_history_series *b)
{
    return strcmp(a->identity, b->identity) == 0 && strcmp(a->metric, b->metric) == 0;
}

/* The nights (day numbers) of the rows' points, sorted and unique: the latest FLEET_NIGHTS
 * of them from *first on; their count. */
static size_t nights_of(const struct hb_report_history *h, const struct host_row *rows, size_t n,
                        long long **out, size_t *all)
{
    size_t total = 0, k = 0;
    for (size_t r = 0; r < n; r++)
        total += h->series[rows[r].series].n_points;
    long long *d = malloc(sizeof(*d) * (total ? total : 1));
    if (!d) return 0;
    for (size_t r = 0; r < n; r++) {
        const struct hb_history_series *s = &h->series[rows[r].series];
        for (size_t i = 0; i < s->n_points; i++)
            d[k++] = s->points[i].time / FLEET_DAY;
    }
    qsort(d, k, sizeof(*d), long_cmp);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || d[i] != d[u - 1]) d[u++] = d[i];
    *all = u;
    size_t keep = u > FLEET_NIGHTS ? FLEET_NIGHTS : u;
    memmove(d, d + (u - keep), sizeof(*d) * keep);
    *out = d;
    return keep;
}

static void heatmap(FILE *f, const struct hb_report_history *h, const struct host_row *rows,
                    size_t nrows, const long long *nights, size_t nn)
{
    const struct hb_history_series *first = &h->series[rows[0].series];
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < nrows; r++) {
        const struct hb_history_series *s = &h->series[rows[r].series];
        for (size_t i = 0; i < s->n_points; i++)
            if (s->points[i].time / FLEET_DAY >= nights[0])
                lo = fmin(lo, s->points[i].value), hi = fmax(hi, s->points[i].value);
    }
    int cw = nn ? (int)fmin(14.0, fmax(3.0, 700.0 / (double)nn)) : 14;
    int w = FLEET_LEFT + cw * (int)nn + 20, top = FLEET_TOP + FLEET_ROW * (int)nrows;
    fprintf(f,
            "<svg class=\"fleetmap\" data-hosts=\"%zu\" data-nights=\"%zu\" data-lo=\"%.17g\" "
            "data-hi=\"%.17g\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
            nrows, nn, lo, hi, w < 480 ? 480 : w, top + 130);
    for (size_t r = 0; r < nrows; r++) {
        const struct hb_history_series *s = &h->series[rows[r].series];
        int y = FLEET_TOP + FLEET_ROW * (int)r;
        fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", FLEET_LEFT - 4,
                y + FLEET_ROW - 3);
        hb_escape_html(f, s->host);
        fputs("</text>\n", f);
        size_t at = 0;
        for (size_t i = 0; i < s->n_points; i++) {
            long long day = s->points[i].time / FLEET_DAY;
            if (day < nights[0]) continue;
            while (at < nn && nights[at] < day)
                at++;
            double t = hi > lo ? (s->points[i].value - lo) / (hi - lo) : 0.5;
            char col[8], date[16];
            hb_report_axis_heat_color(s->higher_is_better ? t : 1.0 - t, col);
            fprintf(f, "<rect class=\"night\" data-host=\"");
            hb_escape_html(f, s->host);
            fprintf(f,
                    "\" data-night=\"%s\" data-at=\"%zu\" data-value=\"%.17g\" x=\"%d\" y=\"%d\" "
                    "width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                    hb_report_history_plot_day(s->points[i].time, date, sizeof(date)), i,
                    s->points[i].value, FLEET_LEFT + cw * (int)at, y, cw, FLEET_ROW - 1, col);
        }
    }
    size_t every = nn / 10 + 1;
    for (size_t j = 0; j < nn; j += every) {
        char date[16];
        int x = FLEET_LEFT + cw * (int)j + cw / 2;
        fprintf(f,
                "<text class=\"tick xtick\" x=\"%d\" y=\"%d\" text-anchor=\"end\" "
                "transform=\"rotate(-60 %d %d)\">%s</text>\n",
                x, top + 6, x, top + 6,
                hb_report_history_plot_day(nights[j] * FLEET_DAY, date, sizeof(date)));
    }
    hb_report_axis_svg_colorscale(f, FLEET_LEFT, top + 80, 300, lo, hi,
                                  first->higher_is_better != 0, first->unit ? first->unit : "");
    fputs("</svg>\n", f);
}

static void changed_most(FILE *f, const struct hb_report_history *h, const struct host_row *rows,
                         size_t n)
{
    size_t with = 0;
    for (size_t r = 0; r < n && rows[r].cp; r++)
        with++;
    fprintf(f, "<h3>Hosts that changed most</h3>\n<table class=\"changed-most\"><tr><th>host</th>"
               "<th>first run after</th><th>change</th><th>kind</th><th>knobs changed</th></tr>\n");
    for (size_t r = 0; r < with && r < 20; r++) {
        const struct hb_changepoint *c = rows[r].cp;
        const struct hb_history_series *s = &h->series[rows[r].series];
        char day[16];
        fputs("<tr class=\"changed\" data-host=\"", f);
        hb_escape_html(f, s->host);
        fprintf(f, "\" data-change=\"%.17g\"><td class=\"kv\">", c->change_pct);
        hb_escape_html(f, s->host);
        fprintf(f, "</td><td>%s</td><td class=\"%s\">%+.2f%%</td><td>%s%s</td><td class=\"kv\">",
                hb_report_history_plot_day(s->points[c->at].time, day, sizeof(day)),
                c->worse ? "worse" : "better", c->change_pct, c->worse ? "worse" : "better",
                c->creep ? ", creep" : "");
        for (size_t k = 0; k < c->n_knobs; k++) {
            if (k) fputs(", ", f);
            hb_escape_html(f, c->knobs[k]);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    fprintf(f, "<p class=\"note\">%zu of %zu hosts have a change point in this cell%s.</p>\n", with,
            n, with > 20 ? "; the 20 that changed most are listed" : "");
}

/* The rows of the cell that series[i] opens: every series of the same cell, its largest
 * change first. */
static struct host_row *rows_of(const struct hb_report_history *h, size_t i, size_t *n)
{
    struct host_row *rows = malloc(sizeof(*rows) * h->n);
    if (!rows) return NULL;
    *n = 0;
    for (size_t j = i; j < h->n; j++)
        if (same_cell(&h->series[j], &h->series[i])) rows[(*n)++] = (struct host_row){j, 0, NULL};
    for (size_t k = 0; k < h->ncp; k++)
        for (size_t r = 0; r < *n; r++)
            if (rows[r].series == h->cps[k].series && fabs(h->cps[k].change_pct) > rows[r].most)
                rows[r].most = fabs(h->cps[k].change_pct), rows[r].cp = &h->cps[k];
    qsort(rows, *n, sizeof(*rows), row_cmp);
    return rows;
}

/* One cell: its heatmap and its hosts. */
static int cell_panel(FILE *f, const struct hb_report_history *h, size_t i, const char *key)
{
    size_t n, all = 0;
    struct host_row *rows = rows_of(h, i, &n);
    long long *nights = NULL;
    size_t nn = rows ? nights_of(h, rows, n, &nights, &all) : 0;
    if (!rows || !nights) {
        free(rows);
        return -ENOMEM;
    }
    fputs("<div class=\"cell\" data-cell=\"", f);
    hb_escape_html(f, key);
    fputs("\"><h3>", f);
    hb_escape_html(f, key);
    fputs("</h3>\n", f);
    size_t drawn = n > FLEET_HOSTS ? FLEET_HOSTS : n;
    heatmap(f, h, rows, drawn, nights, nn);
    if (drawn < n || nn < all)
        fprintf(f,
                "<p class=\"note\">Drawn: the %zu most changed of %zu hosts, the latest %zu "
                "of %zu nights.</p>\n",
                drawn, n, nn, all);
    changed_most(f, h, rows, n);
    fputs("</div>\n", f);
    free(nights);
    free(rows);
    return 0;
}

int hb_report_history_fleet(FILE *f, const struct hb_report_history *h)
{
    if (!h->cell) return 0;
    fputs("<section id=\"history-fleet\"><h2>Fleet: ", f);
    hb_escape_html(f, h->cell);
    fputs("</h2>\n", f);
    size_t cells = 0, more = 0;
    int rc = 0;
    for (size_t i = 0; i < h->n && rc == 0; i++) {
        char *key = NULL;
        if (!in_cell(&h->series[i], h->cell, &key)) continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = same_cell(&h->series[j], &h->series[i]);
        if (!seen && cells < FLEET_CELLS) {
            rc = cell_panel(f, h, i, key);
            cells++;
        } else if (!seen)
            more++;
        free(key);
    }
    if (cells == 0)
        fputs("<p class=\"warn\">No series matches this cell (a glob over \"identity "
              "metric\").</p>\n",
              f);
    if (more) fprintf(f, "<p class=\"note\">%zu more cells match; name one.</p>\n", more);
    fputs("</section>\n", f);
    return rc;
}
