/* A formatted new string. */
#ifndef HB_STRF_H
#define HB_STRF_H

/* A formatted new string (a reason, a path): free it; NULL when out of memory. */
char *hb_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
