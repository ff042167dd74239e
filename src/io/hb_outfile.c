/* Output files (hb_outfile.h): the temporary beside the target, its lock, its second name,
 * the signals that keep its records, and the rename that completes it. */
#include "hb_outfile.h"

#include "hb_sigpipe.h"

#include "hb_error.h"
#include "hb_outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define HB_TMP_SUFFIX ".partial.XXXXXX"
/* The temporary's second name while it is published as TARGET.partial. */
#define HB_LINK_SUFFIX "+"
#define HB_KEEP_SUFFIX ".partial"
/* Held (flock) by the one run that writes TARGET; removed when it ends. */
#define HB_LOCK_SUFFIX ".lock"

enum hb_out_kind { HB_OUT_STDOUT, HB_OUT_STREAM, HB_OUT_FILE };

struct hb_outfile {
    enum hb_out_kind kind;
    bool keep;
    FILE *f;
    int fd;
    char *name;   /* as given */
    char *target; /* regular file: symlinks resolved */
    char *tmp;    /* TARGET.partial.XXXXXX */
    char *kept;   /* TARGET.partial */
    char *lock;   /* TARGET.lock, while lock_fd holds it */
    int lock_fd;
    bool published; /* kept is a second name of tmp while the run writes */
    dev_t dev;
    ino_t ino;
    off_t good;   /* bytes of complete records */
    long records; /* marks so far */
    /* The record being marked: where it ends and the count with it. A signal that comes
     * after its write but before the mark is done still finds it whole in the file. */
    off_t pending;
    long pending_records;
    int err; /* first write error, for the message */
};

/* The open file a signal must settle: one at a time per process (rank 0's sink). */
static struct hb_outfile *volatile out_live;

/* TARGET.partial still names this run's file (a second run may have taken the name). */
static bool kept_is_ours(const struct hb_outfile *o)
{
    struct stat st;
    return o->published && stat(o->kept, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino;
}

/* Keep the complete records as TARGET.partial (true), or leave nothing. Only
 * async-signal-safe calls: the signal handler uses it too. */
static bool settle_file(struct hb_outfile *o)
{
    /* A record written whole whose mark a signal cut short counts (fstat: async-signal-safe). */
    struct stat st;
    if (o->pending > o->good && fstat(o->fd, &st) == 0 && st.st_size >= o->pending) {
        o->good = o->pending;
        o->records = o->pending_records;
    }
    if (o->keep && o->good > 0 && ftruncate(o->fd, o->good) == 0) {
        if (!kept_is_ours(o)) return rename(o->tmp, o->kept) == 0;
        (void)unlink(o->tmp);
        return true;
    }
    (void)unlink(o->tmp);
    if (kept_is_ours(o)) (void)unlink(o->kept);
    return false;
}

/* Decimal digits of v into buf (at least 24 bytes): async-signal-safe. */
static const char *sig_ltoa(long v, char *buf)
{
    char *p = buf + 23;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && p > buf);
    return p;
}

/* The line of the stop, its parts laid one after another and written in one write(2), so
 * that nothing written at the same time can cut it (async-signal-safe: no stdio). A part too
 * long for the line is cut, and the line still ends. */
static char sig_line[2 * 4096 + 256];
static size_t sig_len;

static void sig_add(const char *const *parts)
{
    for (int i = 0; parts[i]; i++)
        for (const char *c = parts[i]; *c && sig_len < sizeof(sig_line) - 1; c++)
            sig_line[sig_len++] = *c;
}

static void sig_say(void)
{
    if (sig_len == 0 || sig_line[sig_len - 1] != '\n') sig_line[sig_len++] = '\n';
    ssize_t unused = write(STDERR_FILENO, sig_line, sig_len);
    (void)unused;
    sig_len = 0;
}

/* The signals whose default ends the process and that a handler can catch. */
static const int out_sigs[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,   SIGTRAP,   SIGABRT,
                               SIGBUS,  SIGFPE,  SIGUSR1, SIGSEGV,  SIGUSR2,   SIGPIPE,
                               SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ,  SIGVTALRM, SIGPROF,
                               SIGSYS,  SIGIO,   SIGPWR,  SIGSTKFLT};
#define HB_NSIGS (sizeof(out_sigs) / sizeof(out_sigs[0]))
/* The actions found before, given back when the file is closed or the signal comes. */
static struct sigaction out_old[HB_NSIGS + 1 + 32];

static int sig_slot(int sig)
{
    for (size_t i = 0; i < HB_NSIGS; i++)
        if (out_sigs[i] == sig) return (int)i;
    return sig >= SIGRTMIN && sig <= SIGRTMAX ? (int)HB_NSIGS + (sig - SIGRTMIN) : -1;
}

static void out_on_signal(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    /* A write of this process to a pipe without reader fails with EPIPE: no stop. */
    if (sig == SIGPIPE && hb_sigpipe_own(info)) return;
    struct hb_outfile *o = out_live;
    if (o) {
        /* Say where the records are: the user who stopped the run needs nothing else. */
        char n[24], rt[24];
        const char *abbrev = sigabbrev_np(sig);
        bool kept = settle_file(o);
        if (o->lock) (void)unlink(o->lock);
        const char *head[] = {"hopbench: stopped by SIG", abbrev, NULL, NULL};
        if (!abbrev && sig == SIGRTMIN) {
            head[1] = "RTMIN";
        } else if (!abbrev && sig > SIGRTMIN) {
            head[1] = "RTMIN+";
            head[2] = sig_ltoa(sig - SIGRTMIN, rt);
        } else if (!abbrev) {
            head[1] = sig_ltoa(sig, rt);
        }
        sig_add(head);
        if (kept) {
            const char *parts[] = {"; the ",
                                   sig_ltoa(o->records, n),
                                   " records written before are kept in ",
                                   o->kept,
                                   "\n",
                                   NULL};
            sig_add(parts);
        } else {
            const char *parts[] = {"; nothing was written to ", o->name, "\n", NULL};
            sig_add(parts);
        }
        sig_say();
        out_live = NULL;
    }
    /* Whatever was there before (a runtime's handler, or the default) takes it from here. */
    int slot = sig_slot(sig);
    if (slot >= 0)
        sigaction(sig, &out_old[slot], NULL);
    else
        signal(sig, SIG_DFL);
    raise(sig);
}

static void out_watch_one(int sig, int slot, bool on)
{
    struct sigaction sa = {0}, old;
    if (on) {
        /* Never take over a signal someone chose to ignore (nohup). */
        if (sigaction(sig, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return;
        out_old[slot] = old;
        sa.sa_sigaction = out_on_signal;
        sa.sa_flags = SA_SIGINFO;
        sigfillset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
    } else if (sigaction(sig, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO) &&
               old.sa_sigaction == out_on_signal) {
        sigaction(sig, &out_old[slot], NULL);
    }
}

static void out_watch(struct hb_outfile *o)
{
    out_live = o;
    for (size_t i = 0; i < HB_NSIGS; i++)
        out_watch_one(out_sigs[i], (int)i, o != NULL);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX && sig - SIGRTMIN < 32; sig++)
        out_watch_one(sig, (int)HB_NSIGS + (sig - SIGRTMIN), o != NULL);
}

static int is_stdout(const char *target)
{
    return !target || !*target || strcmp(target, "-") == 0;
}

int hb_outfile_check(const char *target, const char *const *inputs)
{
    struct hb_outpath p;
    int rc = hb_outpath_resolve(target, &p);
    if (rc) return rc;
    for (int i = 0; p.kind == HB_OUTPATH_FILE && p.exists && inputs && inputs[i]; i++) {
        struct stat in;
        if (rc == 0 && *inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == p.dev &&
            in.st_ino == p.ino) {
            hb_error_set("output '%s' is also an input of this command ('%s'); write the "
                         "results to another file",
                         target, inputs[i]);
            rc = -EINVAL;
        }
    }
    hb_outpath_free(&p);
    return rc;
}

int hb_outfile_check_apart(const char *const *targets, const char *const *opts, int n)
{
    struct hb_outpath *p = calloc((size_t)(n > 0 ? n : 1), sizeof(*p));
    if (!p) return -ENOMEM;
    int rc = 0, done = 0;
    for (; rc == 0 && done < n; done++)
        rc = hb_outpath_resolve(targets[done], &p[done]);
    for (int i = 0; rc == 0 && i < n; i++)
        for (int j = i + 1; rc == 0 && j < n; j++)
            if (hb_outpath_same(&p[i], &p[j])) {
                hb_error_set("%s '%s' and %s '%s' are the same file: one output would be lost; "
                             "give each its own",
                             opts[i], *targets[i] ? targets[i] : "stdout", opts[j],
                             *targets[j] ? targets[j] : "stdout");
                rc = -EINVAL;
            }
    for (int i = 0; i < done; i++)
        hb_outpath_free(&p[i]);
    free(p);
    return rc;
}

static void outfile_free(struct hb_outfile *o)
{
    free(o->name);
    free(o->target);
    free(o->tmp);
    free(o->kept);
    free(o->lock);
    free(o);
}

/* Give the temporary its documented second name, TARGET.partial, for the whole run, so the
 * records are there even when the process is killed with SIGKILL: a hard link made under a
 * fresh name and renamed (replacing, never following, whatever had the name). Where hard
 * links are not supported the records move there only when the run fails. */
static void publish(struct hb_outfile *o)
{
    struct stat st;
    size_t n = strlen(o->tmp);
    char *lnk = malloc(n + sizeof(HB_LINK_SUFFIX));
    if (!lnk || fstat(o->fd, &st) != 0) {
        free(lnk);
        return;
    }
    memcpy(lnk, o->tmp, n);
    memcpy(lnk + n, HB_LINK_SUFFIX, sizeof(HB_LINK_SUFFIX));
    if (link(o->tmp, lnk) == 0) {
        if (rename(lnk, o->kept) == 0) {
            o->published = true;
            o->dev = st.st_dev;
            o->ino = st.st_ino;
        } else {
            unlink(lnk);
        }
    }
    free(lnk);
}

/* Hold TARGET.lock for the whole run: a second writer of TARGET fails at once instead of
 * losing one run's records to the other's rename. The name is checked after locking, since
 * a run that ends removes it (a lock on a removed file guards nothing). */
static int lock_file(struct hb_outfile *o)
{
    if (asprintf(&o->lock, "%s%s", o->target, HB_LOCK_SUFFIX) < 0) {
        o->lock = NULL;
        return -ENOMEM;
    }
    for (int tries = 0; tries < 100; tries++) {
        /* Read-only, never through a link: nothing is written into it, whoever owns it. */
        int fd = open(o->lock, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            int err = errno;
            hb_error_set("cannot write output file '%s': cannot make its lock '%s': %s", o->name,
                         o->lock, strerror(err));
            return -HB_EENV;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int err = errno;
            close(fd);
            if (err == EWOULDBLOCK)
                hb_error_set("output '%s' is being written by another run (it holds '%s'); wait "
                             "for it or choose another output",
                             o->name, o->lock);
            else
                hb_error_set("cannot write output file '%s': cannot lock '%s': %s", o->name,
                             o->lock, strerror(err));
            return -HB_EENV;
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(o->lock, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            o->lock_fd = fd;
            return 0;
        }
        close(fd);
    }
    hb_error_set("cannot write output file '%s': its lock '%s' keeps changing", o->name, o->lock);
    return -HB_EENV;
}

static void unlock(struct hb_outfile *o)
{
    if (o->lock_fd < 0) return;
    unlink(o->lock);
    close(o->lock_fd);
    o->lock_fd = -1;
}

static int open_file(struct hb_outfile *o, const struct hb_outpath *p)
{
    /* Where the user's own links lead (hb_outpath.h): a link keeps pointing at the new file. */
    o->target = strdup(p->path);
    if (!o->target) return -ENOMEM;
    int rc = lock_file(o);
    if (rc) return rc;
    size_t n = strlen(o->target);
    o->tmp = malloc(n + sizeof(HB_TMP_SUFFIX));
    o->kept = malloc(n + sizeof(HB_KEEP_SUFFIX));
    if (!o->tmp || !o->kept) return -ENOMEM;
    memcpy(o->tmp, o->target, n);
    memcpy(o->tmp + n, HB_TMP_SUFFIX, sizeof(HB_TMP_SUFFIX));
    memcpy(o->kept, o->target, n);
    memcpy(o->kept + n, HB_KEEP_SUFFIX, sizeof(HB_KEEP_SUFFIX));
    /* mkostemp: O_CREAT|O_EXCL with a unique name, so never someone else's file or link. */
    o->fd = mkostemp(o->tmp, O_CLOEXEC);
    if (o->fd < 0) return -errno;
    /* A file that replaces another keeps its permissions and, as root, its owner: a private
     * file stays private, a user's file stays theirs. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(o->fd, p->exists ? p->mode : 0666 & ~mask) != 0) return -errno;
    if (p->exists && geteuid() == 0 && fchown(o->fd, p->uid, p->gid) != 0) return -errno;
    o->f = fdopen(o->fd, "w");
    if (!o->f) return -errno;
    if (o->keep) publish(o);
    return 0;
}

/* Written through, never replaced, never truncated: a device, a FIFO, a descriptor. */
static int open_through(struct hb_outfile *o, const struct hb_outpath *p)
{
    if (p->fd >= 0)
        o->fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 3); /* shares the shell's offset and O_APPEND */
    else
        o->fd = open(p->path, O_WRONLY | O_NOCTTY | O_CLOEXEC |
                                  (p->kind == HB_OUTPATH_DESCRIPTOR ? O_APPEND : 0));
    if (o->fd < 0) return -errno;
    struct stat st;
    if (fstat(o->fd, &st) != 0 || st.st_dev != p->dev || st.st_ino != p->ino) return -EAGAIN;
    o->f = fdopen(o->fd, "w");
    return o->f ? 0 : -errno;
}

int hb_outfile_open(const char *target, bool keep, struct hb_outfile **out, FILE **f)
{
    struct hb_outfile *o = calloc(1, sizeof(*o));
    if (!o) return -ENOMEM;
    o->keep = keep;
    o->fd = o->lock_fd = -1;
    o->name = strdup(is_stdout(target) ? "stdout" : target);
    struct hb_outpath p;
    int rc = o->name ? hb_outpath_resolve(target, &p) : -ENOMEM;
    bool resolved = rc == 0, said = rc != 0;
    if (rc == 0 && p.kind == HB_OUTPATH_STDOUT) {
        o->kind = HB_OUT_STDOUT;
        o->f = stdout;
    } else if (rc == 0 && p.kind == HB_OUTPATH_FILE) {
        o->kind = HB_OUT_FILE;
        rc = open_file(o, &p);
        said = rc == -HB_EENV;
    } else if (rc == 0) {
        o->kind = HB_OUT_STREAM;
        rc = open_through(o, &p);
    }
    if (resolved) hb_outpath_free(&p);
    if (rc) {
        if (!said)
            hb_error_set("cannot write output file '%s': %s; choose a writable path", target,
                         rc == -EAGAIN ? "it changed while it was opened" : strerror(-rc));
        if (o->f)
            fclose(o->f);
        else if (o->fd >= 0)
            close(o->fd);
        if (o->tmp && o->fd >= 0) unlink(o->tmp);
        unlock(o);
        outfile_free(o);
        return rc == -EAGAIN || rc == -EACCES || rc == -EROFS || rc == -ENOSPC ? -HB_EENV : rc;
    }
    if (o->kind == HB_OUT_FILE) out_watch(o);
    *out = o;
    *f = o->f;
    return 0;
}

int hb_outfile_mark(struct hb_outfile *o)
{
    off_t end = o->kind == HB_OUT_FILE ? ftello(o->f) : -1; /* this record's end */
    if (end > o->good) {
        o->pending_records = o->records + 1;
        o->pending = end;
    }
    if (fflush(o->f) != 0 || ferror(o->f)) {
        int e = errno ? errno : EIO;
        if (!o->err) o->err = e;
        hb_error_set("cannot write results to '%s': %s", o->name, strerror(e));
        return -e;
    }
    /* The count first, then the offset: a signal between them promotes the pending record
     * to the same count, so whichever comes first the count holds. */
    if (end > o->good)
        o->records = o->pending_records;
    else
        o->records++;
    if (o->kind == HB_OUT_FILE) {
        off_t at = lseek(o->fd, 0, SEEK_CUR);
        if (at >= 0) o->good = at;
    }
    return 0;
}

/* Write failed or the run stopped: keep the complete records as TARGET.partial. */
static void outfile_keep(struct hb_outfile *o, int why)
{
    const char *cause = why ? strerror(why) : "the run did not complete";
    /* What stdio still holds is past the last record: never let fclose append it. */
    __fpurge(o->f);
    if (settle_file(o) && fsync(o->fd) == 0) {
        hb_error_set("%s not written (%s); the %ld records written before are kept in %s", o->name,
                     cause, o->records, o->kept);
        return;
    }
    hb_error_set("%s not written (%s); nothing was kept", o->name, cause);
}

int hb_outfile_close(struct hb_outfile *o, bool complete)
{
    if (!o) return 0;
    int err = o->err;
    if (!err && (fflush(o->f) != 0 || ferror(o->f))) err = errno ? errno : EIO;
    if (o->kind == HB_OUT_FILE && !err && complete && fsync(o->fd) != 0) err = errno;
    if (o->kind == HB_OUT_FILE) {
        if (!err && complete && rename(o->tmp, o->target) != 0) err = errno;
        if (err || !complete)
            outfile_keep(o, err);
        else if (kept_is_ours(o))
            unlink(o->kept);
        out_watch(NULL);
        unlock(o);
    } else if (err) {
        hb_error_set("output written straight through to '%s' stopped after %ld complete "
                     "records: %s",
                     o->name, o->records, strerror(err));
    }
    if (o->kind != HB_OUT_STDOUT && fclose(o->f) != 0 && !err) {
        err = errno;
        hb_error_set("cannot write results to '%s': %s", o->name, strerror(err));
    }
    outfile_free(o);
    if (err) return -err;
    return complete ? 0 : -EIO;
}

const char *hb_outfile_name(const struct hb_outfile *o)
{
    return o->name;
}
