/* test_png_read.c: every PNG colour type, bit depth and interlacing decodes
 * to the RGBA the PNG specification says; the libdeflate fast path gives
 * the same pixels as libpng under every filter type and IDAT split, at 8
 * and 16 bits, on noisy images (the other inflate library) and for every
 * 16-bit value; a damaged checksum sends the file to libpng; a 16-bit file
 * equals its 8-bit equivalent.
 * usage: test_png_read SCRATCH_DIR */
#include <libdeflate.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h" /* white box: the fast path and its switch */
#include "gt_diff.h"
#include "tcheck.h"
#include "tpng.h"

static const char *dir;
static uint32_t rng = 12345;

static uint32_t next(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Samples: a gradient with noise, so every filter type has work to do and
 * every value range is exercised. */
static uint16_t *make_samples(uint32_t w, uint32_t h, int channels, unsigned maxval)
{
    size_t n = (size_t)w * h * channels;
    uint16_t *s = malloc(n * sizeof *s + 2);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int c = 0; c < channels; c++) {
                unsigned v = (x * 37 + y * 101 + c * 53) + (next() % 5 == 0 ? next() : 0);
                s[((size_t)y * w + x) * channels + c] = (uint16_t)(v % (maxval + 1));
            }
    return s;
}

static uint8_t to8(unsigned v, int depth)
{
    if (depth == 16)
        return (uint8_t)((v + 128) / 257); /* rounded, like png_set_scale_16 */
    return (uint8_t)(v * 255 / ((1u << depth) - 1));
}

/* What a correct decoder gives for pixel i of p. */
static void expect_px(const tpng *p, size_t i, uint8_t out[4])
{
    const uint16_t *s = p->samples + i * tpng_channels(p->color_type);
    int d = p->depth;
    switch (p->color_type) {
    case PNG_COLOR_TYPE_GRAY:
        out[0] = out[1] = out[2] = to8(s[0], d);
        out[3] = p->has_trns_color && s[0] == p->trns_grey ? 0 : 255;
        break;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        out[0] = out[1] = out[2] = to8(s[0], d);
        out[3] = to8(s[1], d);
        break;
    case PNG_COLOR_TYPE_RGB:
        for (int c = 0; c < 3; c++)
            out[c] = to8(s[c], d);
        out[3] = p->has_trns_color && s[0] == p->trns_r && s[1] == p->trns_g && s[2] == p->trns_b ? 0 : 255;
        break;
    case PNG_COLOR_TYPE_PALETTE:
        memcpy(out, p->palette[s[0]], 3);
        out[3] = s[0] < p->ntrns ? p->trns_alpha[s[0]] : 255;
        break;
    default:
        for (int c = 0; c < 4; c++)
            out[c] = to8(s[c], d);
    }
}

static void check_decodes(const tpng *p, const char *label)
{
    char path[4096], err[GT_DIFF_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/%s.png", dir, label);
    CHECK(tpng_write(path, p) == 0, "%s: writing", label);
    gt_diff_image img;
    int rc = gt_diff_png_read(path, &img, err);
    CHECK(rc == 0, "%s: %s", label, err);
    if (rc != 0)
        return;
    CHECK(img.width == p->w && img.height == p->h, "%s: size %ux%u", label, img.width, img.height);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < (size_t)p->w * p->h && img.width == p->w && img.height == p->h; i++) {
        uint8_t e[4];
        expect_px(p, i, e);
        if (memcmp(e, img.rgba + 4 * i, 4) != 0 && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "%s: %zu pixels wrong, first at %zu", label, bad, first);
    gt_diff_image_free(&img);
}

static void all_color_types(void)
{
    static const struct {
        int ct, depth;
    } kinds[] = {
        {PNG_COLOR_TYPE_GRAY, 1},       {PNG_COLOR_TYPE_GRAY, 2},       {PNG_COLOR_TYPE_GRAY, 4},
        {PNG_COLOR_TYPE_GRAY, 8},       {PNG_COLOR_TYPE_GRAY, 16},      {PNG_COLOR_TYPE_GRAY_ALPHA, 8},
        {PNG_COLOR_TYPE_GRAY_ALPHA, 16}, {PNG_COLOR_TYPE_RGB, 8},       {PNG_COLOR_TYPE_RGB, 16},
        {PNG_COLOR_TYPE_RGBA, 8},       {PNG_COLOR_TYPE_RGBA, 16},      {PNG_COLOR_TYPE_PALETTE, 1},
        {PNG_COLOR_TYPE_PALETTE, 2},    {PNG_COLOR_TYPE_PALETTE, 4},    {PNG_COLOR_TYPE_PALETTE, 8},
    };
    static const uint32_t sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {64, 40}};
    uint8_t palette[256][3], alpha[256];
    for (int i = 0; i < 256; i++) {
        palette[i][0] = (uint8_t)(i * 7);
        palette[i][1] = (uint8_t)(255 - i);
        palette[i][2] = (uint8_t)(i * 13 + 5);
        alpha[i] = (uint8_t)(i * 29);
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
            for (int il = 0; il < 2; il++)
                for (int trns = 0; trns < 2; trns++) {
                    int ct = kinds[k].ct, d = kinds[k].depth;
                    if (trns && (ct & PNG_COLOR_MASK_ALPHA))
                        continue; /* tRNS is not allowed with an alpha channel */
                    unsigned maxval = ct == PNG_COLOR_TYPE_PALETTE ? (1u << d) - 1 : (1u << d) - 1;
                    uint16_t *s = make_samples(sizes[z][0], sizes[z][1], tpng_channels(ct), maxval);
                    tpng p = {.w = sizes[z][0], .h = sizes[z][1], .color_type = ct, .depth = d,
                              .interlace = il, .samples = s};
                    if (ct == PNG_COLOR_TYPE_PALETTE) {
                        p.palette = (const uint8_t(*)[3])palette;
                        p.npalette = 1 << d;
                        if (trns) {
                            p.trns_alpha = alpha;
                            p.ntrns = (1 << d) > 2 ? (1 << d) / 2 : 1; /* a short tRNS: rest opaque */
                        }
                    } else if (trns) {
                        /* Make the key colour the first pixel's, so it occurs. */
                        p.has_trns_color = 1;
                        p.trns_grey = s[0];
                        p.trns_r = s[0];
                        p.trns_g = ct == PNG_COLOR_TYPE_RGB ? s[1] : 0;
                        p.trns_b = ct == PNG_COLOR_TYPE_RGB ? s[2] : 0;
                    }
                    char label[96];
                    snprintf(label, sizeof label, "ct%d_d%d_%ux%u%s%s", ct, d, sizes[z][0], sizes[z][1],
                             il ? "_interlaced" : "", trns ? "_trns" : "");
                    check_decodes(&p, label);
                    free(s);
                }
}

/* The fast decoder takes the file (or the comparison tests nothing) and
 * agrees with libpng byte for byte. Returns the file's size. */
static size_t fast_equals_libpng(const char *path, const char *label)
{
    uint8_t *data;
    size_t size;
    char err[GT_DIFF_ERR_MAX] = "";
    gt_diff_image fast, slow;
    if (diff_file_load(path, &data, &size, err) != 0) {
        CHECK(0, "%s", err);
        return 0;
    }
    CHECK(diff_png_decode_fast(data, size, &fast) == 1, "%s: fast path declined", label);
    CHECK(diff_png_decode_libpng(data, size, label, &slow, err) == 0, "%s", err);
    CHECK(fast.rgba && slow.rgba && fast.width == slow.width && fast.height == slow.height &&
              memcmp(fast.rgba, slow.rgba, (size_t)slow.width * slow.height * 4) == 0,
          "%s: fast and libpng differ", label);
    gt_diff_image_free(&fast);
    gt_diff_image_free(&slow);
    free(data);
    return size;
}

/* Every filter, size and IDAT split, at 8 and 16 bits. */
static void fast_path_matches_libpng(void)
{
    static const int filters[] = {PNG_FILTER_NONE, PNG_FILTER_SUB, PNG_FILTER_UP,
                                  PNG_FILTER_AVG, PNG_FILTER_PAETH, PNG_ALL_FILTERS};
    static const uint32_t sizes[][2] = {{1, 1}, {3, 2}, {17, 9}, {200, 120}};
    for (int ct = 0; ct < 4; ct++)
        for (size_t f = 0; f < sizeof filters / sizeof filters[0]; f++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
                for (int many_idat = 0; many_idat < 2; many_idat++) {
                    int type = ct & 1 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB, depth = ct & 2 ? 16 : 8;
                    uint16_t *s = make_samples(sizes[z][0], sizes[z][1], tpng_channels(type), depth == 16 ? 65535 : 255);
                    tpng p = {.w = sizes[z][0], .h = sizes[z][1], .color_type = type, .depth = depth,
                              .filter = filters[f], .idat_size = many_idat ? 64 : 0, .samples = s};
                    char label[96], path[4096];
                    snprintf(label, sizeof label, "fast_%s%d_f%d_%ux%u%s", ct & 1 ? "rgba" : "rgb", depth, filters[f],
                             sizes[z][0], sizes[z][1], many_idat ? "_idats" : "");
                    snprintf(path, sizeof path, "%s/%s.png", dir, label);
                    tpng_write(path, &p);
                    check_decodes(&p, label); /* through the public reader */
                    fast_equals_libpng(path, label);
                    free(s);
                }
}

/* Noisy images (a smooth field plus a little noise, like ImageMagick's
 * plasma) deflate about 2:1, the band where the other inflate library
 * (igzip) is used: large ones, every filter choice, 8 and 16 bits. */
static void noisy_matches_libpng(void)
{
    uint32_t w = 1000, h = 600;
    for (int ct = 0; ct < 4; ct++) {
        int type = ct & 1 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB, depth = ct & 2 ? 16 : 8;
        int ch = tpng_channels(type);
        unsigned maxval = depth == 16 ? 65535 : 255;
        uint16_t *s = malloc((size_t)w * h * ch * sizeof *s);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (int c = 0; c < ch; c++) {
                    unsigned v = (x + y + 100 * (unsigned)c) % 256 + next() % 16;
                    s[((size_t)y * w + x) * ch + c] = (uint16_t)(v * maxval / 271);
                }
        tpng p = {.w = w, .h = h, .color_type = type, .depth = depth, .filter = PNG_ALL_FILTERS, .samples = s};
        char label[64], path[4096];
        snprintf(label, sizeof label, "noisy_%s%d", ct & 1 ? "rgba" : "rgb", depth);
        snprintf(path, sizeof path, "%s/%s.png", dir, label);
        tpng_write(path, &p);
        size_t size = fast_equals_libpng(path, label);
        double ratio = (double)h * ((double)w * ch * depth / 8 + 1) / (double)size;
        if (depth == 8) /* the igzip band of diff_inflate.c */
            CHECK(ratio > 1.6 && ratio < 3.8, "%s: compresses %.2f:1, outside the band the test is for", label, ratio);
        free(s);
    }
}

/* Every 16-bit sample value scales to the 8 bits libpng gives. */
static void every_16bit_value(void)
{
    uint32_t w = 256, h = 256;
    uint16_t *s = malloc((size_t)w * h * 3 * sizeof *s);
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int c = 0; c < 3; c++)
            s[3 * i + c] = (uint16_t)(i * (2 * c + 1) + 7919 * c); /* odd factors: every value */
    tpng p = {.w = w, .h = h, .color_type = PNG_COLOR_TYPE_RGB, .depth = 16, .samples = s};
    char path[4096];
    snprintf(path, sizeof path, "%s/every16.png", dir);
    tpng_write(path, &p);
    fast_equals_libpng(path, "every16");
    free(s);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A wrong Adler-32 under a right CRC: the fast path (in either inflate
 * library) declines, and libpng reports the file. */
static void bad_adler_declined(void)
{
    const char *names[] = {"noisy_rgba8", "fast_rgba8_f8_200x120"};
    for (int k = 0; k < 2; k++) {
        char path[4096], err[GT_DIFF_ERR_MAX] = "";
        snprintf(path, sizeof path, "%s/%s.png", dir, names[k]);
        uint8_t *d;
        size_t n;
        if (diff_file_load(path, &d, &n, err) != 0) {
            CHECK(0, "%s", err);
            continue;
        }
        size_t off = 8, last_idat = 0;
        while (off + 12 <= n && memcmp(d + off + 4, "IEND", 4) != 0) {
            if (memcmp(d + off + 4, "IDAT", 4) == 0)
                last_idat = off;
            off += 12 + be32(d + off);
        }
        CHECK(last_idat, "%s: no IDAT", names[k]);
        uint32_t len = be32(d + last_idat);
        d[last_idat + 8 + len - 1] ^= 1; /* the Adler-32's last byte */
        uint32_t crc = libdeflate_crc32(0, d + last_idat + 4, len + 4);
        for (int i = 0; i < 4; i++)
            d[last_idat + 8 + len + i] = (uint8_t)(crc >> (24 - 8 * i));
        gt_diff_image img;
        CHECK(diff_png_decode_fast(d, n, &img) == 0, "%s: fast path took a bad checksum", names[k]);
        CHECK(gt_diff_png_read_mem(d, n, names[k], &img, err) != 0, "%s: bad checksum accepted", names[k]);
        free(d);
    }
}

static void sixteen_bit_equals_eight_bit(void)
{
    uint32_t w = 40, h = 30;
    uint16_t *s8 = make_samples(w, h, 4, 255);
    uint16_t *s16 = malloc((size_t)w * h * 4 * sizeof *s16);
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        s16[i] = (uint16_t)(s8[i] * 257);
    tpng a = {.w = w, .h = h, .color_type = PNG_COLOR_TYPE_RGBA, .depth = 8, .samples = s8};
    tpng b = a;
    b.depth = 16;
    b.samples = s16;
    char pa[4096], pb[4096], err[GT_DIFF_ERR_MAX] = "";
    snprintf(pa, sizeof pa, "%s/eight.png", dir);
    snprintf(pb, sizeof pb, "%s/sixteen.png", dir);
    tpng_write(pa, &a);
    tpng_write(pb, &b);
    gt_diff_image ia, ib;
    CHECK(gt_diff_png_read(pa, &ia, err) == 0, "%s", err);
    CHECK(gt_diff_png_read(pb, &ib, err) == 0, "%s", err);
    gt_diff_options o;
    gt_diff_options_init(&o);
    gt_diff_result r;
    CHECK(gt_diff_compare(&ia, &ib, &o, 1, &r, NULL, err) == 0, "%s", err);
    CHECK(r.identical && r.pass, "16-bit file differs from its 8-bit equivalent: %llu pixels",
          (unsigned long long)r.diff_pixels);
    CHECK(gt_diff_image_hash(&ia) == gt_diff_image_hash(&ib), "hashes of equal images differ");
    tpng_px(&ib, 3, 4)[1] ^= 1;
    CHECK(gt_diff_image_hash(&ia) != gt_diff_image_hash(&ib), "hash blind to a one-bit change");
    gt_diff_image_free(&ia);
    gt_diff_image_free(&ib);
    free(s8);
    free(s16);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_png_read SCRATCH_DIR\n");
        return 2;
    }
    dir = argv[1];
    if (tpng_fresh_dir(dir) != 0)
        return 2;
    all_color_types();
    fast_path_matches_libpng();
    noisy_matches_libpng();
    every_16bit_value();
    bad_adler_declined();
    sixteen_bit_equals_eight_bit();
    return tcheck_exit("test_png_read");
}
