/* What the report keeps of one results file, read as a stream: the run record and the few
 * derived records it draws as JSON (matrix, fleet, verdict, knee: a handful per run; a note
 * once per text), and of each measurement and throughput record only its bars, curve points
 * and table cells. Strings are interned and table cells kept as interned HTML, so a million
 * records of a few kinds take tens of bytes each, not a JSON tree. */
#ifndef HB_REPORT_DATA_H
#define HB_REPORT_DATA_H

#include "hb_coverage.h"
#include "hb_jsonl_read.h"
#include "hb_options.h"
#include "hb_strtab.h"

#include <stdbool.h>
#include <stdio.h>

/* A bar of a figure and its row in the numbers table below it. */
/* A figure and its interval over repeats (lo, hi NaN when it has none), of that exact
 * coverage over that many repeats (0: not given). */
struct hb_rfig {
    double v, lo, hi;
    double coverage;
    int repeats;
};

/* The number at key in m (0 when absent) with its interval: KEY_ci95 when m has one, m's ci95
 * when key is m's headline. */
struct hb_rfig hb_report_data_fig(const json_t *m, const char *key);

struct hb_rbar {
    double key;                    /* groups are drawn in ascending key, file order inside */
    size_t seq;                    /* file order */
    uint32_t group, label, series; /* strings of the file */
    uint32_t row;                  /* first of its cells in the file's cells */
    struct hb_rfig fig;
};

struct hb_rbars {
    struct hb_rbar *v;
    size_t n, cap;
    struct hb_coverage cov; /* what the bars' intervals are */
};

struct hb_rpoint {
    uint32_t series; /* in the curve set's names */
    double x;
    struct hb_rfig y;
    char level[20]; /* the record's memory level (L1..memory), "" when it has none */
};

/* Curves by name: series in order of first appearance, points in file order. */
struct hb_rcurves {
    struct hb_strtab names;
    struct hb_rpoint *v;
    size_t n, cap;
    struct hb_coverage cov; /* what the points' intervals are */
};

/* A comm pair's figure at one message size (its median of repeats with its interval):
 * the comm curves take per pair class the median over the pairs of the class. */
enum { HB_RCOMM_LATENCY, HB_RCOMM_BANDWIDTH, HB_RCOMM_BIBANDWIDTH, HB_RCOMM_METRICS };
#define HB_RCOMM_HOSTS (-1)   /* the class of a pair between two hosts */
#define HB_RCOMM_UNKNOWN (-2) /* a pair of one host whose hop class the firmware does not give */
struct hb_rcomm {
    int metric; /* HB_RCOMM_* */
    int cls;    /* the pair's hop class, or HB_RCOMM_HOSTS, HB_RCOMM_UNKNOWN */
    double bytes;
    struct hb_rfig y;
};

struct hb_rcomms {
    struct hb_rcomm *v;
    size_t n, cap;
    struct hb_coverage cov[HB_RCOMM_METRICS]; /* what each metric's pairs' intervals are */
};

/* Output stays bounded by what a person can read: a matrix with more rows or columns than
 * this is summarised, not drawn cell by cell; a verdict lists as many records of evidence. */
#define HB_REPORT_MAX_SIDE 64

/* Output stays bounded whatever the input's size: what a figure or section of one file
 * draws is capped below, the first items in drawing order, and one line in the figure says
 * how many were left out and how to see them all (hb_report_kit_left_out). Sizes, measured:
 * - a bar with its numbers row is about 470 bytes: 512 per figure is under 250 KB (the
 *   SVG is already some 20000 px wide);
 * - a curve point with its row, or a table row without a figure, is 150-300 bytes: 2048
 *   per figure or table is under 600 KB;
 * - a matrix cell is drawn in up to four heatmaps and a table row, up to 1.3 KB: 8192 per
 *   section (two 64 x 64 matrices, or 128 of 8 x 8 nodes, a panel weighing at least 64)
 *   is under 11 MB at worst, 2-3 MB without HMAT maps; fleet hosts count alike;
 * - verdicts (each at most 65 rows) and notes: 64 per section; knees: 16 per figure.
 * So a report of 1e6 records stays a few MB per results file (tests/bench/report_scale.sh),
 * where it used to draw every record (467 MB). */
#define HB_REPORT_MAX_BARS 512
#define HB_REPORT_MAX_ROWS 2048
#define HB_REPORT_MAX_CELLS 8192
#define HB_REPORT_MAX_PANELS 64
#define HB_REPORT_MAX_MARKS 16

/* Items offered to a capped figure or section, in drawing order: the first ones that fit
 * max (each weighing w) are drawn, everything after the first that does not is left out. */
struct hb_rbudget {
    size_t used, drawn, total;
    bool full;
};

/* A verdict's evidence: per key (suite, background, label; hb_report_data_evidence_key) the rows
 * of its first measurements, chained in file order: one more than a verdict draws, so the
 * report can say there are more. */
#define HB_REPORT_EVIDENCE_ROWS (HB_REPORT_MAX_SIDE + 1)
struct hb_rchain {
    uint32_t first, last, n; /* n: rows kept, at most HB_REPORT_EVIDENCE_ROWS */
    size_t total;            /* measurements of the key, kept or not */
};
struct hb_rlink {
    uint32_t row, next; /* next: UINT32_MAX ends the chain */
};
struct hb_revidence {
    struct hb_strtab keys;
    struct hb_rchain *chain; /* per key id */
    size_t chaincap;
    struct hb_rlink *v;
    size_t n, cap;
};

/* Which sections have records of the file. */
enum {
    HB_RHAS_LOADED = 1 << 0, /* a loaded measurement with total_GBps */
    HB_RHAS_SWEEP = 1 << 1,  /* a sweep measurement with ws_bytes */
    HB_RHAS_POLICY = 1 << 2, /* a policy measurement */
    HB_RHAS_SUMS = 1 << 3,   /* a policy throughput record with intensity */
};

struct hb_report_in {
    struct hb_results res;      /* path, run record, the derived records kept */
    struct hb_strtab str;       /* labels, series, groups and table cells (HTML) */
    struct hb_strtab notes;     /* texts of the notes kept: each once */
    struct hb_strtab labels[2]; /* the 40555 labels of the rows kept (hb_report_words_label_key):
                                   basic section, hop study */
    uint32_t *cells;            /* rows of cell ids, a row's cells side by side */
    size_t ncells, cellcap;
    struct hb_rbars basic[2]; /* bandwidth, latency (default suite, bw, lat, others) */
    struct hb_rbars hops;
    struct hb_rbars peak_nodes; /* peak's measurements: key its CPU node, group its experiment,
                                   label its host; the peak record's bars take their intervals */
    struct hb_rcurves loaded, sweep[2], intensity[2]; /* sweep: latency, bandwidth;
                                                         intensity: measured, summed */
    struct hb_rcurves mlp; /* latency per load against loads a second, per chain count */
    int mlp_chains[2];     /* the fewest and most chains of its points (0: none yet) */
    struct hb_rcomms comm;
    /* coll: per op (hb_coll_op_names) p50 against size per placement class; the rows of its
     * per-hop table (at most HB_REPORT_MAX_ROWS of coll_total) */
    struct hb_rcurves coll[HB_COLL_OPS];
    uint32_t *coll_rows;
    size_t ncoll_rows, coll_rowcap, coll_total;
    struct hb_revidence evidence;
    /* The derived records kept: the first of each kind that fit their section's cap
     * (matrices: not c2c, c2c; knees: loaded, intensity). */
    struct hb_rbudget matrices[2], fleets, verdicts, knees[2];
    struct hb_rbudget c2c_studies, peaks; /* c2c_false_sharing and c2c_lock; peak */
    struct hb_rbudget policy_recs;        /* policy throughput and gain, not --intensity's */
    struct hb_rbudget comm_matrices;
    struct hb_rbudget coll_places; /* coll_placement */
    struct hb_coverage cov;        /* every measurement's headline interval, fleets' too */
    /* Measurements of a metric no section draws: how many, the first's line and metric. */
    size_t unknown;
    int unknown_line;
    char unknown_metric[64];
    /* The summary's first figures of the file, as text (hb_report_summary.c), and how many
     * foreground figures it has in all. */
    struct hb_strtab headlines;
    size_t figures;
    /* Figures past a physical bound (hb_bounds.h), the first few as text, and how many. */
    struct hb_strtab impossible;
    size_t nimpossible;
    /* Records of compare's output (comparison, only, compare_summary): the file is refused;
     * how many, and the first's line. */
    size_t comparisons;
    int comparison_line;
    /* Measurements whose figures no axis can hold (1e308, 5e-324): how many, the first's line
     * and figure. */
    size_t undrawable;
    int undrawable_line;
    double undrawable_value;
    unsigned has;          /* HB_RHAS_* */
    int sweep_threads;     /* the most threads of a sweep measurement (its x is per thread) */
    uint64_t sweep_stride; /* the first sweep chase's chase_stride: what of its working set
                              stays in the caches (hb_level_footprint), where its marks go */
    /* Every measurement folded for the fleet summary (hb_report_fleet.h); once the file is a
     * fleet, the per-record parts above are freed and no longer fed. */
    struct hb_rfleet *fleet;
};

/* What hb_report_read kept, freed (in is zeroed). */
void hb_report_data_in_free(struct hb_report_in *in);
/* What the sections kept of each measurement and throughput record, freed: the file, its
 * notes, the derived records and the fleet's folds stay. */
void hb_report_data_records_free(struct hb_report_in *in);
/* The curves c, freed (not c itself). */
void hb_report_data_curves_free(struct hb_rcurves *c);

/* Collectors, for the sections' take functions. Each returns 0 or -ENOMEM. */
/* Whether an item of weight w (at most max) is drawn, counting it in b either way. */
bool hb_report_data_budget_take(struct hb_rbudget *b, size_t w, size_t max);
/* Interned s: *id names it in in->str. */
int hb_report_data_intern(struct hb_report_in *in, const char *s, uint32_t *id);
/* The cells of rec at keys (n of them) as table cells (hb_report_data_cell_key; with their keys
 * when by_key, so byte counts read in KiB/MiB/GiB): *row names the first. */
int hb_report_data_add_row(struct hb_report_in *in, const json_t *rec, const char *const *keys,
                           int n, bool by_key, uint32_t *row);
/* A bar; its seq is set here (file order). */
int hb_report_data_add_bar(struct hb_rbars *b, const struct hb_rbar *bar);
/* A point of the curve called name. */
int hb_report_data_add_point(struct hb_rcurves *c, const char *name, double x, struct hb_rfig y,
                             const char *level);
/* A comm pair's figure. */
int hb_report_data_add_comm(struct hb_rcomms *c, const struct hb_rcomm *p);
/* rec's cells at `cells` as an evidence row of key and any_key, while either has room. */
int hb_report_data_add_evidence(struct hb_report_in *in, const char *key, const char *any_key,
                                const json_t *rec, const char *const *cells, int ncells);

/* The selected word of a sysfs choice list ("always [madvise] never": "madvise") in buf, or
 * NULL when s is not such a list. */
const char *hb_report_words_sysfs_choice(const char *s, char *buf, size_t len);

/* A value as HTML text, named key (byte counts, "_bytes", in KiB/MiB/GiB; sysfs choice lists
 * as their choice; objects as "key: value; ..."). */
void hb_report_data_value_text(FILE *f, const char *key, const json_t *v);
/* A value as a table cell, <td>...</td>. */
void hb_report_data_cell(FILE *f, const json_t *v);
/* A cell whose value is named key (byte counts, "_bytes", are shown in KiB/MiB/GiB). */
void hb_report_data_cell_key(FILE *f, const char *key, const json_t *v);
/* The HTML of cell c of a kept row. */
const char *hb_report_data_row_cell(const struct hb_report_in *in, uint32_t row, int c);

/* The background levels in load order: their rank, 99 for any other. */
int hb_report_data_bg_rank(const char *bg);

/* The evidence key of a measurement or verdict: suite, background level (NULL: any level)
 * and label. */
void hb_report_data_evidence_key(char *buf, size_t len, const char *suite, const char *bg,
                                 const char *label);

/* "host: kernel, CPU node C \u2192 memory node M[, extra pages]": one curve's name. */
void hb_report_data_series_name(char *buf, size_t len, const json_t *m, const char *extra);

#endif
