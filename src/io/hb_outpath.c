/* Where an output name leads (hb_outpath.h): links followed one at a time under the
 * ownership rule, descriptors recognised, new files checked against their directory. */
#include "hb_outpath.h"

#include "hb_error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* As many links as the kernel follows in one lookup (MAXSYMLINKS). */
#define HB_MAX_LINKS 40
/* The longest suffix a regular file's temporary adds (hb_outfile.c). */
#define HB_TMP_SUFFIX_LEN (sizeof(".partial.XXXXXX+") - 1)

/* dirname of path in a fresh string ("." when it has no slash). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool all_digits(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

/* path is /proc/PID/fd/N or /proc/PID/task/TID/fd/N, however reached (/dev/fd is a link to
 * /proc/self/fd): N, with *ours true when PID is this process; else -1. */
static int proc_descriptor(const char *path, bool *ours)
{
    const char *base = base_of(path);
    if (!all_digits(base) || strlen(base) > 9) return -1;
    char *dir = dir_of(path), *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!real) return -1;
    /* /proc/PID[/task/TID]/fd */
    const char *at = real;
    long pid = -1;
    bool match = strncmp(at, "/proc/", 6) == 0 && isdigit((unsigned char)at[6]);
    if (match) {
        pid = strtol(at + 6, (char **)&at, 10);
        if (strncmp(at, "/task/", 6) == 0 && isdigit((unsigned char)at[6]))
            at += 6 + strspn(at + 6, "0123456789");
        match = strcmp(at, "/fd") == 0;
    }
    free(real);
    *ours = pid == (long)getpid();
    return match ? atoi(base) : -1;
}

/* The link at `path` (lst: its lstat) may be followed: it is the user's own, or root's in a
 * directory that only root can write. */
static bool link_trusted(const char *path, const struct stat *lst)
{
    if (lst->st_uid == geteuid()) return true;
    if (lst->st_uid != 0) return false;
    char *dir = dir_of(path);
    struct stat d;
    bool ok = dir && stat(dir, &d) == 0 && d.st_uid == 0 && !(d.st_mode & (S_IWGRP | S_IWOTH));
    free(dir);
    return ok;
}

/* The next step of a link: its target, relative to the link's directory. */
static char *follow_link(const char *path, const struct stat *lst)
{
    size_t cap = lst->st_size > 0 ? (size_t)lst->st_size + 1 : PATH_MAX;
    char *target = malloc(cap);
    if (!target) return NULL;
    ssize_t n = readlink(path, target, cap);
    if (n < 0 || (size_t)n >= cap) {
        free(target);
        return NULL;
    }
    target[n] = '\0';
    if (target[0] == '/' || !strchr(path, '/')) return target;
    char *dir = dir_of(path), *joined = NULL;
    if (dir && asprintf(&joined, "%s/%s", dir, target) < 0) joined = NULL;
    free(dir);
    free(target);
    return joined;
}

/* The first directory on path's way that cannot be searched or is not a directory (a fresh
 * string), else its parent directory. */
static char *blocking_dir(const char *path)
{
    char *dir = dir_of(path);
    for (char *slash = dir ? strchr(dir + (dir[0] == '/'), '/') : NULL;;
         slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        struct stat st;
        bool blocks = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, X_OK) != 0;
        if (blocks || !slash) return dir;
        *slash = '/';
    }
}

/* A file that does not exist yet: its directory must exist and take it, its name must
 * leave room for the temporary's suffix. */
static int check_new(const char *name, struct hb_outpath *p)
{
    char *dir = dir_of(p->path);
    if (!dir) return -ENOMEM;
    const char *base = base_of(p->path);
    struct stat st;
    long name_max = pathconf(dir, _PC_NAME_MAX);
    int rc = 0;
    int src = stat(dir, &st) == 0 ? 0 : errno;
    if (src || !S_ISDIR(st.st_mode)) {
        hb_error_set("cannot write output file '%s': directory '%s' %s; choose a path in an "
                     "existing directory",
                     name, dir, src == 0 || src == ENOENT ? "does not exist" : strerror(src));
        rc = -HB_EENV;
    } else if (access(dir, W_OK | X_OK) != 0) {
        hb_error_set("cannot write output file '%s': directory '%s': %s; choose a writable path",
                     name, dir, strerror(errno));
        rc = -HB_EENV;
    } else if (!*base) {
        hb_error_set("output '%s' names a directory; give a file name", name);
        rc = -EISDIR;
    } else if (name_max > 0 && strlen(base) + HB_TMP_SUFFIX_LEN > (size_t)name_max) {
        hb_error_set("output name '%s' is too long: at most %ld characters here, so that "
                     "'.partial.XXXXXX+' fits",
                     base, name_max - (long)HB_TMP_SUFFIX_LEN);
        rc = -ENAMETOOLONG;
    } else {
        char *real = realpath(dir, NULL);
        if (real && asprintf(&p->canon, "%s/%s", real, base) < 0) p->canon = NULL;
        free(real);
    }
    free(dir);
    return rc;
}

/* An existing file is replaced by a rename, refused up front where the user could not write
 * it (a read-only file, someone else's file) or where a sticky directory lets only its owner
 * replace it: the rename would fail after the measurements. */
static int check_replace(const char *name, const struct hb_outpath *p, const struct stat *st)
{
    if (faccessat(AT_FDCWD, p->path, W_OK, AT_EACCESS) != 0) {
        hb_error_set("cannot write output file '%s': '%s' (mode %04o, uid %ld) is not writable "
                     "for you: %s; choose a writable path",
                     name, p->path, (unsigned)(st->st_mode & 07777), (long)st->st_uid,
                     strerror(errno));
        return -HB_EENV;
    }
    uid_t me = geteuid();
    if (me == 0 || st->st_uid == me) return 0;
    char *dir = dir_of(p->path);
    struct stat d;
    bool sticky = dir && stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) && d.st_uid != me;
    if (sticky)
        hb_error_set("cannot write output file '%s': '%s' belongs to uid %ld in the sticky "
                     "directory '%s', where only its owner can replace it; choose another name",
                     name, p->path, (long)st->st_uid, dir);
    free(dir);
    return sticky ? -HB_EENV : 0;
}

/* What is at p->path (lst: its lstat), once no link is left to follow. */
static int settle_kind(const char *name, struct hb_outpath *p, const struct stat *st)
{
    p->exists = true;
    p->dev = st->st_dev;
    p->ino = st->st_ino;
    if (S_ISDIR(st->st_mode)) {
        hb_error_set("output '%s' is a directory; give a file name, e.g. %s/results.jsonl", name,
                     name);
        return -EISDIR;
    }
    if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode)) {
        p->kind = HB_OUTPATH_STREAM;
        return 0;
    }
    if (!S_ISREG(st->st_mode)) {
        hb_error_set("output '%s' is neither a regular file, a character device nor a FIFO; "
                     "give a file name",
                     name);
        return -EINVAL;
    }
    p->kind = HB_OUTPATH_FILE;
    p->mode = st->st_mode & 0777;
    p->uid = st->st_uid;
    p->gid = st->st_gid;
    /* The temporary is made beside it: the same checks as a new file. */
    int rc = check_new(name, p);
    return rc ? rc : check_replace(name, p, st);
}

static int own_fd(const char *name, int fd, struct hb_outpath *p)
{
    int flags = fcntl(fd, F_GETFL);
    struct stat st;
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat(fd, &st) != 0) {
        hb_error_set("output '%s' is descriptor %d, which is not open for writing; redirect it "
                     "(e.g. %d>FILE) or give a file name",
                     name, fd, fd);
        return -EINVAL;
    }
    p->kind = HB_OUTPATH_DESCRIPTOR;
    p->fd = fd;
    p->exists = true;
    p->dev = st.st_dev;
    p->ino = st.st_ino;
    return 0;
}

int hb_outpath_resolve(const char *name, struct hb_outpath *p)
{
    memset(p, 0, sizeof(*p));
    p->fd = -1;
    if (!name || !*name || strcmp(name, "-") == 0) {
        int rc = own_fd("stdout", STDOUT_FILENO, p);
        p->kind = HB_OUTPATH_STDOUT;
        return rc;
    }
    char *cur = strdup(name);
    if (!cur) return -ENOMEM;
    int rc = 0;
    for (int hops = 0;; hops++) {
        struct stat lst;
        bool ours = false;
        int fd = proc_descriptor(cur, &ours);
        if (fd >= 0 && ours) {
            rc = own_fd(name, fd, p);
            break;
        }
        if (fd >= 0) {
            /* Another process's descriptor: opened through its name, appended to. */
            struct stat st;
            if (stat(cur, &st) != 0) {
                hb_error_set("output '%s': descriptor '%s' cannot be opened: %s", name, cur,
                             strerror(errno));
                rc = -HB_EENV;
                break;
            }
            p->kind = HB_OUTPATH_DESCRIPTOR;
            p->path = cur;
            cur = NULL;
            p->exists = true;
            p->dev = st.st_dev;
            p->ino = st.st_ino;
            break;
        }
        if (lstat(cur, &lst) != 0) {
            int err = errno;
            p->path = cur;
            cur = NULL;
            if (err == ENOENT) {
                /* A new file, maybe where the user's own link points. */
                p->kind = HB_OUTPATH_FILE;
                rc = check_new(name, p);
            } else {
                /* A directory on the way cannot be searched or is not one: name it. */
                char *dir = err == ENOTDIR || err == EACCES ? blocking_dir(p->path) : NULL;
                hb_error_set("cannot write output file '%s': '%s': %s; choose a writable path",
                             name, dir ? dir : p->path, strerror(err));
                free(dir);
                rc = err == ENAMETOOLONG ? -ENAMETOOLONG : -HB_EENV;
            }
            break;
        }
        if (!S_ISLNK(lst.st_mode)) {
            p->path = cur;
            cur = NULL;
            rc = settle_kind(name, p, &lst);
            break;
        }
        if (!link_trusted(cur, &lst)) {
            hb_error_set("output '%s': the symbolic link '%s' belongs to uid %ld, not to you (uid "
                         "%ld); hopbench follows only your own links: remove it or give the path "
                         "it points to",
                         name, cur, (long)lst.st_uid, (long)geteuid());
            rc = -EINVAL;
            break;
        }
        if (hops == HB_MAX_LINKS) {
            hb_error_set("output '%s': more than %d symbolic links in a row; give the file's path",
                         name, HB_MAX_LINKS);
            rc = -EINVAL;
            break;
        }
        char *next = follow_link(cur, &lst);
        if (!next) {
            hb_error_set("output '%s': cannot read the symbolic link '%s': %s", name, cur,
                         strerror(errno ? errno : ENOMEM));
            rc = -HB_EENV;
            break;
        }
        free(cur);
        cur = next;
    }
    free(cur);
    if (rc) hb_outpath_free(p);
    return rc;
}

void hb_outpath_free(struct hb_outpath *p)
{
    free(p->path);
    free(p->canon);
    p->path = p->canon = NULL;
}

bool hb_outpath_same(const struct hb_outpath *a, const struct hb_outpath *b)
{
    if (a->exists && b->exists) return a->dev == b->dev && a->ino == b->ino;
    if (a->exists || b->exists) return false;
    return a->canon && b->canon && strcmp(a->canon, b->canon) == 0;
}
