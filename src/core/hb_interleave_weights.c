/* Weighted interleave's per-node weights (hb_interleave_weights.h): set in sysfs for a run, put
 * back after it by the run, by exit() or by the handler of a fatal signal (open/write/close only
 * there). */
#include "hb_interleave_weights.h"

#include "hb_error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a run changed: each node's file and the text it held before. */
struct hb_wil_saved {
    char path[96];
    char old[8];
};

static struct hb_interleave_weights_state weights_now;
static int *weights_nodes, *weights_weights;
static struct hb_wil_saved *weights_saved;
static int weights_nsaved;
static volatile sig_atomic_t weights_live; /* weights of ours are in force */
static int weights_guard_fd = -1;          /* to the guardian: a byte = put back already */
static pid_t weights_guard_pid = -1;

/* The signals whose default ends the process: the weights go back before it ends. */
static const int weights_sigs[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGABRT,
                                   SIGBUS,  SIGFPE,  SIGSEGV, SIGPIPE, SIGALRM,
                                   SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
#define HB_WEIGHTS_NSIGS (sizeof(weights_sigs) / sizeof(weights_sigs[0]))
static struct sigaction weights_old[HB_WEIGHTS_NSIGS];

int hb_interleave_weights_check(const char *what)
{
    if (access(HB_INTERLEAVE_WEIGHTS_DIR, F_OK) == 0) return 0;
    struct utsname u;
    if (uname(&u) != 0) snprintf(u.release, sizeof(u.release), "unknown");
    hb_error_set("%s needs Linux 6.9 or later (MPOL_WEIGHTED_INTERLEAVE, %s/); this machine runs "
                 "Linux %s",
                 what, HB_INTERLEAVE_WEIGHTS_DIR, u.release);
    return -EINVAL;
}

bool hb_interleave_weights_writable(void)
{
    return geteuid() == 0;
}

static void weights_path(int node, char *path, size_t len)
{
    snprintf(path, len, "%s/node%d", HB_INTERLEAVE_WEIGHTS_DIR, node);
}

int hb_interleave_weights_read(int node, int *weight)
{
    char path[96];
    weights_path(node, path, sizeof(path));
    FILE *f = fopen(path, "r");
    int ok = f && fscanf(f, "%d", weight) == 1;
    int err = f ? EIO : errno;
    if (f) fclose(f);
    if (ok) return 0;
    hb_error_set("cannot read the weighted-interleave weight of node %d (%s): %s", node, path,
                 strerror(err));
    return -err;
}

/* Async-signal-safe: the saved texts back into their files, last changed first. */
static void weights_write_back(void)
{
    for (int k = weights_nsaved - 1; k >= 0; k--) {
        int fd = open(weights_saved[k].path, O_WRONLY);
        if (fd < 0) continue;
        ssize_t unused = write(fd, weights_saved[k].old, strlen(weights_saved[k].old));
        (void)unused;
        close(fd);
    }
}

/* Async-signal-safe: the weights back, then the guardian told it has nothing to do. */
static void weights_put_back(void)
{
    if (!weights_live) return;
    weights_live = 0;
    weights_write_back();
    if (weights_guard_fd >= 0) {
        ssize_t unused = write(weights_guard_fd, "d", 1);
        (void)unused;
        close(weights_guard_fd);
        weights_guard_fd = -1;
        waitpid(weights_guard_pid, NULL, 0); /* it ends at once: no zombie left */
    }
}

/* No handler catches SIGKILL (mpirun sends it a second after SIGTERM): a guardian process in a
 * session of its own (a launcher that kills this process's group spares it), holding only a
 * pipe from this one, puts the weights back when the pipe closes without a byte, however this
 * process ended. It holds no other descriptor, so no peer or file waits for it. */
static void weights_guard(void)
{
    int p[2];
    if (pipe(p) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        for (size_t i = 0; i < HB_WEIGHTS_NSIGS; i++)
            signal(weights_sigs[i], SIG_IGN);
        dup2(p[0], 0);
        /* No descriptor of the run stays open here (close_range: Linux 5.9). */
        if (close_range(1, ~0U, 0) != 0)
            for (long fd = 1, max = sysconf(_SC_OPEN_MAX); fd < max; fd++)
                close((int)fd);
        char c;
        ssize_t n;
        while ((n = read(0, &c, 1)) < 0 && errno == EINTR)
            ;
        if (n == 0) weights_write_back();
        /* Linked into hopbench, this _exit is mpi/hb_world.c's override of libc's: the one
         * dependency from src/ up to mpi/, made at link time (docs/design.md#layers). Outside
         * MPI_Init it exits untouched. */
        _exit(0);
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        return;
    }
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    weights_guard_fd = p[1];
    weights_guard_pid = pid;
}

static void weights_on_signal(int sig)
{
    weights_put_back();
    /* Whatever was there before (the output file's handler, a runtime's, the default) goes on. */
    for (size_t i = 0; i < HB_WEIGHTS_NSIGS; i++)
        if (weights_sigs[i] == sig) sigaction(sig, &weights_old[i], NULL);
    raise(sig);
}

static void weights_watch(bool on)
{
    for (size_t i = 0; i < HB_WEIGHTS_NSIGS; i++) {
        struct sigaction sa = {0}, cur;
        if (sigaction(weights_sigs[i], NULL, &cur) != 0) continue;
        if (on && cur.sa_handler != SIG_IGN) { /* never take over an ignored signal (nohup) */
            weights_old[i] = cur;
            sa.sa_handler = weights_on_signal;
            sigfillset(&sa.sa_mask);
            sigaction(weights_sigs[i], &sa, NULL);
        } else if (!on && cur.sa_handler == weights_on_signal) {
            sigaction(weights_sigs[i], &weights_old[i], NULL);
        }
    }
}

static void weights_forget(void)
{
    free(weights_nodes);
    free(weights_weights);
    free(weights_saved);
    weights_nodes = weights_weights = NULL;
    weights_saved = NULL;
    weights_nsaved = 0;
    memset(&weights_now, 0, sizeof(weights_now));
}

/* Linux 6.16+ derives the weights from the firmware's bandwidths while `auto` is true, and a
 * weight written by hand turns it false: saved first, it goes back last. */
static void weights_save_auto(void)
{
    struct hb_wil_saved *s = &weights_saved[weights_nsaved];
    snprintf(s->path, sizeof(s->path), "%s/auto", HB_INTERLEAVE_WEIGHTS_DIR);
    FILE *f = fopen(s->path, "r");
    if (!f) return;
    if (fgets(s->old, sizeof(s->old), f) && strchr(s->old, '\n')) weights_nsaved++;
    fclose(f);
}

/* Write each weight, saving the old text first; on a failure the ones written go back. */
static int weights_write_all(const int *nodes, const int *weights, int n)
{
    static bool at_exit;
    if (!at_exit && atexit(hb_interleave_weights_restore) == 0) at_exit = true;
    weights_watch(true);
    weights_save_auto();
    /* Every old text saved before anything is written, so the guardian knows them all. */
    for (int k = 0; k < n; k++) {
        struct hb_wil_saved *s = &weights_saved[weights_nsaved + k];
        int old = 0, rc = hb_interleave_weights_read(nodes[k], &old);
        if (rc) return rc;
        weights_path(nodes[k], s->path, sizeof(s->path));
        snprintf(s->old, sizeof(s->old), "%d\n", old);
    }
    int first = weights_nsaved;
    weights_nsaved += n;
    weights_guard();
    weights_live = 1;
    for (int k = 0; k < n; k++) {
        struct hb_wil_saved *s = &weights_saved[first + k];
        errno = 0;
        FILE *f = fopen(s->path, "w");
        int err = f ? 0 : errno;
        /* sysfs takes the value at the flush, so fclose says whether it was taken. */
        if (f && (fprintf(f, "%d\n", weights[k]) < 0) + (fclose(f) != 0)) err = errno ? errno : EIO;
        if (err) {
            hb_error_set("cannot set the weighted-interleave weight of node %d to %d (%s): %s",
                         nodes[k], weights[k], s->path, strerror(err));
            return -err;
        }
    }
    return 0;
}

int hb_interleave_weights_apply(const int *nodes, const int *weights, int n)
{
    hb_interleave_weights_restore();
    weights_nodes = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    weights_weights = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    weights_saved = calloc((size_t)n + 1, sizeof(*weights_saved)); /* the nodes and `auto` */
    if (!weights_nodes || !weights_weights || !weights_saved) {
        weights_forget();
        hb_error_set("out of memory holding the weights of %d nodes", n);
        return -ENOMEM;
    }
    memcpy(weights_nodes, nodes, (size_t)n * sizeof(int));
    int rc = 0;
    bool set = hb_interleave_weights_writable();
    if (set) {
        memcpy(weights_weights, weights, (size_t)n * sizeof(int));
        rc = weights_write_all(nodes, weights, n);
    } else {
        for (int k = 0; k < n && rc == 0; k++)
            rc = hb_interleave_weights_read(nodes[k], &weights_weights[k]);
    }
    if (rc) {
        hb_interleave_weights_restore();
        return rc;
    }
    weights_now = (struct hb_interleave_weights_state){n, weights_nodes, weights_weights, set};
    return 0;
}

const struct hb_interleave_weights_state *hb_interleave_weights_current(void)
{
    return weights_now.nodes ? &weights_now : NULL;
}

void hb_interleave_weights_set_elsewhere_failed(void)
{
    weights_now.set = false;
}

void hb_interleave_weights_restore(void)
{
    weights_put_back();
    weights_watch(false);
    weights_forget();
}
