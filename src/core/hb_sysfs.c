/* Small kernel files read whole, and sysfs selection lines ("always [madvise] never") turned
 * into the word they select: shared by the configuration capture and the report. */
#include "hb_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hb_sysfs_read(const char *path, size_t cap, char **text, size_t *len)
{
    /* Never blocks: a FIFO or a device put over a knob (a bind mount) is refused, not read. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -EINVAL;
    }
    size_t n = 0, size = 256;
    char *buf = malloc(size);
    int rc = buf ? 0 : -ENOMEM;
    while (rc == 0) {
        if (n + 1 == size) {
            char *more = n > cap ? NULL : realloc(buf, size * 2);
            if (!more) {
                rc = n > cap ? -EFBIG : -ENOMEM;
                break;
            }
            buf = more;
            size *= 2;
        }
        ssize_t got = read(fd, buf + n, size - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) rc = -errno;
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (rc == 0 && n > cap) rc = -EFBIG;
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

const char *hb_sysfs_error(int rc)
{
    return rc == -EINVAL ? "not a regular file (a FIFO or a device put over it?): not read"
                         : strerror(-rc);
}

int hb_sysfs_word(const char *line, const char **word, size_t *len)
{
    const char *open = strchr(line, '[');
    if (!open || strchr(open + 1, '[')) return -EINVAL;
    size_t n = 0;
    while (open[1 + n] && open[1 + n] != ']' && (unsigned char)open[1 + n] > ' ' &&
           open[1 + n] != 0x7f)
        n++;
    if (n == 0 || open[1 + n] != ']' || strchr(open + 2 + n, ']')) return -EINVAL;
    *word = open + 1;
    *len = n;
    return 0;
}
