/* diff_render.c: the picture of the differences. The expected image is
 * turned grey and faded towards white so that the coloured marks stand out
 * while the scene stays recognisable. */
#include "diff_internal.h"

static const uint8_t mark[][3] = {
    [GT_DIFF_PX_DIFF] = {255, 0, 0},     /* counted: red */
    [GT_DIFF_PX_AA] = {255, 255, 0},     /* anti-aliasing: yellow */
    [GT_DIFF_PX_MINOR] = {255, 190, 140},    /* within tolerance: pale orange */
    [GT_DIFF_PX_ISOLATED] = {255, 190, 140}, /* isolated, not counted: same */
};

int gt_diff_render(const gt_diff_image *expected, const uint8_t *mask, gt_diff_image *out)
{
    uint32_t w = expected->width, h = expected->height;
    if (diff_image_alloc_uninit(out, w, h) != 0)
        return -1;
    size_t n = (size_t)w * h;
    const uint8_t *s = expected->rgba;
    uint8_t *d = out->rgba;
    for (size_t i = 0; i < n; i++, s += 4, d += 4) {
        int k = mask[i];
        if (k == GT_DIFF_PX_DIFF || k == GT_DIFF_PX_AA || k == GT_DIFF_PX_MINOR || k == GT_DIFF_PX_ISOLATED) {
            d[0] = mark[k][0];
            d[1] = mark[k][1];
            d[2] = mark[k][2];
        } else {
            /* Luma in 8.8 fixed point, blended over white by alpha, then
             * faded to a quarter of its contrast. */
            unsigned y = (77u * s[0] + 150u * s[1] + 29u * s[2]) >> 8;
            y = 255 - (255 - y) * s[3] / 255;
            unsigned g = 255 - (255 - y) / 4;
            d[0] = d[1] = d[2] = (uint8_t)g;
            if (k == GT_DIFF_PX_IGNORED) {
                /* Ignored regions: a blue tint, to show what was left out. */
                d[0] = (uint8_t)(g * 3 / 4);
                d[1] = (uint8_t)(g * 7 / 8);
            }
        }
        d[3] = 255;
    }
    return 0;
}
