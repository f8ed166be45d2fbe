/* diff_png_read.c: PNG decoding through libpng, for every colour type, bit
 * depth and interlacing, into 8-bit RGBA. The whole file is read into
 * memory first so that messages can give the byte offset where things went
 * wrong, and so that the fast path (diff_png_fast.c) can look at it. */
#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff_internal.h"

int diff_file_load(const char *path, uint8_t **data, size_t *size, char *err)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return diff_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return diff_fail(err, "%s: not a regular file", path);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = diff_big_alloc(n + 1);
    if (!buf) {
        close(fd);
        return diff_fail(err, "%s: out of memory reading %zu bytes", path, n);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = errno;
            diff_big_free(buf);
            close(fd);
            return diff_fail(err, "%s: read error at byte %zu: %s", path, got,
                             r < 0 ? strerror(e) : "file shrank while reading");
        }
        got += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *data = buf;
    *size = n;
    return 0;
}

int diff_file_open(const char *path, diff_file *f, char *err)
{
    memset(f, 0, sizeof *f);
    if (diff_file_load(path, &f->buf, &f->size, err) != 0)
        return -1;
    f->data = f->buf;
    return 0;
}

void diff_file_release(diff_file *f)
{
    diff_big_free(f->buf);
    memset(f, 0, sizeof *f);
}

/* The state libpng's callbacks see. Everything that changes after setjmp
 * lives here, not in locals, so longjmp cannot leave stale copies. */
typedef struct png_src {
    const uint8_t *data;
    size_t size, off;
    const char *name;
    char *err;
    int err_set;
    char warning[160]; /* libpng's last warning: often the actual cause */
    png_bytep *rows;
} png_src;

static void src_read(png_structp png, png_bytep out, size_t n)
{
    png_src *s = png_get_io_ptr(png);
    if (n > s->size - s->off) {
        diff_fail(s->err, "%s: truncated: needed %zu bytes at offset %zu, file is %zu bytes",
                  s->name, n, s->off, s->size);
        s->err_set = 1;
        png_error(png, "truncated");
    }
    memcpy(out, s->data + s->off, n);
    s->off += n;
}

static void on_error(png_structp png, png_const_charp msg)
{
    png_src *s = png_get_error_ptr(png);
    if (!s->err_set) {
        /* libpng reads a chunk's header, then its data, then its CRC: the
         * offset we have read up to is within or just after the culprit. */
        diff_fail(s->err, "%s: corrupt PNG (read up to byte %zu of %zu): %s%s%s%s",
                  s->name, s->off, s->size, msg, s->warning[0] ? " (" : "", s->warning,
                  s->warning[0] ? ")" : "");
        s->err_set = 1;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    /* Warnings are about things libpng recovered from (a bad ancillary
     * chunk): the pixels are still right, which is all we compare. But
     * libpng warns before some errors with the detail the error lacks
     * ("Image width is zero in IHDR", then "Invalid IHDR data"), so the
     * last one is kept for the error message. */
    png_src *s = png_get_error_ptr(png);
    snprintf(s->warning, sizeof s->warning, "%s", msg);
}

/* Deflate cannot expand its input more than 1032 times; a header promising
 * more pixels than the file could hold is corrupt, and believing it would
 * mean allocating gigabytes for a 100-byte file. */
static int plausible_size(uint32_t w, uint32_t h, int depth, int channels, size_t file_size)
{
    double raw = (double)h * (1.0 + ((double)w * channels * depth + 7) / 8);
    return raw <= 1100.0 * (double)file_size + 4096.0;
}

/* libpng inflates IDAT as it reads and checks a chunk's CRC only at its
 * end, so damaged pixel data surfaces as a zlib complaint ("invalid bit
 * length repeat"). Checking the CRCs of the critical chunks first names
 * the chunk and its offset instead; libdeflate's CRC costs next to nothing.
 * A chunk running past the end of the file is reported here too. */
static int check_crcs(const uint8_t *d, size_t size, const char *name, char *err)
{
    size_t off = 8;
    while (size - off >= 12) {
        uint32_t len = (uint32_t)d[off] << 24 | (uint32_t)d[off + 1] << 16 | (uint32_t)d[off + 2] << 8 | d[off + 3];
        const uint8_t *type = d + off + 4;
        if (len > size - off - 12) {
            /* Said here, not left to libpng: it allocates a side chunk's
             * declared length (gigabytes) before it finds the file short. */
            char t[5];
            for (int i = 0; i < 4; i++)
                t[i] = type[i] >= 0x20 && type[i] < 0x7f ? (char)type[i] : '?';
            t[4] = 0;
            return diff_fail(err, "%s: truncated: the %s chunk at byte %zu is %u bytes long, and the file is %zu bytes",
                             name, t, off, (unsigned)len, size);
        }
        const uint8_t *c = type + 4 + len;
        uint32_t stored = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
        int critical = type[0] >= 'A' && type[0] <= 'Z';
        if (critical && libdeflate_crc32(0, type, len + 4) != stored) {
            char t[5];
            for (int i = 0; i < 4; i++)
                t[i] = type[i] >= 0x20 && type[i] < 0x7f ? (char)type[i] : '?';
            t[4] = 0;
            return diff_fail(err, "%s: corrupt PNG: CRC error in the %s chunk at byte %zu (%u bytes long): its data is damaged",
                             name, t, off, (unsigned)len);
        }
        if (memcmp(type, "IEND", 4) == 0)
            break;
        off += 12 + (size_t)len;
    }
    return 0;
}

int diff_png_decode_libpng(const uint8_t *data, size_t size, const char *name,
                           gt_diff_image *img, char *err)
{
    memset(img, 0, sizeof *img);
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        return diff_fail(err, "%s: not a PNG file (bad signature at byte 0)", name);
    if (check_crcs(data, size, name, err) != 0)
        return -1;

    png_src s = {.data = data, .size = size, .off = 0, .name = name, .err = err};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (!png)
        return diff_fail(err, "%s: out of memory", name);
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return diff_fail(err, "%s: out of memory", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(s.rows);
        gt_diff_image_free(img);
        if (!s.err_set)
            diff_fail(err, "%s: cannot decode", name);
        return -1;
    }
    png_set_read_fn(png, &s, src_read);
    png_read_info(png, info);

    png_uint_32 w, h;
    int depth, ctype, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
    if (!plausible_size(w, h, depth, png_get_channels(png, info), size)) {
        diff_fail(err, "%s: header says %ux%u but the file (%zu bytes) cannot hold that much image data",
                  name, (unsigned)w, (unsigned)h, size);
        s.err_set = 1;
        png_longjmp(png, 1);
    }
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (ctype == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (ctype == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns)
        png_set_tRNS_to_alpha(png);
    if (depth == 16)
        png_set_scale_16(png); /* rounds, where strip_16 would truncate */
    if (ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(ctype & PNG_COLOR_MASK_ALPHA) && !has_trns)
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        diff_fail(err, "%s: unexpected row size after conversion to RGBA", name);
        s.err_set = 1;
        png_longjmp(png, 1);
    }
    if (diff_image_alloc_uninit(img, w, h) != 0) {
        diff_fail(err, "%s: out of memory for %ux%u pixels", name, (unsigned)w, (unsigned)h);
        s.err_set = 1;
        png_longjmp(png, 1);
    }
    s.rows = malloc((h ? h : 1) * sizeof *s.rows);
    if (!s.rows) {
        diff_fail(err, "%s: out of memory", name);
        s.err_set = 1;
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < h; y++)
        s.rows[y] = img->rgba + (size_t)y * w * 4;
    png_read_image(png, s.rows);
    /* Reading to IEND checks the CRCs of what follows the pixels and
     * catches files cut after the image data. */
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(s.rows);
    return 0;
}

/* GT_DIFF_NO_FAST_PNG=1 in the environment sends every file to libpng:
 * what bench/diff/run.sh uses to measure the fast decoder end to end. */
int diff_png_fast_allowed(void)
{
    const char *e = getenv("GT_DIFF_NO_FAST_PNG");
    return diff_png_fast_enabled && !(e && *e && strcmp(e, "0") != 0);
}

int gt_diff_png_read_mem(const void *data, size_t size, const char *name,
                         gt_diff_image *img, char *err)
{
    if (diff_png_fast_allowed() && diff_png_decode_fast(data, size, img) == 1)
        return 0;
    return diff_png_decode_libpng(data, size, name, img, err);
}

int gt_diff_png_read(const char *path, gt_diff_image *img, char *err)
{
    diff_file f;
    memset(img, 0, sizeof *img);
    if (diff_file_open(path, &f, err) != 0)
        return -1;
    int rc = gt_diff_png_read_mem(f.data, f.size, path, img, err);
    diff_file_release(&f);
    return rc;
}
