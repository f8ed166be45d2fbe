/* diff_inflate.h: inflating a PNG's zlib stream (the data of its IDAT
 * chunks) into a buffer of known size, with whichever of two libraries is
 * faster on it, telling the caller as rows come out. */
#ifndef GT_DIFF_INFLATE_H
#define GT_DIFF_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* The stream: the data of `count` consecutive PNG chunks, the first at
 * `first` (its length field), `total` bytes in all. The chunks' lengths
 * and CRCs have been checked. */
typedef struct diff_idat {
    const uint8_t *first;
    size_t count, total;
} diff_idat;

/* Called as output comes: out[0..done) is final, and out[0..done - 64 KB)
 * (all of it once done == n) may be overwritten, since the inflate no
 * longer reads it. Returns 0 to go on, -1 to stop with an error. */
typedef int (*diff_inflate_progress)(void *ctx, size_t done);

/* Inflates z into out, which must come to exactly n bytes. Returns 0, or
 * -1 for anything wrong (bad stream, bad checksum, wrong length, out of
 * memory, or progress saying stop). */
int diff_inflate(const diff_idat *z, uint8_t *out, size_t n, diff_inflate_progress progress, void *ctx);

/* Called with each row of the stream in turn: `stride` bytes, valid until
 * the call returns, readable 8 bytes past its end. Returns 0 to go on, -1
 * to stop with an error. */
typedef int (*diff_inflate_row_fn)(void *ctx, const uint8_t *row, uint32_t y);

/* Inflates z as h rows of stride bytes through a window of a few hundred
 * KB, so no frame-sized buffer is needed (always igzip: libdeflate has no
 * streaming). Returns 0, or -1 as diff_inflate does. */
int diff_inflate_rows(const diff_idat *z, size_t stride, uint32_t h, diff_inflate_row_fn fn, void *ctx);

/* How far behind the output overwriting is safe (deflate's window is
 * 32 KB; the rest is margin). */
#define DIFF_INFLATE_LAG ((size_t)64 << 10)

#endif
