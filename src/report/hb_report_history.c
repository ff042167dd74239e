/* The history's report page (hb_report_history.h): its summary with every change point, the
 * fleet section of the chosen cell, then a section per series with its time plot and its
 * change points, those with change points first; the contents made from the page as the
 * records' report makes them (hb_report_toc_write). */
#include "hb_report_history.h"

#include "hb_escape.h"
#include "hb_report_sections.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The first change point of series i in cps (sorted by series), and how many it has. */
static size_t cps_of(const struct hb_report_history *h, size_t i, size_t *n)
{
    size_t lo = 0, hi = h->ncp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->cps[mid].series < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (*n = 0; lo + *n < h->ncp && h->cps[lo + *n].series == i; ++*n)
        ;
    return lo;
}

static void series_name(FILE *f, const struct hb_history_series *s)
{
    hb_escape_html(f, s->host);
    fputs(" \u00b7 ", f);
    hb_escape_html(f, s->identity);
    fputs(" \u00b7 ", f);
    hb_escape_html(f, s->metric);
}

/* "9.2 [9.1, 9.3]" of a segment's median and interval. */
static void figure_cell(FILE *f, const struct hb_interval *iv)
{
    fprintf(f, "<td>%.4g [%.4g, %.4g]</td>", iv->value, iv->lo, iv->hi);
}

static void cp_head(FILE *f, bool with_series)
{
    fprintf(f,
            "<table class=\"changepoints\"><tr>%s<th>first run after</th><th>commit</th>"
            "<th>before: median [ci95]</th><th>after</th><th>change</th><th>p</th>"
            "<th>p adjusted</th><th>kind</th><th>knobs changed</th><th>hopbench changed</th>"
            "</tr>\n",
            with_series ? "<th>series</th>" : "");
}

static void cp_row(FILE *f, const struct hb_report_history *h, const struct hb_changepoint *c,
                   bool with_series)
{
    const struct hb_history_series *s = &h->series[c->series];
    const struct hb_history_point *p = &s->points[c->at];
    char day[16];
    fprintf(f, "<tr class=\"cp\" data-series=\"%zu\" data-at=\"%zu\">", c->series, c->at);
    if (with_series) {
        fprintf(f, "<td class=\"kv\"><a href=\"#series-%zu\">", c->series);
        series_name(f, s);
        fputs("</a></td>", f);
    }
    fprintf(f, "<td>%s (run %lld)</td><td class=\"kv\"><code>",
            hb_report_history_plot_day(p->time, day, sizeof(day)), p->run_id);
    hb_escape_html(f, p->commit ? p->commit : "");
    fputs("</code></td>", f);
    figure_cell(f, &c->before);
    figure_cell(f, &c->after);
    fprintf(f, "<td class=\"%s\">%+.2f%%</td><td>%.3g</td><td>%.3g</td><td>%s%s</td>",
            c->worse ? "worse" : "better", c->change_pct, c->p, c->p_adjusted,
            c->worse ? "worse" : "better", c->creep ? ", creep" : "");
    fputs("<td class=\"kv\">", f);
    for (size_t k = 0; k < c->n_knobs; k++) {
        if (k) fputs(", ", f);
        hb_escape_html(f, c->knobs[k]);
    }
    fprintf(f, "</td><td>%s</td></tr>\n", c->version_changed ? "yes" : "no");
}

static void summary(FILE *f, const struct hb_report_history *h)
{
    size_t points = 0, hosts = 0, worse = 0, creep = 0;
    long long t0 = LLONG_MAX, t1 = LLONG_MIN;
    for (size_t i = 0; i < h->n; i++) {
        const struct hb_history_series *s = &h->series[i];
        if (i == 0 || strcmp(s->host, h->series[i - 1].host) != 0) hosts++;
        if (!s->n_points) continue;
        points += s->n_points;
        t0 = s->points[0].time < t0 ? s->points[0].time : t0;
        t1 = s->points[s->n_points - 1].time > t1 ? s->points[s->n_points - 1].time : t1;
    }
    if (!points) t0 = t1 = 0;
    for (size_t k = 0; k < h->ncp; k++)
        worse += h->cps[k].worse, creep += h->cps[k].creep;
    char d0[16], d1[16];
    fprintf(f,
            "<section id=\"history-summary\"><h2>History summary</h2>\n<p class=\"history-counts\" "
            "data-series=\"%zu\" data-hosts=\"%zu\" data-points=\"%zu\" data-changepoints=\"%zu\">"
            "%zu series of %zu host(s), %zu points from %s to %s; %zu change point(s), %zu of "
            "them worse, %zu slow creep. A change point needs its rank test over the runs' "
            "repeats to pass the false discovery rate across every series (Benjamini-Hochberg) "
            "and its change to pass --min-change.</p>\n",
            h->n, hosts, points, h->ncp, h->n, hosts, points,
            hb_report_history_plot_day(t0, d0, sizeof(d0)),
            hb_report_history_plot_day(t1, d1, sizeof(d1)), h->ncp, worse, creep);
    if (h->ncp) {
        cp_head(f, true);
        for (size_t k = 0; k < h->ncp; k++)
            cp_row(f, h, &h->cps[k], true);
        fputs("</table>\n", f);
    }
    fputs("</section>\n", f);
}

static int series_section(FILE *f, const struct hb_report_history *h, size_t i)
{
    size_t n, first = cps_of(h, i, &n);
    fprintf(f, "<section id=\"series-%zu\"><h2>", i);
    series_name(f, &h->series[i]);
    fputs("</h2>\n", f);
    int rc = hb_report_history_plot(f, &h->series[i], i, h->cps + first, n);
    fputs("<p class=\"note\">Each point is a run's median with its 95% interval; a dashed line "
          "marks a change point (red worse, green better) with the levels of the runs before and "
          "after it, a blue one a change of the captured configuration.</p>\n",
          f);
    if (n) {
        cp_head(f, false);
        for (size_t k = 0; k < n; k++)
            cp_row(f, h, &h->cps[first + k], false);
        fputs("</table>\n", f);
    }
    fputs("</section>\n", f);
    return rc;
}

/* The series drawn: those with change points first, each group in the given order. */
static int series_sections(FILE *f, const struct hb_report_history *h)
{
    size_t drawn = 0, n;
    int rc = 0;
    for (int with = 1; with >= 0 && rc == 0; with--)
        for (size_t i = 0; i < h->n && rc == 0 && drawn < HB_HISTORY_MAX_PLOTS; i++) {
            cps_of(h, i, &n);
            if ((n > 0) != with) continue;
            rc = series_section(f, h, i);
            drawn++;
        }
    if (rc == 0 && drawn < h->n)
        fprintf(f,
                "<section id=\"series-more\"><h2>Series not drawn</h2><p class=\"note\">%zu of "
                "%zu series are drawn (those with change points first); narrow the others with "
                "--host, --match or --since.</p></section>\n",
                drawn, h->n);
    return rc;
}

int hb_report_history_write(FILE *out, const struct hb_report_history *h)
{
    struct hb_report_page pg;
    FILE *f = hb_report_page_open(&pg, "hopbench history");
    if (!f) return -ENOMEM;
    fputs("<p>Database: <code>", f);
    hb_escape_html(f, h->source);
    fputs("</code>", f);
    if (h->filters && *h->filters) {
        fputs("; filters: <code>", f);
        hb_escape_html(f, h->filters);
        fputs("</code>", f);
    }
    fputs("</p>\n", f);
    summary(f, h);
    int rc = hb_report_history_fleet(f, h);
    if (rc == 0) rc = series_sections(f, h);
    return hb_report_page_close(&pg, out, rc);
}
