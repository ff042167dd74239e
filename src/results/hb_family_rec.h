/* A family of conclusions one derived record draws (every flag of a matrix, every link of
 * comm, every inversion of a myth): each candidate's rank-test p over the two figures'
 * repeats, adjusted over the family (hb_family.h), so that a run of many comparisons does not
 * raise false flags at the per-comparison rate (docs/verdicts.md). */
#ifndef HB_FAMILY_REC_H
#define HB_FAMILY_REC_H

#include "hb_family.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The candidates of one family, in the order they were added. Zero-initialised is empty. */
struct hb_family_rec {
    json_t *entries; /* each candidate's entry (a JSON object) */
    double *p;       /* its two-sided p, NAN when a figure has no repeats */
    double *adj;     /* p adjusted over the family (hb_family_rec_decide) */
    bool *apart;     /* the site's own rule holds: beyond the threshold and the intervals apart
                      * (or the noise unknown) */
    size_t n, cap;
    long size; /* members: candidates with a p (hb_family_rec_decide) */
    bool failed;
};

/* The two-sided Mann-Whitney p that a's repeat values (each divided by scale: 1 compares the
 * figures themselves, a ratio tests a against b times it) and b's come from one distribution:
 * NAN when either has fewer than two (one repeat, a file from before repeats). */
double hb_family_rec_p(const json_t *a, const json_t *b, double scale);

/* The same over two lists of values: NAN when either has fewer than two. */
double hb_family_rec_p_of(const double *a, int na, const double *b, int nb);

/* The finite numbers of rec's repeat_values into a new array (*n of them; NULL and 0 when
 * none or out of memory). */
double *hb_family_rec_values(const json_t *rec, int *n);

/* A candidate: entry (a reference is taken), its p, and whether the site's rule holds. A
 * candidate whose p is NAN is no member and is decided by apart alone (the unknown-noise path).
 * 0, or -ENOMEM (the family then decides nothing: every candidate by apart alone). */
int hb_family_rec_add(struct hb_family_rec *f, json_t *entry, double p, bool apart);

/* Adjusts the family's p (Benjamini-Hochberg at HB_FAMILY_LEVEL) and sets "p" and
 * "p_adjusted" on each entry (null where unknown). 0, or -ENOMEM. */
int hb_family_rec_decide(struct hb_family_rec *f);

/* Whether candidate i is drawn: its rule holds and, when it has a p, its adjusted p is below
 * HB_FAMILY_LEVEL. */
bool hb_family_rec_drawn(const struct hb_family_rec *f, size_t i);

/* Each entry into flags[0] when drawn, flags[1] when not; one whose rule held but whose
 * adjusted p did not gets key set to word (its evidence: "inconclusive"). */
void hb_family_rec_split(const struct hb_family_rec *f, json_t *flags[2], const char *key,
                         const char *word);

/* Each entry whose rule held but whose adjusted p did not: key set to word and, with unset,
 * unset to null (its verdict withdrawn). */
void hb_family_rec_demote(const struct hb_family_rec *f, const char *key, const char *word,
                          const char *unset);

/* {"rule": "BH FDR", "level": 0.05, "size": members} (new reference). */
json_t *hb_family_rec_json(const struct hb_family_rec *f);

void hb_family_rec_free(struct hb_family_rec *f);

#endif
