/* Every host's series handed to a function in host order (hb_history_load.h), the next host
 * read on a thread of its own while the function works on this one: a check of a fleet
 * spends about as long reading as in the engine, and the two then overlap. Two loaders take
 * turns (each its own arena, so the one being worked on stays put); they share the
 * database's connection, which only the reading thread uses until it is done. */
#include "hb_history_load.h"

#include "hb_error.h"
#include "hb_strf.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* What the reading thread and the caller's share. */
struct ahead {
    struct hb_history_load *slot[2]; /* host i goes to slot[i % 2] */
    const struct hb_history_series *series[2];
    size_t n[2];
    size_t hosts;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t read, used; /* hosts read, and hosts the function is done with */
    bool stop;         /* the function failed: read no more */
    int rc;            /* the reader's error, on host `read` */
    char *why;         /* its message (hb_error_set is per thread) */
};

static void *read_ahead(void *arg)
{
    struct ahead *a = arg;
    for (size_t i = 0; i < a->hosts; i++) {
        pthread_mutex_lock(&a->mu);
        while (!a->stop && a->used + 2 <= i) /* slot i % 2 still being worked on */
            pthread_cond_wait(&a->cv, &a->mu);
        bool stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop) break;
        int rc = hb_history_load_host(a->slot[i % 2], i, &a->series[i % 2], &a->n[i % 2]);
        char *why = rc ? hb_strf("%s", hb_error_msg()) : NULL;
        hb_error_clear(); /* this thread's message, copied: given back before the thread ends */
        pthread_mutex_lock(&a->mu);
        a->rc = rc, a->why = why;
        if (rc == 0) a->read = i + 1;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
        if (rc) break;
    }
    return NULL;
}

/* fn on each host as the reader hands it over: 0, fn's first non-zero, or the reader's. */
static int hand_over(struct ahead *a, int (*fn)(void *, const struct hb_history_series *, size_t),
                     void *ctx)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < a->hosts; i++) {
        pthread_mutex_lock(&a->mu);
        while (a->read <= i && a->rc == 0)
            pthread_cond_wait(&a->cv, &a->mu);
        rc = a->read <= i ? a->rc : 0;
        pthread_mutex_unlock(&a->mu);
        if (rc) {
            hb_error_set("%s", a->why ? a->why : "history: reading the series failed");
            break;
        }
        if (a->n[i % 2]) rc = fn(ctx, a->series[i % 2], a->n[i % 2]);
        pthread_mutex_lock(&a->mu);
        a->used = i + 1;
        a->stop = rc != 0;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
    }
    return rc;
}

int hb_history_load_each(struct hb_history_db *db, const struct hb_history_filter *f,
                         int (*fn)(void *ctx, const struct hb_history_series *s, size_t n),
                         void *ctx, size_t *hosts)
{
    struct ahead a = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    int rc = hb_history_load_open(db, f, &a.slot[0]);
    if (rc == 0) rc = hb_history_load_open(db, f, &a.slot[1]);
    pthread_t reader;
    if (rc == 0) {
        a.hosts = hb_history_load_hosts(a.slot[0]);
        if (pthread_create(&reader, NULL, read_ahead, &a) != 0) {
            hb_error_set("history: cannot start a thread to read the series");
            rc = -EAGAIN;
        } else {
            rc = hand_over(&a, fn, ctx);
            pthread_join(reader, NULL);
        }
    }
    if (a.slot[0] && hosts) *hosts = a.hosts;
    free(a.why);
    hb_history_load_close(a.slot[0]);
    hb_history_load_close(a.slot[1]);
    return rc;
}
