/* diff_png_fast.c: a decoder for the PNGs renderers, screenshot tools and
 * ImageMagick write (8 or 16-bit RGB or RGBA, not interlaced), with
 * libdeflate or igzip for the inflate (diff_inflate.c) and our own
 * unfiltering. Measured faster than libpng on this project's frames and
 * on noisy images (see bench/diff/README.md); anything it does not
 * recognise, or any fault, sends the file back to libpng, which stays the
 * one judge of what is corrupt and the one source of error messages. */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "diff_inflate.h"
#include "diff_internal.h"
#include "diff_unfilter.h"

int diff_png_fast_enabled = 1;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunks, checks every CRC, and finds the IDAT data. Returns 0,
 * or -1 for anything that is not a plain, intact PNG. */
static int scan_chunks(const uint8_t *d, size_t size, uint32_t *w, uint32_t *h,
                       int *channels, int *depth, diff_idat *out)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 8 + 25 || memcmp(d, sig, 8) != 0)
        return -1;
    size_t off = 8, idat_total = 0, idat_chunks = 0, first_idat = 0;
    int seen_ihdr = 0, seen_iend = 0, idat_done = 0;
    while (!seen_iend) {
        if (size - off < 12)
            return -1;
        uint32_t len = be32(d + off);
        const uint8_t *type = d + off + 4;
        if (len > size - off - 12)
            return -1;
        if (libdeflate_crc32(0, type, len + 4) != be32(d + off + 8 + len))
            return -1;
        const uint8_t *body = d + off + 8;
        if (!seen_ihdr) {
            if (memcmp(type, "IHDR", 4) != 0 || len != 13)
                return -1;
            *w = be32(body);
            *h = be32(body + 4);
            int ctype = body[9];
            *depth = body[8];
            if ((*depth != 8 && *depth != 16) || (ctype != 2 && ctype != 6) || body[10] || body[11] || body[12])
                return -1;
            if (*w == 0 || *h == 0 || *w > 1000000 || *h > 1000000)
                return -1;
            *channels = ctype == 6 ? 4 : 3;
            seen_ihdr = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (idat_done)
                return -1; /* IDATs must be consecutive */
            if (idat_chunks++ == 0)
                first_idat = off;
            idat_total += len;
        } else {
            if (idat_chunks)
                idat_done = 1;
            if (memcmp(type, "IEND", 4) == 0)
                seen_iend = 1;
            else if (memcmp(type, "tRNS", 4) == 0)
                return -1; /* colour-key transparency: libpng's job */
            else if (!(type[0] & 0x20) && memcmp(type, "PLTE", 4) != 0)
                return -1; /* unknown critical chunk */
        }
        off += 12 + (size_t)len;
    }
    if (!idat_chunks)
        return -1;
    out->first = d + first_idat;
    out->count = idat_chunks;
    out->total = idat_total;
    return 0;
}

/* The rows of one image, unfiltered as the inflate hands them out. */
typedef struct rows {
    uint8_t *raw;        /* 8-bit RGBA: the inflate's output, h rows of 1 + len bytes */
    gt_diff_image *img;  /* where converted rows go; NULL: in place */
    uint32_t w, h, y;    /* y: the next row to unfilter */
    int channels, depth;
    size_t len;          /* bytes of an unfiltered row */
    uint8_t *scratch;    /* a row (in place) or two (converting) */
} rows;

/* 8-bit RGBA: unfilters in place. Row y's filtered bytes start at
 * y*(len+1)+1 and its pixels go to y*len, a little to the left; every byte
 * is read before a write reaches it (see diff_unfilter.h), so the inflate
 * buffer becomes the image and no second frame-sized buffer is touched. */
static int unfilter_in_place(rows *r, uint32_t ready)
{
    /* Paeth and Average rows come in runs (encoders pick Paeth for most
     * rows of rendered frames, ImageMagick Average for noise); two at a
     * time run faster. The second row of a pair cannot be written in place
     * while the first is still being read, so it goes through a scratch
     * row. */
    size_t len = r->len;
    for (; r->y < ready; r->y++) {
        uint32_t y = r->y;
        const uint8_t *in = r->raw + (size_t)y * (len + 1);
        uint8_t *dst = r->raw + (size_t)y * len;
        const uint8_t *in1 = in + len + 1;
        if (y > 0 && y + 1 < ready && in[0] == in1[0] &&
            diff_unfilter_pair(in[0], in + 1, in1 + 1, dst - len, dst, r->scratch, len, 4) == 0) {
            memcpy(dst + len, r->scratch, len);
            r->y++;
            continue;
        }
        if (diff_unfilter_row(in[0], in + 1, y ? dst - len : NULL, dst, len, 4) != 0)
            return -1;
    }
    return 0;
}

/* 16 bits to 8 as libpng's png_set_scale_16 does: round(v * 255 / 65535)
 * (the test compares every value with libpng). */
static uint8_t scale16(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] << 8 | p[1];
    return (uint8_t)((v * 255 + 32895) >> 16);
}

/* One unfiltered row of `channels` samples of `depth` bits to RGBA8. */
static void row_to_rgba(const uint8_t *src, uint8_t *o, uint32_t w, int channels, int depth)
{
    if (depth == 8) { /* RGB */
        for (uint32_t x = 0; x < w; x++, src += 3, o += 4) {
            o[0] = src[0];
            o[1] = src[1];
            o[2] = src[2];
            o[3] = 0xff;
        }
    } else if (channels == 3) {
        for (uint32_t x = 0; x < w; x++, src += 6, o += 4) {
            o[0] = scale16(src);
            o[1] = scale16(src + 2);
            o[2] = scale16(src + 4);
            o[3] = 0xff;
        }
    } else {
        for (uint32_t x = 0; x < w; x++, src += 8, o += 4) {
            o[0] = scale16(src);
            o[1] = scale16(src + 2);
            o[2] = scale16(src + 4);
            o[3] = scale16(src + 6);
        }
    }
}

/* Every layout but 8-bit RGBA, one row as the inflate hands it out:
 * unfiltered into one of two scratch rows (filters refer to the previous
 * row as stored), then converted into img. */
static int convert_row(void *ctx, const uint8_t *in, uint32_t y)
{
    rows *r = ctx;
    size_t len = r->len;
    uint8_t *dst = r->scratch + (y & 1) * len;
    uint8_t *o = r->img->rgba + (size_t)y * r->w * 4;
    /* 8-bit RGB goes straight to RGBA where the build allows; its first
     * row's "above" is the zeroed scratch. */
    if (r->depth == 8 && in[0] <= 4 &&
        diff_unfilter_rgb_to_rgba(in[0], in + 1, y ? o - (size_t)r->w * 4 : r->scratch, o, r->w) == 0)
        return 0;
    const uint8_t *prev = y ? r->scratch + ((y - 1) & 1) * len : NULL;
    if (diff_unfilter_row(in[0], in + 1, prev, dst, len, r->channels * r->depth / 8) != 0)
        return -1;
    row_to_rgba(dst, o, r->w, r->channels, r->depth);
    return 0;
}

/* diff_inflate's progress for 8-bit RGBA: unfilters the rows that are out
 * and that the inflate no longer reads (rows move left over its output). */
static int on_rows(void *ctx, size_t done)
{
    rows *r = ctx;
    size_t stride = r->len + 1, total = stride * r->h;
    size_t safe = done == total ? done : done > DIFF_INFLATE_LAG ? done - DIFF_INFLATE_LAG : 0;
    return unfilter_in_place(r, (uint32_t)(safe / stride));
}

int diff_png_decode_fast(const uint8_t *data, size_t size, gt_diff_image *img)
{
    rows r = {.channels = 4, .depth = 8};
    diff_idat z = {0};
    memset(img, 0, sizeof *img);
    if (scan_chunks(data, size, &r.w, &r.h, &r.channels, &r.depth, &z) != 0)
        return 0;
    int bpp = r.channels * r.depth / 8;
    r.len = (size_t)r.w * bpp;
    size_t raw_size = (size_t)r.h * (r.len + 1);
    /* Deflate expands at most 1032 times: refuse to allocate for a header
     * the data cannot back (libpng then says what is wrong). */
    if (raw_size > 1100 * (z.total + 64))
        return 0;
    r.scratch = calloc(2, r.len); /* zeroed: an RGB first row's "above" */
    int ok = 0;
    if (!r.scratch)
        return 0;
    if (bpp == 4) { /* 8-bit RGBA: the inflate's buffer becomes the image */
        r.raw = diff_big_alloc(raw_size);
        ok = r.raw && diff_inflate(&z, r.raw, raw_size, on_rows, &r) == 0;
        if (ok) {
            img->width = r.w;
            img->height = r.h;
            img->rgba = r.raw; /* h bytes longer than needed; free() does not mind */
            r.raw = NULL;
        }
        diff_big_free(r.raw);
    } else if (diff_image_alloc_uninit(img, r.w, r.h) == 0) {
        r.img = img;
        ok = diff_inflate_rows(&z, r.len + 1, r.h, convert_row, &r) == 0;
        if (!ok)
            gt_diff_image_free(img);
    }
    free(r.scratch);
    return ok;
}
