#include "hb_outfile.h"

#include "hb_error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HB_TMP_SUFFIX ".partial.XXXXXX"
/* The temporary's second name while it is published as TARGET.partial. */
#define HB_LINK_SUFFIX "+"
#define HB_KEEP_SUFFIX ".partial"

enum hb_out_kind { HB_OUT_STDOUT, HB_OUT_STREAM, HB_OUT_FILE };

struct hb_outfile {
    enum hb_out_kind kind;
    bool keep;
    FILE *f;
    int fd;
    char *name;     /* as given */
    char *target;   /* regular file: symlinks resolved */
    char *tmp;      /* TARGET.partial.XXXXXX */
    char *kept;     /* TARGET.partial */
    bool published; /* kept is a second name of tmp while the run writes */
    dev_t dev;
    ino_t ino;
    off_t good;   /* bytes of complete records */
    long records; /* marks so far */
    int err;      /* first write error, for the message */
};

/* The open file a signal must settle: one at a time per process (rank 0's sink). */
static struct hb_outfile *volatile hb_out_live;

/* TARGET.partial still names this run's file (a second run may have taken the name). */
static bool hb_kept_is_ours(const struct hb_outfile *o)
{
    struct stat st;
    return o->published && stat(o->kept, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino;
}

/* Keep the complete records as TARGET.partial (true), or leave nothing. Only
 * async-signal-safe calls: the signal handler uses it too. */
static bool hb_settle(struct hb_outfile *o)
{
    if (o->keep && o->good > 0 && ftruncate(o->fd, o->good) == 0) {
        if (!hb_kept_is_ours(o)) return rename(o->tmp, o->kept) == 0;
        (void)unlink(o->tmp);
        return true;
    }
    (void)unlink(o->tmp);
    if (hb_kept_is_ours(o)) (void)unlink(o->kept);
    return false;
}

static void hb_out_on_signal(int sig)
{
    struct hb_outfile *o = hb_out_live;
    if (o) (void)hb_settle(o);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void hb_out_watch(struct hb_outfile *o)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    hb_out_live = o;
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        struct sigaction sa = {0}, old;
        sa.sa_handler = o ? hb_out_on_signal : SIG_DFL;
        sigemptyset(&sa.sa_mask);
        /* Never take over a signal someone chose to ignore (nohup). */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

static int hb_is_stdout(const char *target)
{
    return !target || !*target || strcmp(target, "-") == 0;
}

/* dirname of path in a fresh string ("." when it has no slash). */
static char *hb_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static int hb_check_new(const char *target)
{
    char *dir = hb_dir_of(target);
    if (!dir) return -ENOMEM;
    struct stat st;
    int rc = 0;
    const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        hb_err_set("cannot write output file '%s': directory '%s' does not exist; choose a "
                   "path in an existing directory",
                   target, dir);
        rc = -ENOENT;
    } else if (access(dir, W_OK | X_OK) != 0) {
        hb_err_set("cannot write output file '%s': %s; choose a writable path", target,
                   strerror(errno));
        rc = -EACCES;
    } else if (!*base) {
        hb_err_set("output '%s' names a directory; give a file name", target);
        rc = -EISDIR;
    } else if (name_max > 0 &&
               strlen(base) + strlen(HB_TMP_SUFFIX HB_LINK_SUFFIX) > (size_t)name_max) {
        hb_err_set("output name '%s' is too long: at most %ld characters here, so that "
                   "'%s' fits",
                   base, name_max - (long)strlen(HB_TMP_SUFFIX HB_LINK_SUFFIX),
                   HB_TMP_SUFFIX HB_LINK_SUFFIX);
        rc = -ENAMETOOLONG;
    }
    free(dir);
    return rc;
}

int hb_outfile_check(const char *target, const char *const *inputs)
{
    if (hb_is_stdout(target)) return 0;
    struct stat st, lst;
    if (lstat(target, &lst) != 0) return errno == ENOENT ? hb_check_new(target) : -EACCES;
    if (stat(target, &st) != 0) {
        hb_err_set("output '%s' is a symbolic link to nothing (%s); give a file name", target,
                   strerror(errno));
        return -EINVAL;
    }
    if (S_ISDIR(st.st_mode)) {
        hb_err_set("output '%s' is a directory; give a file name, e.g. %s/results.jsonl", target,
                   target);
        return -EISDIR;
    }
    if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        hb_err_set("output '%s' is neither a regular file, a character device nor a FIFO; "
                   "give a file name",
                   target);
        return -EINVAL;
    }
    for (int i = 0; inputs && inputs[i]; i++) {
        struct stat in;
        if (*inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev &&
            in.st_ino == st.st_ino && S_ISREG(st.st_mode)) {
            hb_err_set("output '%s' is also an input of this command ('%s'); write the "
                       "results to another file",
                       target, inputs[i]);
            return -EINVAL;
        }
    }
    if (!S_ISREG(st.st_mode)) return 0;
    char *real = realpath(target, NULL);
    if (!real) return -ENOMEM;
    int rc = hb_check_new(real);
    free(real);
    return rc;
}

static void hb_outfile_free(struct hb_outfile *o)
{
    free(o->name);
    free(o->target);
    free(o->tmp);
    free(o->kept);
    free(o);
}

/* Give the temporary its documented second name, TARGET.partial, for the whole run, so the
 * records are there even when the process is killed with SIGKILL: a hard link made under a
 * fresh name and renamed (replacing, never following, whatever had the name). Where hard
 * links are not supported the records move there only when the run fails. */
static void hb_publish(struct hb_outfile *o)
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

static int hb_open_file(struct hb_outfile *o)
{
    /* A symlink to a regular file keeps pointing at the new file. */
    struct stat st;
    o->target = lstat(o->name, &st) == 0 ? realpath(o->name, NULL) : strdup(o->name);
    if (!o->target) return -ENOMEM;
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
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(o->fd, 0666 & ~mask) != 0) return -errno;
    o->f = fdopen(o->fd, "w");
    if (!o->f) return -errno;
    if (o->keep) hb_publish(o);
    return 0;
}

static int hb_open_stream(struct hb_outfile *o)
{
    /* No O_CREAT, no O_TRUNC: a device or FIFO is written to, never replaced. */
    o->fd = open(o->name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0) return -errno;
    struct stat st;
    if (fstat(o->fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        close(o->fd);
        return -EINVAL;
    }
    o->f = fdopen(o->fd, "w");
    return o->f ? 0 : -errno;
}

int hb_outfile_open(const char *target, bool keep, struct hb_outfile **out, FILE **f)
{
    struct hb_outfile *o = calloc(1, sizeof(*o));
    if (!o) return -ENOMEM;
    o->keep = keep;
    o->fd = -1;
    o->name = strdup(hb_is_stdout(target) ? "stdout" : target);
    int rc = o->name ? 0 : -ENOMEM;
    struct stat st;
    if (rc == 0 && hb_is_stdout(target)) {
        o->kind = HB_OUT_STDOUT;
        o->f = stdout;
    } else if (rc == 0 && stat(target, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        o->kind = HB_OUT_STREAM;
        rc = hb_open_stream(o);
    } else if (rc == 0) {
        o->kind = HB_OUT_FILE;
        rc = hb_open_file(o);
    }
    if (rc) {
        hb_err_set("cannot write output file '%s': %s; choose a writable path", target,
                   strerror(-rc));
        if (o->f)
            fclose(o->f);
        else if (o->fd >= 0)
            close(o->fd);
        if (o->tmp && o->fd >= 0) unlink(o->tmp);
        hb_outfile_free(o);
        return rc;
    }
    if (o->kind == HB_OUT_FILE) hb_out_watch(o);
    *out = o;
    *f = o->f;
    return 0;
}

int hb_outfile_mark(struct hb_outfile *o)
{
    if (fflush(o->f) != 0 || ferror(o->f)) {
        int e = errno ? errno : EIO;
        if (!o->err) o->err = e;
        hb_err_set("cannot write results to '%s': %s", o->name, strerror(e));
        return -e;
    }
    if (o->kind == HB_OUT_FILE) {
        off_t at = lseek(o->fd, 0, SEEK_CUR);
        if (at >= 0) o->good = at;
    }
    o->records++;
    return 0;
}

/* Write failed or the run stopped: keep the complete records as TARGET.partial. */
static void hb_outfile_keep(struct hb_outfile *o, int why)
{
    const char *cause = why ? strerror(why) : "the run did not complete";
    /* What stdio still holds is past the last record: never let fclose append it. */
    __fpurge(o->f);
    if (hb_settle(o) && fsync(o->fd) == 0) {
        hb_err_set("%s not written (%s); the %ld records written before are kept in %s", o->name,
                   cause, o->records, o->kept);
        return;
    }
    hb_err_set("%s not written (%s); nothing was kept", o->name, cause);
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
            hb_outfile_keep(o, err);
        else if (hb_kept_is_ours(o))
            unlink(o->kept);
        hb_out_watch(NULL);
    } else if (err) {
        hb_err_set("output written straight through to '%s' stopped after %ld complete "
                   "records: %s",
                   o->name, o->records, strerror(err));
    }
    if (o->kind != HB_OUT_STDOUT && fclose(o->f) != 0 && !err) {
        err = errno;
        hb_err_set("cannot write results to '%s': %s", o->name, strerror(err));
    }
    hb_outfile_free(o);
    if (err) return -err;
    return complete ? 0 : -EIO;
}

const char *hb_outfile_name(const struct hb_outfile *o)
{
    return o->name;
}
