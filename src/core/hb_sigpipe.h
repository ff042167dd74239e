/* A write to a pipe whose reader is gone (stderr into `| head`, a dead log collector) fails
 * with EPIPE instead of ending the run: the SIGPIPE the kernel raises for the process's own
 * write is ignored, and the write's error is handled where it happened (progress stops, a
 * result that cannot be written is an error). A SIGPIPE sent by another process ends the run
 * as before. */
#ifndef HB_SIGPIPE_H
#define HB_SIGPIPE_H

#include <signal.h>
#include <stdbool.h>

/* Whether this SIGPIPE comes from this process's own write (the kernel's, SI_USER from
 * itself), not from another process's kill. */
bool hb_sigpipe_own(const siginfo_t *info);

/* SIGPIPE's action for the whole run: own ones ignored, others as the default (unless
 * SIGPIPE is ignored already, which stays). */
void hb_sigpipe_install(void);

#endif
