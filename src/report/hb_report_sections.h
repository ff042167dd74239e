/* The report's sections, one file or a few each (basic, tables, curves, hmat): what
 * hb_report.c calls to read records into them and to write them. */
#ifndef HB_REPORT_SECTIONS_H
#define HB_REPORT_SECTIONS_H

#include "hb_report_data.h"

#include <stdio.h>

/* A page of the report made in memory (the records' report and the history's alike), so
 * that its contents can be listed at its top once its sections are written. */
struct hb_report_page {
    char *text;
    size_t len;
    FILE *f;
};
/* Open one with its doctype, style and <h1>title</h1>: the stream to write the sections to,
 * NULL when out of memory. */
FILE *hb_report_page_open(struct hb_report_page *pg, const char *title);
/* Close it and write it to out with its contents (nothing when rc, the sections' status, is
 * not 0): rc, -ENOMEM, or -EIO when out failed. */
int hb_report_page_close(struct hb_report_page *pg, FILE *out, int rc);

/* Sections; each writes nothing when no input has records for it. */
/* First: per file what ran, where, its first figures with their intervals and its verdicts. */
void hb_report_summary(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_machine(FILE *f, const struct hb_report_in *in, int nin);
/* In a Machine panel: the configuration of the files at[] (n of them) that ran there. */
void hb_report_config(FILE *f, const struct hb_report_in *in, const int *at, int n);
void hb_report_matrices(FILE *f, const struct hb_report_in *in, int nin, int c2c);
void hb_report_matrices_fleet(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_curves_hops(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_verdicts(FILE *f, const struct hb_report_in *in, int nin);
/* A myth verdict's word: holds, does not hold or inconclusive (the record's word, else its
 * holds; null: within the noise). */
const char *hb_report_verdicts_word(const json_t *v);
/* A heading that tells a verdict from the others: myth, access, hop class, case, load. */
void hb_report_verdicts_heading(char *buf, size_t len, const json_t *v);
void hb_report_curves_loaded(FILE *f, const struct hb_report_in *in, int nin);
/* Memory-level parallelism: per file whose chase records have two or more chain counts, the
 * latency per load against the loads a second, one curve per node pair, a point per count. */
void hb_report_mlp(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_sweep(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_curves_policy(FILE *f, const struct hb_report_in *in, int nin);
/* The policy section's throughput and gains of one file (hb_report_policy.c): bars of each
 * workload under each placement with the gain record's intervals, and the table of local
 * placement's gains with their verdicts. */
void hb_report_policy_gains(FILE *f, const struct hb_report_in *in);
/* Whether rec is a policy throughput or gain record (not --intensity's) the section keeps: 1
 * when kept within its budget, else 0. */
int hb_report_policy_keep(struct hb_report_in *in, const json_t *rec);
void hb_report_basic(FILE *f, const struct hb_report_in *in, int nin);

/* The comparison section: files that ran the same experiments, each later one against the
 * first of its set as compare judges it; nothing when no two files match. */
void hb_report_compare(FILE *f, const struct hb_report_in *in, int nin);
/* The page made in memory (len bytes) written to f with its contents: a list linking every
 * section (<section id> and its <h2>) before the first one. */
void hb_report_toc_write(FILE *f, const char *page, size_t len);

/* The peak section: per mix, each node's figure and the machine's total. */
void hb_report_peak(FILE *f, const struct hb_report_in *in, int nin);
/* The comm section: per host, node x node heatmaps of comm_matrix records with hop classes;
 * latency and bandwidth against message size per pair class. */
void hb_report_comm(FILE *f, const struct hb_report_in *in, int nin);
/* The coll section: per op, p50 against message size per placement class; each
 * communicator's ranks by hops from the root; the best and worst placements. */
void hb_report_coll(FILE *f, const struct hb_report_in *in, int nin);
/* In the c2c section: the false-sharing and lock studies with their notes. */
void hb_report_c2c_studies(FILE *f, const struct hb_report_in *in, int nin);
/* Below a matrix: its notes (why cells are empty), each a line. */
void hb_report_c2c_matrix_notes(FILE *f, const json_t *m);

/* What each section keeps of a measurement or throughput record as it is read: 0 or
 * -ENOMEM. */
int hb_report_summary_take(struct hb_report_in *in, const json_t *rec);
int hb_report_basic_take(struct hb_report_in *in, const json_t *rec);
int hb_report_peak_take(struct hb_report_in *in, const json_t *rec);
int hb_report_curves_hops_take(struct hb_report_in *in, const json_t *rec);
int hb_report_verdicts_evidence_take(struct hb_report_in *in, const json_t *rec);
int hb_report_curves_take(struct hb_report_in *in, const json_t *rec);
int hb_report_comm_take(struct hb_report_in *in, const json_t *rec);
int hb_report_mlp_take(struct hb_report_in *in, const json_t *rec);
int hb_report_coll_take(struct hb_report_in *in, const json_t *rec);

/* Below a matrix panel: the firmware's HMAT figures and measured/firmware ratios as
 * heatmaps (data-kind "hmat" and "hmat-ratio"), HMAT flags outlined and listed; nothing when
 * the matrix carries no HMAT comparison. path: its results file, for the left-out line. */
void hb_report_hmat_matrix(FILE *f, const json_t *m, const char *path);
/* Below it: the kernel's memory tier of each measured node, and each flag (class "warn flag")
 * and inconclusive where the measured order contradicts the tiers; nothing without them. */
void hb_report_hmat_kernel_tiers(FILE *f, const json_t *m, const char *path);

/* How much of its section's HB_REPORT_MAX_CELLS a kept matrix or fleet record takes. */
size_t hb_report_matrices_weight(const json_t *m);
size_t hb_report_matrices_fleet_weight(const json_t *fl);

#endif
