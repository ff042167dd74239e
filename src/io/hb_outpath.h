/* Where an output name leads, decided before anything is written: stdout, one of this
 * process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N: written through, never
 * replaced), a character device or FIFO (written through), or a regular file (written
 * beside and renamed). Symbolic links are followed by hand, one at a time, and only those
 * that belong to the user who runs hopbench, or to root in a directory only root can
 * write (/dev/stdout): the rule fs.protected_symlinks applies in sticky directories,
 * applied everywhere, because the kernel's rule does not cover a path resolved here and
 * then renamed onto. */
#ifndef HB_OUTPATH_H
#define HB_OUTPATH_H

#include <stdbool.h>
#include <sys/types.h>

enum hb_outpath_kind {
    HB_OUTPATH_STDOUT,     /* "" or "-" */
    HB_OUTPATH_DESCRIPTOR, /* a descriptor: this process's (fd), or another's (path) */
    HB_OUTPATH_STREAM,     /* a character device or FIFO at path */
    HB_OUTPATH_FILE,       /* a regular file at path, which may not exist yet */
};

struct hb_outpath {
    enum hb_outpath_kind kind;
    int fd;      /* this process's descriptor (1 for stdout), else -1 */
    char *path;  /* STREAM, FILE, another's descriptor: where the user's links lead */
    bool exists; /* the object is there: dev and ino say which it is */
    dev_t dev;
    ino_t ino;
    char *canon; /* FILE that does not exist yet: its directory resolved + its name */
    mode_t mode; /* FILE that exists: its permission bits and owner, which the new file takes */
    uid_t uid;
    gid_t gid;
};

/* Resolve `name`; 0, or a negative errno with a one-line message naming `name`: -EINVAL
 * (someone else's link, too many links, a dangling link, a socket, a descriptor not open for
 * writing), -EISDIR, -ENAMETOOLONG (exit 2), or -HB_EENV when the file system refuses: a
 * missing or unwritable directory, an existing file this user may not write or replace
 * (exit 3). Free with hb_outpath_free. */
int hb_outpath_resolve(const char *name, struct hb_outpath *out);
void hb_outpath_free(struct hb_outpath *p);

/* Whether a and b are the same object (or the same file to be). */
bool hb_outpath_same(const struct hb_outpath *a, const struct hb_outpath *b);

#endif
