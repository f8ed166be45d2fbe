/* diff_inflate.c: the inflate step of the fast PNG decoder. Two libraries,
 * because neither is the faster on every image (bench/diff/README.md):
 * on noisy 8-bit images, which deflate to about half their size in short
 * matches, ISA-L's igzip inflates 1.4-1.5 times faster than libdeflate;
 * on rendered frames (long matches, 5:1 and better) and on nearly
 * incompressible data libdeflate is the faster, up to three times. The
 * compression ratio is known before inflating, so it picks the library.
 *
 * igzip also inflates in steps: it reads the IDAT chunks where they lie
 * (no gathering copy) and hands out a slice of rows at a time, which the
 * caller unfilters while they are still in cache. libdeflate inflates in
 * one call from one buffer. Where the rows are converted into another
 * buffer anyway (every layout but 8-bit RGBA), igzip inflates through a
 * small sliding window: no frame-sized buffer of fresh pages to clear,
 * which on 16-bit 4K frames cost more than the inflate itself. */
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "diff_inflate.h"

/* Output per igzip step: a slice that stays in L2 for the unfiltering. */
#define STEP ((size_t)256 << 10)

/* Deflate's window, which igzip reads back from its output buffer. */
#define HISTORY ((size_t)32 << 10)

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The band of out/in ratios where igzip measured faster. */
static int igzip_suits(size_t zn, size_t n)
{
    return n < UINT32_MAX && 2 * n >= 3 * zn && n <= 4 * zn;
}

/* Points igzip at the next IDAT chunk's data. Returns 0, or -1 when
 * there is none. */
static int next_chunk(struct inflate_state *s, const uint8_t **chunk, size_t *left)
{
    if (*left == 0)
        return -1;
    s->next_in = (uint8_t *)*chunk + 8;
    s->avail_in = be32(*chunk);
    *chunk += 12 + (size_t)s->avail_in;
    --*left;
    return 0;
}

static int inflate_igzip(const diff_idat *z, uint8_t *out, size_t n, diff_inflate_progress progress,
                         void *ctx)
{
    struct inflate_state *s = malloc(sizeof *s); /* 87 KB: not for a thread's stack */
    if (!s)
        return -1;
    isal_inflate_init(s);
    s->crc_flag = ISAL_ZLIB; /* parses the header, checks the Adler-32 */
    const uint8_t *chunk = z->first;
    size_t left = z->count;
    s->next_out = out;
    s->avail_out = 0;
    int rc = ISAL_DECOMP_OK;
    while (s->block_state != ISAL_BLOCK_FINISH) {
        if (s->avail_in == 0) {
            if (next_chunk(s, &chunk, &left) != 0)
                break; /* stream cut short */
            continue;
        }
        size_t done = (size_t)(s->next_out - out);
        if (s->avail_out == 0 && done < n) {
            if (done && progress(ctx, done) != 0)
                break;
            s->avail_out = (uint32_t)(n - done < STEP ? n - done : STEP);
        }
        uint32_t in_before = s->avail_in, out_before = s->avail_out;
        rc = isal_inflate(s);
        if (rc != ISAL_DECOMP_OK)
            break;
        if (s->avail_in == in_before && s->avail_out == out_before && s->block_state != ISAL_BLOCK_FINISH)
            break; /* image full and the stream goes on */
    }
    int ok = rc == ISAL_DECOMP_OK && s->block_state == ISAL_BLOCK_FINISH && s->total_out == n;
    free(s);
    return ok ? progress(ctx, n) : -1;
}

static int inflate_libdeflate(const diff_idat *z, uint8_t *out, size_t n, diff_inflate_progress progress,
                              void *ctx)
{
    const uint8_t *in = z->first + 8;
    uint8_t *owned = NULL;
    if (z->count > 1) { /* libdeflate wants the stream in one piece */
        owned = malloc(z->total ? z->total : 1);
        if (!owned)
            return -1;
        const uint8_t *c = z->first;
        for (size_t pos = 0, i = 0; i < z->count; i++) {
            uint32_t len = be32(c);
            memcpy(owned + pos, c + 8, len);
            pos += len;
            c += 12 + (size_t)len;
        }
        in = owned;
    }
    struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
    size_t got = 0;
    int ok = dec && libdeflate_zlib_decompress(dec, in, z->total, out, n, &got) == LIBDEFLATE_SUCCESS &&
             got == n;
    libdeflate_free_decompressor(dec);
    free(owned);
    return ok ? progress(ctx, n) : -1;
}

int diff_inflate(const diff_idat *z, uint8_t *out, size_t n, diff_inflate_progress progress, void *ctx)
{
    if (igzip_suits(z->total, n))
        return inflate_igzip(z, out, n, progress, ctx);
    return inflate_libdeflate(z, out, n, progress, ctx);
}

/* The window of diff_inflate_rows: output goes on at next_out; when less
 * than a step of room is left, the bytes still needed (the unconsumed
 * part row and deflate's history) move to the front. */
int diff_inflate_rows(const diff_idat *z, size_t stride, uint32_t h, diff_inflate_row_fn fn, void *ctx)
{
    size_t total = stride * h;
    if (total >= UINT32_MAX || total / h != stride)
        return -1; /* igzip counts output in 32 bits */
    size_t cap = stride + HISTORY + 2 * STEP;
    uint8_t *win = calloc(cap + 8, 1); /* + 8: rows are readable past their end */
    struct inflate_state *s = malloc(sizeof *s);
    int ok = 0;
    if (!win || !s)
        goto out;
    isal_inflate_init(s);
    s->crc_flag = ISAL_ZLIB;
    const uint8_t *chunk = z->first;
    size_t left = z->count;
    uint8_t *row = win; /* the next row to hand out */
    uint32_t y = 0;
    s->next_out = win;
    s->avail_out = 0;
    while (s->block_state != ISAL_BLOCK_FINISH) {
        if (s->avail_in == 0) {
            if (next_chunk(s, &chunk, &left) != 0)
                goto out; /* stream cut short */
            continue;
        }
        if (s->avail_out == 0) {
            size_t room = (size_t)(win + cap - s->next_out);
            if (room < STEP) {
                size_t back = (size_t)(s->next_out - win) < HISTORY ? (size_t)(s->next_out - win) : HISTORY;
                uint8_t *keep = row < s->next_out - back ? row : s->next_out - back;
                size_t n = (size_t)(s->next_out - keep);
                memmove(win, keep, n);
                row -= keep - win;
                s->next_out = win + n;
                room = cap - n;
            }
            s->avail_out = (uint32_t)(room < STEP ? room : STEP);
        }
        uint32_t in_before = s->avail_in, out_before = s->avail_out;
        if (isal_inflate(s) != ISAL_DECOMP_OK)
            goto out;
        for (; y < h && (size_t)(s->next_out - row) >= stride; y++, row += stride)
            if (fn(ctx, row, y) != 0)
                goto out;
        if (y == h && s->next_out > row)
            goto out; /* more stream than image */
        if (s->avail_in == in_before && s->avail_out == out_before && s->block_state != ISAL_BLOCK_FINISH)
            goto out; /* no progress */
    }
    ok = y == h && s->total_out == total;
out:
    free(s);
    free(win);
    return ok ? 0 : -1;
}
