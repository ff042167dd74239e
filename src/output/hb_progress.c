/* Progress on stderr (hb_progress.h): one line rewritten in place, or forced lines. */
#include "hb_progress.h"

#include "hb_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct hb_progress {
    bool tty;
    bool shown;
    double t0;
};

struct hb_progress *hb_progress_new(bool quiet, bool forced)
{
    bool tty = isatty(STDERR_FILENO);
    if (quiet || !(tty || forced)) return NULL;
    struct hb_progress *p = calloc(1, sizeof(*p));
    if (p) {
        p->tty = tty;
        p->t0 = hb_now();
    }
    return p;
}

void hb_progress_step(struct hb_progress *p, int i, int n, const char *what)
{
    if (!p) return;
    double spent = hb_now() - p->t0;
    double left = i > 0 ? spent / i * (n - i) : 0.0;
    /* On a terminal the line is rewritten; elsewhere (--progress into a log) one per step. */
    fprintf(stderr, "%s[%d/%d] %s, %.0f s elapsed", p->tty ? "\r\033[K" : "", i + 1, n, what,
            spent);
    if (i > 0) fprintf(stderr, ", about %.0f s left", left);
    fputs(p->tty ? "" : "\n", stderr);
    fflush(stderr);
    p->shown = p->tty;
}

void hb_progress_clear(struct hb_progress *p)
{
    if (p && p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = false;
    }
}

void hb_progress_free(struct hb_progress *p)
{
    hb_progress_clear(p);
    free(p);
}
