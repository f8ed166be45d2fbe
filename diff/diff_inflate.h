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

/* Where a pulled stream's input comes from: each call gives the next
 * piece (valid until the following call). Returns 0, or -1 when there is
 * no more. */
typedef int (*diff_inflate_feed)(void *ctx, const uint8_t **data, uint32_t *n);

/* The rows of a stream pulled one at a time through a window of a few
 * hundred KB (igzip): what diff_inflate_rows does, with the caller in
 * charge, so that two files can be read in step. */
typedef struct diff_rowpull diff_rowpull;

/* NULL when out of memory or when h rows of stride bytes are too many. */
diff_rowpull *diff_rowpull_open(size_t stride, uint32_t h, diff_inflate_feed feed, void *ctx);

/* The next row (stride bytes, readable 8 bytes past its end, valid until
 * the next call), or NULL for a stream that is bad or ends early. */
const uint8_t *diff_rowpull_next(diff_rowpull *r);

/* Whether the next row is already out, so that diff_rowpull_next will
 * not inflate and the row it returned last stays valid. */
int diff_rowpull_has_next(const diff_rowpull *r);

/* After the last row: 0 when the stream ends there with a good checksum,
 * else -1. */
int diff_rowpull_finish(diff_rowpull *r);
void diff_rowpull_close(diff_rowpull *r);

/* How far behind the output overwriting is safe (deflate's window is
 * 32 KB; the rest is margin). */
#define DIFF_INFLATE_LAG ((size_t)64 << 10)

#endif
