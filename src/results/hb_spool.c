/* JSON values that wait in an unlinked temporary file (hb_spool.h). */
#include "hb_spool.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A temporary file in TMPDIR (default /tmp), made and unlinked: the stream, or NULL with a
 * message naming the directory and what would wait there. */
static FILE *spool_make(const char *what)
{
    const char *dir = getenv("TMPDIR");
    dir = dir && dir[0] ? dir : "/tmp";
    size_t len = strlen(dir) + sizeof("/hopbench-spool-XXXXXX");
    char *path = malloc(len);
    if (!path) {
        hb_error_set("out of memory making a temporary file for %s", what);
        return NULL;
    }
    snprintf(path, len, "%s/hopbench-spool-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!f) {
        hb_error_set("cannot make a temporary file in %s for %s: %s; set TMPDIR to a writable "
                     "directory",
                     dir, what, strerror(errno));
        if (fd >= 0) close(fd);
    }
    free(path);
    return f;
}

/* The temporary file, made and unlinked at the first value. */
static int spool_open(struct hb_spool *s)
{
    if (s->file) return 0;
    s->file = spool_make(s->what);
    return s->file ? 0 : -HB_EENV;
}

int hb_spool_check(const char *what)
{
    FILE *f = spool_make(what);
    if (!f) return -HB_EENV;
    fclose(f);
    return 0;
}

int hb_spool_put(struct hb_spool *s, const json_t *v, struct hb_span *at)
{
    int rc = spool_open(s);
    if (rc) return rc;
    off_t off = fseeko(s->file, 0, SEEK_END) == 0 ? ftello(s->file) : -1;
    if (off < 0 || json_dumpf(v, s->file, JSON_COMPACT) != 0 || fflush(s->file) != 0) {
        hb_error_set("cannot write %s to a temporary file: %s; set TMPDIR to a directory with room",
                     s->what, strerror(errno));
        return -HB_EENV;
    }
    *at = (struct hb_span){off, (size_t)(ftello(s->file) - off)};
    return 0;
}

json_t *hb_spool_get(struct hb_spool *s, struct hb_span at)
{
    char *buf = malloc(at.len ? at.len : 1);
    if (!buf) {
        hb_error_set("out of memory reading back %s (%zu bytes)", s->what, at.len);
        return NULL;
    }
    json_t *v = NULL;
    if (s->file && fseeko(s->file, at.off, SEEK_SET) == 0 &&
        fread(buf, 1, at.len, s->file) == at.len)
        v = json_loadb(buf, at.len, 0, NULL);
    free(buf);
    if (!v)
        hb_error_set("cannot read back %s from the temporary file: %s", s->what,
                     s->file && ferror(s->file) ? strerror(errno) : "it changed under this run");
    return v;
}

void hb_spool_close(struct hb_spool *s)
{
    if (s->file) fclose(s->file);
    s->file = NULL;
}
