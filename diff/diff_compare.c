/* diff_compare.c: the comparison of two decoded images under one mode.
 *
 * Most of a frame is usually unchanged, so the work is organised around
 * skipping equal bytes: the whole buffers are compared first, then each
 * row segment outside the ignore regions, and only pixels that differ are
 * looked at one by one. Rows are split into bands for threads; each band
 * keeps its own totals, merged at the end. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"
#include "diff_perceptual.h"

typedef struct band {
    const gt_diff_image *e, *a;
    const gt_diff_options *o;
    uint8_t *mask;
    uint32_t y0, y1;
    int identical;   /* the whole buffers are equal */
    int use_alpha;
    double max_delta;
    span *spans;     /* scratch: o->n_ignore + 1 entries */
    /* totals */
    uint64_t compared, diff, aa, sumsq;
    unsigned maxc;
    uint32_t bx0, by0, bx1, by1;
    int nomem;
} band;

/* The parts of row y outside every ignore region, left to right. */
size_t diff_row_spans(const gt_diff_options *o, uint32_t y, uint32_t width, span *out)
{
    size_t n = 0;
    /* Collect the ignored intervals of this row (insertion sort: there are
     * a handful of regions at most)... */
    span *ign = out + 1; /* reuse the tail of `out`: o->n_ignore slots */
    size_t ni = 0;
    for (size_t i = 0; i < o->n_ignore; i++) {
        const gt_diff_rect *r = &o->ignore[i];
        if (y < r->y || y - r->y >= r->h || r->x >= width || r->w == 0)
            continue;
        uint32_t x1 = r->w > width - r->x ? width : r->x + r->w;
        size_t k = ni++;
        while (k > 0 && ign[k - 1].x0 > r->x) {
            ign[k] = ign[k - 1];
            k--;
        }
        ign[k] = (span){r->x, x1};
    }
    /* ...then keep what lies between them. out[n] is written only after
     * ign[n] has been read, so the two can share the array. */
    uint32_t x = 0;
    for (size_t i = 0; i < ni; i++) {
        span s = ign[i];
        if (s.x0 > x)
            out[n++] = (span){x, s.x0};
        if (s.x1 > x)
            x = s.x1;
    }
    if (x < width)
        out[n++] = (span){x, width};
    return n;
}

static const uint8_t *px(const gt_diff_image *img, uint32_t x, uint32_t y)
{
    return img->rgba + 4 * ((size_t)y * img->width + x);
}

/* Whether two pixels are close under the mode's own criterion: the
 * channel tolerance, or the YIQ threshold in PERCEPTUAL mode. */
static int close_enough(const band *b, const uint8_t *p, const uint8_t *q)
{
    if (b->o->mode == GT_DIFF_PERCEPTUAL)
        return diff_yiq_delta(p, q, b->use_alpha) <= b->max_delta;
    int nch = b->use_alpha ? 4 : 3;
    for (int c = 0; c < nch; c++)
        if ((unsigned)abs(p[c] - q[c]) > b->o->tolerance)
            return 0;
    return 1;
}

/* Whether some pixel of img within the radius of (x, y) is close to `ref`. */
static int near_match(const band *b, const gt_diff_image *img, uint32_t x, uint32_t y, const uint8_t *ref)
{
    unsigned radius = b->o->radius;
    uint32_t x0 = x > radius ? x - radius : 0, y0 = y > radius ? y - radius : 0;
    uint32_t x1 = img->width - 1 - x > radius ? x + radius : img->width - 1;
    uint32_t y1 = img->height - 1 - y > radius ? y + radius : img->height - 1;
    for (uint32_t ny = y0; ny <= y1; ny++)
        for (uint32_t nx = x0; nx <= x1; nx++)
            if (close_enough(b, px(img, nx, ny), ref))
                return 1;
    return 0;
}

/* Both ways: the expected pixel must appear near (x, y) in actual, and the
 * actual one near (x, y) in expected, or a missing thin line would pass as
 * "shifted". */
static int shifted_match(const band *b, uint32_t x, uint32_t y, const uint8_t *pe, const uint8_t *pa)
{
    return b->o->radius && near_match(b, b->a, x, y, pe) && near_match(b, b->e, x, y, pa);
}

/* Verdict on one pixel whose channels differ, the largest by maxc. */
static int classify(const band *b, uint32_t x, uint32_t y, const uint8_t *pe, const uint8_t *pa,
                    unsigned maxc)
{
    const gt_diff_options *o = b->o;
    switch (o->mode) {
    case GT_DIFF_EXACT:
        return GT_DIFF_PX_DIFF;
    case GT_DIFF_TOLERANCE:
        return maxc > o->tolerance ? GT_DIFF_PX_DIFF : GT_DIFF_PX_MINOR;
    case GT_DIFF_POSITION:
        if (maxc <= o->tolerance || shifted_match(b, x, y, pe, pa))
            return GT_DIFF_PX_MINOR;
        return GT_DIFF_PX_DIFF;
    case GT_DIFF_PERCEPTUAL:
        if (diff_yiq_delta(pe, pa, b->use_alpha) <= b->max_delta || shifted_match(b, x, y, pe, pa))
            return GT_DIFF_PX_MINOR;
        if (!o->count_aa && (diff_antialiased(b->e, b->a, x, y, b->use_alpha) ||
                             diff_antialiased(b->a, b->e, x, y, b->use_alpha)))
            return GT_DIFF_PX_AA;
        return GT_DIFF_PX_DIFF;
    }
    return GT_DIFF_PX_DIFF;
}

static void compare_segment(band *b, uint32_t y, uint32_t x0, uint32_t x1)
{
    const uint8_t *re = px(b->e, x0, y), *ra = px(b->a, x0, y);
    uint8_t *m = b->mask ? b->mask + (size_t)y * b->e->width : NULL;
    size_t bytes = (size_t)(x1 - x0) * 4;
    b->compared += x1 - x0;
    if (b->identical || memcmp(re, ra, bytes) == 0) {
        if (m)
            memset(m + x0, GT_DIFF_PX_SAME, x1 - x0);
        return;
    }
    int nch = b->use_alpha ? 4 : 3;
    for (uint32_t x = x0; x < x1; x++, re += 4, ra += 4) {
        /* Most pixels of a differing row are still equal: skip them two
         * at a time before looking at channels. */
        if (x + 2 <= x1) {
            uint64_t ve, va;
            memcpy(&ve, re, 8);
            memcpy(&va, ra, 8);
            if (ve == va) {
                if (m)
                    m[x] = m[x + 1] = GT_DIFF_PX_SAME;
                x++;
                re += 4;
                ra += 4;
                continue;
            }
        }
        unsigned maxc = 0, sq = 0;
        for (int c = 0; c < nch; c++) {
            unsigned d = (unsigned)abs(re[c] - ra[c]);
            sq += d * d;
            if (d > maxc)
                maxc = d;
        }
        int k = GT_DIFF_PX_SAME;
        if (maxc) {
            b->sumsq += sq;
            if (maxc > b->maxc)
                b->maxc = maxc;
            k = classify(b, x, y, re, ra, maxc);
            if (k == GT_DIFF_PX_DIFF) {
                if (b->diff++ == 0) {
                    b->bx0 = b->bx1 = x;
                    b->by0 = b->by1 = y;
                } else {
                    if (x < b->bx0)
                        b->bx0 = x;
                    if (x > b->bx1)
                        b->bx1 = x;
                    b->by1 = y; /* rows are visited in order */
                }
            } else if (k == GT_DIFF_PX_AA) {
                b->aa++;
            }
        }
        if (m)
            m[x] = (uint8_t)k;
    }
}

static void *run_band(void *arg)
{
    band *b = arg;
    uint32_t w = b->e->width;
    for (uint32_t y = b->y0; y < b->y1; y++) {
        size_t n = diff_row_spans(b->o, y, w, b->spans);
        if (b->mask && (n != 1 || b->spans[0].x0 != 0 || b->spans[0].x1 != w))
            memset(b->mask + (size_t)y * w, GT_DIFF_PX_IGNORED, w);
        for (size_t i = 0; i < n; i++)
            compare_segment(b, y, b->spans[i].x0, b->spans[i].x1);
    }
    return NULL;
}

/* Leaves isolated differences uncounted (see gt_diff_isolated): a counted
 * pixel with fewer than two counted neighbours becomes ISOLATED. Neighbours
 * already turned ISOLATED in this pass still count as differing, so the
 * verdict does not depend on scan order. Only the bounding box of the
 * differences can hold any, and the result is recounted from the mask. */
void diff_drop_isolated(uint8_t *mask, uint32_t w, gt_diff_result *r)
{
    gt_diff_rect box = r->bbox;
    uint32_t xe = box.x + box.w, ye = box.y + box.h;
    for (uint32_t y = box.y; y < ye; y++)
        for (uint32_t x = box.x; x < xe; x++) {
            uint8_t *m = mask + (size_t)y * w + x;
            if (*m != GT_DIFF_PX_DIFF)
                continue;
            int n = 0;
            for (uint32_t ny = y > box.y ? y - 1 : y; ny <= y + 1 && ny < ye; ny++)
                for (uint32_t nx = x > box.x ? x - 1 : x; nx <= x + 1 && nx < xe; nx++) {
                    uint8_t k = mask[(size_t)ny * w + nx];
                    n += (nx != x || ny != y) && (k == GT_DIFF_PX_DIFF || k == GT_DIFF_PX_ISOLATED);
                }
            if (n < 2)
                *m = GT_DIFF_PX_ISOLATED;
        }
    uint64_t diff = 0, isolated = 0;
    uint32_t x0 = xe, y0 = ye, x1 = 0, y1 = 0;
    for (uint32_t y = box.y; y < ye; y++)
        for (uint32_t x = box.x; x < xe; x++) {
            uint8_t k = mask[(size_t)y * w + x];
            isolated += k == GT_DIFF_PX_ISOLATED;
            if (k != GT_DIFF_PX_DIFF)
                continue;
            diff++;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y;
        }
    r->diff_pixels = diff;
    r->isolated_pixels = isolated;
    r->bbox = diff ? (gt_diff_rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1} : (gt_diff_rect){0, 0, 0, 0};
}

static void merge(gt_diff_result *r, const band *b, int *have_box)
{
    r->compared_pixels += b->compared;
    r->aa_pixels += b->aa;
    if (b->maxc > r->max_channel_diff)
        r->max_channel_diff = b->maxc;
    if (!b->diff)
        return;
    r->diff_pixels += b->diff;
    uint32_t x1 = b->bx1 + 1, y1 = b->by1 + 1;
    if (!*have_box) {
        r->bbox = (gt_diff_rect){b->bx0, b->by0, x1 - b->bx0, y1 - b->by0};
        *have_box = 1;
        return;
    }
    uint32_t ox1 = r->bbox.x + r->bbox.w, oy1 = r->bbox.y + r->bbox.h;
    uint32_t nx0 = b->bx0 < r->bbox.x ? b->bx0 : r->bbox.x;
    uint32_t ny0 = b->by0 < r->bbox.y ? b->by0 : r->bbox.y;
    uint32_t nx1 = x1 > ox1 ? x1 : ox1, ny1 = y1 > oy1 ? y1 : oy1;
    r->bbox = (gt_diff_rect){nx0, ny0, nx1 - nx0, ny1 - ny0};
}

int gt_diff_compare(const gt_diff_image *expected, const gt_diff_image *actual,
                    const gt_diff_options *o, unsigned threads,
                    gt_diff_result *r, uint8_t *mask, char *err)
{
    memset(r, 0, sizeof *r);
    if (diff_options_check(o, err) != 0)
        return -1;
    if (expected->width != actual->width || expected->height != actual->height)
        return diff_fail(err, "sizes differ: expected %ux%u, actual %ux%u", expected->width,
                         expected->height, actual->width, actual->height);
    uint32_t h = expected->height;
    size_t bytes = (size_t)expected->width * h * 4;
    /* Rows of fewer than ~64K pixels per thread are not worth a thread. */
    unsigned n = threads ? threads : 1;
    size_t max_useful = (size_t)expected->width * h / 65536 + 1;
    if (n > max_useful)
        n = (unsigned)max_useful;
    if (n > h && h)
        n = h;
    if (n < 1)
        n = 1;

    /* The isolated-pixel pass needs every pixel's class: keep a mask of
     * our own if the caller gave none. */
    int isolated = diff_ignores_isolated(o);
    uint8_t *own_mask = isolated && !mask ? diff_big_alloc((size_t)expected->width * h) : NULL;
    if (own_mask)
        mask = own_mask;
    band *bands = calloc(n, sizeof *bands);
    pthread_t *tids = calloc(n, sizeof *tids);
    span *spans = malloc(n * (o->n_ignore + 1) * sizeof *spans);
    if (!bands || !tids || !spans || (isolated && !mask)) {
        free(bands);
        free(tids);
        free(spans);
        diff_big_free(own_mask);
        return diff_fail(err, "out of memory");
    }
    int identical = memcmp(expected->rgba, actual->rgba, bytes) == 0;
    for (unsigned i = 0; i < n; i++) {
        band *b = &bands[i];
        b->e = expected;
        b->a = actual;
        b->o = o;
        b->mask = mask;
        b->y0 = (uint32_t)((uint64_t)h * i / n);
        b->y1 = (uint32_t)((uint64_t)h * (i + 1) / n);
        b->identical = identical;
        b->use_alpha = !o->ignore_alpha;
        b->max_delta = DIFF_YIQ_MAX * o->threshold * o->threshold;
        b->spans = spans + i * (o->n_ignore + 1);
    }
    /* Band 0 runs here; a band whose thread cannot start runs here too. */
    for (unsigned i = 1; i < n; i++)
        if (pthread_create(&tids[i], NULL, run_band, &bands[i]) != 0) {
            run_band(&bands[i]);
            bands[i].nomem = 1; /* marks "already ran, nothing to join" */
        }
    run_band(&bands[0]);
    uint64_t sumsq = bands[0].sumsq;
    int have_box = 0;
    merge(r, &bands[0], &have_box);
    for (unsigned i = 1; i < n; i++) {
        if (!bands[i].nomem)
            pthread_join(tids[i], NULL);
        sumsq += bands[i].sumsq;
        merge(r, &bands[i], &have_box);
    }
    free(bands);
    free(tids);
    free(spans);
    if (isolated && r->diff_pixels)
        diff_drop_isolated(mask, expected->width, r);
    diff_big_free(own_mask);

    diff_result_finish(r, o, sumsq, r->max_channel_diff == 0);
    return 0;
}

void diff_result_finish(gt_diff_result *r, const gt_diff_options *o, uint64_t sumsq, int identical)
{
    unsigned nch = o->ignore_alpha ? 3 : 4;
    r->identical = identical;
    r->diff_percent = r->compared_pixels ? 100.0 * (double)r->diff_pixels / (double)r->compared_pixels : 0;
    r->rmse = r->compared_pixels ? sqrt((double)sumsq / ((double)r->compared_pixels * nch)) : 0;
    r->psnr = r->rmse > 0 ? 20.0 * log10(255.0 / r->rmse) : INFINITY;
    r->pass = diff_within_budget(o, r->diff_pixels, r->diff_percent);
}
