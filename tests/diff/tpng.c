/* tpng.c: test PNG writer and image helpers. Independent of the library's
 * own writer, so a bug there cannot hide a bug in the reader. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tpng.h"

int tpng_channels(int ct)
{
    switch (ct) {
    case PNG_COLOR_TYPE_GRAY:
    case PNG_COLOR_TYPE_PALETTE:
        return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        return 2;
    case PNG_COLOR_TYPE_RGB:
        return 3;
    default:
        return 4;
    }
}

/* Packs one row of samples into PNG's byte layout for the bit depth. */
static void pack_row(const tpng *p, const uint16_t *s, uint8_t *out)
{
    size_t n = (size_t)p->w * tpng_channels(p->color_type);
    if (p->depth == 16) {
        for (size_t i = 0; i < n; i++) {
            out[2 * i] = (uint8_t)(s[i] >> 8);
            out[2 * i + 1] = (uint8_t)s[i];
        }
    } else if (p->depth == 8) {
        for (size_t i = 0; i < n; i++)
            out[i] = (uint8_t)s[i];
    } else {
        size_t bytes = (n * p->depth + 7) / 8;
        memset(out, 0, bytes);
        int per = 8 / p->depth;
        for (size_t i = 0; i < n; i++) {
            int shift = 8 - p->depth * (int)(i % per + 1);
            out[i / per] |= (uint8_t)(s[i] << shift);
        }
    }
}

int tpng_write(const char *path, const tpng *p)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    size_t rowbytes = ((size_t)p->w * tpng_channels(p->color_type) * p->depth + 7) / 8;
    uint8_t *rows = malloc(rowbytes * p->h + 1);
    png_bytep *rp = malloc(sizeof *rp * (p->h + 1));
    if (setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: libpng failed writing\n", path);
        png_destroy_write_struct(&png, &info);
        fclose(f);
        free(rows);
        free(rp);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, p->w, p->h, p->depth, p->color_type,
                 p->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (p->palette) {
        png_color pal[256];
        for (int i = 0; i < p->npalette; i++)
            pal[i] = (png_color){p->palette[i][0], p->palette[i][1], p->palette[i][2]};
        png_set_PLTE(png, info, pal, p->npalette);
    }
    if (p->trns_alpha)
        png_set_tRNS(png, info, p->trns_alpha, p->ntrns, NULL);
    if (p->has_trns_color) {
        png_color_16 c = {0, p->trns_r, p->trns_g, p->trns_b, p->trns_grey};
        png_set_tRNS(png, info, NULL, 0, &c);
    }
    if (p->filter)
        png_set_filter(png, PNG_FILTER_TYPE_BASE, p->filter);
    if (p->idat_size)
        png_set_compression_buffer_size(png, p->idat_size);
    size_t n = (size_t)p->w * tpng_channels(p->color_type);
    for (uint32_t y = 0; y < p->h; y++) {
        pack_row(p, p->samples + y * n, rows + y * rowbytes);
        rp[y] = rows + y * rowbytes;
    }
    png_write_info(png, info);
    png_write_image(png, rp);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(rp);
    return fclose(f) == 0 ? 0 : -1;
}

int tpng_write_rgba(const char *path, const gt_diff_image *img)
{
    size_t n = (size_t)img->width * img->height * 4;
    uint16_t *s = malloc((n ? n : 1) * sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = img->rgba[i];
    tpng p = {.w = img->width, .h = img->height, .color_type = PNG_COLOR_TYPE_RGBA, .depth = 8, .samples = s};
    int rc = tpng_write(path, &p);
    free(s);
    return rc;
}

void tpng_fill(gt_diff_image *img, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; i < n; i++) {
        img->rgba[4 * i] = r;
        img->rgba[4 * i + 1] = g;
        img->rgba[4 * i + 2] = b;
        img->rgba[4 * i + 3] = a;
    }
}

uint8_t *tpng_px(gt_diff_image *img, uint32_t x, uint32_t y)
{
    return img->rgba + 4 * ((size_t)y * img->width + x);
}

void tpng_disc(gt_diff_image *img, double cx, double cy, double r, const uint8_t c[3])
{
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            int inside = 0;
            for (int sy = 0; sy < 8; sy++)
                for (int sx = 0; sx < 8; sx++) {
                    double px = x + (sx + 0.5) / 8 - cx, py = y + (sy + 0.5) / 8 - cy;
                    inside += px * px + py * py <= r * r;
                }
            if (!inside)
                continue;
            uint8_t *p = tpng_px(img, x, y);
            for (int k = 0; k < 3; k++)
                p[k] = (uint8_t)((p[k] * (64 - inside) + c[k] * inside + 32) / 64);
        }
}

void tpng_rect(gt_diff_image *img, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const uint8_t c[4])
{
    for (uint32_t j = y; j < y + h && j < img->height; j++)
        for (uint32_t i = x; i < x + w && i < img->width; i++)
            memcpy(tpng_px(img, i, j), c, 4);
}

int tpng_copy(gt_diff_image *dst, const gt_diff_image *src)
{
    if (gt_diff_image_alloc(dst, src->width, src->height) != 0)
        return -1;
    memcpy(dst->rgba, src->rgba, (size_t)src->width * src->height * 4);
    return 0;
}

int tpng_fresh_dir(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}
