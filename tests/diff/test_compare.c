/* test_compare.c: each comparison mode's verdict and metrics on image pairs
 * with known answers: identical, one pixel off by one, colour shifts just
 * under and over each threshold, an anti-aliased edge shifted, a hard edge
 * moved by a pixel, a missing object, ignore regions, alpha, the budget,
 * exact RMSE/PSNR, size mismatch, bad options; results independent of the
 * number of threads. Expected numbers are worked out by hand in comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"
#include "tcheck.h"
#include "tpng.h"

static gt_diff_options opts(gt_diff_mode m)
{
    gt_diff_options o;
    gt_diff_options_init(&o);
    o.mode = m;
    return o;
}

/* Runs the comparison on 1 and on 4 threads and checks both agree, so every
 * case also tests the band split and merge. */
static gt_diff_result cmp(const gt_diff_image *e, const gt_diff_image *a, const gt_diff_options *o)
{
    gt_diff_result r1, r4;
    char err[GT_DIFF_ERR_MAX] = "";
    int rc = gt_diff_compare(e, a, o, 1, &r1, NULL, err);
    CHECK(rc == 0, "compare failed: %s", err);
    rc = gt_diff_compare(e, a, o, 4, &r4, NULL, err);
    CHECK(rc == 0, "compare (4 threads) failed: %s", err);
    CHECK(r1.diff_pixels == r4.diff_pixels && r1.aa_pixels == r4.aa_pixels &&
              r1.max_channel_diff == r4.max_channel_diff && r1.compared_pixels == r4.compared_pixels &&
              memcmp(&r1.bbox, &r4.bbox, sizeof r1.bbox) == 0 && r1.pass == r4.pass &&
              fabs(r1.rmse - r4.rmse) < 1e-12,
          "1 and 4 threads disagree");
    return r1;
}

static void random_image(gt_diff_image *img, uint32_t w, uint32_t h, uint32_t seed)
{
    gt_diff_image_alloc(img, w, h);
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        seed = seed * 1664525u + 1013904223u;
        img->rgba[i] = (uint8_t)(seed >> 24);
    }
}

static void identical(void)
{
    gt_diff_image e, a;
    random_image(&e, 64, 48, 1);
    tpng_copy(&a, &e);
    for (int m = GT_DIFF_EXACT; m <= GT_DIFF_POSITION; m++) {
        gt_diff_options o = opts((gt_diff_mode)m);
        gt_diff_result r = cmp(&e, &a, &o);
        CHECK(r.identical && r.pass && r.diff_pixels == 0 && r.max_channel_diff == 0, "mode %d", m);
        CHECK(r.compared_pixels == 64 * 48, "compared %llu", (unsigned long long)r.compared_pixels);
        CHECK(r.rmse == 0 && isinf(r.psnr) && r.bbox.w == 0, "rmse %g psnr %g", r.rmse, r.psnr);
    }
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

static void one_pixel_off_by_one(void)
{
    gt_diff_image e, a;
    random_image(&e, 64, 48, 2);
    tpng_copy(&a, &e);
    uint8_t *p = tpng_px(&a, 10, 20);
    p[1] = p[1] == 255 ? 254 : p[1] + 1;

    gt_diff_options o = opts(GT_DIFF_EXACT);
    gt_diff_result r = cmp(&e, &a, &o);
    CHECK(!r.pass && !r.identical && r.diff_pixels == 1, "exact: %llu", (unsigned long long)r.diff_pixels);
    CHECK(r.max_channel_diff == 1, "max %u", r.max_channel_diff);
    CHECK(fabs(r.diff_percent - 100.0 / 3072) < 1e-9, "percent %g", r.diff_percent);
    /* One channel of 3072*4 off by 1: RMSE = sqrt(1/12288). */
    CHECK(fabs(r.rmse - sqrt(1.0 / 12288)) < 1e-12, "rmse %g", r.rmse);
    CHECK(fabs(r.psnr - 20 * log10(255 / sqrt(1.0 / 12288))) < 1e-9, "psnr %g", r.psnr);
    CHECK(r.bbox.x == 10 && r.bbox.y == 20 && r.bbox.w == 1 && r.bbox.h == 1, "bbox %u,%u %ux%u", r.bbox.x,
          r.bbox.y, r.bbox.w, r.bbox.h);

    o = opts(GT_DIFF_TOLERANCE);
    r = cmp(&e, &a, &o); /* tolerance 0 */
    CHECK(!r.pass && r.diff_pixels == 1, "tolerance 0 passes an off-by-one");
    o.tolerance = 1;
    r = cmp(&e, &a, &o);
    CHECK(r.pass && r.diff_pixels == 0 && !r.identical && r.max_channel_diff == 1, "tolerance 1");
    o = opts(GT_DIFF_PERCEPTUAL);
    r = cmp(&e, &a, &o);
    CHECK(r.pass && r.diff_pixels == 0, "perceptual fails an off-by-one");

    /* Budgets: 1 pixel is 0.0326% of 3072. */
    o = opts(GT_DIFF_EXACT);
    o.max_diff_pixels = 1;
    CHECK(cmp(&e, &a, &o).pass, "budget of 1 pixel");
    o.max_diff_pixels = 0;
    CHECK(!cmp(&e, &a, &o).pass, "budget of 0 pixels");
    o.max_diff_pixels = -1;
    o.max_diff_percent = 0.05;
    CHECK(cmp(&e, &a, &o).pass, "budget of 0.05%%");
    o.max_diff_percent = 0.03;
    CHECK(!cmp(&e, &a, &o).pass, "budget of 0.03%%");
    o.max_diff_pixels = 5; /* both set: both must hold */
    CHECK(!cmp(&e, &a, &o).pass, "pixel budget overrides a failed percent budget");
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

/* A uniform 32x32 image against the same shifted by (dr, dg, db). */
static gt_diff_result shifted(const gt_diff_options *o, int dr, int dg, int db)
{
    gt_diff_image e, a;
    gt_diff_image_alloc(&e, 32, 32);
    gt_diff_image_alloc(&a, 32, 32);
    tpng_fill(&e, 100, 100, 100, 255);
    tpng_fill(&a, (uint8_t)(100 + dr), (uint8_t)(100 + dg), (uint8_t)(100 + db), 255);
    gt_diff_result r = cmp(&e, &a, o);
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
    return r;
}

static void thresholds(void)
{
    gt_diff_options o = opts(GT_DIFF_TOLERANCE);
    for (unsigned d = 1; d <= 40; d += 13) {
        o.tolerance = d;
        CHECK(shifted(&o, (int)d, 0, 0).pass, "tolerance %u fails a shift of %u", d, d);
        CHECK(shifted(&o, 0, 0, -(int)d).pass, "tolerance %u fails a shift of -%u", d, d);
        gt_diff_result r = shifted(&o, 0, (int)d + 1, 0);
        CHECK(!r.pass && r.diff_pixels == 1024, "tolerance %u passes a shift of %u", d, d + 1);
    }
    /* YIQ: a grey shift d gives dY = d, dI = dQ = 0, so delta = 0.5053 d^2
     * against 35215 t^2: d <= 263.99 t. At t = 0.1: 26 passes, 27 fails;
     * t = 0.05: 13 and 14; t = 0.2: 52 and 53. Red only (0.1601 d^2):
     * 46/47 at 0.1; blue only (0.0578 d^2): 78/79 at 0.1. */
    static const struct {
        double t;
        int dr, dg, db, pass;
    } cases[] = {
        {0.1, 26, 26, 26, 1},  {0.1, 27, 27, 27, 0},  {0.05, 13, 13, 13, 1}, {0.05, 14, 14, 14, 0},
        {0.2, 52, 52, 52, 1},  {0.2, 53, 53, 53, 0},  {0.1, 46, 0, 0, 1},    {0.1, 47, 0, 0, 0},
        {0.1, 0, 0, 78, 1},    {0.1, 0, 0, 79, 0},    {0.1, -26, -26, -26, 1}, {0.1, -27, -27, -27, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gt_diff_options p = opts(GT_DIFF_PERCEPTUAL);
        p.threshold = cases[i].t;
        gt_diff_result r = shifted(&p, cases[i].dr, cases[i].dg, cases[i].db);
        CHECK(r.pass == cases[i].pass, "t=%g shift %d,%d,%d: pass=%d", cases[i].t, cases[i].dr, cases[i].dg,
              cases[i].db, r.pass);
        /* A uniform shift has no edges: nothing may pass as anti-aliasing. */
        CHECK(r.aa_pixels == 0 && r.diff_pixels == (cases[i].pass ? 0u : 1024u), "case %zu: %llu/%llu", i,
              (unsigned long long)r.diff_pixels, (unsigned long long)r.aa_pixels);
    }
}

static void aa_edge_shifted(void)
{
    static const uint8_t white[3] = {240, 240, 240};
    gt_diff_image e, a;
    gt_diff_image_alloc(&e, 64, 48);
    gt_diff_image_alloc(&a, 64, 48);
    tpng_fill(&e, 20, 30, 40, 255);
    tpng_fill(&a, 20, 30, 40, 255);
    tpng_disc(&e, 32.0, 24.0, 12.0, white);
    tpng_disc(&a, 32.35, 24.2, 12.0, white); /* a third of a pixel off */

    gt_diff_options o = opts(GT_DIFF_EXACT);
    gt_diff_result r = cmp(&e, &a, &o);
    CHECK(!r.pass && r.diff_pixels > 20, "exact must see the edge move: %llu", (unsigned long long)r.diff_pixels);
    uint64_t edge = r.diff_pixels;

    o = opts(GT_DIFF_PERCEPTUAL);
    r = cmp(&e, &a, &o);
    CHECK(r.pass && r.diff_pixels == 0, "perceptual fails an anti-aliased edge shift: %llu counted",
          (unsigned long long)r.diff_pixels);
    CHECK(r.aa_pixels > 0 && r.aa_pixels <= edge, "aa pixels %llu of %llu", (unsigned long long)r.aa_pixels,
          (unsigned long long)edge);
    o.count_aa = 1;
    r = cmp(&e, &a, &o);
    CHECK(!r.pass && r.aa_pixels == 0 && r.diff_pixels > 0, "count_aa: anti-aliasing must count");
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

/* A scene: background, a hard-edged box, a one-pixel line. */
static void scene(gt_diff_image *img, int box_dx, int line_dy, int with_box, int with_line)
{
    static const uint8_t box[4] = {200, 60, 40, 255}, line[4] = {250, 250, 250, 255};
    gt_diff_image_alloc(img, 80, 60);
    tpng_fill(img, 30, 40, 90, 255);
    if (with_box)
        tpng_rect(img, (uint32_t)(20 + box_dx), 15, 25, 20, box);
    if (with_line)
        tpng_rect(img, 5, (uint32_t)(50 + line_dy), 70, 1, line);
}

static void position_tolerance(void)
{
    gt_diff_image e, moved, missing_line, missing_box;
    scene(&e, 0, 0, 1, 1);
    scene(&moved, 1, 1, 1, 1); /* box one pixel right, line one pixel down */
    scene(&missing_line, 0, 0, 1, 0);
    scene(&missing_box, 0, 0, 0, 1);

    gt_diff_options o = opts(GT_DIFF_POSITION);
    o.isolated = GT_DIFF_ISOLATED_COUNT; /* exact counts here; the filter is tested below */
    gt_diff_result r = cmp(&e, &moved, &o);
    CHECK(r.pass && r.diff_pixels == 0, "radius 1 fails a one-pixel move: %llu", (unsigned long long)r.diff_pixels);
    o.radius = 0;
    r = cmp(&e, &moved, &o);
    /* Box: 20 pixels leave on the left, 20 arrive on the right; line: 70
     * leave row 50, 70 arrive on row 51. */
    CHECK(!r.pass && r.diff_pixels == 180, "radius 0: %llu", (unsigned long long)r.diff_pixels);

    /* A missing thin line must not pass as "moved": the check runs both
     * ways. */
    o.radius = 1;
    r = cmp(&e, &missing_line, &o);
    CHECK(!r.pass && r.diff_pixels == 70, "missing line: %llu", (unsigned long long)r.diff_pixels);
    CHECK(r.bbox.x == 5 && r.bbox.y == 50 && r.bbox.w == 70 && r.bbox.h == 1, "line bbox");

    /* With the defaults the line's two ends, each with one differing
     * neighbour, are isolated: 68 counted, and still a failure. */
    r = cmp(&e, &missing_line, &(gt_diff_options){.mode = GT_DIFF_POSITION, .radius = 1, .threshold = 0.1,
                                                  .max_diff_pixels = -1, .max_diff_percent = -1});
    CHECK(!r.pass && r.diff_pixels == 68 && r.isolated_pixels == 2 && r.bbox.x == 6 && r.bbox.w == 68,
          "missing line, defaults: %llu counted, %llu isolated", (unsigned long long)r.diff_pixels,
          (unsigned long long)r.isolated_pixels);

    /* A missing object fails in every tolerant mode, with its box. */
    for (int m = GT_DIFF_TOLERANCE; m <= GT_DIFF_POSITION; m++) {
        o = opts((gt_diff_mode)m);
        o.tolerance = 16;
        r = cmp(&e, &missing_box, &o);
        CHECK(!r.pass, "mode %d passes a missing object", m);
        /* Position mode too: no box pixel is anywhere in actual. */
        CHECK(r.diff_pixels == 25 * 20, "mode %d: %llu differing, want 500", m, (unsigned long long)r.diff_pixels);
        CHECK(r.bbox.x == 20 && r.bbox.y == 15 && r.bbox.w == 25 && r.bbox.h == 20, "mode %d bbox %u,%u %ux%u", m,
              r.bbox.x, r.bbox.y, r.bbox.w, r.bbox.h);
    }
    gt_diff_image_free(&e);
    gt_diff_image_free(&moved);
    gt_diff_image_free(&missing_line);
    gt_diff_image_free(&missing_box);
}

/* Scattered single pixels, as another driver's shading precision leaves
 * them, pass the tolerant modes by default; clusters, lines and blocks of
 * the same size do not. */
static void isolated_differences(void)
{
    static const uint8_t hot[4] = {0, 255, 0, 255}; /* far from every colour of scene() */
    gt_diff_image e, scattered, block, diagonal;
    scene(&e, 0, 0, 1, 1);
    tpng_copy(&scattered, &e);
    tpng_copy(&block, &e);
    tpng_copy(&diagonal, &e);
    int n = 0;
    for (uint32_t y = 2; y < 58; y += 4) /* 3 pixels apart: no neighbours */
        for (uint32_t x = 2 + (y % 8); x < 78; x += 9, n++)
            memcpy(tpng_px(&scattered, x, y), hot, 4);
    tpng_rect(&block, 60, 5, 2, 2, hot); /* 4 pixels, 3 neighbours each */
    for (uint32_t i = 0; i < 10; i++)
        memcpy(tpng_px(&diagonal, 2 + i, 2 + i), hot, 4);

    for (int m = GT_DIFF_PERCEPTUAL; m <= GT_DIFF_POSITION; m++) {
        gt_diff_options o = opts((gt_diff_mode)m);
        /* In PERCEPTUAL mode, pixels that land on the box's edges look
         * anti-aliased to the detector and are counted as such instead. */
        gt_diff_result r = cmp(&e, &scattered, &o);
        CHECK(r.pass && r.diff_pixels == 0 && r.isolated_pixels + r.aa_pixels == (uint64_t)n && r.bbox.w == 0,
              "mode %d: %d scattered pixels: %llu counted, %llu isolated", m, n, (unsigned long long)r.diff_pixels,
              (unsigned long long)r.isolated_pixels);
        r = cmp(&e, &block, &o);
        CHECK(!r.pass && r.diff_pixels == 4 && r.isolated_pixels == 0, "mode %d: 2x2 block: %llu", m,
              (unsigned long long)r.diff_pixels);
        r = cmp(&e, &diagonal, &o);
        CHECK(!r.pass && r.diff_pixels == 8 && r.bbox.x == 3 && r.bbox.w == 8, "mode %d: diagonal: %llu", m,
              (unsigned long long)r.diff_pixels);
        o.isolated = GT_DIFF_ISOLATED_COUNT;
        r = cmp(&e, &scattered, &o);
        CHECK(!r.pass && r.diff_pixels + r.aa_pixels == (uint64_t)n && r.isolated_pixels == 0, "mode %d: counted %llu", m,
              (unsigned long long)r.diff_pixels);
    }
    /* EXACT and TOLERANCE count every pixel unless told otherwise. */
    gt_diff_options o = opts(GT_DIFF_EXACT);
    CHECK(cmp(&e, &scattered, &o).diff_pixels == (uint64_t)n, "exact filtered isolated pixels");
    o = opts(GT_DIFF_TOLERANCE);
    CHECK(cmp(&e, &scattered, &o).diff_pixels == (uint64_t)n, "tolerance filtered isolated pixels");
    o.isolated = GT_DIFF_ISOLATED_IGNORE;
    CHECK(cmp(&e, &scattered, &o).pass, "tolerance with isolated pixels ignored");

    /* The mask tells them apart, and the diff image paints them pale. */
    uint8_t *mask = malloc(80 * 60);
    gt_diff_result r;
    char err[GT_DIFF_ERR_MAX];
    o = opts(GT_DIFF_PERCEPTUAL);
    CHECK(gt_diff_compare(&e, &scattered, &o, 1, &r, mask, err) == 0, "%s", err);
    CHECK(mask[2 * 80 + 4] == GT_DIFF_PX_ISOLATED, "mask %d", mask[2 * 80 + 4]);
    free(mask);

    /* PERCEPTUAL's radius: a hard edge one pixel over passes by default,
     * fails without the radius. */
    gt_diff_image moved;
    scene(&moved, 1, 1, 1, 1);
    o = opts(GT_DIFF_PERCEPTUAL);
    CHECK(cmp(&e, &moved, &o).pass, "perceptual radius 1 fails a one-pixel move");
    o.radius = 0;
    CHECK(!cmp(&e, &moved, &o).pass, "perceptual radius 0 passes a one-pixel move");
    gt_diff_image_free(&moved);
    gt_diff_image_free(&e);
    gt_diff_image_free(&scattered);
    gt_diff_image_free(&block);
    gt_diff_image_free(&diagonal);
}

static void ignore_regions(void)
{
    gt_diff_image e, a;
    scene(&e, 0, 0, 1, 1);
    scene(&a, 0, 0, 0, 1); /* box missing at 20,15 25x20 */
    gt_diff_rect rects[3] = {{18, 10, 30, 15}, {15, 20, 40, 20}, {70, 55, 100, 100}};
    gt_diff_options o = opts(GT_DIFF_EXACT);
    o.ignore = rects;
    o.n_ignore = 2;
    gt_diff_result r = cmp(&e, &a, &o);
    /* The two overlapping rectangles cover the box. Union area:
     * 30*15 + 40*20 - overlap (x 18..48 and 15..55 -> 30; y 20..25 -> 5)
     * = 450 + 800 - 150 = 1100. */
    CHECK(r.pass && r.identical && r.diff_pixels == 0, "difference inside ignore regions counted");
    CHECK(r.compared_pixels == 80 * 60 - 1100, "compared %llu", (unsigned long long)r.compared_pixels);
    /* A region running off the image is clipped: 10x5 inside. */
    o.ignore = rects + 2;
    o.n_ignore = 1;
    r = cmp(&e, &a, &o);
    CHECK(!r.pass && r.compared_pixels == 80 * 60 - 50 && r.diff_pixels == 500, "clipped region: %llu %llu",
          (unsigned long long)r.compared_pixels, (unsigned long long)r.diff_pixels);
    /* Half the box ignored: the other half still fails. */
    gt_diff_rect half = {20, 15, 13, 20};
    o.ignore = &half;
    r = cmp(&e, &a, &o);
    CHECK(!r.pass && r.diff_pixels == 12 * 20 && r.bbox.x == 33 && r.bbox.w == 12, "half ignored: %llu",
          (unsigned long long)r.diff_pixels);

    /* The mask marks what was ignored, and the diff image shows it. */
    uint8_t *mask = malloc(80 * 60);
    char err[GT_DIFF_ERR_MAX];
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, mask, err) == 0, "%s", err);
    CHECK(mask[15 * 80 + 20] == GT_DIFF_PX_IGNORED && mask[15 * 80 + 40] == GT_DIFF_PX_DIFF &&
              mask[0] == GT_DIFF_PX_SAME,
          "mask %d %d %d", mask[15 * 80 + 20], mask[15 * 80 + 40], mask[0]);
    gt_diff_image out;
    CHECK(gt_diff_render(&e, mask, &out) == 0, "render");
    const uint8_t *red = tpng_px(&out, 40, 15), *blue = tpng_px(&out, 20, 15), *grey = tpng_px(&out, 0, 0);
    CHECK(red[0] == 255 && red[1] == 0 && red[2] == 0, "difference not red");
    CHECK(blue[2] > blue[0] && grey[0] == grey[1] && grey[1] == grey[2] && grey[0] > 180, "ignored/grey wrong");
    gt_diff_image_free(&out);
    free(mask);
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

static void alpha(void)
{
    gt_diff_image e, a;
    gt_diff_image_alloc(&e, 16, 16);
    gt_diff_image_alloc(&a, 16, 16);
    tpng_fill(&e, 0, 0, 0, 255);
    tpng_fill(&a, 0, 0, 0, 128);
    gt_diff_options o = opts(GT_DIFF_EXACT);
    gt_diff_result r = cmp(&e, &a, &o);
    CHECK(!r.pass && r.diff_pixels == 256 && r.max_channel_diff == 127, "alpha compared");
    o.ignore_alpha = 1;
    r = cmp(&e, &a, &o);
    CHECK(r.pass && r.identical, "alpha ignored");
    /* Perceptual blends over white: opaque black against half-transparent
     * black is black against mid grey, far over the threshold. */
    o = opts(GT_DIFF_PERCEPTUAL);
    CHECK(!cmp(&e, &a, &o).pass, "perceptual ignores alpha");
    o.ignore_alpha = 1;
    CHECK(cmp(&e, &a, &o).pass, "perceptual with alpha ignored");
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

static void rmse_psnr(void)
{
    gt_diff_image e, a;
    gt_diff_image_alloc(&e, 10, 10);
    gt_diff_image_alloc(&a, 10, 10);
    tpng_fill(&e, 50, 60, 70, 255);
    tpng_fill(&a, 60, 60, 70, 255);
    gt_diff_options o = opts(GT_DIFF_TOLERANCE);
    o.tolerance = 10;
    gt_diff_result r = cmp(&e, &a, &o);
    /* Every pixel: R off by 10, so RMSE over 4 channels = sqrt(100/4) = 5,
     * PSNR = 20 log10(255/5) = 34.1514 dB; over 3 channels sqrt(100/3). */
    CHECK(r.pass && fabs(r.rmse - 5.0) < 1e-12 && fabs(r.psnr - 34.15140352195873) < 1e-9, "rmse %g psnr %g",
          r.rmse, r.psnr);
    CHECK(r.bbox.w == 0, "within tolerance leaves no bounding box");
    o.ignore_alpha = 1;
    r = cmp(&e, &a, &o);
    CHECK(fabs(r.rmse - 5.773502691896258) < 1e-12, "rmse rgb %g", r.rmse);
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

static void refusals(void)
{
    gt_diff_image e, a;
    gt_diff_image_alloc(&e, 64, 48);
    gt_diff_image_alloc(&a, 64, 47);
    gt_diff_options o = opts(GT_DIFF_EXACT);
    gt_diff_result r;
    char err[GT_DIFF_ERR_MAX] = "";
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, NULL, err) == -1 && strstr(err, "expected 64x48") &&
              strstr(err, "actual 64x47"),
          "size mismatch: %s", err);
    gt_diff_image_free(&a);
    tpng_copy(&a, &e);
    o.tolerance = 256;
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, NULL, err) == -1 && strstr(err, "tolerance"), "%s", err);
    o = opts(GT_DIFF_PERCEPTUAL);
    o.threshold = 1.5;
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, NULL, err) == -1 && strstr(err, "threshold"), "%s", err);
    o.threshold = NAN;
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, NULL, err) == -1, "NaN threshold accepted");
    o = opts(GT_DIFF_POSITION);
    o.radius = 9;
    CHECK(gt_diff_compare(&e, &a, &o, 1, &r, NULL, err) == -1 && strstr(err, "radius"), "%s", err);
    gt_diff_mode m;
    CHECK(gt_diff_mode_parse("perceptual", &m) == 0 && m == GT_DIFF_PERCEPTUAL, "mode names");
    CHECK(gt_diff_mode_parse("fuzzy", &m) == -1, "unknown mode accepted");
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

/* Differences spread over all bands of a large image: every thread count
 * gives the same totals and the same bounding box. */
static void bands(void)
{
    gt_diff_image e, a;
    random_image(&e, 600, 400, 3);
    tpng_copy(&a, &e);
    static const uint32_t at[][2] = {{5, 3}, {599, 100}, {300, 199}, {0, 200}, {123, 399}, {450, 333}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        tpng_px(&a, at[i][0], at[i][1])[0] ^= 0x80;
    gt_diff_rect ign = {440, 330, 20, 20}; /* hides {450, 333} */
    gt_diff_options o = opts(GT_DIFF_EXACT);
    o.ignore = &ign;
    o.n_ignore = 1;
    for (unsigned t = 1; t <= 7; t++) {
        gt_diff_result r;
        char err[GT_DIFF_ERR_MAX];
        CHECK(gt_diff_compare(&e, &a, &o, t, &r, NULL, err) == 0, "%s", err);
        CHECK(r.diff_pixels == 5 && r.compared_pixels == 600 * 400 - 400, "%u threads: %llu", t,
              (unsigned long long)r.diff_pixels);
        CHECK(r.bbox.x == 0 && r.bbox.y == 3 && r.bbox.w == 600 && r.bbox.h == 397, "%u threads: bbox %u,%u %ux%u",
              t, r.bbox.x, r.bbox.y, r.bbox.w, r.bbox.h);
    }
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}

int main(void)
{
    identical();
    one_pixel_off_by_one();
    thresholds();
    aa_edge_shifted();
    position_tolerance();
    isolated_differences();
    ignore_regions();
    alpha();
    rmse_psnr();
    refusals();
    bands();
    return tcheck_exit("test_compare");
}
