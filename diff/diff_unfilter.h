/* diff_unfilter.h: undoing PNG's per-row filters (PNG spec, section 9). */
#ifndef GT_DIFF_UNFILTER_H
#define GT_DIFF_UNFILTER_H

#include <stddef.h>
#include <stdint.h>

/* Reconstructs one row of `len` bytes from its filtered bytes `in`, the
 * previous reconstructed row `prev` (NULL for the first row) and the filter
 * type byte. `bpp` is bytes per pixel (1..8). Returns 0, or -1 for a
 * filter type other than 0..4. `out` must not overlap `prev`. It may
 * overlap `in` if out <= in, which the fast decoder uses to compact rows in
 * place: the row is processed left to right and in[i] is always read before
 * out[i], which lies at or below it, is written. */
int diff_unfilter_row(int filter, const uint8_t *in, const uint8_t *prev,
                      uint8_t *out, size_t len, int bpp);

/* Two consecutive rows of the same filter at once (Average or Paeth, bpp
 * 4, SSE2): row 0 from in0 and prev into out0 (which may overlap in0 as
 * above), row 1 from in1 and out0 into out1, which must overlap nothing.
 * Returns 0, or -1 when this build, filter or pixel size has no paired
 * version (use diff_unfilter_row). */
int diff_unfilter_pair(int filter, const uint8_t *in0, const uint8_t *in1, const uint8_t *prev, uint8_t *out0,
                       uint8_t *out1, size_t len, int bpp);

/* An 8-bit RGB row (w pixels) reconstructed straight into RGBA, alpha
 * 0xff: prev is the previous reconstructed row as RGBA (all zero for the
 * first row). `in` must be readable one byte past its 3 * w; out overlaps
 * nothing. Returns 0, or -1 for a filter type other than 0..4 or a build
 * without SSE2 (then unfilter as RGB and widen). */
int diff_unfilter_rgb_to_rgba(int filter, const uint8_t *in, const uint8_t *prev, uint8_t *out, size_t w);

#endif
