/* An indexed-colour PNG written as base64 (hb_report_png.h): the file is built in memory, its
 * image data as a zlib stream of stored deflate blocks, then encoded. */
#include "hb_report_png.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HB_PNG_STORED_MAX 65535u /* bytes in one stored deflate block */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The CRC-32 of PNG chunks (ISO 3309, as in the PNG specification's annex). */
static uint32_t png_crc(const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

/* A chunk at p: its length, type and the n bytes of data already at p + 8, then its CRC.
 * Returns the chunk's size. */
static size_t png_chunk(uint8_t *p, const char *type, size_t n)
{
    put32(p, (uint32_t)n);
    memcpy(p + 4, type, 4);
    put32(p + 8 + n, png_crc(p + 4, n + 4));
    return n + 12;
}

/* The image data at p: a zlib stream of stored blocks over the rows, each row led by its
 * filter byte (0, none). Returns its size. */
static size_t png_idat(uint8_t *p, const uint8_t *px, uint32_t w, uint32_t h)
{
    size_t raw = (size_t)h * (w + 1), at = 0, o = 2, row = 0, col = 0;
    uint32_t a = 1, b = 0; /* Adler-32 of the raw bytes */
    p[0] = 0x78;
    p[1] = 0x01; /* deflate, 32 KiB window, no dictionary: 0x7801 is a multiple of 31 */
    while (at < raw) {
        size_t n = raw - at < HB_PNG_STORED_MAX ? raw - at : HB_PNG_STORED_MAX;
        p[o] = at + n == raw;
        p[o + 1] = (uint8_t)n;
        p[o + 2] = (uint8_t)(n >> 8);
        p[o + 3] = (uint8_t)~n;
        p[o + 4] = (uint8_t)(~n >> 8);
        o += 5;
        for (size_t i = 0; i < n; i++) {
            uint8_t byte = col == 0 ? 0 : px[row * w + col - 1];
            if (++col > w) col = 0, row++;
            p[o++] = byte;
            a = (a + byte) % 65521u;
            b = (b + a) % 65521u;
        }
        at += n;
    }
    put32(p + o, b << 16 | a);
    return o + 4;
}

static void base64_put(FILE *f, const uint8_t *p, size_t n)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char out[4] = {digits[v >> 18], digits[(v >> 12) & 63],
                       i + 1 < n ? digits[(v >> 6) & 63] : '=', i + 2 < n ? digits[v & 63] : '='};
        fwrite(out, 1, 4, f);
    }
}

int hb_report_png_base64(FILE *f, const uint8_t *px, uint32_t w, uint32_t h, const uint8_t *pal,
                         int npal)
{
    if (w == 0 || h == 0 || w > HB_PNG_MAX_SIDE || h > HB_PNG_MAX_SIDE || npal < 1 || npal > 256) {
        hb_error_set("a PNG of %u x %u pixels and %d colours cannot be written (1..%d pixels a "
                     "side, 1..256 colours)",
                     w, h, npal, HB_PNG_MAX_SIDE);
        return -EINVAL;
    }
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t raw = (size_t)h * (w + 1), blocks = raw / HB_PNG_STORED_MAX + 1;
    size_t cap = 8 + 25 + 12 + 3 * (size_t)npal + 12 + 6 + raw + 5 * blocks + 12;
    uint8_t *p = malloc(cap);
    if (!p) {
        hb_error_set("out of memory drawing an image of %u x %u pixels", w, h);
        return -ENOMEM;
    }
    memcpy(p, sig, 8);
    size_t o = 8;
    put32(p + o + 8, w);
    put32(p + o + 12, h);
    /* 8 bits a pixel, colour type 3 (indexed), deflate, no filter method, no interlace */
    memcpy(p + o + 16, (const uint8_t[]){8, 3, 0, 0, 0}, 5);
    o += png_chunk(p + o, "IHDR", 13);
    memcpy(p + o + 8, pal, 3 * (size_t)npal);
    o += png_chunk(p + o, "PLTE", 3 * (size_t)npal);
    o += png_chunk(p + o, "IDAT", png_idat(p + o + 8, px, w, h));
    o += png_chunk(p + o, "IEND", 0);
    base64_put(f, p, o);
    free(p);
    return 0;
}
