/* Progress on stderr (hb_progress.h): one line rewritten in place, or forced lines. Progress
 * is optional: a line that cannot be written (stderr a pipe whose reader is gone) stops the
 * progress, never the run. */
#include "hb_progress.h"

#include "hb_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct hb_progress {
    bool tty;
    bool shown;
    bool dead; /* a write failed: say nothing more */
    double t0;
};

struct hb_progress *hb_progress_new(bool quiet, bool forced, bool tty)
{
    if (quiet || !(tty || forced)) return NULL;
    struct hb_progress *p = calloc(1, sizeof(*p));
    if (p) {
        p->tty = tty;
        p->t0 = hb_timer_now();
    }
    return p;
}

/* text on stderr in one write; a write that fails (a broken pipe: hb_sigpipe.h) stops the
 * progress. */
static void progress_write(struct hb_progress *p, const char *text, size_t len)
{
    fflush(stderr);
    if (write(STDERR_FILENO, text, len) != (ssize_t)len) p->dead = true;
}

void hb_progress_step(struct hb_progress *p, int repeat, int repeats, int x, int n,
                      const char *what)
{
    if (!p || p->dead) return;
    int i = repeat * n + x; /* steps so far, of n a repeat */
    n *= repeats;
    double spent = hb_timer_now() - p->t0;
    double left = i > 0 ? spent / i * (n - i) : 0.0;
    /* On a terminal the line is rewritten; elsewhere (--progress into a log) one per step. */
    char line[1024];
    int len = snprintf(line, sizeof(line), "%s[%d/%d] %s, %.0f s elapsed", p->tty ? "\r\033[K" : "",
                       i + 1, n, what, spent);
    if (len >= 0 && i > 0 && (size_t)len < sizeof(line))
        len += snprintf(line + len, sizeof(line) - (size_t)len, ", about %.0f s left", left);
    if (len < 0) return;
    if ((size_t)len >= sizeof(line) - 1) len = (int)sizeof(line) - 2;
    if (!p->tty) line[len++] = '\n';
    progress_write(p, line, (size_t)len);
    p->shown = p->tty && !p->dead;
}

void hb_progress_clear(struct hb_progress *p)
{
    if (p && p->shown && !p->dead) {
        progress_write(p, "\r\033[K", 4);
        p->shown = false;
    }
}

void hb_progress_free(struct hb_progress *p)
{
    hb_progress_clear(p);
    free(p);
}
