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

/* A feeder over an in-memory diff_idat: the chunks where they lie. */
typedef struct idat_feed {
    const uint8_t *chunk;
    size_t left;
} idat_feed;

static int feed_idat(void *ctx, const uint8_t **data, uint32_t *n)
{
    idat_feed *f = ctx;
    if (f->left == 0)
        return -1;
    *n = be32(f->chunk);
    *data = f->chunk + 8;
    f->chunk += 12 + (size_t)*n;
    f->left--;
    return 0;
}

struct diff_rowpull {
    struct inflate_state s; /* 87 KB: the reason this lives on the heap */
    diff_inflate_feed feed;
    void *feed_ctx;
    uint8_t *win, *row;  /* row: the next row to hand out */
    size_t cap, stride;
    uint32_t h, y;
};

diff_rowpull *diff_rowpull_open(size_t stride, uint32_t h, diff_inflate_feed feed, void *ctx)
{
    size_t total = stride * h;
    if (h == 0 || total >= UINT32_MAX || total / h != stride)
        return NULL; /* igzip counts output in 32 bits */
    diff_rowpull *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    r->cap = stride + HISTORY + 2 * STEP;
    r->win = calloc(r->cap + 8, 1); /* + 8: rows are readable past their end */
    if (!r->win) {
        free(r);
        return NULL;
    }
    isal_inflate_init(&r->s);
    r->s.crc_flag = ISAL_ZLIB; /* parses the header, checks the Adler-32 */
    r->s.next_out = r->win;
    r->s.avail_out = 0;
    r->feed = feed;
    r->feed_ctx = ctx;
    r->row = r->win;
    r->stride = stride;
    r->h = h;
    r->y = 0;
    return r;
}

void diff_rowpull_close(diff_rowpull *r)
{
    if (r) {
        free(r->win);
        free(r);
    }
}

/* Room for the next step: when less than a step is left, the bytes still
 * needed (the unconsumed part row and deflate's history) move to the
 * front. */
static void make_room(diff_rowpull *r)
{
    struct inflate_state *s = &r->s;
    size_t room = (size_t)(r->win + r->cap - s->next_out);
    if (room < STEP) {
        size_t used = (size_t)(s->next_out - r->win);
        size_t back = used < HISTORY ? used : HISTORY;
        uint8_t *keep = r->row < s->next_out - back ? r->row : s->next_out - back;
        size_t n = (size_t)(s->next_out - keep);
        memmove(r->win, keep, n);
        r->row -= keep - r->win;
        s->next_out = r->win + n;
        room = r->cap - n;
    }
    s->avail_out = (uint32_t)(room < STEP ? room : STEP);
}

const uint8_t *diff_rowpull_next(diff_rowpull *r)
{
    struct inflate_state *s = &r->s;
    if (r->y >= r->h)
        return NULL;
    while ((size_t)(s->next_out - r->row) < r->stride) {
        if (s->block_state == ISAL_BLOCK_FINISH)
            return NULL; /* stream ended before the image */
        if (s->avail_in == 0) {
            const uint8_t *d;
            uint32_t n;
            if (r->feed(r->feed_ctx, &d, &n) != 0)
                return NULL; /* stream cut short */
            s->next_in = (uint8_t *)d;
            s->avail_in = n;
            continue;
        }
        if (s->avail_out == 0)
            make_room(r);
        uint32_t in_before = s->avail_in, out_before = s->avail_out;
        if (isal_inflate(s) != ISAL_DECOMP_OK)
            return NULL;
        if (s->avail_in == in_before && s->avail_out == out_before && s->block_state != ISAL_BLOCK_FINISH)
            return NULL; /* no progress */
    }
    const uint8_t *row = r->row;
    r->row += r->stride;
    r->y++;
    return row;
}

int diff_rowpull_has_next(const diff_rowpull *r)
{
    return r->y < r->h && (size_t)(r->s.next_out - r->row) >= r->stride;
}

int diff_rowpull_finish(diff_rowpull *r)
{
    struct inflate_state *s = &r->s;
    if (r->y != r->h || s->next_out != r->row)
        return -1; /* rows missing, or more stream than image */
    /* The stream's end (and its Adler-32) may still lie in the input. */
    while (s->block_state != ISAL_BLOCK_FINISH) {
        if (s->avail_in == 0) {
            const uint8_t *d;
            uint32_t n;
            if (r->feed(r->feed_ctx, &d, &n) != 0)
                return -1;
            s->next_in = (uint8_t *)d;
            s->avail_in = n;
            continue;
        }
        if (s->avail_out == 0)
            make_room(r);
        uint32_t in_before = s->avail_in, out_before = s->avail_out;
        if (isal_inflate(s) != ISAL_DECOMP_OK || s->next_out != r->row)
            return -1;
        if (s->avail_in == in_before && s->avail_out == out_before && s->block_state != ISAL_BLOCK_FINISH)
            return -1;
    }
    return s->total_out == r->stride * r->h ? 0 : -1;
}

int diff_inflate_rows(const diff_idat *z, size_t stride, uint32_t h, diff_inflate_row_fn fn, void *ctx)
{
    idat_feed f = {z->first, z->count};
    diff_rowpull *r = diff_rowpull_open(stride, h, feed_idat, &f);
    if (!r)
        return -1;
    int rc = 0;
    for (uint32_t y = 0; rc == 0 && y < h; y++) {
        const uint8_t *row = diff_rowpull_next(r);
        rc = row ? fn(ctx, row, y) : -1;
    }
    if (rc == 0)
        rc = diff_rowpull_finish(r);
    diff_rowpull_close(r);
    return rc;
}
