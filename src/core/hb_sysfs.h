/* Reading small kernel files (sysfs, procfs) whole, and the word a selection line selects. */
#ifndef HB_SYSFS_H
#define HB_SYSFS_H

#include <stddef.h>

/* The whole of path into *text (NUL-terminated, free it; NUL bytes in the file are kept and
 * counted in *len), growing as it takes up to `cap` bytes. 0, or -errno of open/read,
 * -EINVAL when path is not a regular file (sysfs and procfs files are; a FIFO or a device is
 * never read, so nothing blocks), or -EFBIG when the file holds more than cap bytes (nothing
 * to free then). Sets no message: the caller says what the file was for. */
int hb_sysfs_read(const char *path, size_t cap, char **text, size_t *len);

/* hb_sysfs_read's error in words, for "PATH: words". */
const char *hb_sysfs_error(int rc);

/* The bracketed word of a sysfs selection line ("always [madvise] never" -> "madvise"): 0
 * with *word pointing into line and *len its length; -EINVAL when the line has not exactly
 * one "[word]" (none, two, an empty or unclosed one, a blank or control byte inside). */
int hb_sysfs_word(const char *line, const char **word, size_t *len);

#endif
