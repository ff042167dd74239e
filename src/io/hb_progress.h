/* Progress of a long suite on stderr: one line updated in place (experiment i of N, what runs
 * now, estimated time left). Shown when it reaches a terminal or --progress asks; --quiet
 * silences it. */
#ifndef HB_PROGRESS_H
#define HB_PROGRESS_H

#include <stdbool.h>

struct hb_progress;

/* NULL when nothing is to be shown (every function accepts NULL). tty: the line reaches a
 * terminal (rewritten in place; under mpirun through mpirun's forwarding, which the caller
 * decides); forced (--progress) elsewhere: one line per step. */
struct hb_progress *hb_progress_new(bool quiet, bool forced, bool tty);
/* Experiment x of n in repeat `repeat` of `repeats` (from 0) starts: "[i/total] what", with
 * the time spent and, from the second step on, about how long is left. */
void hb_progress_step(struct hb_progress *p, int repeat, int repeats, int x, int n,
                      const char *what);
/* Erase the line before other output goes to the terminal. */
void hb_progress_clear(struct hb_progress *p);
void hb_progress_free(struct hb_progress *p);

#endif
