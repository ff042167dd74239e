/* One result file as compare reads it (private to compare): its foreground measurements, each
 * with its identity, headline, repeats and whether it can be judged at all, indexed by
 * identity. hb_compare.c decides and writes; this file reads and checks. */
#ifndef HB_COMPARE_SIDE_H
#define HB_COMPARE_SIDE_H

#include "hb_jsonl_read.h"
#include "hb_strtab.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hb_cmp_rec {
    uint32_t head;   /* "suite experiment label" (interned, shared by both sides) */
    uint32_t host;   /* part of the identity only when both files have several hosts */
    uint32_t tail;   /* " cpu=C mem=M kernel threads=T bytes=B" */
    uint32_t metric; /* as the record names it */
    uint32_t unit;   /* the record's unit, or the one its headline key implies */
    uint32_t bad;    /* why it cannot be judged (interned), HB_STRTAB_NONE when it can */
    int higher_better;
    double value;    /* the headline: median of the repeats, or an old file's median/best */
    double lo, hi;   /* its ci95, NaN when it has none */
    double coverage; /* the interval's true coverage (ci_coverage), NaN when it has none */
    size_t rep0;     /* first of its repeat values in the side's reps */
    int nrep;        /* how many (0 for a file from before repeats) */
    int line;        /* where it is in its file */
    int first;       /* an earlier record of this side with its identity: that one's index + 1 */
    bool matched;    /* the other side has a record of its identity (set as rows are made) */
};

/* A run's summary record as compare reads it (NaN where the record lacks a figure). */
struct hb_cmp_summary {
    bool present;
    double measurements, noisy, elapsed_s, estimate_s, spread_pct_median;
};

struct hb_cmp_side {
    struct hb_results res;
    struct hb_strtab *str; /* shared by both sides */
    struct hb_cmp_rec *v;
    size_t n, cap;
    double *reps;
    size_t nreps, rcap;
    uint32_t host0;  /* the first record's host */
    int hosts;       /* 0, 1 or 2 (two or more) */
    uint32_t *slots; /* open addressing: record + 1, 0 = empty; first of each identity */
    size_t nslots;
    struct hb_strtab run_hosts; /* the run record's hosts, once it is read */
    int run_hosts_state;        /* 0 not read yet, 1 read, -1 the run lists no hosts */
    uint8_t *listed;            /* by host id: 0 not looked up yet, 1 in run_hosts, 2 not */
    size_t nlisted;
    uint32_t last[3]; /* the record before's tail, metric and unit ids + 1 (0: none) */
    struct hb_cmp_summary summary;
    int pooled; /* other files' repeats pooled into this side (hb_compare_side_pool) */
};

/* Read path into sd (sd->str set by the caller): 0, or -errno with a message. */
int hb_compare_side_read(const char *path, struct hb_cmp_side *sd);
/* Index the first record of each identity, marking later ones (first). 0 or -ENOMEM. */
int hb_compare_side_index(struct hb_cmp_side *sd, int with_host);
/* The first record of sd with r's identity, or NULL. */
const struct hb_cmp_rec *hb_compare_side_find(const struct hb_cmp_side *sd,
                                              const struct hb_cmp_rec *r, int with_host);
/* The identity as people read it; NULL when out of memory. */
char *hb_compare_side_key(const struct hb_cmp_side *sd, const struct hb_cmp_rec *r, int with_host);
/* What differs between the machines and builds of two files' run records ("host vm -> h2;
 * simd avx512 -> avx2"), or "" when nothing does; NULL when out of memory. */
char *hb_compare_side_machines(const json_t *base_run, const json_t *new_run);
/* Another file of the same side (both indexed): each measurement of into that more also
 * holds takes more's repeats too, its figure made again from all of them (a record unusable
 * in either stays unusable). Measurements only in more are not added: the first file names
 * what is compared. 0, or -ENOMEM with a message. */
int hb_compare_side_pool(struct hb_cmp_side *into, const struct hb_cmp_side *more, int with_host);
void hb_compare_side_free(struct hb_cmp_side *sd);

#endif
