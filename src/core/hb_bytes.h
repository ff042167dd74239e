/* Byte sizes as users write them. */
#ifndef HB_BYTES_H
#define HB_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Parse "65536", "64K", "64M", "1G", "1GiB", "512KiB", "4kB", "1.5G".
 * K/M/G/T and KiB/MiB/GiB/TiB are powers of 1024; kB/KB/MB/GB/TB are powers of 1000
 * (as likwid-bench writes them). Case of the prefix letter is ignored, 'B' is optional.
 * Returns 0 and *out, or -EINVAL (unparseable, under 1 byte, negative: message names the
 * text and the accepted forms) or -ERANGE (16 EiB or more, 1e400 too: "too large"). Plain
 * digits are counted exactly, so 18446744073709551615 is a size and 18446744073709551616 is
 * not. */
int hb_bytes_parse(const char *text, uint64_t *out);

/* *out = per * count, the bytes of `count` threads (or arrays) of `per` bytes each. Returns 0,
 * or -ERANGE with a message naming `what` and both numbers when the product does not fit
 * 64 bits (a size a user wrote may be anything up to 16 EiB). */
int hb_bytes_mul(const char *what, uint64_t per, uint64_t count, uint64_t *out);

/* Format bytes for people: "64 MiB", "1.5 GiB", "512 B" (binary units up to EiB): three
 * digits, more where three would round to a whole number (4095 B is "3.999 KiB") or need an
 * exponent. Returns buf. */
char *hb_bytes_format(uint64_t bytes, char *buf, size_t len);

#endif
