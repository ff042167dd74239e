/* Planted histories for the change-point and report tests: a series of nightly runs built in
 * memory, each night's repeats drawn around a level given per night with a given relative
 * spread (log-normal, as repeats of a bandwidth or a latency scatter), from a fixed seed so
 * every run of a test sees the same numbers. */
#ifndef HISTORY_PLANT_H
#define HISTORY_PLANT_H

#include "hb_history_series.h"
#include "hb_interval.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define PLANT_NIGHT 86400LL
#define PLANT_START 1767225600LL /* 2026-01-01T00:00:00Z */

/* splitmix64: a fixed, portable sequence. */
static inline uint64_t plant_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A standard normal value (Box-Muller). */
static inline double plant_normal(uint64_t *state)
{
    double u = ((double)(plant_next(state) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(plant_next(state) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* n nights of `reps` repeats around level[i] with relative spread sigma; configs[i] (NULL:
 * none) as the night's config_json, commits[i] (NULL: "c0") as its commit. The series owns
 * its points and repeats: plant_free. */
static inline struct hb_history_series plant(const char *host, const char *identity,
                                             const char *metric, int higher_is_better,
                                             const double *level, size_t n, size_t reps,
                                             double sigma, uint64_t seed, const char **configs,
                                             const char **commits)
{
    struct hb_history_series s = {host,
                                  identity,
                                  metric,
                                  higher_is_better ? "GB/s" : "ns",
                                  higher_is_better,
                                  calloc(n, sizeof(struct hb_history_point)),
                                  n};
    double *all = malloc(sizeof(double) * n * reps), *sorted = malloc(sizeof(double) * reps);
    if (!s.points || !all || !sorted) abort();
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        double *r = all + i * reps;
        for (size_t j = 0; j < reps; j++)
            sorted[j] = r[j] = level[i] * exp(sigma * plant_normal(&state));
        struct hb_interval iv;
        hb_interval_median(sorted, (int)reps, HB_CI_LEVEL, &iv);
        s.points[i] = (struct hb_history_point){(long long)i + 1,
                                                PLANT_START + (long long)i * PLANT_NIGHT,
                                                commits && commits[i] ? commits[i] : "c0",
                                                "0.1.0",
                                                iv.value,
                                                iv.lo,
                                                iv.hi,
                                                r,
                                                reps,
                                                configs ? configs[i] : NULL};
    }
    free(sorted);
    return s;
}

static inline void plant_free(struct hb_history_series *s)
{
    if (s->n_points) free((void *)s->points[0].repeats);
    free(s->points);
}

#endif
