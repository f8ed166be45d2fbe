/* diff_inflate.h: inflating a PNG's zlib stream (all its IDAT data) into a
 * buffer of known size, with whichever of two libraries is faster on it. */
#ifndef GT_DIFF_INFLATE_H
#define GT_DIFF_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* Inflates the zlib stream z[0..zn) into out, which must come to exactly n
 * bytes. Returns 0, or -1 for anything wrong (bad stream, bad checksum,
 * wrong length). */
int diff_inflate(const uint8_t *z, size_t zn, uint8_t *out, size_t n);

#endif
