/* check's verdict (hb_health.h): for each host its reference (the baseline, the history or
 * its peers of the same hardware), each cell's call by compare's rules with the host's cells
 * as one family, its configuration against the reference's, the lines for people and the
 * exit code. */
#include "hb_health.h"
#include "hb_health_baseline.h"
#include "hb_health_cells.h"
#include "hb_health_config.h"
#include "hb_health_history.h"
#include "hb_health_record.h"
#include "hb_health_verdict.h"
#include "hb_suite_check.h"

#include "hb_config.h"
#include "hb_error.h"
#include "hb_family.h"
#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_opt_doc.h"
#include "hb_strf.h"
#include "hb_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The least change check calls worse, in percent, unless --threshold says otherwise: a
 * health check looks for a lost channel or a wrong setting, not for compare's 5%. */
#define HEALTH_THRESHOLD_PCT 10.0

/* What a host is judged against. */
struct health_ref {
    const char *what; /* "baseline", "history", "peers" */
    struct hb_health_cells cells;
    json_t *config;
    bool any_host; /* its cells serve any host (a baseline of one host) */
};

static const char *run_cpu_model(const json_t *run)
{
    return hb_jsonl_read_str(json_object_get(run, "config"), "cpu_model", "");
}

/* Every key of the plan among the reference's cells (of any host), or one line naming the
 * first missing: option is "--baseline" or "--history", where its file or URL. */
static int reference_has(const char *option, const char *where, const struct hb_health_cells *cells,
                         const struct hb_plan *plan)
{
    json_t *keys = json_array();
    int rc = keys ? hb_health_cells_plan_keys(plan, keys) : -ENOMEM;
    size_t i;
    json_t *k;
    json_array_foreach(keys, i, k)
    {
        bool found = false;
        for (size_t c = 0; rc == 0 && !found && c < cells->n; c++)
            found = strcmp(cells->v[c].key, json_string_value(k)) == 0;
        if (rc == 0 && !found) {
            hb_error_set("check: %s %s lacks the cell '%s' that this check measures: "
                         "give %s of this machine with the same --size and --nodes",
                         option, where, json_string_value(k),
                         strcmp(option, "--history") == 0 ? "a history of checks"
                                                          : "an earlier check");
            rc = -EINVAL;
        }
    }
    json_decref(keys);
    return rc;
}

/* --history: this host's series are there, with every cell of the plan. */
static int history_has(const char *url, const struct hb_plan *plan)
{
    char host[256];
    if (gethostname(host, sizeof(host)) != 0) snprintf(host, sizeof(host), "localhost");
    host[sizeof(host) - 1] = '\0';
    struct hb_health_cells cells = {0};
    json_t *config = NULL;
    int rc = hb_health_history_load(url, host, &cells, &config);
    if (rc == 0) rc = reference_has("--history", url, &cells, plan);
    hb_health_cells_free(&cells);
    json_decref(config);
    return rc;
}

int hb_health_precheck(const struct hb_options *o, const struct hb_topo *t,
                       const struct hb_plan *plan)
{
    if (o->history[0] && o->baseline[0]) {
        hb_error_set("check: --baseline %s and --history %s both name a reference: give one",
                     o->baseline, o->history);
        return -EINVAL;
    }
    if (o->history[0]) return history_has(o->history, plan);
    if (!o->baseline[0]) return 0;
    json_t *cfg = hb_config_read(t);
    if (!cfg) {
        hb_error_set("check: out of memory reading this machine's configuration");
        return -ENOMEM;
    }
    struct hb_health_baseline b;
    int rc = hb_health_baseline_load(o->baseline, t, run_cpu_model(cfg), &b);
    if (rc == 0) {
        rc = reference_has("--baseline", o->baseline, &b.cells, plan);
        hb_health_baseline_free(&b);
    }
    json_decref(cfg);
    return rc;
}

/* A host's config: host_configs' entry, or the run's own (one host). */
static const json_t *host_config(const json_t *run, const char *host)
{
    size_t i;
    const json_t *hc;
    json_array_foreach(json_object_get(run, "host_configs"), i,
                       hc) if (strcmp(hb_jsonl_read_str(hc, "host", ""), host) ==
                               0) return json_object_get(hc, "config");
    return json_object_get(run, "config");
}

/* Hosts of the same hardware: CPU model, node count and memory per node (GiB). */
static char *hardware_of(const struct hb_health_run *r, int h)
{
    const struct hb_topo *t = r->topos ? r->topos[h] : r->topo;
    char *hw = hb_strf(
        "%s|%d", hb_jsonl_read_str(host_config(r->run, r->hosts[h]), "cpu_model", ""), t->nnodes);
    for (int i = 0; hw && i < t->nnodes; i++) {
        char *more = hb_strf("%s|%llu", hw, (unsigned long long)(t->nodes[i].mem_bytes >> 30));
        free(hw);
        hw = more;
    }
    return hw;
}

/* Host h's peers' cells pooled under h's name, and their most common config. */
static int peers_ref(const struct hb_health_run *r, const struct hb_health_cells *all, int h,
                     struct health_ref *ref)
{
    char *mine = hardware_of(r, h);
    const json_t **cfgs = calloc((size_t)r->nhosts, sizeof(*cfgs));
    int npeers = 0, rc = mine && cfgs ? 0 : -ENOMEM;
    for (int p = 0; rc == 0 && p < r->nhosts; p++) {
        char *hw = p == h ? NULL : hardware_of(r, p);
        if (hw && strcmp(hw, mine) == 0) {
            cfgs[npeers++] = host_config(r->run, r->hosts[p]);
            for (size_t k = 0; rc == 0 && k < all->n; k++) {
                const struct hb_health_cell *c = &all->v[k];
                if (strcmp(c->host, r->hosts[p]) != 0) continue;
                /* Every peer's repeats of a cell pool under h's name. */
                rc = hb_health_cells_add(&ref->cells, r->hosts[h], c->name, c->key, c->unit,
                                         c->values, c->n);
            }
        }
        free(hw);
    }
    if (rc == 0 && npeers) ref->config = hb_health_config_majority(cfgs, npeers);
    free(cfgs);
    free(mine);
    return rc;
}

/* "18.2" (the figure as every table writes it). */
static const char *num(double v, char *buf, size_t len)
{
    return hb_figure_text(v, buf, len);
}

/* The degraded cell's line, as the example:
 * "remote read 0->1 18.2 GB/s [18.0, 18.4], 12% below baseline 20.7 [20.5, 20.9]". */
static char *cell_line(const struct hb_health_cell *c, const struct hb_health_verdict *v,
                       const char *what)
{
    char a[32], al[32], ah[32], b[32], bl[32], bh[32];
    return hb_strf("%s %s %s [%s, %s], %.0f%% %s %s %s [%s, %s]", c->name, num(v->now, a, 32),
                   hb_units_shown(c->unit), num(v->now_lo, al, 32), num(v->now_hi, ah, 32),
                   fabs(v->change_pct), v->change_pct < 0 ? "below" : "above", what,
                   num(v->ref, b, 32), num(v->ref_lo, bl, 32), num(v->ref_hi, bh, 32));
}

/* An unclear cell's line: its figures, then how bad the interval allows it to be, e.g.
 * "local read 0 30.1 GB/s [27.0, 31.2], 3% below baseline 31.0 [30.5, 31.4]: cannot tell,
 * could be 14% below (threshold 10%)". */
static char *unclear_line(const struct hb_health_cell *c, const struct hb_health_verdict *v,
                          const char *what, double threshold)
{
    char *figures = cell_line(c, v, what);
    char *line = !figures ? NULL
                 : isfinite(v->worst_pct)
                     ? hb_strf("%s: cannot tell, could be %.0f%% %s (threshold %g%%)", figures,
                               fabs(v->worst_pct), v->worst_pct < 0 ? "below" : "above", threshold)
                     : hb_strf("%s: cannot tell, too few repeats for an interval", figures);
    free(figures);
    return line;
}

/* The host's verdict line after its cells' lines, and the verdict's word and exit code. */
static int verdict_line(FILE *out, const char *host, const struct health_ref *ref, size_t failing,
                        int worse, int unclear, int judged, int fewest, double threshold,
                        const char **word)
{
    if (failing) {
        *word = "degraded";
        fprintf(out,
                "hopbench check: %s: degraded (%d of %d cells worse than %s, %zu config "
                "difference%s)\n",
                host, worse, judged, ref->what, failing - (size_t)worse,
                failing - (size_t)worse == 1 ? "" : "s");
        return 1;
    }
    *word = judged && !unclear ? "healthy" : "cannot tell";
    if (judged == 0) {
        fprintf(out,
                "hopbench check: %s: cannot tell (no peer of the same hardware in this "
                "run: give --baseline or --history)\n",
                host);
    } else if (unclear) {
        /* More repeats narrow the intervals while --max-time can still buy them. */
        char *more = fewest < HB_CHECK_REPEATS_GIVEN_MAX
                         ? hb_strf("rerun with a longer --max-time for more than %d repeats, "
                                   "or on a quieter node",
                                   fewest)
                         : hb_strf("%d repeats were not enough: rerun on a quieter node", fewest);
        fprintf(out, "hopbench check: %s: cannot tell (%d of %d cells unclear against %s: %s)\n",
                host, unclear, judged, ref->what, more ? more : "noisy repeats");
        free(more);
    } else {
        fprintf(out, "hopbench check: %s: healthy (%d of %d cells within %g%% of %s or better)\n",
                host, judged, judged, threshold, ref->what);
        return 0;
    }
    return HB_HEALTH_EXIT_UNCLEAR;
}

/* One host: its cells' calls against ref, its config's lines, its verdict line and its
 * "health" record appended to verdicts. Returns its exit code. */
static int judge_host(const struct hb_health_run *r, const char *host,
                      const struct hb_health_cells *all, const struct health_ref *ref,
                      double threshold, FILE *out, json_t *verdicts)
{
    size_t n = 0;
    for (size_t k = 0; k < all->n; k++)
        n += strcmp(all->v[k].host, host) == 0;
    struct hb_health_verdict *v = calloc(n + 1, sizeof(*v));
    const struct hb_health_cell **mine = calloc(n + 1, sizeof(*mine)),
                                **theirs = calloc(n + 1, sizeof(*theirs));
    double *p = calloc(n + 1, sizeof(*p));
    json_t *lines = json_array(), *unsure = json_array(), *cells = json_array();
    int rc = v && mine && theirs && p && lines && unsure && cells ? 0 : -ENOMEM;
    size_t m = 0;
    for (size_t k = 0; rc == 0 && k < all->n; k++) {
        const struct hb_health_cell *c = &all->v[k];
        if (strcmp(c->host, host) != 0) continue;
        const struct hb_health_cell *b =
            hb_health_cells_find(&ref->cells, ref->any_host ? ref->cells.v[0].host : host, c->key);
        if (!b && strcmp(ref->what, "peers") != 0) {
            hb_error_set("check: the %s%s%s lacks the cell '%s' of host %s (%s): judge against "
                         "a check of this machine with the same options",
                         ref->what, r->opts->baseline[0] ? " " : "",
                         r->opts->baseline[0] ? r->opts->baseline : "", c->name, host, c->key);
            rc = -EINVAL;
            break;
        }
        mine[m] = c;
        theirs[m] = b;
        p[m] = NAN;
        if (b && !hb_health_verdict_test(c->values, c->n, b->values, b->n, &v[m])) rc = -ENOMEM;
        if (b) p[m] = v[m].p;
        m++;
    }
    if (rc == 0 && hb_family_adjust(p, m, HB_FAMILY_FDR, p) < 0) rc = -ENOMEM;
    int worse = 0, unclear = 0, judged = 0, fewest = 0;
    for (size_t k = 0; rc == 0 && k < m; k++) {
        if (theirs[k]) {
            judged++;
            if (!fewest || mine[k]->n < fewest) fewest = mine[k]->n;
            hb_health_verdict_call(&v[k], mine[k]->values, mine[k]->n, theirs[k]->values,
                                   theirs[k]->n, p[k], threshold,
                                   hb_units_higher_better(mine[k]->unit));
        }
        if (json_array_append_new(cells, hb_health_record_cell(mine[k], theirs[k], &v[k], p[k])))
            rc = -ENOMEM;
        if (!theirs[k] || (v[k].call != HB_HEALTH_WORSE && v[k].call != HB_HEALTH_UNCLEAR))
            continue;
        bool bad = v[k].call == HB_HEALTH_WORSE;
        worse += bad;
        unclear += !bad;
        char *line = bad ? cell_line(mine[k], &v[k], ref->what)
                         : unclear_line(mine[k], &v[k], ref->what, threshold);
        if (!line || json_array_append_new(bad ? lines : unsure, json_string(line))) rc = -ENOMEM;
        free(line);
    }
    if (rc == 0 && ref->config &&
        hb_health_config_lines(host_config(r->run, host), ref->config, ref->what, lines))
        rc = -ENOMEM;
    int code = HB_HEALTH_EXIT_UNCLEAR;
    if (rc == 0) {
        size_t i;
        json_t *l;
        /* What fails first: the drain line's reason is a host's first line. */
        json_array_foreach(lines, i, l)
            fprintf(out, "hopbench check: %s: %s\n", host, json_string_value(l));
        json_array_foreach(unsure, i, l)
            fprintf(out, "hopbench check: %s: %s\n", host, json_string_value(l));
        const char *word;
        code = verdict_line(out, host, ref, json_array_size(lines), worse, unclear, judged, fewest,
                            threshold, &word);
        const char *source = strcmp(ref->what, "baseline") == 0  ? r->opts->baseline
                             : strcmp(ref->what, "history") == 0 ? r->opts->history
                                                                 : NULL;
        json_t *rec =
            hb_health_record_host(host, word, code, ref->what, source, threshold,
                                  json_incref(cells), json_incref(lines), json_incref(unsure));
        if (!rec || json_array_append_new(verdicts, rec)) rc = -ENOMEM;
    }
    json_decref(lines);
    json_decref(unsure);
    json_decref(cells);
    free(v);
    free(mine);
    free(theirs);
    free(p);
    return rc ? rc : code;
}

static void ref_free(struct health_ref *ref)
{
    hb_health_cells_free(&ref->cells);
    json_decref(ref->config);
    *ref = (struct health_ref){0};
}

int hb_health_judge(const struct hb_health_run *r, FILE *out, json_t *verdicts)
{
    const struct hb_options *o = r->opts;
    double threshold =
        (o->given >> (OPT_THRESHOLD - OPT_KERNEL)) & 1 ? o->threshold_pct : HEALTH_THRESHOLD_PCT;
    struct hb_health_cells all = {0};
    int rc = hb_health_cells_of(r->records, &all);
    struct health_ref ref = {0};
    struct hb_health_baseline b = {0};
    if (rc == 0 && o->baseline[0]) {
        rc = hb_health_baseline_load(o->baseline, r->topo, run_cpu_model(r->run), &b);
        ref = (struct health_ref){"baseline", b.cells, b.config, b.one_host};
        b = (struct hb_health_baseline){0};
    }
    int code = 0;
    for (int h = 0; rc == 0 && h < r->nhosts && code >= 0; h++) {
        if (o->history[0]) {
            ref_free(&ref);
            ref.what = "history";
            rc = hb_health_history_load(o->history, r->hosts[h], &ref.cells, &ref.config);
        } else if (!o->baseline[0]) {
            ref_free(&ref);
            ref.what = "peers";
            rc = peers_ref(r, &all, h, &ref);
        }
        int hc = rc ? rc : judge_host(r, r->hosts[h], &all, &ref, threshold, out, verdicts);
        /* degraded over cannot tell over healthy, errors over all. */
        if (hc < 0)
            rc = hc;
        else if (hc == 1 || (hc == HB_HEALTH_EXIT_UNCLEAR && code == 0))
            code = hc;
    }
    ref_free(&ref);
    hb_health_cells_free(&all);
    return rc ? rc : code;
}
