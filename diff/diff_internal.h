/* diff_internal.h: what the files of the diff library share and nobody else
 * sees. */
#ifndef GT_DIFF_INTERNAL_H
#define GT_DIFF_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gt_diff.h"

/* Writes a message into an err buffer of GT_DIFF_ERR_MAX bytes. Always
 * returns -1 so that error paths read `return diff_fail(err, ...)`. */
int diff_fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* malloc for buffers of frame size: 2 MB aligned and advised to use huge
 * pages, and reused from a per-thread cache (see diff_image.c for why).
 * Release with diff_big_free (free() works too, without reuse). */
void *diff_big_alloc(size_t n);
void diff_big_free(void *p);

/* gt_diff_image_alloc without clearing: for decoders that write every
 * byte. */
int diff_image_alloc_uninit(gt_diff_image *img, uint32_t width, uint32_t height);

/* Reads a whole file into a malloc'd buffer (one extra zero byte at the
 * end). Returns 0 or -1 with a message naming the file. */
int diff_file_load(const char *path, uint8_t **data, size_t *size, char *err);

/* A file's bytes for reading, read with diff_file_load. Not mapped,
 * although a mapping would spare the fresh pages of a copy
 * (bench/diff/README.md): a file that another process truncates while it
 * is mapped faults the reader (SIGBUS), and bad input must never crash. */
typedef struct diff_file {
    const uint8_t *data;
    size_t size;
    uint8_t *buf; /* the copy */
} diff_file;

/* Returns 0 or -1 with a message naming the file. Release with
 * diff_file_release (also fine on a zeroed diff_file). */
int diff_file_open(const char *path, diff_file *f, char *err);
void diff_file_release(diff_file *f);

/* Decodes with libpng; handles every PNG, reports every fault. */
int diff_png_decode_libpng(const uint8_t *data, size_t size, const char *name,
                           gt_diff_image *img, char *err);

/* Decodes the common case (8 or 16-bit RGB or RGBA, not interlaced, no tRNS)
 * with libdeflate or igzip and our own unfiltering. Returns 1 when done, 0 when the
 * file is outside that case or anything about it looks wrong: the caller
 * then falls back to libpng, which gives the authoritative message. */
int diff_png_decode_fast(const uint8_t *data, size_t size, gt_diff_image *img);

/* Set to 0 (by tests) to force libpng for every file; the environment
 * variable GT_DIFF_NO_FAST_PNG=1 does the same for benchmarks. */
extern int diff_png_fast_enabled;

/* Creates every missing directory on the way to `path`'s parent. */
int diff_mkdirs_for(const char *path, char *err);

/* Copies (or hard-links) file src to dst, creating dst's directories. */
int diff_copy_file(const char *src, const char *dst, char *err);

/* The largest POSITION radius: the search costs (2r+1)^2 per pixel, and
 * rasterisers disagree by a pixel or two, not by a dozen. */
#define DIFF_MAX_RADIUS 8

/* Checks options for range errors. Returns 0 or -1 with a message. */
int diff_options_check(const gt_diff_options *o, char *err);

/* Whether isolated differences are left uncounted under *o. */
int diff_ignores_isolated(const gt_diff_options *o);

/* Whether `diff` differing pixels (`percent` of the compared ones) are
 * within the budget of *o. */
int diff_within_budget(const gt_diff_options *o, uint64_t diff, double percent);

/* Writes a relative path percent-encoded for a URL (keeps '/'). */
void diff_url_path(FILE *f, const char *s);

/* A row's stretch outside the ignore regions: [x0, x1). */
typedef struct span {
    uint32_t x0, x1;
} span;

/* The parts of row y outside every ignore region of *o, left to right,
 * into out (o->n_ignore + 1 entries). Returns how many. */
size_t diff_row_spans(const gt_diff_options *o, uint32_t y, uint32_t width, span *out);

/* Leaves isolated differences uncounted: turns mask's lone DIFF pixels
 * into ISOLATED and recounts r's differences and bounding box from it. */
void diff_drop_isolated(uint8_t *mask, uint32_t w, gt_diff_result *r);

/* The metrics that follow from r's counts: percent, RMSE (sumsq: of the
 * channel differences, 8-bit units), PSNR, identical, pass. */
void diff_result_finish(gt_diff_result *r, const gt_diff_options *o, uint64_t sumsq, int identical);

/* The exact comparison of two PNG files while both are read, row by row,
 * with no image in memory (diff_stream.c). Fills *w, *h and *r, and when `mask`
 * is not NULL *mask with a width*height mask (diff_big_alloc'd) and *e8 with the expected image (8 bits,
 * for the diff image; freed by the caller). Returns 1 when done, 0 when
 * the files are not of the layouts it takes, or anything about them is
 * wrong, or their sizes differ: the caller then reads them the ordinary
 * way, which says what is wrong. */
int diff_stream_exact(const char *expected, const char *actual, const gt_diff_options *o, unsigned threads,
                      uint32_t *w, uint32_t *h, gt_diff_result *r, uint8_t **mask, gt_diff_image *e8);

/* Whether the fast decoders may be used (diff_png_fast_enabled and the
 * environment, see diff_png_read.c). */
int diff_png_fast_allowed(void);

/* Online CPUs, at least 1. */
unsigned diff_cpu_count(void);

#endif
