/* diff_png_write.c: PNG output through libpng, tuned for speed: diff
 * images are mostly flat grey and red, which compress well even at zlib's
 * fastest level, and a per-row filter search would triple the time. */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "diff_internal.h"

typedef struct sink {
    const char *path;
    char *err;
    int err_set;
    png_bytep *rows;
} sink;

static void on_error(png_structp png, png_const_charp msg)
{
    sink *s = png_get_error_ptr(png);
    if (!s->err_set)
        diff_fail(s->err, "%s: cannot write PNG: %s", s->path, msg);
    s->err_set = 1;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int gt_diff_png_write(const char *path, const gt_diff_image *img, char *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return diff_fail(err, "%s: cannot create: %s", path, strerror(errno));
    sink s = {.path = path, .err = err};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        fclose(f);
        return diff_fail(err, "%s: out of memory", path);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(s.rows);
        fclose(f);
        remove(path);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, img->width, img->height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_RLE); /* long runs of one colour */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    s.rows = malloc((img->height ? img->height : 1) * sizeof *s.rows);
    if (!s.rows)
        png_error(png, "out of memory");
    for (uint32_t y = 0; y < img->height; y++)
        s.rows[y] = img->rgba + (size_t)y * img->width * 4;
    png_write_info(png, info);
    png_write_image(png, s.rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(s.rows);
    if (fclose(f) != 0) {
        remove(path);
        return diff_fail(err, "%s: write error: %s", path, strerror(errno));
    }
    return 0;
}
