/* A series' time plot in the history's report (hb_report_history.h): each run's median as a
 * point at its start time with its interval as a whisker, every change point a dashed line
 * between the runs it falls between with the levels before and after it, every change of
 * the captured configuration a line of its own naming the knobs. Each element carries its
 * figures (data-*), so a test can hold the picture against the data. */
#include "hb_report_history.h"

#include "hb_changepoint_knobs.h"
#include "hb_escape.h"
#include "hb_report_axis.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#define PLOT_W 860
#define PLOT_H 300
#define PLOT_LEFT 70
#define PLOT_RIGHT 20
#define PLOT_TOP 34    /* the marks' labels */
#define PLOT_BOTTOM 48 /* the dates */
#define PLOT_INNER_W (PLOT_W - PLOT_LEFT - PLOT_RIGHT)
#define PLOT_INNER_H (PLOT_H - PLOT_TOP - PLOT_BOTTOM)
#define WORSE_COLOR "#b00"
#define BETTER_COLOR "#070"
#define CONFIG_COLOR "#36c"

const char *hb_report_history_plot_day(long long t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tmv;
    if (!gmtime_r(&tt, &tmv) || !strftime(buf, len, "%Y-%m-%d", &tmv)) snprintf(buf, len, "?");
    return buf;
}

struct frame {
    long long t0, t1;
    struct hb_axis y;
};

static double x_of(const struct frame *fr, long long t)
{
    if (fr->t1 <= fr->t0) return PLOT_LEFT + PLOT_INNER_W / 2.0;
    return PLOT_LEFT + PLOT_INNER_W * (double)(t - fr->t0) / (double)(fr->t1 - fr->t0);
}

static double y_of(const struct frame *fr, double v)
{
    return PLOT_TOP + PLOT_INNER_H * (1.0 - hb_report_axis_pos(&fr->y, v));
}

/* The y axis: every point's interval (its value where it has none) and every level drawn. */
static void frame_of(const struct hb_history_series *s, const struct hb_changepoint *cps,
                     size_t ncp, struct frame *fr)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s->n_points; i++) {
        const struct hb_history_point *p = &s->points[i];
        double a = isfinite(p->ci_lo) ? p->ci_lo : p->value;
        double b = isfinite(p->ci_hi) ? p->ci_hi : p->value;
        lo = fmin(lo, fmin(a, p->value)), hi = fmax(hi, fmax(b, p->value));
    }
    for (size_t k = 0; k < ncp; k++) {
        lo = fmin(lo, fmin(cps[k].before.value, cps[k].after.value));
        hi = fmax(hi, fmax(cps[k].before.value, cps[k].after.value));
    }
    fr->t0 = s->points[0].time, fr->t1 = s->points[s->n_points - 1].time;
    hb_report_axis_fit(&fr->y, lo, hi);
}

/* Ticks of whole days about a sixth of the span apart, labelled by date. */
static void time_axis(FILE *f, const struct frame *fr)
{
    static const long long steps[] = {1, 2, 5, 7, 14, 30, 61, 91, 182, 365};
    long long day = 86400, span = (fr->t1 - fr->t0) / day, step = steps[0];
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && span / step > 6; i++)
        step = steps[i];
    int y = PLOT_TOP + PLOT_INNER_H;
    for (long long t = (fr->t0 / day) * day; t <= fr->t1; t += step * day) {
        if (t < fr->t0) continue;
        char date[16];
        double x = x_of(fr, t);
        fprintf(f,
                "<line class=\"ax\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/><text "
                "class=\"tick xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                x, x, y, y + 4, x, y + 16, hb_report_history_plot_day(t, date, sizeof(date)));
    }
    fprintf(
        f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">run start (UTC)</text>\n",
        PLOT_LEFT + PLOT_INNER_W / 2, PLOT_H - 6);
}

static void value_axis(FILE *f, const struct frame *fr, const struct hb_history_series *s)
{
    double v[HB_AXIS_MAX_TICKS];
    int n = hb_report_axis_ticks(&fr->y, v, HB_AXIS_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        char num[32];
        double y = y_of(fr, v[i]);
        fprintf(f,
                "<line class=\"ax\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text "
                "class=\"tick ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                PLOT_LEFT - 4, PLOT_LEFT, y, y, PLOT_LEFT - 6, y + 4,
                hb_report_axis_label(&fr->y, v[i], num, sizeof(num)));
    }
    fprintf(f,
            "<text class=\"axis\" x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" "
            "text-anchor=\"middle\">",
            PLOT_TOP + PLOT_INNER_H / 2, PLOT_TOP + PLOT_INNER_H / 2);
    hb_escape_html(f, s->metric);
    fputs(" (", f);
    hb_escape_html(f, s->unit ? s->unit : "");
    fputs(")</text>\n", f);
}

/* Each run: its whisker (where it has an interval) and its point. */
static void points(FILE *f, const struct frame *fr, const struct hb_history_series *s)
{
    fputs("<g class=\"points\">\n", f);
    for (size_t i = 0; i < s->n_points; i++) {
        const struct hb_history_point *p = &s->points[i];
        double x = x_of(fr, p->time);
        if (isfinite(p->ci_lo) && isfinite(p->ci_hi) && p->ci_hi > p->ci_lo)
            fprintf(f,
                    "<line class=\"ci\" data-at=\"%zu\" data-lo=\"%.17g\" data-hi=\"%.17g\" "
                    "x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#777\"/>\n",
                    i, p->ci_lo, p->ci_hi, x, x, y_of(fr, p->ci_lo), y_of(fr, p->ci_hi));
        fprintf(f,
                "<circle class=\"point\" data-at=\"%zu\" data-run=\"%lld\" data-time=\"%lld\" "
                "data-value=\"%.17g\" cx=\"%.1f\" cy=\"%.2f\" r=\"2.5\" fill=\"#246\"/>\n",
                i, p->run_id, p->time, p->value, x, y_of(fr, p->value));
    }
    fputs("</g>\n", f);
}

/* Where a change at point `at` is drawn: between the run before and it. */
static double between(const struct frame *fr, const struct hb_history_series *s, size_t at)
{
    double x = x_of(fr, s->points[at].time);
    return at ? (x + x_of(fr, s->points[at - 1].time)) / 2.0 : x;
}

/* A level: the median of a segment's pooled repeats across its runs. */
static void level(FILE *f, const struct frame *fr, const struct hb_history_series *s, size_t k,
                  const char *side, size_t from, size_t to, double v, const char *color)
{
    fprintf(f,
            "<line class=\"level\" data-cp=\"%zu\" data-side=\"%s\" data-from=\"%zu\" "
            "data-to=\"%zu\" data-value=\"%.17g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.2f\" "
            "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\" opacity=\"0.6\"/>\n",
            k, side, from, to, v, x_of(fr, s->points[from].time), x_of(fr, s->points[to - 1].time),
            y_of(fr, v), y_of(fr, v), color);
}

static void change_marks(FILE *f, const struct frame *fr, const struct hb_history_series *s,
                         const struct hb_changepoint *cps, size_t ncp)
{
    for (size_t k = 0; k < ncp; k++) {
        const struct hb_changepoint *c = &cps[k];
        const char *color = c->worse ? WORSE_COLOR : BETTER_COLOR;
        double x = between(fr, s, c->at);
        fprintf(f,
                "<g class=\"cp%s%s\" data-cp=\"%zu\" data-at=\"%zu\" data-time=\"%lld\" "
                "data-change=\"%.17g\" data-p-adjusted=\"%.17g\"><line class=\"mark\" "
                "x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" style=\"stroke:%s\"/><text "
                "class=\"marklabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                "style=\"fill:%s\">%s%+.1f%%"
                "</text>\n",
                c->worse ? " worse" : " better", c->creep ? " creep" : "", k, c->at,
                s->points[c->at].time, c->change_pct, c->p_adjusted, x, x, PLOT_TOP - 6,
                PLOT_TOP + PLOT_INNER_H, color, x, PLOT_TOP - 22, color, c->creep ? "creep " : "",
                c->change_pct);
        level(f, fr, s, k, "before", c->before_from, c->before_to, c->before.value, "#444");
        level(f, fr, s, k, "after", c->after_from, c->after_to, c->after.value, color);
        fputs("</g>\n", f);
    }
}

/* A configuration change: the runs whose captured configs differ from the run before. */
static int config_marks(FILE *f, const struct frame *fr, const struct hb_history_series *s)
{
    for (size_t i = 1; i < s->n_points; i++) {
        const char *a = s->points[i - 1].config_json, *b = s->points[i].config_json;
        if (!a || !b || strcmp(a, b) == 0) continue;
        char **knobs;
        size_t n;
        int rc = hb_changepoint_knobs(a, b, &knobs, &n);
        if (rc) return rc;
        if (n) {
            double x = between(fr, s, i);
            fprintf(f, "<g class=\"config\" data-at=\"%zu\" data-knobs=\"", i);
            for (size_t k = 0; k < n; k++) {
                if (k) fputc(' ', f);
                hb_escape_html(f, knobs[k]);
            }
            fprintf(f,
                    "\"><line class=\"mark\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                    "style=\"stroke:%s\"/><text class=\"marklabel\" x=\"%.1f\" y=\"%d\" "
                    "text-anchor=\"middle\" style=\"fill:%s\">",
                    x, x, PLOT_TOP - 6, PLOT_TOP + PLOT_INNER_H, CONFIG_COLOR, x, PLOT_TOP - 10,
                    CONFIG_COLOR);
            hb_escape_html(f, knobs[0]);
            if (n > 1) fprintf(f, " +%zu", n - 1);
            fputs("</text></g>\n", f);
        }
        hb_changepoint_knobs_free(knobs, n);
    }
    return 0;
}

int hb_report_history_plot(FILE *f, const struct hb_history_series *s, size_t index,
                           const struct hb_changepoint *cps, size_t ncp)
{
    if (s->n_points == 0) return 0;
    struct frame fr;
    frame_of(s, cps, ncp, &fr);
    fprintf(f,
            "<svg class=\"history\" data-series=\"%zu\" data-points=\"%zu\" data-y-lo=\"%g\" "
            "data-y-hi=\"%g\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n",
            index, s->n_points, fr.y.lo, fr.y.hi, PLOT_W, PLOT_H, PLOT_W, PLOT_H);
    fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", PLOT_LEFT,
            PLOT_TOP, PLOT_INNER_W, PLOT_INNER_H);
    value_axis(f, &fr, s);
    time_axis(f, &fr);
    int rc = config_marks(f, &fr, s);
    change_marks(f, &fr, s, cps, ncp);
    points(f, &fr, s);
    fputs("</svg>\n", f);
    return rc;
}
