/* The report of a fleet (docs/report.md "Fleet summary"): a results file whose measurements
 * name HB_FLEET_MIN_HOSTS hosts or more is summarised, not drawn record by record. Each
 * measurement is folded as it is read into one compact entry per (host, cell), where a cell
 * is a measurement's identity without its host (suite, experiment, label, nodes, kernel,
 * threads, bytes, metric); the records themselves are never kept. At the end: per cell the
 * distribution over the hosts, per host its cost against the fleet, the outlier hosts. */
#ifndef HB_REPORT_FLEET_H
#define HB_REPORT_FLEET_H

#include "hb_strtab.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A file is a fleet from its HB_FLEET_MIN_HOSTS-th host on: fewer hosts are drawn as bars
 * and curves side by side as they always were. A file whose first HB_FLEET_PROBE
 * measurements all name one host is no fleet: its folds are dropped there, so that one host's
 * million records cost no more than they did. */
#define HB_FLEET_MIN_HOSTS 16
#define HB_FLEET_PROBE 131072
/* A host worse than the fleet's median host by more than this (percent) is flagged (its
 * interval apart from the median host's and its rank test passing the family of every host
 * worse than the median, as the matrix suite's fleet does): the matrix suite's default
 * --fleet-threshold, so that both call the same host an outlier. */
#define HB_FLEET_PCT 35.0

/* The top-level keys the fleet summary reads of a measurement record (NULL-terminated), for
 * a reader that parses only the keys its consumer needs. */
extern const char *const hb_report_fleet_keys[];

/* One (host, cell): its headline and 95% interval (lo, hi NAN when it has none); after
 * hb_report_fleet_stats_finish, its cost (hb_rfleet_cost) in place of each. */
struct hb_rfleet_obs {
    uint32_t host, cell;
    double v, lo, hi;
};

struct hb_rfleet_cell {
    uint32_t unit;      /* in units */
    bool higher_better; /* bandwidth: GB/s */
    /* After hb_report_fleet_stats_finish: */
    uint32_t hosts;               /* hosts that measured it */
    uint32_t flagged;             /* hosts worse than its median beyond the noise */
    uint32_t worst;               /* its costliest host */
    double min, q1, med, q3, max; /* over its hosts' values */
    double ref_lo, ref_hi;        /* the medians of its hosts' interval ends (NAN: none) */
    double worst_cost;            /* the costliest host's cost */
};

enum hb_rfleet_verdict { HB_RFLEET_OK, HB_RFLEET_INCONCLUSIVE, HB_RFLEET_OUTLIER };

struct hb_rfleet_host {
    uint32_t failed, noisy, unusable; /* records counted as they are read */
    /* Per repeat (round) r < nr, of its records that give repeat_values: the log of the repeat's
     * cost against the record's headline (latency repeat / value, bandwidth value / repeat)
     * summed, over rn[r] records: the host's cost in round r is its cost times
     * exp(rlog[r] / rn[r]). A few numbers per host, none per record. */
    double *rlog;
    uint32_t *rn;
    uint32_t nr, rcap;
    /* After hb_report_fleet_stats_finish: */
    uint32_t cells, flagged, within; /* cells measured, worse beyond, worse within the noise */
    double cost, lo, hi;             /* median over its cells of their costs, of their ends */
    double p, p_adjusted; /* its rounds' costs against the other hosts' (rank test) and that
                           * adjusted over the family; NAN when no member */
    enum hb_rfleet_verdict verdict;
};

struct hb_rfleet {
    bool on;  /* a fleet: HB_FLEET_MIN_HOSTS hosts seen */
    bool off; /* no fleet: HB_FLEET_PROBE measurements of one host, nothing folded */
    struct hb_strtab hosts, cells, units;
    uint32_t last_host;          /* the host of the last record */
    struct hb_rfleet_host *host; /* per host id */
    struct hb_rfleet_cell *cell; /* per cell id */
    size_t hostcap, cellcap;
    struct hb_rfleet_obs *v;
    size_t n, cap;
    size_t measurements, background, duplicates; /* duplicates: a (host, cell) seen again */
    /* After hb_report_fleet_stats_finish: */
    uint32_t *rank;      /* hosts, costliest first */
    double cost, lo, hi; /* the fleet's median host: its cost and interval ends */
    size_t outliers, inconclusive;
    long family;               /* members of the family: hosts worse than the median with a p */
    double cost_min, cost_max; /* over every (host, cell) */
};

/* Fold a measurement record (of type "measurement") into fl: 0, or -ENOMEM. */
int hb_report_fleet_take(struct hb_rfleet *fl, const json_t *rec);

/* The summaries of a fleet (fl->on): 0, or -ENOMEM (error set). */
int hb_report_fleet_stats_finish(struct hb_rfleet *fl);
void hb_report_fleet_free(struct hb_rfleet *fl);

/* The cells of unit (HB_STRTAB_NONE: every unit), in cell order: all of them when they are
 * at most max (*total of them), else the max whose costliest host is furthest above their
 * median (*n of them, malloc'd); NULL when out of memory. */
uint32_t *hb_report_fleet_stats_pick(const struct hb_rfleet *fl, uint32_t unit, size_t max,
                                     size_t *n, size_t *total);
/* Field k of cell c's identity (0 suite, 1 experiment, 2 label, 3 kernel, 4 CPU node,
 * 5 memory node, 6 threads, 7 bytes, 8 metric), malloc'd; NULL when out of memory. */
char *hb_report_fleet_cell_field(const struct hb_rfleet *fl, uint32_t c, int k);

/* The fleet summary section: per file summarised as a fleet, what was summarised and how,
 * the worst and outlier hosts, the cells' box plots and distributions, the host x cell
 * heatmap. Nothing when no file is a fleet. */
struct hb_report_in;
void hb_report_fleet_html_summary(FILE *f, const struct hb_report_in *in, int nin);
/* Box plots of the cells of one unit (at most HB_RFLEET_BOXES, the widest spread). */
#define HB_RFLEET_BOXES 40
void hb_report_fleet_draw_boxes(FILE *f, const struct hb_rfleet *fl, uint32_t unit);
/* The heatmap of every host's cost in every cell: one PNG image. */
void hb_report_fleet_draw_heatmap(FILE *f, const struct hb_rfleet *fl);

#endif
