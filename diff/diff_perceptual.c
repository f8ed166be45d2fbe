/* diff_perceptual.c: YIQ colour distance and anti-aliased pixel detection.
 *
 * The YIQ weights are the NTSC ones; the weighting of the squared
 * differences (0.5053, 0.299, 0.1957) and the anti-aliasing test follow
 * Kotsarenko and Ramos, "Measuring perceived color difference using YIQ
 * NTSC transmission color space in mobile applications" (2010), and
 * Vysniauskas, "Anti-aliased pixel and intensity slope detector" (2009):
 * the same model pixelmatch and odiff use, so thresholds carry over. */
#include "diff_perceptual.h"

static double blend_white(int c, int alpha)
{
    return 255.0 + (c - 255) * (alpha / 255.0);
}

static void rgb_of(const uint8_t *p, int use_alpha, double *r, double *g, double *b)
{
    if (use_alpha && p[3] < 255) {
        *r = blend_white(p[0], p[3]);
        *g = blend_white(p[1], p[3]);
        *b = blend_white(p[2], p[3]);
    } else {
        *r = p[0];
        *g = p[1];
        *b = p[2];
    }
}

static double luma(double r, double g, double b)
{
    return r * 0.29889531 + g * 0.58662247 + b * 0.11448223;
}

double diff_yiq_delta(const uint8_t *p, const uint8_t *q, int use_alpha)
{
    double r1, g1, b1, r2, g2, b2;
    rgb_of(p, use_alpha, &r1, &g1, &b1);
    rgb_of(q, use_alpha, &r2, &g2, &b2);
    /* Y, I and Q are linear in R, G, B: transform the difference. */
    double dr = r1 - r2, dg = g1 - g2, db = b1 - b2;
    double y = luma(dr, dg, db);
    double i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189;
    double qq = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;
    return 0.5053 * y * y + 0.299 * i * i + 0.1957 * qq * qq;
}

static double luma_at(const gt_diff_image *img, uint32_t x, uint32_t y, int use_alpha)
{
    const uint8_t *p = img->rgba + 4 * ((size_t)y * img->width + x);
    double r, g, b;
    rgb_of(p, use_alpha, &r, &g, &b);
    return luma(r, g, b);
}

static int same_px(const uint8_t *p, const uint8_t *q, int use_alpha)
{
    return p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && (!use_alpha || p[3] == q[3]);
}

/* The 3x3 window around (x, y), clipped to the image. */
typedef struct window {
    uint32_t x0, x1, y0, y1;
    int on_border;
} window;

static window window_at(const gt_diff_image *img, uint32_t x, uint32_t y)
{
    window w;
    w.x0 = x ? x - 1 : 0;
    w.y0 = y ? y - 1 : 0;
    w.x1 = x + 1 < img->width ? x + 1 : x;
    w.y1 = y + 1 < img->height ? y + 1 : y;
    w.on_border = x == w.x0 || x == w.x1 || y == w.y0 || y == w.y1;
    return w;
}

/* A pixel with more than two identical neighbours lies in a flat area. The
 * image border counts as one such neighbour. */
static int in_flat_area(const gt_diff_image *img, uint32_t x, uint32_t y, int use_alpha)
{
    window w = window_at(img, x, y);
    const uint8_t *c = img->rgba + 4 * ((size_t)y * img->width + x);
    int same = w.on_border;
    for (uint32_t ny = w.y0; ny <= w.y1; ny++)
        for (uint32_t nx = w.x0; nx <= w.x1; nx++) {
            if (nx == x && ny == y)
                continue;
            if (same_px(c, img->rgba + 4 * ((size_t)ny * img->width + nx), use_alpha) && ++same > 2)
                return 1;
        }
    return 0;
}

int diff_antialiased(const gt_diff_image *img, const gt_diff_image *other,
                     uint32_t x, uint32_t y, int use_alpha)
{
    window w = window_at(img, x, y);
    double centre = luma_at(img, x, y, use_alpha);
    int equal = w.on_border;
    double darkest = 0, brightest = 0;
    uint32_t dx = x, dy = y, bx = x, by = y;
    for (uint32_t ny = w.y0; ny <= w.y1; ny++)
        for (uint32_t nx = w.x0; nx <= w.x1; nx++) {
            if (nx == x && ny == y)
                continue;
            double d = luma_at(img, nx, ny, use_alpha) - centre;
            if (d == 0) {
                /* Three or more neighbours of the same brightness: this is
                 * a flat area or a line, not a blended edge. */
                if (++equal > 2)
                    return 0;
            } else if (d < darkest) {
                darkest = d;
                dx = nx;
                dy = ny;
            } else if (d > brightest) {
                brightest = d;
                bx = nx;
                by = ny;
            }
        }
    /* An edge pixel blends two sides: it needs one of each. */
    if (darkest == 0 || brightest == 0)
        return 0;
    return (in_flat_area(img, dx, dy, use_alpha) && in_flat_area(other, dx, dy, use_alpha)) ||
           (in_flat_area(img, bx, by, use_alpha) && in_flat_area(other, bx, by, use_alpha));
}
