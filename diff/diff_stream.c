/* diff_stream.c: the exact comparison of two PNG files while they are
 * read, row by row, without either image in memory.
 *
 * Why: on noisy images decoding is the whole cost, and of what is not the
 * inflate itself, most was first touching fresh memory (the files read
 * whole, the decoded frames: 130 MB for a 4K 16-bit pair, whose page
 * clearing took a third of the time on the shared VMs this runs on; see
 * bench/diff/README.md). Here each file goes through a 256 KB read buffer
 * and a window of a few hundred KB, and rows are compared as they come.
 *
 * And why it compares at full depth: `--mode exact` means what ImageMagick's
 * `compare -metric AE` means, any change in any sample. A 16-bit file's
 * samples are compared as 16 bits (an 8-bit file's as v * 257, as
 * ImageMagick reads them), so a change in the low byte, which rounding to
 * 8 bits would hide, counts. The metrics (largest channel difference,
 * RMSE) stay in 8-bit units, as gt_diff.h documents.
 *
 * Two threads: one side's rows are decoded ahead into a ring, the other
 * side's rows are decoded on the calling thread and compared against the
 * ring as they come. With one thread the two files are read in turn, a
 * row of each. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diff_inflate.h"
#include "diff_internal.h"
#include "diff_png_source.h"
#include "diff_unfilter.h"

/* Rows decoded ahead; the producer sleeps when the ring is full until
 * half of it is free, so the two threads meet once per half ring, not
 * once per row. */
#define RING 64

typedef struct side {
    const char *path;
    diff_png_source src;
    diff_rowpull *rows;
    size_t len;       /* bytes of an unfiltered row in the file's own layout */
    int bpp;          /* bytes per pixel in the file */
    uint8_t *scratch; /* two unfiltered rows in the file's layout */
    uint8_t *zero;    /* an all-zero row: an RGB first row's "above" */
    uint8_t *ring;    /* decoded rows in the common layout */
    uint32_t slots;   /* rows of the ring: two ahead of the oldest in use, and one behind */
    uint32_t made;    /* rows decoded so far */
} side;

typedef struct stream {
    side s[2]; /* expected, actual */
    const gt_diff_options *o;
    uint32_t w, h;
    int ahead;     /* the side decoded ahead on a thread of its own */
    int depth;     /* of the common layout: RGBA of 8 or 16-bit samples */
    size_t stride; /* bytes of a row in the common layout */
    /* between the threads */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t ready, consumed; /* rows the ahead side has made, the other has compared */
    uint32_t wake_ahead, wake_main; /* a sleeper's wake-up point (0: none) */
    int ahead_failed, main_failed, ahead_done;
    /* totals */
    span *spans;
    uint8_t *mask;
    gt_diff_image *e8;
    uint64_t compared, diff, differing, sumsq;
    unsigned maxc;
    uint32_t bx0, by0, bx1, by1;
} stream;

static uint8_t scale16(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] << 8 | p[1];
    return (uint8_t)((v * 255 + 32895) >> 16); /* as libpng's png_set_scale_16 */
}

/* One unfiltered row of the file's layout (grey, grey and alpha, RGB or
 * RGBA) to the common one: RGBA with `depth`-bit samples, big-endian as
 * in PNG; 8-bit samples widen to 16 as v * 257 (both bytes v), missing
 * alpha is opaque. */
static void widen(const uint8_t *u, uint8_t *o, uint32_t w, int channels, int from, int depth)
{
    /* Whole pixels moved as one load and one store (the scratch rows are
     * readable 8 bytes past their end); a memcpy of 6 bytes and a memset
     * of 2 per pixel were calls, and a tenth of the time. */
    if (from == 16 && channels == 3) { /* RGB16 to RGBA16 */
        for (uint32_t x = 0; x < w; x++, u += 6, o += 8) {
            memcpy(o, u, 8);
            o[6] = o[7] = 0xff;
        }
    } else if (depth == 8 && channels == 3) { /* RGB8 to RGBA8, where SSE2 is missing */
        for (uint32_t x = 0; x < w; x++, u += 3, o += 4) {
            memcpy(o, u, 4);
            o[3] = 0xff;
        }
    } else { /* grey, or 8-bit samples beside a 16-bit file */
        int in = from / 8, out = depth / 8;
        for (uint32_t x = 0; x < w; x++, u += channels * in, o += 4 * out)
            for (int c = 0; c < 4; c++) {
                int k = channels >= 3 ? c : c < 3 ? 0 : 1; /* grey feeds R, G and B */
                uint8_t *d = o + c * out;
                if (k >= channels) /* no alpha: opaque */
                    memset(d, 0xff, (size_t)out);
                else if (in == out)
                    memcpy(d, u + k * in, (size_t)in);
                else /* 8-bit v as v * 257 */
                    d[0] = d[1] = u[k];
            }
    }
}

/* Decodes the side's next row (and the one after it, when both use
 * Average or Paeth and are out: two at a time run faster) into its
 * slots. Returns 0, or -1 for a bad stream or filter. */
static int produce(const stream *st, side *sd)
{
    uint32_t y = sd->made;
    const uint8_t *in = diff_rowpull_next(sd->rows);
    if (!in)
        return -1;
    uint8_t *dst = sd->ring + (size_t)(y % sd->slots) * st->stride;
    const uint8_t *prev = y ? sd->ring + (size_t)((y - 1) % sd->slots) * st->stride : NULL;
    int channels = sd->src.channels, depth = sd->src.depth;
    sd->made++;
    if (channels == 4 && depth == st->depth) {
        if (prev && sd->bpp == 4 && (in[0] == 3 || in[0] == 4) && y + 1 < st->h &&
            diff_rowpull_has_next(sd->rows)) {
            const uint8_t *in1 = diff_rowpull_next(sd->rows);
            uint8_t *dst1 = sd->ring + (size_t)((y + 1) % sd->slots) * st->stride;
            sd->made++;
            if (in1[0] == in[0] &&
                diff_unfilter_pair(in[0], in + 1, in1 + 1, prev, dst, dst1, sd->len, 4) == 0)
                return 0;
            if (diff_unfilter_row(in[0], in + 1, prev, dst, sd->len, 4) != 0)
                return -1;
            return diff_unfilter_row(in1[0], in1 + 1, dst, dst1, sd->len, 4);
        }
        return diff_unfilter_row(in[0], in + 1, prev, dst, sd->len, sd->bpp);
    }
    if (channels == 3 && depth == 8 && st->depth == 8 && in[0] <= 4 &&
        diff_unfilter_rgb_to_rgba(in[0], in + 1, prev ? prev : sd->zero, dst, st->w) == 0)
        return 0;
    uint8_t *u = sd->scratch + (y & 1) * sd->len;
    const uint8_t *up = y ? sd->scratch + ((y - 1) & 1) * sd->len : NULL;
    if (diff_unfilter_row(in[0], in + 1, up, u, sd->len, sd->bpp) != 0)
        return -1;
    widen(u, dst, st->w, channels, depth, st->depth);
    return 0;
}

static const uint8_t *slot(const stream *st, const side *sd, uint32_t y)
{
    return sd->ring + (size_t)(y % sd->slots) * st->stride;
}

/* One differing pixel: its channels in 8-bit units for the metrics.
 * Returns whether any compared channel differs at full depth. */
static int pixel(stream *st, const uint8_t *pe, const uint8_t *pa, int nch)
{
    unsigned maxc = 0, sq = 0;
    int any = 0;
    for (int c = 0; c < nch; c++) {
        int e, a;
        if (st->depth == 16) {
            any |= pe[2 * c] != pa[2 * c] || pe[2 * c + 1] != pa[2 * c + 1];
            e = scale16(pe + 2 * c);
            a = scale16(pa + 2 * c);
        } else {
            e = pe[c];
            a = pa[c];
            any |= e != a;
        }
        unsigned d = (unsigned)abs(e - a);
        sq += d * d;
        if (d > maxc)
            maxc = d;
    }
    if (any) {
        st->sumsq += sq;
        if (maxc > st->maxc)
            st->maxc = maxc;
    }
    return any;
}

/* Whole-pixel equality as one load each: a memcmp call per pixel was a
 * sixth of the time on rendered frames, whose edges differ. */
static int same_px(const uint8_t *p, const uint8_t *q, size_t px)
{
    if (px == 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, q, 4);
        return a == b;
    }
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, q, 8);
    return a == b;
}

static void compare_row(stream *st, uint32_t y, const uint8_t *re, const uint8_t *ra)
{
    size_t px = st->depth / 2; /* bytes per pixel: 4 or 8 */
    int nch = st->o->ignore_alpha ? 3 : 4;
    uint8_t *m = st->mask ? st->mask + (size_t)y * st->w : NULL;
    size_t n = diff_row_spans(st->o, y, st->w, st->spans);
    if (m && (n != 1 || st->spans[0].x0 != 0 || st->spans[0].x1 != st->w))
        memset(m, GT_DIFF_PX_IGNORED, st->w);
    for (size_t i = 0; i < n; i++) {
        uint32_t x0 = st->spans[i].x0, x1 = st->spans[i].x1;
        st->compared += x1 - x0;
        if (m)
            memset(m + x0, GT_DIFF_PX_SAME, x1 - x0);
        if (memcmp(re + x0 * px, ra + x0 * px, (x1 - x0) * px) == 0)
            continue;
        for (uint32_t x = x0; x < x1; x++) {
            const uint8_t *pe = re + x * px, *pa = ra + x * px;
            if (same_px(pe, pa, px) || !pixel(st, pe, pa, nch))
                continue;
            st->differing++;
            if (st->diff++ == 0) {
                st->bx0 = st->bx1 = x;
                st->by0 = y;
            } else {
                st->bx0 = x < st->bx0 ? x : st->bx0;
                st->bx1 = x > st->bx1 ? x : st->bx1;
            }
            st->by1 = y;
            if (m)
                m[x] = GT_DIFF_PX_DIFF;
        }
    }
    if (st->e8) {
        uint8_t *o = st->e8->rgba + (size_t)y * st->w * 4;
        if (st->depth == 8)
            memcpy(o, re, (size_t)st->w * 4);
        else
            for (size_t k = 0; k < (size_t)st->w * 4; k++)
                o[k] = scale16(re + 2 * k);
    }
}

static int open_side(stream *st, side *sd, uint32_t slots)
{
    diff_png_source *s = &sd->src;
    sd->bpp = s->channels * s->depth / 8;
    sd->len = (size_t)s->width * sd->bpp;
    sd->slots = slots;
    sd->rows = diff_rowpull_open(sd->len + 1, s->height, diff_png_source_feed, s);
    sd->scratch = calloc(2 * sd->len + 8, 1);
    sd->zero = calloc(1, st->stride);
    sd->ring = malloc((size_t)slots * st->stride + 16);
    return sd->rows && sd->scratch && sd->zero && sd->ring ? 0 : -1;
}

static void close_side(side *sd)
{
    diff_rowpull_close(sd->rows);
    free(sd->scratch);
    free(sd->zero);
    free(sd->ring);
    diff_png_source_close(&sd->src);
}

static int finish_side(side *sd)
{
    return diff_rowpull_finish(sd->rows) == 0 && diff_png_source_finish(&sd->src) == 0 ? 0 : -1;
}

/* The side decoded ahead, on its own thread. */
static void *run_ahead(void *arg)
{
    stream *st = arg;
    side *sd = &st->s[st->ahead];
    int ok = 1;
    while (sd->made < st->h) {
        uint32_t y = sd->made;
        pthread_mutex_lock(&st->mu);
        /* Rows y and y + 1 may be written; the slots of rows from
         * `consumed` on are still to be compared. */
        while (y + 2 > st->consumed + RING && !st->main_failed) {
            st->wake_ahead = y + 2 - RING / 2;
            pthread_cond_wait(&st->cv, &st->mu);
        }
        int stop = st->main_failed;
        pthread_mutex_unlock(&st->mu);
        if (stop || produce(st, sd) != 0) {
            ok = 0;
            break;
        }
        pthread_mutex_lock(&st->mu);
        st->ready = sd->made;
        if (st->wake_main && st->ready >= st->wake_main) {
            st->wake_main = 0;
            pthread_cond_broadcast(&st->cv);
        }
        pthread_mutex_unlock(&st->mu);
    }
    if (ok)
        ok = finish_side(sd) == 0;
    pthread_mutex_lock(&st->mu);
    st->ahead_failed = !ok;
    st->ahead_done = 1;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
    return NULL;
}

/* The other side on this thread, each row compared as it comes. */
static int run_main(stream *st)
{
    int ahead = st->ahead;
    side *mine = &st->s[!ahead], *other = &st->s[ahead];
    for (uint32_t y = 0; y < st->h; y++) {
        if (mine->made <= y && produce(st, mine) != 0)
            return -1;
        const uint8_t *row = slot(st, mine, y);
        pthread_mutex_lock(&st->mu);
        while (st->ready <= y && !st->ahead_failed && !st->ahead_done) {
            uint32_t want = y + RING / 2;
            st->wake_main = want < st->h ? want : st->h;
            pthread_cond_wait(&st->cv, &st->mu);
        }
        int bad = st->ready <= y;
        pthread_mutex_unlock(&st->mu);
        if (bad)
            return -1;
        const uint8_t *orow = slot(st, other, y);
        compare_row(st, y, ahead ? row : orow, ahead ? orow : row);
        pthread_mutex_lock(&st->mu);
        st->consumed = y + 1;
        if (st->wake_ahead && st->consumed >= st->wake_ahead) {
            st->wake_ahead = 0;
            pthread_cond_broadcast(&st->cv);
        }
        pthread_mutex_unlock(&st->mu);
    }
    return finish_side(mine);
}

static int run_alone(stream *st)
{
    for (uint32_t y = 0; y < st->h; y++) {
        for (int i = 0; i < 2; i++)
            if (st->s[i].made <= y && produce(st, &st->s[i]) != 0)
                return -1;
        compare_row(st, y, slot(st, &st->s[0], y), slot(st, &st->s[1], y));
    }
    return finish_side(&st->s[0]) == 0 && finish_side(&st->s[1]) == 0 ? 0 : -1;
}

static int run(stream *st, unsigned threads)
{
    if (threads < 2)
        return run_alone(st);
    pthread_t tid;
    if (pthread_create(&tid, NULL, run_ahead, st) != 0)
        return -1;
    int rc = run_main(st);
    if (rc != 0) {
        pthread_mutex_lock(&st->mu);
        st->main_failed = 1;
        pthread_cond_broadcast(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    pthread_join(tid, NULL);
    return rc == 0 && !st->ahead_failed ? 0 : -1;
}

int diff_stream_exact(const char *expected, const char *actual, const gt_diff_options *o, unsigned threads,
                      uint32_t *w, uint32_t *h, gt_diff_result *r, uint8_t **mask, gt_diff_image *e8)
{
    if (o->mode != GT_DIFF_EXACT)
        return 0;
    stream *st = calloc(1, sizeof *st);
    if (!st)
        return 0;
    st->o = o;
    int done = 0, opened = 0;
    if (diff_png_source_open(&st->s[0].src, expected) != 0)
        goto out;
    opened = 1;
    if (diff_png_source_open(&st->s[1].src, actual) != 0)
        goto out;
    opened = 2;
    const diff_png_source *se = &st->s[0].src, *sa = &st->s[1].src;
    if (se->width != sa->width || se->height != sa->height)
        goto out;
    /* Small 8-bit pairs decode whole: that is exact too, and its
     * buffers are reused from pair to pair (diff_big_alloc's cache), while
     * the stream's would be fresh memory per pair: a directory of 300
     * 320x240 pairs took 0.35 s of CPU streamed against 0.24 s. */
    if (se->depth == 8 && sa->depth == 8 && (uint64_t)se->width * se->height < ((uint64_t)1 << 20))
        goto out;
    /* Deflate expands at most 1032 times: a header the file cannot back
     * gets no ring of its row size (the full decode then says why). */
    for (int i = 0; i < 2; i++) {
        const diff_png_source *sc = &st->s[i].src;
        uint64_t raw = (uint64_t)sc->height * ((uint64_t)sc->width * sc->channels * sc->depth / 8 + 1);
        if (raw > 1100 * (sc->file_size + 64))
            goto out;
    }
    st->w = se->width;
    st->h = se->height;
    st->depth = se->depth > sa->depth ? se->depth : sa->depth;
    st->stride = (size_t)st->w * st->depth / 2;
    /* The larger file on this thread: it decides the time, and this
     * thread also compares. The smaller one runs ahead into a ring. */
    st->ahead = se->file_size < sa->file_size ? 0 : 1;
    int ring = threads >= 2;
    if (open_side(st, &st->s[0], ring && st->ahead == 0 ? RING : 4) != 0 ||
        open_side(st, &st->s[1], ring && st->ahead == 1 ? RING : 4) != 0)
        goto out;
    int isolated = diff_ignores_isolated(o);
    st->spans = malloc((o->n_ignore + 1) * sizeof *st->spans);
    if (!st->spans)
        goto out;
    if (mask || isolated) {
        st->mask = diff_big_alloc((size_t)st->w * st->h);
        if (!st->mask)
            goto out;
    }
    if (mask && diff_image_alloc_uninit(e8, st->w, st->h) != 0)
        goto out;
    st->e8 = mask ? e8 : NULL;
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->cv, NULL);
    int rc = run(st, threads);
    pthread_cond_destroy(&st->cv);
    pthread_mutex_destroy(&st->mu);
    if (rc != 0)
        goto out;
    memset(r, 0, sizeof *r);
    r->compared_pixels = st->compared;
    r->diff_pixels = st->diff;
    r->max_channel_diff = st->maxc;
    if (st->diff)
        r->bbox = (gt_diff_rect){st->bx0, st->by0, st->bx1 - st->bx0 + 1, st->by1 - st->by0 + 1};
    if (isolated && st->diff)
        diff_drop_isolated(st->mask, st->w, r);
    diff_result_finish(r, o, st->sumsq, st->differing == 0);
    *w = st->w;
    *h = st->h;
    done = 1;
out:
    if (!done && st->e8)
        gt_diff_image_free(e8);
    if (done && mask) {
        *mask = st->mask;
        st->mask = NULL;
    }
    diff_big_free(st->mask);
    free(st->spans);
    for (int i = 0; i < opened; i++)
        close_side(&st->s[i]);
    free(st);
    return done;
}
