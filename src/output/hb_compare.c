/* `hopbench compare` (hb_compare.h): two result files read, matched record by record and
 * judged over their repeats; the gate's exit code. */
#include "hb_compare.h"

#include "hb_args.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_option_values.h"
#include "hb_options.h"
#include "hb_output.h"
#include "hb_compare_config.h"
#include "hb_compare_side.h"
#include "hb_signif.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

struct hb_cmp_opts {
    const char *base, *new;
    double threshold_pct, alpha;
    enum hb_format format; /* the run's formats (hb_options.h) */
    int need;              /* repeats per side the rank test needs to reach alpha */
    bool allow_machines;   /* --allow-different-machines */
    json_t *config_diffs;  /* once both files are read: the knobs that differ (config_diff) */
};

/* The usage line, its formats from the run's table (free it); NULL when out of memory. */
static char *hb_compare_usage(void)
{
    char *formats = hb_names_join(hb_format_names, "|"), *usage = NULL;
    if (formats &&
        asprintf(&usage,
                 "usage: hopbench compare BASE.jsonl NEW.jsonl [--threshold PCT] [--alpha P] "
                 "[--format %s] [--allow-different-machines]",
                 formats) < 0)
        usage = NULL;
    free(formats);
    if (!usage) hb_err_set("compare: out of memory");
    return usage;
}

static int hb_cmp_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v = s ? strtod(s, &end) : NAN;
    /* Decimal only: strtod would also skip blanks and take "+1", "0x1p3". */
    if (!s || end == s || *end || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
        strpbrk(s, "xXpP") || !(v >= lo && v <= hi)) {
        hb_err_set("%s '%s' is not valid: give a number from %g to %g", opt, s ? s : "", lo, hi);
        return -EINVAL;
    }
    *out = v;
    return 0;
}

static int hb_cmp_parse_with(int argc, char **argv, const char *usage, struct hb_cmp_opts *o)
{
    *o = (struct hb_cmp_opts){NULL, NULL, 5.0, 0.05, HB_FORMAT_TABLE, 0, false, NULL};
    const char *threshold = NULL, *alpha = NULL, *format = NULL, *allow = NULL;
    const struct hb_arg opts[] = {{"threshold", 0, &threshold, false},
                                  {"alpha", 0, &alpha, false},
                                  {"format", 0, &format, false},
                                  {"allow-different-machines", 0, &allow, true},
                                  {NULL, 0, NULL, false}};
    const char **files = calloc((size_t)argc + 1, sizeof(*files));
    int n = 0, rc = files ? 0 : -ENOMEM;
    if (!files) hb_err_set("compare: out of memory reading %d arguments", argc);
    if (rc == 0) rc = hb_args_parse(argc, argv, "compare", usage, opts, files, &n);
    if (rc == 0 && n > 2) {
        hb_err_set("compare: extra argument '%s'; %s", files[2], usage);
        rc = -EINVAL;
    }
    o->base = n > 0 ? files[0] : NULL;
    o->new = n > 1 ? files[1] : NULL;
    free(files);
    if (rc) return rc;
    if (threshold && (rc = hb_cmp_number("--threshold", threshold, 0.0, 1000.0, &o->threshold_pct)))
        return rc;
    if (alpha && (rc = hb_cmp_number("--alpha", alpha, 1e-9, 0.5, &o->alpha))) return rc;
    o->need = hb_signif_mwu_repeats_for(o->alpha);
    int f = 0;
    if (format && (rc = hb_parse_enum("--format", format, hb_format_names, &f))) return rc;
    o->format = (enum hb_format)f;
    o->allow_machines = allow != NULL;
    if (!o->new) {
        hb_err_set("compare needs two result files; %s", usage);
        return -EINVAL;
    }
    return 0;
}

static int hb_cmp_parse(int argc, char **argv, struct hb_cmp_opts *o)
{
    char *usage = hb_compare_usage();
    int rc = usage ? hb_cmp_parse_with(argc, argv, usage, o) : -ENOMEM;
    free(usage);
    return rc;
}

/* A statistic, or null when it cannot be computed. */
static json_t *hb_cmp_json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* What compare counts, and so its exit code. */
struct hb_cmp_counts {
    int worse, better, same, noise, undetermined, only_base, only_new, errors;
};

/* Where rows go: a block of the sink (rendered on any thread; hb_cmp_flush writes it), and
 * what they count. */
struct hb_cmp_out {
    const struct hb_sink *sink;
    struct hb_sink_block block;
    struct hb_cmp_counts c;
    bool oom;
    json_t *row; /* the comparison row this out reuses, or NULL */
};

/* Hand rec (NULL: out of memory) to the block, in the sink's format. -1 when out of memory. */
static int hb_cmp_put(struct hb_cmp_out *out, json_t *rec)
{
    if (!rec) return -1;
    hb_sink_block_write(out->sink, &out->block, rec);
    json_decref(rec);
    return 0;
}

/* The block's rows written (a failed write is kept by the sink and reported when it
 * closes), and a new block opened: -1 when out of memory. */
static int hb_cmp_flush(struct hb_sink *s, struct hb_cmp_out *out)
{
    if (hb_sink_block_put(s, &out->block) == -ENOMEM) return -1;
    return hb_sink_block_open(s, &out->block) ? -1 : 0;
}

/* The verdict on one pair, decided on the repeats (never on samples within a run): first
 * whether the repeats can decide at all, then the change against --threshold, then the rank
 * test. *why (a new string, or NULL) says why a pair is undetermined. */
static const char *hb_cmp_verdict(const struct hb_cmp_opts *o, const struct hb_cmp_side *bs,
                                  const struct hb_cmp_rec *b, const struct hb_cmp_side *ns,
                                  const struct hb_cmp_rec *n, double change, double *p, char **why)
{
    *why = NULL;
    *p = NAN;
    int need = o->need;
    if (b->nrep < 2 || n->nrep < 2) {
        const char *side = b->nrep < 2 && n->nrep < 2 ? "either file"
                           : b->nrep < 2              ? "BASE"
                                                      : "NEW";
        if (asprintf(why,
                     "no independent repeats in %s (results from before --repeat, or --repeat "
                     "1): rerun with --repeat %d or more",
                     side, need > 5 ? need : 5) < 0)
            *why = NULL;
        return "undetermined";
    }
    *p = hb_signif_mwu(bs->reps + b->rep0, b->nrep, ns->reps + n->rep0, n->nrep, NULL);
    if (hb_signif_mwu_min_p(b->nrep, n->nrep) > o->alpha) {
        if (asprintf(why,
                     "too few repeats (%d and %d): the rank test cannot reach alpha %g; %d per "
                     "side would do",
                     b->nrep, n->nrep, o->alpha, need) < 0)
            *why = NULL;
        return "undetermined";
    }
    if (fabs(change) <= o->threshold_pct) return "same";
    if (!(*p < o->alpha)) return "noise";
    return (n->higher_better ? -change : change) > 0 ? "worse" : "better";
}

/* row[key] = v, a real (null when not finite), set in place when it is one already: a reused
 * row allocates nothing for its figures. */
static void hb_cmp_set_num(json_t *row, const char *key, double v)
{
    json_t *at = json_object_get(row, key);
    if (isfinite(v) && json_is_real(at))
        json_real_set(at, v);
    else if (isfinite(v) || !json_is_null(at))
        json_object_set_new(row, key, hb_cmp_json_num(v));
}

/* A side's figure as the row gives it: value, interval, repeat count (keys: that side's). */
static void hb_cmp_side_cells(json_t *row, const char *const keys[5], const struct hb_cmp_rec *r)
{
    hb_cmp_set_num(row, keys[0], r->value);
    json_t *ci = json_object_get(row, keys[1]);
    if (!isfinite(r->lo))
        json_object_set_new(row, keys[1], json_null());
    else if (json_array_size(ci) == 2)
        json_real_set(json_array_get(ci, 0), r->lo), json_real_set(json_array_get(ci, 1), r->hi);
    else
        json_object_set_new(row, keys[1], json_pack("[f, f]", r->lo, r->hi));
    hb_cmp_set_num(row, keys[2], r->lo);
    hb_cmp_set_num(row, keys[3], r->hi);
    json_t *n = json_object_get(row, keys[4]);
    if (json_is_integer(n))
        json_integer_set(n, r->nrep);
    else
        json_object_set_new(row, keys[4], json_integer(r->nrep));
}

static void hb_cmp_count(struct hb_cmp_counts *c, const char *verdict)
{
    int *at[] = {&c->worse, &c->better, &c->same, &c->noise, &c->undetermined};
    static const char *const names[] = {"worse", "better", "same", "noise", "undetermined"};
    for (int i = 0; i < 5; i++)
        if (strcmp(verdict, names[i]) == 0) (*at[i])++;
}

/* One matched pair: its row and its count. -1 when out of memory. */
static int hb_cmp_pair(const struct hb_cmp_opts *o, struct hb_cmp_out *out, const char *key,
                       const struct hb_cmp_side *bs, const struct hb_cmp_rec *b,
                       const struct hb_cmp_side *ns, const struct hb_cmp_rec *n)
{
    double change = (n->value / b->value - 1.0) * 100.0, p = NAN;
    char *why = NULL;
    const char *verdict = hb_cmp_verdict(o, bs, b, ns, n, change, &p, &why);
    hb_cmp_count(&out->c, verdict);
    static const char *const base_keys[] = {"base", "base_ci95", "base_low", "base_high",
                                            "base_repeats"};
    static const char *const new_keys[] = {"new", "new_ci95", "new_low", "new_high", "new_repeats"};
    /* The thread's row, made once, its values replaced row after row. */
    if (!out->row) out->row = json_pack("{s:s, s:s}", "type", "comparison", "kind", "compared");
    json_t *row = out->row;
    if (row) {
        /* strings read from a file the reader checked: valid UTF-8 already */
        json_object_set_new(row, "record", json_string_nocheck(key));
        json_object_set_new(row, "metric", json_string_nocheck(hb_strtab_get(bs->str, b->metric)));
        json_object_set_new(row, "unit", json_string_nocheck(hb_strtab_get(bs->str, b->unit)));
        hb_cmp_side_cells(row, base_keys, b);
        hb_cmp_side_cells(row, new_keys, n);
        hb_cmp_set_num(row, "change_pct", change);
        hb_cmp_set_num(row, "p", p);
        json_object_set_new(row, "verdict", json_string_nocheck(verdict));
        json_object_set_new(row, "reason", why ? json_string(why) : json_null());
        json_object_del(row, "config_may_explain");
        /* A knob that moves this metric and differs may explain what the verdict says. */
        json_t *marks =
            strcmp(verdict, "same") != 0
                ? hb_cmp_config_marks(o->config_diffs, hb_strtab_get(bs->str, b->metric),
                                      hb_strtab_get(bs->str, b->host))
                : NULL;
        if (marks) json_object_set_new(row, "config_may_explain", marks);
    }
    free(why);
    return hb_cmp_put(out, json_incref(row));
}

/* An input error: a record that cannot be judged, a duplicated identity, a pair whose
 * metric or unit differ. -1 when out of memory. */
static int hb_cmp_error(struct hb_cmp_out *out, const char *kind, const struct hb_cmp_side *sd,
                        const struct hb_cmp_rec *r, int with_host, const char *reason)
{
    char *key = hb_cmp_side_key(sd, r, with_host), *where = NULL;
    if (asprintf(&where, "%s:%d", sd->res.path, r->line) < 0) where = NULL;
    json_t *row = key && where ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "error", "kind",
                                           kind, "where", where, "record", key, "reason", reason)
                               : NULL;
    free(key);
    free(where);
    out->c.errors++;
    return hb_cmp_put(out, row);
}

/* Each side's records that cannot be judged, and identities given twice. */
static int hb_cmp_errors(struct hb_cmp_out *out, const struct hb_cmp_side *sd, int with_host)
{
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < sd->n; k++) {
        const struct hb_cmp_rec *r = &sd->v[k];
        char *why = NULL;
        if (r->first &&
            asprintf(&why,
                     "the same measurement as line %d: a file holds each identity once (a "
                     "scenario repeating an experiment name, or files concatenated)",
                     sd->v[r->first - 1].line) < 0)
            return -1;
        if (why) rc = hb_cmp_error(out, "duplicate", sd, r, with_host, why);
        free(why);
        if (rc == 0 && r->bad != HB_STRTAB_NONE)
            rc = hb_cmp_error(out, "unusable", sd, r, with_host, hb_strtab_get(sd->str, r->bad));
    }
    return rc;
}

/* The first records of `mine` with no record of their identity in `other`: missing from NEW
 * (the gate fails) or only in NEW. */
static int hb_cmp_only(struct hb_cmp_out *out, const struct hb_cmp_side *mine, int with_host,
                       const char *side, int *n)
{
    for (size_t k = 0; k < mine->n; k++) {
        const struct hb_cmp_rec *rec = &mine->v[k];
        if (rec->first || rec->matched) continue;
        char *key = hb_cmp_side_key(mine, rec, with_host), *kind = NULL;
        if (!key || asprintf(&kind, "only_in_%s", side) < 0) kind = NULL;
        json_t *row =
            kind ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "only", "kind", kind, "side",
                             side, "record", key, "metric", hb_strtab_get(mine->str, rec->metric))
                 : NULL;
        free(kind);
        free(key);
        (*n)++;
        if (hb_cmp_put(out, row)) return -1;
    }
    return 0;
}

/* Base record k against its match: its verdict, or the error that its metric or unit differ;
 * nothing when it has no match or either cannot be judged. Both records are marked matched
 * (a first record of an identity has one match at most: one thread writes each mark). -1
 * when out of memory. */
static int hb_cmp_match(const struct hb_cmp_opts *o, struct hb_cmp_out *out, struct hb_cmp_side *b,
                        struct hb_cmp_side *n, size_t k, int with_host)
{
    struct hb_cmp_rec *br = &b->v[k];
    struct hb_cmp_rec *nr =
        br->first ? NULL : (struct hb_cmp_rec *)hb_cmp_side_find(n, br, with_host);
    if (nr) br->matched = nr->matched = true;
    if (!nr || br->bad != HB_STRTAB_NONE || nr->bad != HB_STRTAB_NONE) return 0;
    char *key = hb_cmp_side_key(b, br, with_host), *why = NULL;
    if (!key) return -1;
    int rc;
    if (br->metric != nr->metric || br->unit != nr->unit) {
        if (asprintf(&why, "BASE measures %s in %s, NEW %s in %s: not the same figure",
                     hb_strtab_get(b->str, br->metric), hb_strtab_get(b->str, br->unit),
                     hb_strtab_get(n->str, nr->metric), hb_strtab_get(n->str, nr->unit)) < 0)
            why = NULL;
        rc = why ? hb_cmp_error(out, "mismatch", n, nr, with_host, why) : -1;
    } else {
        rc = hb_cmp_pair(o, out, key, b, br, n, nr);
    }
    free(why);
    free(key);
    return rc;
}

enum { HB_CMP_CHUNK = 8192 }; /* base records matched together, then written in order */

/* The matches of base records [from, to), on threads: each renders a contiguous part into its
 * own block (a static schedule hands the parts out in thread order), then the blocks are
 * written one after another, so rows keep the base file's order. -1 when out of memory. */
static int hb_cmp_matches(const struct hb_cmp_opts *o, struct hb_sink *s, struct hb_cmp_out *outs,
                          int threads, struct hb_cmp_side *b, struct hb_cmp_side *n, size_t from,
                          size_t to, int with_host)
{
    if (threads == 1) {
        for (size_t k = from; k < to && !outs[0].oom; k++)
            outs[0].oom = hb_cmp_match(o, &outs[0], b, n, k, with_host) != 0;
    }
#ifdef _OPENMP
    else
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t k = from; k < to; k++) {
            struct hb_cmp_out *out = &outs[omp_get_thread_num()];
            if (!out->oom) out->oom = hb_cmp_match(o, out, b, n, k, with_host) != 0;
        }
#endif
    for (int t = 0; t < threads; t++)
        if (outs[t].oom || hb_cmp_flush(s, &outs[t])) return -1;
    return 0;
}

/* Every base record against its match: errors, verdicts, what is on one side only. */
static int hb_cmp_rows(const struct hb_cmp_opts *o, struct hb_sink *s, struct hb_cmp_out *out,
                       struct hb_cmp_side *b, struct hb_cmp_side *n, int with_host)
{
    int rc = hb_cmp_errors(out, b, with_host);
    if (rc == 0) rc = hb_cmp_errors(out, n, with_host);
    if (rc == 0) rc = hb_cmp_flush(s, out);
    int threads = b->n > HB_CMP_CHUNK ? hb_results_threads() : 1;
    struct hb_cmp_out *outs = calloc((size_t)threads, sizeof(*outs));
    int opened = 0;
    while (outs && opened < threads && hb_sink_block_open(s, &outs[opened].block) == 0)
        outs[opened++].sink = s;
    if (opened < threads) rc = -1;
    for (size_t k = 0; rc == 0 && k < b->n; k += HB_CMP_CHUNK)
        rc = hb_cmp_matches(o, s, outs, threads, b, n, k,
                            b->n - k > HB_CMP_CHUNK ? k + HB_CMP_CHUNK : b->n, with_host);
    for (int t = 0; t < opened; t++) {
        struct hb_cmp_counts *c = &out->c, *tc = &outs[t].c;
        c->worse += tc->worse, c->better += tc->better, c->same += tc->same;
        c->noise += tc->noise, c->undetermined += tc->undetermined, c->errors += tc->errors;
        hb_sink_block_free(&outs[t].block);
        json_decref(outs[t].row);
    }
    free(outs);
    if (rc == 0) rc = hb_cmp_only(out, b, with_host, "base", &out->c.only_base);
    if (rc == 0) rc = hb_cmp_only(out, n, with_host, "new", &out->c.only_new);
    return rc;
}

/* The exit code: bad input, then missing measurements, then a regression. */
static int hb_cmp_exit(const struct hb_cmp_counts *c)
{
    return c->errors      ? HB_EXIT_USAGE
           : c->only_base ? HB_EXIT_MISSING
           : c->worse     ? HB_EXIT_FAILED
                          : HB_EXIT_OK;
}

static int hb_cmp_run(const struct hb_cmp_opts *o, struct hb_cmp_side *b, struct hb_cmp_side *n,
                      int with_host, const char *machines)
{
    struct hb_sink *s = NULL;
    int rc = hb_sink_open_layout(o->format, "", &hb_layout_compare, &s);
    if (rc) {
        hb_err_print(rc);
        return hb_err_exit_code(rc);
    }
    struct hb_cmp_out out = {.sink = s};
    int oom = hb_sink_block_open(s, &out.block) ? -1 : 0;
    if (!oom)
        oom = hb_cmp_put(&out, json_pack("{s:s, s:s, s:s, s:f, s:f}", "type", "compare_header",
                                         "base_path", b->res.path, "new_path", n->res.path,
                                         "threshold_pct", o->threshold_pct, "alpha", o->alpha));
    /* Runs of different machines or builds, allowed: said before any verdict. */
    if (!oom && machines[0])
        oom = hb_cmp_put(&out, json_pack("{s:s, s:s, s:s}", "type", "note", "about", "machines",
                                         "text", machines));
    /* The knobs that differ, first: they may explain the verdicts below. */
    size_t i;
    json_t *d;
    json_array_foreach(o->config_diffs, i, d) if (!oom) oom = hb_cmp_put(&out, json_incref(d));
    if (!oom) oom = hb_cmp_rows(o, s, &out, b, n, with_host);
    const struct hb_cmp_counts *c = &out.c;
    if (!oom)
        oom = hb_cmp_put(&out, json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f}",
                                         "type", "compare_summary", "worse", c->worse, "better",
                                         c->better, "same", c->same, "noise", c->noise,
                                         "undetermined", c->undetermined, "only_base", c->only_base,
                                         "only_new", c->only_new, "errors", c->errors,
                                         "threshold_pct", o->threshold_pct));
    if (!oom && hb_sink_block_put(s, &out.block) == -ENOMEM) oom = -1;
    if (oom) {
        hb_sink_block_free(&out.block);
        (void)hb_sink_close(s, false);
        fprintf(stderr, "hopbench: out of memory writing the comparison\n");
        return HB_EXIT_ENV;
    }
    if ((rc = hb_sink_close(s, true))) {
        hb_err_print(rc);
        return HB_EXIT_ENV;
    }
    if (c->only_base)
        fprintf(stderr,
                "hopbench: %d measurement(s) of %s are missing from %s (listed as only "
                "in base): a crashed or incomplete run?\n",
                c->only_base, b->res.path, n->res.path);
    return hb_cmp_exit(c);
}

/* Both files hold one run each, of one machine and build (unless allowed): 0, or -EINVAL
 * with a message; *machines says what differs ("" when nothing does). */
static int hb_cmp_check_runs(const struct hb_cmp_opts *o, const struct hb_cmp_side *both[2],
                             char **machines)
{
    for (int i = 0; i < 2; i++)
        if (both[i]->res.run_line2) {
            hb_err_set("%s:%d: a second run record: the file holds several runs; split it per "
                       "run and compare one run with another",
                       both[i]->res.path, both[i]->res.run_line2);
            return -EINVAL;
        }
    *machines = hb_cmp_machines(both[0]->res.run, both[1]->res.run);
    if (!*machines) {
        hb_err_set("compare: out of memory");
        return -ENOMEM;
    }
    if ((*machines)[0] && !o->allow_machines) {
        hb_err_set("%s and %s come from different machines or builds (%s): their figures "
                   "need not agree; compare them anyway with --allow-different-machines",
                   both[0]->res.path, both[1]->res.path, *machines);
        return -EINVAL;
    }
    return 0;
}

int hb_compare_main(int argc, char **argv)
{
    struct hb_cmp_opts o = {0};
    struct hb_strtab str = {0};
    struct hb_cmp_side b = {.str = &str}, n = {.str = &str};
    const struct hb_cmp_side *both[2] = {&b, &n};
    char *machines = NULL;
    int rc = hb_cmp_parse(argc, argv, &o);
    /* Each file streamed: only what a comparison needs stays (hb_compare_side.c). */
    if (rc == 0) rc = hb_cmp_side_read(o.base, &b);
    if (rc == 0) rc = hb_cmp_side_read(o.new, &n);
    if (rc == 0) rc = hb_cmp_check_runs(&o, both, &machines);
    if (rc == 0 && !(o.config_diffs = hb_cmp_config_diffs(b.res.run, n.res.run))) {
        hb_err_set("compare: out of memory");
        rc = -ENOMEM;
    }
    /* Hosts are part of the identity only when both files have several. */
    int with_host = b.hosts > 1 && n.hosts > 1;
    if (rc == 0) rc = hb_cmp_side_index(&b, with_host);
    if (rc == 0) rc = hb_cmp_side_index(&n, with_host);
    int code = HB_EXIT_OK;
    if (rc) {
        hb_err_print(rc);
        code = hb_err_exit_code(rc);
    } else {
        for (int i = 0; i < 2; i++)
            if (both[i]->res.skipped_line)
                fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n",
                        both[i]->res.path, both[i]->res.skipped_line);
        fflush(stdout);
        code = hb_cmp_run(&o, &b, &n, with_host, machines);
    }
    free(machines);
    json_decref(o.config_diffs);
    hb_cmp_side_free(&b);
    hb_cmp_side_free(&n);
    hb_strtab_free(&str);
    return code;
}
