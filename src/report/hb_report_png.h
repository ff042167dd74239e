/* A PNG image written inline into the report (a data: URI), for pictures with more cells than
 * SVG elements can carry: a fleet's host x cell heatmap. Indexed colour, one byte a pixel,
 * stored (uncompressed) deflate blocks: no library, and its size is known in advance. */
#ifndef HB_REPORT_PNG_H
#define HB_REPORT_PNG_H

#include <stdint.h>
#include <stdio.h>

/* The PNG of w x h pixels px (row by row, each an index into the palette pal of npal RGB
 * triples, 1..256) to f as base64: what follows "data:image/png;base64," in a URI. 0, or
 * -ENOMEM (error set); -EINVAL when w or h is 0 or above HB_PNG_MAX_SIDE. */
#define HB_PNG_MAX_SIDE 16384
int hb_report_png_base64(FILE *f, const uint8_t *px, uint32_t w, uint32_t h, const uint8_t *pal,
                         int npal);

#endif
