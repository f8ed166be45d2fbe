/* diff_perceptual.h: the colour distance and anti-aliasing detector of the
 * PERCEPTUAL mode. */
#ifndef GT_DIFF_PERCEPTUAL_H
#define GT_DIFF_PERCEPTUAL_H

#include <stdint.h>

#include "gt_diff.h"

/* The largest value diff_yiq_delta can return (black against white). */
#define DIFF_YIQ_MAX 35215.0

/* Squared YIQ distance of two RGBA pixels, weighted as in pixelmatch.
 * With `use_alpha`, translucent pixels are first blended over white, so
 * that a change of alpha shows as a change of colour. */
double diff_yiq_delta(const uint8_t *p, const uint8_t *q, int use_alpha);

/* Whether pixel (x, y) of `img` looks like an anti-aliased edge pixel:
 * it has both a darker and a brighter neighbour, at most two neighbours
 * of its own brightness, and the darkest or the brightest neighbour sits
 * in a flat area in both `img` and `other` (so the edge itself did not
 * move or change colour, only its blending did). */
int diff_antialiased(const gt_diff_image *img, const gt_diff_image *other,
                     uint32_t x, uint32_t y, int use_alpha);

#endif
