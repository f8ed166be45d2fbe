/* tpng.h: writing test PNGs of every kind with libpng, and building test
 * images, for the diff tests. */
#ifndef TPNG_H
#define TPNG_H

#include <stddef.h>
#include <stdint.h>

#include "gt_diff.h"

/* A PNG to write. samples: height rows of width * channels values at the
 * file's bit depth (palette indices for colour type 3). */
typedef struct tpng {
    uint32_t w, h;
    int color_type;           /* PNG_COLOR_TYPE_* */
    int depth;                /* 1, 2, 4, 8, 16 */
    int interlace;            /* 0 or 1 (Adam7) */
    int filter;               /* PNG_FILTER_* mask; 0 = libpng's choice */
    size_t idat_size;         /* 0 = default; small values give many IDATs */
    const uint16_t *samples;
    const uint8_t (*palette)[3];
    int npalette;
    const uint8_t *trns_alpha; /* palette: alpha per entry */
    int ntrns;
    int has_trns_color;        /* grey/RGB: one transparent colour */
    uint16_t trns_r, trns_g, trns_b, trns_grey;
} tpng;

/* Writes p to path. Returns 0 or -1 (message on stderr). */
int tpng_write(const char *path, const tpng *p);

/* Writes an 8-bit RGBA image (gt_diff_image) as a PNG with libpng's
 * default settings. */
int tpng_write_rgba(const char *path, const gt_diff_image *img);

/* Channels of a colour type. */
int tpng_channels(int color_type);

/* Image helpers (all 8-bit RGBA). */
void tpng_fill(gt_diff_image *img, uint8_t r, uint8_t g, uint8_t b, uint8_t a);
uint8_t *tpng_px(gt_diff_image *img, uint32_t x, uint32_t y);
/* A filled disc of colour c over img, anti-aliased by 8x8 supersampling;
 * centre and radius in pixels (fractional centres shift it subpixel). */
void tpng_disc(gt_diff_image *img, double cx, double cy, double r, const uint8_t c[3]);
/* A filled axis-aligned rectangle. */
void tpng_rect(gt_diff_image *img, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const uint8_t c[4]);
/* A copy (caller frees with gt_diff_image_free). */
int tpng_copy(gt_diff_image *dst, const gt_diff_image *src);

/* Fills `dir` (created) as a fresh empty directory: removes what a
 * previous run left. Returns 0 or -1. */
int tpng_fresh_dir(const char *dir);

#endif
