/* SIGPIPE from the process's own writes ignored (hb_sigpipe.h). */
#include "hb_sigpipe.h"

#include <string.h>
#include <unistd.h>

bool hb_sigpipe_own(const siginfo_t *info)
{
    return info && info->si_code == SI_USER && info->si_pid == getpid();
}

static void on_pipe(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    if (hb_sigpipe_own(info)) return;
    signal(sig, SIG_DFL);
    raise(sig);
}

void hb_sigpipe_install(void)
{
    struct sigaction sa, old;
    if (sigaction(SIGPIPE, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_pipe;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}
