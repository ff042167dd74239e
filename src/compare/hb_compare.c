/* `hopbench compare` (hb_compare.h): two result files read, matched record by record and
 * judged over their repeats; the gate's exit code. */
#include "hb_compare.h"

#include "hb_args.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_jsonl_read.h"
#include "hb_option_values.h"
#include "hb_options.h"
#include "hb_outfile.h"
#include "hb_compare_layout.h"
#include "hb_compare_config.h"
#include "hb_compare_side.h"
#include "hb_coverage.h"
#include "hb_family.h"
#include "hb_interval.h"
#include "hb_shift.h"
#include "hb_signif.h"
#include "hb_stability.h"

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
    const char **bases, **news; /* each side's files: the first names what is compared */
    int nbase, nnew;
    double threshold_pct, level; /* --threshold; the family's level (--fdr, --alpha) */
    enum hb_family_rule rule;    /* --fdr (default) or --fwer */
    enum hb_format format;       /* the run's formats (hb_options.h) */
    const char *output;          /* -o FILE, or NULL: stdout */
    int need;                    /* repeats per side the rank test needs to reach level */
    bool allow_machines;         /* --allow-different-machines */
    bool expect_same;            /* --expect-same: an A/A pair, any difference a false alarm */
    json_t *config_diffs;        /* once both files are read: the knobs that differ */
};

/* The power at which compare states what it can detect. */
#define HB_CMP_POWER 0.8

static int cmp_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v = s ? strtod(s, &end) : NAN;
    /* Decimal only: strtod would also skip blanks and take "+1", "0x1p3". */
    if (!s || end == s || *end || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
        strpbrk(s, "xXpP") || !(v >= lo && v <= hi)) {
        hb_error_set("%s '%s' is not valid: give a number from %g to %g", opt, s ? s : "", lo, hi);
        return -EINVAL;
    }
    *out = v;
    return 0;
}

/* The files of each side: BASE NEW as operands, or --base and --new (each may be given more
 * than once, pooled), never both ways. */
static int cmp_files(struct hb_cmp_opts *o, const char **files, int n)
{
    const char *usage = hb_args_usage("compare", hb_compare_operands);
    if ((o->nbase || o->nnew) && n) {
        hb_error_set("compare: '%s' beside --base/--new: give BASE NEW, or --base and --new, not "
                     "both; %s",
                     files[0], usage);
        return -EINVAL;
    }
    if (o->nbase || o->nnew) {
        if (!o->nbase || !o->nnew) {
            hb_error_set("compare: --%s '%s' without --%s: each side needs at least one file; %s",
                         o->nbase ? "base" : "new", o->nbase ? o->bases[0] : o->news[0],
                         o->nbase ? "new" : "base", usage);
            return -EINVAL;
        }
        return 0;
    }
    if (n > 2) {
        hb_error_set("compare: extra argument '%s'; %s", files[2], usage);
        return -EINVAL;
    }
    if (n < 2) {
        if (o->expect_same)
            hb_error_set("compare --expect-same needs the two runs of one command (A.jsonl "
                         "B.jsonl); got %s; %s",
                         n ? files[0] : "no file", usage);
        else
            hb_error_set("compare needs two result files; %s", usage);
        return -EINVAL;
    }
    o->bases[0] = files[0];
    o->news[0] = files[1];
    o->nbase = o->nnew = 1;
    return 0;
}

/* The family's rule and level: --fdr Q (Benjamini-Hochberg, the default at 0.05) or --fwer
 * (Holm) at --alpha; --alpha alone is the level of the default rule. */
static int cmp_rule(struct hb_cmp_opts *o, const char *fdr, const char *fwer, const char *alpha)
{
    if (fdr && fwer) {
        hb_error_set("compare: --fdr '%s' and --fwer control the family two ways: give --fdr Q "
                     "(false discovery rate) or --fwer [--alpha P] (family-wise), not both",
                     fdr);
        return -EINVAL;
    }
    if (fdr && alpha) {
        hb_error_set("compare: --fdr '%s' and --alpha '%s' both set the level: give one", fdr,
                     alpha);
        return -EINVAL;
    }
    o->rule = fwer ? HB_FAMILY_FWER : HB_FAMILY_FDR;
    int rc = 0;
    if (fdr) rc = cmp_number("--fdr", fdr, 1e-6, 0.5, &o->level);
    if (alpha && rc == 0) rc = cmp_number("--alpha", alpha, 1e-9, 0.5, &o->level);
    return rc;
}

/* compare's defaults, the files of each side in bases and news (room for them). */
static struct hb_cmp_opts cmp_defaults(const char **bases, const char **news)
{
    return (struct hb_cmp_opts){.bases = bases,
                                .news = news,
                                .threshold_pct = HB_COMPARE_THRESHOLD_PCT,
                                .level = HB_FAMILY_LEVEL,
                                .rule = HB_FAMILY_FDR,
                                .format = HB_FORMAT_TABLE,
                                .need = hb_signif_mwu_repeats_for(HB_FAMILY_LEVEL)};
}

const char hb_compare_operands[] = "BASE.jsonl NEW.jsonl | --base FILE... --new FILE...";
const struct hb_opt_doc hb_compare_opts[] = {
    {"base", 0, 0, "FILE", HB_COMPLETE_FILE, NULL,
     "a BASE run's results instead of the operands; give it again to pool several runs of one "
     "command (their repeats are pooled)"},
    {"new", 0, 0, "FILE", HB_COMPLETE_FILE, NULL, "a NEW run's results, given as --base is"},
    {"threshold", 0, 0, "PCT", HB_COMPLETE_NONE, NULL,
     "the least change, in percent, that is worse or better; same needs the change's interval "
     "inside +-PCT (default 5)"},
    {"fdr", 0, 0, "Q", HB_COMPLETE_NONE, NULL,
     "the false discovery rate controlled over all rows, Benjamini-Hochberg (default 0.05)"},
    {"fwer", 0, 0, NULL, HB_COMPLETE_NONE, NULL,
     "Holm's family-wise control at --alpha instead of --fdr"},
    {"alpha", 0, 0, "P", HB_COMPLETE_NONE, NULL, "the family's level (default 0.05)"},
    {"expect-same", 0, 0, NULL, HB_COMPLETE_NONE, NULL,
     "the two runs are of one command, any difference a false alarm: each row and the summary "
     "say the smallest change these repeats can detect"},
    {"format", 0, 0, "F", HB_COMPLETE_WORDS, hb_format_names, HB_OPT_FORMAT_HELP},
    {"allow-different-machines", 0, 0, NULL, HB_COMPLETE_NONE, NULL,
     "compare runs of different machines or builds (refused otherwise)"},
    {"output", 'o', 'o', "FILE", HB_COMPLETE_FILE, NULL, HB_OPT_OUTPUT_HELP},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

/* -o FILE: its name says the format unless --format does (as for a run), and it is none of
 * the files compared. */
static int cmp_output(struct hb_cmp_opts *o, const char *format)
{
    int rc = 0, f = 0;
    if (format && (rc = hb_option_values_parse_enum("--format", format, hb_format_names, &f)))
        return rc;
    enum hb_format named = HB_FORMAT_TABLE;
    bool says = o->output && hb_format_of_name(o->output, &named);
    o->format = format ? (enum hb_format)f : named;
    if (format && says && o->format != named)
        fprintf(stderr, "hopbench: warning: --format %s writes %s into '%s', whose name says %s\n",
                format, format, o->output, hb_format_names[named]);
    if (!o->output) return 0;
    const char **inputs = calloc((size_t)(o->nbase + o->nnew) + 1, sizeof(*inputs));
    if (!inputs) {
        hb_error_set("compare: out of memory");
        return -ENOMEM;
    }
    memcpy(inputs, o->bases, (size_t)o->nbase * sizeof(*inputs));
    memcpy(inputs + o->nbase, o->news, (size_t)o->nnew * sizeof(*inputs));
    rc = hb_outfile_check(o->output, inputs);
    free(inputs);
    return rc;
}

static int cmp_parse_with(int argc, char **argv, struct hb_cmp_opts *o)
{
    *o = cmp_defaults(o->bases, o->news);
    const char *threshold = NULL, *alpha = NULL, *format = NULL, *allow = NULL, *fdr = NULL,
               *fwer = NULL, *same = NULL;
    const struct hb_arg places[] = {{"threshold", &threshold, NULL, NULL},
                                    {"alpha", &alpha, NULL, NULL},
                                    {"fdr", &fdr, NULL, NULL},
                                    {"fwer", &fwer, NULL, NULL},
                                    {"expect-same", &same, NULL, NULL},
                                    {"base", NULL, o->bases, &o->nbase},
                                    {"new", NULL, o->news, &o->nnew},
                                    {"format", &format, NULL, NULL},
                                    {"allow-different-machines", &allow, NULL, NULL},
                                    {"output", &o->output, NULL, NULL},
                                    {NULL, NULL, NULL, NULL}};
    const char **files = calloc((size_t)argc + 1, sizeof(*files));
    int n = 0, rc = files ? 0 : -ENOMEM;
    if (!files) hb_error_set("compare: out of memory reading %d arguments", argc);
    if (rc == 0)
        rc = hb_args_parse(argc, argv, hb_compare_operands, hb_compare_opts, places, files, &n);
    o->expect_same = same != NULL;
    if (rc == 0) rc = cmp_files(o, files, n);
    free(files);
    if (rc) return rc;
    if (threshold && (rc = cmp_number("--threshold", threshold, 0.0, 1000.0, &o->threshold_pct)))
        return rc;
    if ((rc = cmp_rule(o, fdr, fwer, alpha))) return rc;
    o->need = hb_signif_mwu_repeats_for(o->level);
    o->allow_machines = allow != NULL;
    return cmp_output(o, format);
}

/* o->bases and o->news get room for every argument (free them). */
static int cmp_parse(int argc, char **argv, struct hb_cmp_opts *o)
{
    o->bases = calloc((size_t)argc + 1, sizeof(*o->bases));
    o->news = calloc((size_t)argc + 1, sizeof(*o->news));
    if (o->bases && o->news) return cmp_parse_with(argc, argv, o);
    hb_error_set("compare: out of memory reading %d arguments", argc);
    return -ENOMEM;
}

/* A statistic, or null when it cannot be computed. */
static json_t *cmp_json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* What compare counts, and so its exit code. */
struct hb_cmp_counts {
    int worse, better, same, unclear, undetermined, only_base, only_new, errors;
};

/* Where rows go: a block of the sink (rendered on any thread; cmp_flush writes it), or
 * with no sink a JSON array (hb_compare_rows, one thread), and what they count. */
struct hb_cmp_out {
    const struct hb_sink *sink;
    struct hb_sink_block block;
    json_t *rows; /* without a sink: where the rows go */
    struct hb_cmp_counts c;
    bool oom;
    json_t *row; /* the comparison row this out reuses, or NULL */
};

/* Hand rec (NULL: out of memory) to the block, in the sink's format, or a copy of it to the
 * rows (rec may be the row reused for the next pair). -1 when out of memory. */
static int cmp_put(struct hb_cmp_out *out, json_t *rec)
{
    if (!rec) return -1;
    json_t *copy = out->rows ? json_deep_copy(rec) : NULL;
    if (!out->rows) hb_sink_block_write(out->sink, &out->block, rec);
    json_decref(rec);
    return out->rows && json_array_append_new(out->rows, copy) ? -1 : 0;
}

/* The block's rows written (a failed write is kept by the sink and reported when it
 * closes), and a new block opened: -1 when out of memory. Nothing without a sink. */
static int cmp_flush(struct hb_sink *s, struct hb_cmp_out *out)
{
    if (!s) return 0;
    if (hb_sink_block_put(s, &out->block) == -ENOMEM) return -1;
    return hb_sink_block_open(s, &out->block) ? -1 : 0;
}

/* A base record's test, made before any row: its match, the spread of the two runs' repeats
 * and the rank test's p (NaN when the pair is not a member of the family: no match, an
 * unusable record, too few repeats for the test ever to reach the level). */
struct hb_cmp_test {
    size_t match; /* the matching NEW record + 1, 0 for none */
    double spread, p, p_adjusted;
};

/* What a row says beyond its verdict. */
struct hb_cmp_call {
    const char *verdict;
    char *why;             /* a new string, or NULL */
    struct hb_shift shift; /* NEW against BASE, ratio NaN when not computed */
    double detectable_pct; /* the smallest change these repeats detect at the level */
    int repeats_needed;    /* per side, to decide an unclear row (0: unknown) */
};

/* Why a row is unclear, and about how many repeats per side would decide it. */
static void cmp_unclear(const struct hb_cmp_opts *o, double change, const struct hb_cmp_test *test,
                        struct hb_cmp_call *c)
{
    double spread = test->spread;
    double t = o->threshold_pct;
    bool beyond = fabs(change) > t;
    c->repeats_needed = beyond ? hb_shift_repeats_to_detect(spread, change, o->level, HB_CMP_POWER)
                               : hb_shift_repeats_to_show_same(spread, change, t, HB_CI_LEVEL);
    char more[96] = "";
    if (c->repeats_needed)
        snprintf(more, sizeof(more), "; about %d repeats per side would decide it",
                 c->repeats_needed);
    else
        snprintf(more, sizeof(more),
                 "; its change lies at the threshold, which few repeats "
                 "can decide");
    int rc =
        beyond ? asprintf(&c->why,
                          "a change of %+.1f%% not yet beyond the noise (adjusted p %.3g, "
                          "level %g)%s",
                          change, test->p_adjusted, o->level, more)
               : asprintf(&c->why, "its change's interval [%+.1f%%, %+.1f%%] reaches past +-%g%%%s",
                          (c->shift.lo - 1.0) * 100.0, (c->shift.hi - 1.0) * 100.0, t, more);
    if (rc < 0) c->why = NULL;
}

/* The verdict on one pair, decided on the repeats (never on samples within a run): first
 * whether the repeats can decide at all, then worse or better when the rank test separates
 * the runs after the family's adjustment and the change passes --threshold, same when the
 * change's interval lies inside +-threshold, else unclear. */
static void cmp_verdict(const struct hb_cmp_opts *o, const struct hb_cmp_side *bs,
                        const struct hb_cmp_rec *b, const struct hb_cmp_side *ns,
                        const struct hb_cmp_rec *n, double change, const struct hb_cmp_test *t,
                        struct hb_cmp_call *c)
{
    *c = (struct hb_cmp_call){"undetermined", NULL, {NAN, NAN, NAN, 0.0}, INFINITY, 0};
    int need = o->need;
    if (b->nrep < 2 || n->nrep < 2) {
        const char *side = b->nrep < 2 && n->nrep < 2 ? "either file"
                           : b->nrep < 2              ? "BASE"
                                                      : "NEW";
        if (asprintf(&c->why,
                     "no independent repeats in %s (results from before --repeat, or --repeat "
                     "1): rerun with --repeat %d or more",
                     side, need > 5 ? need : 5) < 0)
            c->why = NULL;
        return;
    }
    const double *a = bs->reps + b->rep0, *x = ns->reps + n->rep0;
    c->detectable_pct =
        hb_shift_detectable_pct(t->spread, b->nrep, n->nrep, o->level, HB_CMP_POWER);
    if (hb_signif_mwu_min_p(b->nrep, n->nrep) > o->level) {
        if (asprintf(&c->why,
                     "too few repeats (%d and %d): the rank test cannot reach %g; %d per "
                     "side would do",
                     b->nrep, n->nrep, o->level, need) < 0)
            c->why = NULL;
        return;
    }
    hb_shift_log(a, b->nrep, x, n->nrep, HB_CI_LEVEL, &c->shift);
    if (t->p_adjusted < o->level && fabs(change) > o->threshold_pct) {
        c->verdict = (n->higher_better ? -change : change) > 0 ? "worse" : "better";
        return;
    }
    double lo = (c->shift.lo - 1.0) * 100.0, hi = (c->shift.hi - 1.0) * 100.0;
    if (c->shift.coverage >= HB_CI_LEVEL && lo >= -o->threshold_pct && hi <= o->threshold_pct) {
        c->verdict = "same";
        return;
    }
    c->verdict = "unclear";
    cmp_unclear(o, change, t, c);
}

/* row[key] = v, a real (null when not finite), set in place when it is one already: a reused
 * row allocates nothing for its figures. */
static void cmp_set_num(json_t *row, const char *key, double v)
{
    json_t *at = json_object_get(row, key);
    if (isfinite(v) && json_is_real(at))
        json_real_set(at, v);
    else if (isfinite(v) || !json_is_null(at))
        json_object_set_new(row, key, cmp_json_num(v));
}

/* A side's figure as the row gives it: value, interval, repeat count (keys: that side's). */
static void cmp_side_cells(json_t *row, const char *const keys[5], const struct hb_cmp_rec *r)
{
    cmp_set_num(row, keys[0], r->value);
    json_t *ci = json_object_get(row, keys[1]);
    if (!isfinite(r->lo))
        json_object_set_new(row, keys[1], json_null());
    else if (json_array_size(ci) == 2)
        json_real_set(json_array_get(ci, 0), r->lo), json_real_set(json_array_get(ci, 1), r->hi);
    else
        json_object_set_new(row, keys[1], json_pack("[f, f]", r->lo, r->hi));
    cmp_set_num(row, keys[2], r->lo);
    cmp_set_num(row, keys[3], r->hi);
    json_t *n = json_object_get(row, keys[4]);
    if (json_is_integer(n))
        json_integer_set(n, r->nrep);
    else
        json_object_set_new(row, keys[4], json_integer(r->nrep));
}

static void cmp_count(struct hb_cmp_counts *c, const char *verdict)
{
    int *at[] = {&c->worse, &c->better, &c->same, &c->unclear, &c->undetermined};
    static const char *const names[] = {"worse", "better", "same", "unclear", "undetermined"};
    for (int i = 0; i < 5; i++)
        if (strcmp(verdict, names[i]) == 0) (*at[i])++;
}

/* The change's interval in percent, null when it was not computed. */
static void cmp_change_cells(json_t *row, const struct hb_shift *sh)
{
    double lo = (sh->lo - 1.0) * 100.0, hi = (sh->hi - 1.0) * 100.0;
    cmp_set_num(row, "change_low", lo);
    cmp_set_num(row, "change_high", hi);
    cmp_set_num(row, "change_coverage", sh->coverage > 0.0 ? sh->coverage : NAN);
    json_object_set_new(row, "change_ci95",
                        isfinite(lo) ? json_pack("[f, f]", lo, hi) : json_null());
}

/* One matched pair: its row and its count. -1 when out of memory. */
static int cmp_pair(const struct hb_cmp_opts *o, struct hb_cmp_out *out, const char *key,
                    const struct hb_cmp_side *bs, const struct hb_cmp_rec *b,
                    const struct hb_cmp_side *ns, const struct hb_cmp_rec *n,
                    const struct hb_cmp_test *t)
{
    double change = (n->value / b->value - 1.0) * 100.0;
    struct hb_cmp_call call;
    cmp_verdict(o, bs, b, ns, n, change, t, &call);
    cmp_count(&out->c, call.verdict);
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
        cmp_side_cells(row, base_keys, b);
        cmp_set_num(row, "base_coverage", b->coverage);
        cmp_side_cells(row, new_keys, n);
        cmp_set_num(row, "new_coverage", n->coverage);
        cmp_set_num(row, "change_pct", change);
        cmp_change_cells(row, &call.shift);
        cmp_set_num(row, "p", t->p);
        cmp_set_num(row, "p_adjusted", t->p_adjusted);
        cmp_set_num(row, "spread_pct", t->spread * 100.0);
        cmp_set_num(row, "detectable_pct", call.detectable_pct);
        json_object_set_new(row, "repeats_needed",
                            call.repeats_needed ? json_integer(call.repeats_needed) : json_null());
        json_object_set_new(row, "verdict", json_string_nocheck(call.verdict));
        json_object_set_new(row, "reason", call.why ? json_string(call.why) : json_null());
        json_object_del(row, "config_may_explain");
        /* A knob that moves this metric and differs may explain what the verdict says. */
        json_t *marks =
            strcmp(call.verdict, "same") != 0
                ? hb_compare_config_marks(o->config_diffs, hb_strtab_get(bs->str, b->metric),
                                          hb_strtab_get(bs->str, b->host))
                : NULL;
        if (marks) json_object_set_new(row, "config_may_explain", marks);
    }
    free(call.why);
    return cmp_put(out, json_incref(row));
}

/* An input error: a record that cannot be judged, a duplicated identity, a pair whose
 * metric or unit differ. -1 when out of memory. */
static int cmp_error(struct hb_cmp_out *out, const char *kind, const struct hb_cmp_side *sd,
                     const struct hb_cmp_rec *r, int with_host, const char *reason)
{
    char *key = hb_compare_side_key(sd, r, with_host), *where = NULL;
    if (asprintf(&where, "%s:%d", sd->res.path, r->line) < 0) where = NULL;
    json_t *row = key && where ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "error", "kind",
                                           kind, "where", where, "record", key, "reason", reason)
                               : NULL;
    free(key);
    free(where);
    out->c.errors++;
    return cmp_put(out, row);
}

/* Each side's records that cannot be judged, and identities given twice. */
static int cmp_errors(struct hb_cmp_out *out, const struct hb_cmp_side *sd, int with_host)
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
        if (why) rc = cmp_error(out, "duplicate", sd, r, with_host, why);
        free(why);
        if (rc == 0 && r->bad != HB_STRTAB_NONE)
            rc = cmp_error(out, "unusable", sd, r, with_host, hb_strtab_get(sd->str, r->bad));
    }
    return rc;
}

/* The first records of `mine` with no record of their identity in `other`: missing from NEW
 * (the gate fails) or only in NEW. */
static int cmp_only(struct hb_cmp_out *out, const struct hb_cmp_side *mine, int with_host,
                    const char *side, int *n)
{
    for (size_t k = 0; k < mine->n; k++) {
        const struct hb_cmp_rec *rec = &mine->v[k];
        if (rec->first || rec->matched) continue;
        char *key = hb_compare_side_key(mine, rec, with_host), *kind = NULL;
        if (!key || asprintf(&kind, "only_in_%s", side) < 0) kind = NULL;
        json_t *row =
            kind ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "only", "kind", kind, "side",
                             side, "record", key, "metric", hb_strtab_get(mine->str, rec->metric))
                 : NULL;
        free(kind);
        free(key);
        (*n)++;
        if (cmp_put(out, row)) return -1;
    }
    return 0;
}

/* Base record k's test (before any row, on any thread): its match found and both marked
 * matched (a first record of an identity has one match at most: one thread writes each
 * mark), the spread of the two runs' repeats, and the rank test's p when the pair can be a
 * member of the family. */
static void cmp_test(const struct hb_cmp_opts *o, struct hb_cmp_side *b, struct hb_cmp_side *n,
                     size_t k, int with_host, struct hb_cmp_test *t)
{
    struct hb_cmp_rec *br = &b->v[k];
    *t = (struct hb_cmp_test){0, NAN, NAN, NAN};
    struct hb_cmp_rec *nr =
        br->first ? NULL : (struct hb_cmp_rec *)hb_compare_side_find(n, br, with_host);
    if (!nr) return;
    br->matched = nr->matched = true;
    t->match = (size_t)(nr - n->v) + 1;
    if (br->bad != HB_STRTAB_NONE || nr->bad != HB_STRTAB_NONE || br->metric != nr->metric ||
        br->unit != nr->unit)
        return;
    const double *x = b->reps + br->rep0, *y = n->reps + nr->rep0;
    t->spread = hb_shift_spread(x, br->nrep, y, nr->nrep);
    if (br->nrep >= 2 && nr->nrep >= 2 && hb_signif_mwu_min_p(br->nrep, nr->nrep) <= o->level)
        t->p = hb_signif_mwu(x, br->nrep, y, nr->nrep, NULL);
}

/* Base record k against its match: its verdict, or the error that its metric or unit differ;
 * nothing when it has no match or either cannot be judged. -1 when out of memory. */
static int cmp_match(const struct hb_cmp_opts *o, struct hb_cmp_out *out, struct hb_cmp_side *b,
                     struct hb_cmp_side *n, size_t k, int with_host, const struct hb_cmp_test *t)
{
    struct hb_cmp_rec *br = &b->v[k];
    struct hb_cmp_rec *nr = t->match ? &n->v[t->match - 1] : NULL;
    if (!nr || br->bad != HB_STRTAB_NONE || nr->bad != HB_STRTAB_NONE) return 0;
    char *key = hb_compare_side_key(b, br, with_host), *why = NULL;
    if (!key) return -1;
    int rc;
    if (br->metric != nr->metric || br->unit != nr->unit) {
        if (asprintf(&why, "BASE measures %s in %s, NEW %s in %s: not the same figure",
                     hb_strtab_get(b->str, br->metric), hb_strtab_get(b->str, br->unit),
                     hb_strtab_get(n->str, nr->metric), hb_strtab_get(n->str, nr->unit)) < 0)
            why = NULL;
        rc = why ? cmp_error(out, "mismatch", n, nr, with_host, why) : -1;
    } else {
        rc = cmp_pair(o, out, key, b, br, n, nr, t);
    }
    free(why);
    free(key);
    return rc;
}

enum { HB_CMP_CHUNK = 8192 }; /* base records matched together, then written in order */

/* The rows of base records [from, to), on threads: each renders a contiguous part into its
 * own block (a static schedule hands the parts out in thread order), then the blocks are
 * written one after another, so rows keep the base file's order. -1 when out of memory. */
static int cmp_matches(const struct hb_cmp_opts *o, struct hb_sink *s, struct hb_cmp_out *outs,
                       int threads, struct hb_cmp_side *b, struct hb_cmp_side *n,
                       const struct hb_cmp_test *tests, size_t from, size_t to, int with_host)
{
    if (threads == 1) {
        for (size_t k = from; k < to && !outs[0].oom; k++)
            outs[0].oom = cmp_match(o, &outs[0], b, n, k, with_host, &tests[k]) != 0;
    }
#ifdef _OPENMP
    else
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t k = from; k < to; k++) {
            struct hb_cmp_out *out = &outs[omp_get_thread_num()];
            if (!out->oom) out->oom = cmp_match(o, out, b, n, k, with_host, &tests[k]) != 0;
        }
#endif
    for (int t = 0; t < threads; t++)
        if (outs[t].oom || cmp_flush(s, &outs[t])) return -1;
    return 0;
}

/* Every base record's test, then the family's p adjusted together (--fdr or --fwer): NULL
 * when out of memory, else the tests (free them) and *family the members. */
static struct hb_cmp_test *cmp_tests(const struct hb_cmp_opts *o, struct hb_cmp_side *b,
                                     struct hb_cmp_side *n, int with_host, int threads,
                                     long *family)
{
    struct hb_cmp_test *t = calloc(b->n ? b->n : 1, sizeof(*t));
    double *p = t ? malloc(sizeof(*p) * (b->n ? b->n : 1)) : NULL;
    if (!p) {
        free(t);
        return NULL;
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
    for (size_t k = 0; k < b->n; k++)
        cmp_test(o, b, n, k, with_host, &t[k]);
    (void)threads;
    for (size_t k = 0; k < b->n; k++)
        p[k] = t[k].p;
    *family = hb_family_adjust(p, b->n, o->rule, p);
    for (size_t k = 0; *family >= 0 && k < b->n; k++)
        t[k].p_adjusted = p[k];
    free(p);
    if (*family < 0) {
        free(t);
        return NULL;
    }
    return t;
}

/* What the run as a whole can detect: the median spread of its pairs and their typical
 * repeats (the fewer of each pair's sides, their median). */
struct hb_cmp_floor {
    double spread;
    int repeats;
};

static int cmp_dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void cmp_floor_of(const struct hb_cmp_side *b, const struct hb_cmp_side *n,
                         const struct hb_cmp_test *t, struct hb_cmp_floor *f)
{
    *f = (struct hb_cmp_floor){NAN, 0};
    double *sp = malloc(sizeof(*sp) * (b->n ? b->n : 1)),
           *reps = malloc(sizeof(*reps) * (b->n ? b->n : 1));
    size_t ns = 0, nr = 0;
    for (size_t k = 0; sp && reps && k < b->n; k++) {
        if (!t[k].match || !isfinite(t[k].spread)) continue;
        const struct hb_cmp_rec *x = &b->v[k], *y = &n->v[t[k].match - 1];
        sp[ns++] = t[k].spread;
        reps[nr++] = x->nrep < y->nrep ? x->nrep : y->nrep;
    }
    if (ns) {
        qsort(sp, ns, sizeof(*sp), cmp_dbl_cmp);
        qsort(reps, nr, sizeof(*reps), cmp_dbl_cmp);
        f->spread = sp[ns / 2];
        f->repeats = (int)reps[nr / 2];
    }
    free(sp);
    free(reps);
}

/* Every base record against its match: errors, verdicts, what is on one side only. */
static int cmp_rows(const struct hb_cmp_opts *o, struct hb_sink *s, struct hb_cmp_out *out,
                    struct hb_cmp_side *b, struct hb_cmp_side *n, int with_host,
                    const struct hb_cmp_test *tests)
{
    int rc = 0;
    int threads = s && b->n > HB_CMP_CHUNK ? hb_jsonl_load_threads() : 1;
    struct hb_cmp_out *outs = calloc((size_t)threads, sizeof(*outs));
    int opened = 0;
    while (outs && opened < threads && (!s || hb_sink_block_open(s, &outs[opened].block) == 0)) {
        outs[opened].rows = out->rows;
        outs[opened++].sink = s;
    }
    if (opened < threads) rc = -1;
    for (size_t k = 0; rc == 0 && k < b->n; k += HB_CMP_CHUNK)
        rc = cmp_matches(o, s, outs, threads, b, n, tests, k,
                         b->n - k > HB_CMP_CHUNK ? k + HB_CMP_CHUNK : b->n, with_host);
    for (int t = 0; t < opened; t++) {
        struct hb_cmp_counts *c = &out->c, *tc = &outs[t].c;
        c->worse += tc->worse, c->better += tc->better, c->same += tc->same;
        c->unclear += tc->unclear, c->undetermined += tc->undetermined, c->errors += tc->errors;
        hb_sink_block_free(&outs[t].block);
        json_decref(outs[t].row);
    }
    free(outs);
    if (rc == 0) rc = cmp_only(out, b, with_host, "base", &out->c.only_base);
    if (rc == 0) rc = cmp_only(out, n, with_host, "new", &out->c.only_new);
    return rc;
}

/* The exit code: bad input, then missing measurements, then a regression (with
 * --expect-same any difference), then a row that could not be decided (rerun). */
static int cmp_exit(const struct hb_cmp_opts *o, const struct hb_cmp_counts *c)
{
    return c->errors                                   ? HB_EXIT_USAGE
           : c->only_base                              ? HB_EXIT_MISSING
           : c->worse || (o->expect_same && c->better) ? HB_EXIT_FAILED
           : c->unclear || c->undetermined             ? HB_EXIT_UNCLEAR
                                                       : HB_EXIT_OK;
}

/* Each side's files, and the files as one side after pooling (sides[0] for BASE,
 * sides[nbase] for NEW). */
struct hb_cmp_sides {
    struct hb_cmp_side *v;
    int nbase, n;
};

/* A side's file names, joined with ", " (free it); NULL when out of memory. */
static char *cmp_paths(const struct hb_cmp_side *v, int n)
{
    char *out = strdup("");
    for (int i = 0; out && i < n; i++) {
        char *more = hb_strf("%s%s%s", out, i ? ", " : "", v[i].res.path);
        free(out);
        out = more;
    }
    return out;
}

/* Intervals as they are: "93.75% interval, 5 repeats", or the range over both sides
 * (hb_coverage.h, as every table and caption says it). */
static char *cmp_intervals(const struct hb_cmp_side *b, const struct hb_cmp_side *n)
{
    struct hb_coverage c = {0};
    const struct hb_cmp_side *both[2] = {b, n};
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < both[s]->n; k++) {
            const struct hb_cmp_rec *r = &both[s]->v[k];
            if (r->bad == HB_STRTAB_NONE)
                hb_coverage_add(&c, isfinite(r->lo), r->nrep, r->coverage);
        }
    char label[HB_COVERAGE_LABEL_LEN];
    return strdup(hb_coverage_label(&c, label, sizeof(label)));
}

/* "NEW is unstable: 17 of 17 figures noisy, its run took 12x its base" (free it), "" when
 * the side's summary says nothing against it, NULL when out of memory. */
static char *cmp_unstable(const char *name, const struct hb_cmp_summary *me,
                          const struct hb_cmp_summary *other, const char *other_name)
{
    /* The summary's figures as the run itself judged them (hb_stability.h). */
    json_t *sum = json_object();
    const char *keys[] = {"measurements", "noisy", "elapsed_s", "estimate_s", "spread_pct_median"};
    const double vals[] = {me->measurements, me->noisy, me->elapsed_s, me->estimate_s,
                           me->spread_pct_median};
    for (int i = 0; sum && i < 5; i++)
        if (isfinite(vals[i])) json_object_set_new(sum, keys[i], json_real(vals[i]));
    char *why = NULL;
    if (!sum || (!hb_stability_describe(sum, &why) && !(why = strdup("")))) {
        json_decref(sum);
        return NULL;
    }
    json_decref(sum);
    if (!why) return NULL;
    double ratio = me->elapsed_s / other->elapsed_s;
    if (isfinite(ratio) && ratio >= HB_UNSTABLE_OVERRUN) {
        char *more =
            hb_strf("%s%sits run took %.3gx %s's", why, why[0] ? ", " : "", ratio, other_name);
        free(why);
        why = more;
    }
    if (!why || !why[0]) return why;
    char *text = hb_strf("%s is unstable: %s", name, why);
    free(why);
    return text;
}

/* The notes before the rows: different machines, the knobs that differ (they may explain
 * the verdicts below), pooled files, unstable sides. -1 when out of memory. */
static int cmp_notes(const struct hb_cmp_opts *o, struct hb_cmp_out *out,
                     const struct hb_cmp_sides *sd, const char *machines)
{
    const struct hb_cmp_side *b = &sd->v[0], *n = &sd->v[sd->nbase];
    int nside[2] = {sd->nbase, sd->n - sd->nbase};
    const struct hb_cmp_side *first[2] = {b, n};
    static const char *const names[2] = {"BASE", "NEW"};
    int oom = 0;
    if (machines[0])
        oom = cmp_put(out, json_pack("{s:s, s:s, s:s}", "type", "note", "about", "machines", "text",
                                     machines));
    size_t i;
    json_t *d;
    json_array_foreach(o->config_diffs, i, d) if (!oom) oom = cmp_put(out, json_incref(d));
    for (int s = 0; !oom && s < 2; s++) {
        if (nside[s] < 2) continue;
        char *paths = cmp_paths(first[s], nside[s]);
        char *text = paths ? hb_strf("%s pools %d files (%s): each figure is the median of all "
                                     "their repeats",
                                     names[s], nside[s], paths)
                           : NULL;
        oom = text ? cmp_put(out, json_pack("{s:s, s:s, s:s}", "type", "note", "about", "pooled",
                                            "text", text))
                   : -1;
        free(paths);
        free(text);
    }
    for (int s = 0; !oom && s < 2; s++) {
        char *text =
            cmp_unstable(names[s], &first[s]->summary, &first[!s]->summary, s ? "BASE" : "NEW");
        if (text && text[0])
            oom = cmp_put(out, json_pack("{s:s, s:s, s:s, s:s}", "type", "note", "about",
                                         "unstable", "side", names[s], "text", text));
        else if (!text)
            oom = -1;
        free(text);
    }
    return oom;
}

/* The summary: the counts, the family, and what these repeats can detect in plain words. */
static json_t *cmp_summary(const struct hb_cmp_opts *o, const struct hb_cmp_counts *c, long family,
                           const struct hb_cmp_floor *f)
{
    double detect =
        hb_shift_detectable_pct(f->spread, f->repeats, f->repeats, o->level, HB_CMP_POWER);
    int reach = hb_shift_repeats_to_detect(f->spread, o->threshold_pct, o->level, HB_CMP_POWER);
    char can[160], more[160];
    if (!f->repeats)
        snprintf(can, sizeof(can), "no pair with repeats on both sides: nothing can be detected");
    else if (isfinite(detect))
        snprintf(can, sizeof(can),
                 "this machine can detect changes of %.*f%% or more with %d "
                 "repeats",
                 detect < 10.0 ? 1 : 0, detect, f->repeats);
    else
        snprintf(can, sizeof(can),
                 "with %d repeats the rank test cannot reach %g: no change "
                 "can be detected",
                 f->repeats, o->level);
    if (f->repeats && reach)
        snprintf(more, sizeof(more), "; about %d repeats would reach the %g%% threshold", reach,
                 o->threshold_pct);
    else if (f->repeats)
        snprintf(more, sizeof(more), "; %s",
                 isfinite(f->spread) ? "no practical number of "
                                       "repeats would reach the threshold"
                                     : "the spread is unknown");
    else
        more[0] = 0;
    char *floor = hb_strf("%s%s", can, more);
    json_t *sum =
        floor ? json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:s, s:f, s:I, s:f, "
                          "s:o, s:o, s:i, s:o, s:s}",
                          "type", "compare_summary", "worse", c->worse, "better", c->better, "same",
                          c->same, "unclear", c->unclear, "undetermined", c->undetermined,
                          "only_base", c->only_base, "only_new", c->only_new, "errors", c->errors,
                          "threshold_pct", o->threshold_pct, "rule", hb_family_rule_name(o->rule),
                          "level", o->level, "family", (json_int_t)family,
                          "expected_false_uncorrected", (double)family * o->level, "spread_pct",
                          cmp_json_num(f->spread * 100.0), "detectable_pct", cmp_json_num(detect),
                          "repeats", f->repeats, "repeats_for_threshold",
                          reach ? json_integer(reach) : json_null(), "noise_floor", floor)
              : NULL;
    free(floor);
    return sum;
}

/* The suite of a side's first measurement ("" when it has none): a record's identity begins
 * with it (struct hb_cmp_rec.head), its length into *len. */
static const char *cmp_suite_of(const struct hb_cmp_side *sd, size_t *len)
{
    const char *head = sd->n ? hb_strtab_get(sd->str, sd->v[0].head) : "";
    *len = strcspn(head, " ");
    return head;
}

/* Why base's measurements are missing from new: another suite's run (nothing matched, and
 * the first measurements' suites differ: an identity includes its suite), or a run that
 * stopped early. */
static void cmp_say_missing(const struct hb_cmp_counts *c, const struct hb_cmp_side *b,
                            const struct hb_cmp_side *n)
{
    size_t bl, nl;
    const char *bs = cmp_suite_of(b, &bl), *ns = cmp_suite_of(n, &nl);
    int matched = c->worse + c->better + c->same + c->unclear + c->undetermined + c->errors;
    if (n->n && !matched && (bl != nl || strncmp(bs, ns, bl) != 0))
        fprintf(stderr,
                "hopbench: %s is a run of suite %.*s and %s of suite %.*s: a measurement's "
                "identity includes its suite, so %d of %s's are missing from %s; compare runs "
                "of one suite\n",
                b->res.path, (int)bl, bs, n->res.path, (int)nl, ns, c->only_base, b->res.path,
                n->res.path);
    else
        fprintf(stderr,
                "hopbench: %d measurement(s) of %s are missing from %s (listed as only "
                "in base): a crashed or incomplete run?\n",
                c->only_base, b->res.path, n->res.path);
}

/* Every row of the comparison into out (its block, or its rows without a sink s), counted in
 * out->c: header, notes, errors, verdicts, what is on one side only, the summary. -1 when out
 * of memory. */
static int cmp_all(const struct hb_cmp_opts *o, struct hb_sink *s, struct hb_cmp_out *out,
                   struct hb_cmp_sides *sd, int with_host, const char *machines)
{
    struct hb_cmp_side *b = &sd->v[0], *n = &sd->v[sd->nbase];
    char *bp = cmp_paths(b, sd->nbase), *np = cmp_paths(n, sd->n - sd->nbase);
    char *ivs = cmp_intervals(b, n);
    int oom = (s && hb_sink_block_open(s, &out->block)) || !bp || !np || !ivs ? -1 : 0;
    if (!oom)
        oom = cmp_put(out,
                      json_pack("{s:s, s:s, s:s, s:f, s:s, s:f, s:s, s:b}", "type",
                                "compare_header", "base_path", bp, "new_path", np, "threshold_pct",
                                o->threshold_pct, "rule", hb_family_rule_name(o->rule), "level",
                                o->level, "intervals", ivs, "expect_same", o->expect_same));
    free(bp);
    free(np);
    free(ivs);
    if (!oom) oom = cmp_notes(o, out, sd, machines);
    /* Every file's unusable and duplicated records, then the other files pooled into each
     * side's first. */
    for (int i = 0; !oom && i < sd->n; i++)
        oom = cmp_errors(out, &sd->v[i], with_host);
    for (int i = 1; !oom && i < sd->n; i++)
        if (i != sd->nbase)
            oom = hb_compare_side_pool(&sd->v[i < sd->nbase ? 0 : sd->nbase], &sd->v[i], with_host)
                      ? -1
                      : 0;
    if (!oom) oom = cmp_flush(s, out);
    long family = 0;
    int threads = b->n > HB_CMP_CHUNK ? hb_jsonl_load_threads() : 1;
    struct hb_cmp_test *tests = oom ? NULL : cmp_tests(o, b, n, with_host, threads, &family);
    if (!tests) oom = -1;
    if (!oom) oom = cmp_rows(o, s, out, b, n, with_host, tests);
    struct hb_cmp_floor floor = {NAN, 0};
    if (tests) cmp_floor_of(b, n, tests, &floor);
    free(tests);
    if (!oom) oom = cmp_put(out, cmp_summary(o, &out->c, family, &floor));
    return oom;
}

static int cmp_run(const struct hb_cmp_opts *o, struct hb_cmp_sides *sd, int with_host,
                   const char *machines)
{
    struct hb_cmp_side *b = &sd->v[0], *n = &sd->v[sd->nbase];
    struct hb_sink *s = NULL;
    int rc = hb_sink_open(o->format, o->output ? o->output : "", &hb_compare_layout, &s);
    if (rc) {
        hb_error_print(rc);
        return hb_error_exit_code(rc);
    }
    struct hb_cmp_out out = {.sink = s};
    int oom = cmp_all(o, s, &out, sd, with_host, machines);
    const struct hb_cmp_counts *c = &out.c;
    if (!oom && hb_sink_block_put(s, &out.block) == -ENOMEM) oom = -1;
    if (oom) {
        hb_sink_block_free(&out.block);
        (void)hb_sink_close(s, false);
        fprintf(stderr, "hopbench: out of memory writing the comparison\n");
        return HB_EXIT_ENV;
    }
    if ((rc = hb_sink_close(s, true))) {
        hb_error_print(rc);
        return HB_EXIT_ENV;
    }
    if (c->only_base) cmp_say_missing(c, b, n);
    return cmp_exit(o, c);
}

/* Every file holds one run, each side's files one machine and build as the other side's
 * (unless allowed): 0, or -EINVAL with a message; *machines says what differs between the
 * sides' first files ("" when nothing does). */
static int cmp_check_runs(const struct hb_cmp_opts *o, const struct hb_cmp_sides *sd,
                          char **machines)
{
    for (int i = 0; i < sd->n; i++)
        if (sd->v[i].res.run_line2) {
            hb_error_set("%s:%d: a second run record: the file holds several runs; split it per "
                         "run and compare one run with another",
                         sd->v[i].res.path, sd->v[i].res.run_line2);
            return -EINVAL;
        }
    /* Pooled files must be runs of one machine and build as their side's first. */
    for (int i = 1; i < sd->n; i++) {
        const struct hb_cmp_side *first = &sd->v[i < sd->nbase ? 0 : sd->nbase];
        if (i == sd->nbase) continue;
        char *d = hb_compare_side_machines(first->res.run, sd->v[i].res.run);
        if (d && d[0] && !o->allow_machines) {
            hb_error_set("%s and %s, pooled on one side, come from different machines or builds "
                         "(%s): pool runs of one machine, or allow it with "
                         "--allow-different-machines",
                         first->res.path, sd->v[i].res.path, d);
            free(d);
            return -EINVAL;
        }
        free(d);
    }
    const struct hb_cmp_side *b = &sd->v[0], *n = &sd->v[sd->nbase];
    *machines = hb_compare_side_machines(b->res.run, n->res.run);
    if (!*machines) {
        hb_error_set("compare: out of memory");
        return -ENOMEM;
    }
    if ((*machines)[0] && !o->allow_machines) {
        hb_error_set("%s and %s come from different machines or builds (%s): their figures "
                     "need not agree; compare them anyway with --allow-different-machines",
                     b->res.path, n->res.path, *machines);
        return -EINVAL;
    }
    return 0;
}

/* The files of o read into sd (their strings in str), checked and indexed: 0, or -errno with
 * a message; *machines what differs between the sides' machines, *with_host whether hosts
 * are part of the identity. o->config_diffs set. Free with cmp_unload. */
static int cmp_load(struct hb_cmp_opts *o, struct hb_cmp_sides *sd, struct hb_strtab *str,
                    char **machines, int *with_host)
{
    int rc = 0;
    if (!(sd->v = calloc((size_t)(o->nbase + o->nnew), sizeof(*sd->v)))) {
        hb_error_set("compare: out of memory");
        return -ENOMEM;
    }
    sd->nbase = o->nbase, sd->n = o->nbase + o->nnew;
    /* Each file streamed: only what a comparison needs stays (hb_compare_side.c). */
    for (int i = 0; rc == 0 && i < sd->n; i++) {
        sd->v[i].str = str;
        rc = hb_compare_side_read(i < o->nbase ? o->bases[i] : o->news[i - o->nbase], &sd->v[i]);
    }
    if (rc == 0) rc = cmp_check_runs(o, sd, machines);
    struct hb_cmp_side *b = sd->v, *n = sd->v + sd->nbase;
    if (rc == 0 && !(o->config_diffs = hb_compare_config_diffs(b->res.run, n->res.run))) {
        hb_error_set("compare: out of memory");
        rc = -ENOMEM;
    }
    /* Hosts are part of the identity only when both sides have several. */
    *with_host = rc == 0 && b->hosts > 1 && n->hosts > 1;
    for (int i = 0; rc == 0 && i < sd->n; i++)
        rc = hb_compare_side_index(&sd->v[i], *with_host);
    return rc;
}

static void cmp_unload(struct hb_cmp_opts *o, struct hb_cmp_sides *sd, struct hb_strtab *str,
                       char *machines)
{
    free(machines);
    json_decref(o->config_diffs);
    for (int i = 0; sd->v && i < sd->n; i++)
        hb_compare_side_free(&sd->v[i]);
    free(sd->v);
    hb_strtab_free(str);
}

int hb_compare_rows(const char *base, const char *new_path, json_t *rows)
{
    const char *bases[1] = {base}, *news[1] = {new_path};
    struct hb_cmp_opts o = cmp_defaults(bases, news);
    o.nbase = o.nnew = 1;
    struct hb_strtab str = {0};
    struct hb_cmp_sides sd = {NULL, 0, 0};
    char *machines = NULL;
    int with_host = 0, rc = cmp_load(&o, &sd, &str, &machines, &with_host);
    struct hb_cmp_out out = {.rows = rows};
    if (rc == 0 && cmp_all(&o, NULL, &out, &sd, with_host, machines)) {
        hb_error_set("compare %s %s: out of memory", base, new_path);
        rc = -ENOMEM;
    }
    json_decref(out.row);
    cmp_unload(&o, &sd, &str, machines);
    return rc;
}

int hb_compare_main(int argc, char **argv)
{
    struct hb_cmp_opts o = {0};
    struct hb_strtab str = {0};
    struct hb_cmp_sides sd = {NULL, 0, 0};
    char *machines = NULL;
    int with_host = 0, rc = cmp_parse(argc, argv, &o);
    if (rc == 0) rc = cmp_load(&o, &sd, &str, &machines, &with_host);
    int code = HB_EXIT_OK;
    if (rc) {
        hb_error_print(rc);
        code = hb_error_exit_code(rc);
    } else {
        for (int i = 0; i < sd.n; i++)
            if (sd.v[i].res.skipped_line)
                fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n",
                        sd.v[i].res.path, sd.v[i].res.skipped_line);
        fflush(stdout);
        code = cmp_run(&o, &sd, with_host, machines);
    }
    cmp_unload(&o, &sd, &str, machines);
    free(o.bases);
    free(o.news);
    return code;
}
