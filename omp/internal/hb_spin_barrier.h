/* A sense-reversing barrier for the threads of one task. An OpenMP barrier would wait for the
 * whole team, and background threads of the same team never arrive at it. */
#ifndef HB_SPIN_BARRIER_H
#define HB_SPIN_BARRIER_H

#include <sched.h>
#include <stdatomic.h>

struct hb_spin_barrier {
    _Atomic int count;
    _Atomic int sense;
    int n;
};

static inline void hb_spin_barrier_init(struct hb_spin_barrier *b, int n)
{
    atomic_store(&b->count, 0);
    atomic_store(&b->sense, 0);
    b->n = n;
}

/* *local_sense starts at 0 in every thread and is owned by it. Yields after a while so an
 * oversubscribed run (more threads than cores) still makes progress. */
static inline void hb_spin_barrier_wait(struct hb_spin_barrier *b, int *local_sense)
{
    *local_sense = !*local_sense;
    if (atomic_fetch_add(&b->count, 1) == b->n - 1) {
        atomic_store(&b->count, 0);
        atomic_store(&b->sense, *local_sense);
        return;
    }
    for (unsigned spins = 0; atomic_load(&b->sense) != *local_sense; spins++)
        if (spins > 4096) sched_yield();
}

#endif
