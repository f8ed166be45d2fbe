/* gt_snapshot.c: snapshot pixels coded against their slot's previous ones
 * (gt_snapshot.h). */
#include "gt_snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL /* no library at run time */
#include <xxhash.h>
#include <zstd.h>

uint64_t gt_snap_hash(const void *px, size_t n)
{
    return XXH3_64bits(px, n);
}

size_t gt_snap_bound(size_t n)
{
    return ZSTD_compressBound(n) + 1; /* the tag */
}

/* A delta's bytes: each byte of the pixels minus the same byte of the
 * previous ones (mod 256), gathered by its place in the texel (`bpp`
 * planes: all reds, then all greens...). Rendered frames change by small
 * amounts where they change at all, and planes put alike bytes together:
 * zstd then codes them in about half the bytes of an XOR. With `rgb` (RGBA8
 * texels), red and blue planes hold their difference minus green's: light
 * and shade change the three together, and what is left is smaller (a
 * sixth fewer bytes on a textured glmark2 scene, bench/snapshots). */
static void to_planes(uint8_t *dst, const uint8_t *px, const uint8_t *prev, size_t n, size_t bpp, int rgb)
{
    size_t texels = n / bpp;
    if (bpp == 4) {
        uint8_t *r = dst, *g = dst + texels, *b = dst + 2 * texels, *a = dst + 3 * texels;
        uint8_t m = rgb ? 0xff : 0; /* green's difference taken off red and blue, or not */
        for (size_t i = 0; i < texels; i++, px += 4, prev += 4) {
            uint8_t dg = (uint8_t)(px[1] - prev[1]);
            r[i] = (uint8_t)(px[0] - prev[0] - (dg & m)), g[i] = dg;
            b[i] = (uint8_t)(px[2] - prev[2] - (dg & m)), a[i] = (uint8_t)(px[3] - prev[3]);
        }
        return;
    }
    for (size_t i = 0; i < texels; i++)
        for (size_t k = 0; k < bpp; k++)
            dst[k * texels + i] = (uint8_t)(px[i * bpp + k] - prev[i * bpp + k]);
}

/* px += the planes of a delta (to_planes undone). */
static void from_planes(uint8_t *px, const uint8_t *src, size_t n, size_t bpp, int rgb)
{
    size_t texels = n / bpp;
    if (bpp == 4) {
        const uint8_t *r = src, *g = src + texels, *b = src + 2 * texels, *a = src + 3 * texels;
        uint8_t m = rgb ? 0xff : 0;
        for (size_t i = 0; i < texels; i++, px += 4) {
            px[0] = (uint8_t)(px[0] + r[i] + (g[i] & m)), px[1] = (uint8_t)(px[1] + g[i]);
            px[2] = (uint8_t)(px[2] + b[i] + (g[i] & m)), px[3] = (uint8_t)(px[3] + a[i]);
        }
        return;
    }
    for (size_t i = 0; i < texels; i++)
        for (size_t k = 0; k < bpp; k++)
            px[i * bpp + k] = (uint8_t)(px[i * bpp + k] + src[k * texels + i]);
}

long gt_snap_encode(void *zctx, int level, const uint8_t *px, const uint8_t *prev, uint8_t *scratch, size_t n,
                    size_t bpp, uint8_t *out, size_t cap)
{
    if (memcmp(px, prev, n) == 0)
        return 0;
    if (!bpp || n % bpp)
        bpp = 1;
    int rgb = bpp == 4 && cap > 0;
    if (rgb)
        *out++ = GT_SNAP_TAG_RGB, cap--;
    to_planes(scratch, px, prev, n, bpp, rgb);
    size_t r = ZSTD_compressCCtx(zctx, out, cap, scratch, n, level);
    return ZSTD_isError(r) ? -1 : (long)r + rgb;
}

/* ---------------------------------------------------------------- chains */

typedef struct pend {
    uint32_t coding;
    uint64_t hash;
    uint8_t *data;
    size_t len, size, bpp;
} pend;

typedef struct slot {
    uint64_t tid;
    uint32_t slot;
    uint8_t *px; /* pixels of the snapshot before the pending ones; NULL: none */
    size_t size;
    pend *p;     /* coded snapshots not decoded yet, in call order */
    size_t np, capp;
    int broken;  /* a delta came without what it refers to (a seek): until a keyframe */
    size_t last_size; /* bytes of pixels of the last snapshot added */
} slot;

struct gt_snap_chain {
    slot *s;
    size_t ns, caps;
    void *dctx;
    uint8_t *scratch;
    size_t scratch_size;
};

gt_snap_chain *gt_snap_chain_new(void)
{
    gt_snap_chain *c = calloc(1, sizeof *c);
    if (c && !(c->dctx = ZSTD_createDCtx())) {
        free(c);
        c = NULL;
    }
    return c;
}

static void drop_pending(slot *s)
{
    for (size_t i = 0; i < s->np; i++)
        free(s->p[i].data);
    s->np = 0;
}

void gt_snap_chain_free(gt_snap_chain *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ns; i++) {
        drop_pending(&c->s[i]);
        free(c->s[i].p);
        free(c->s[i].px);
    }
    free(c->s);
    free(c->scratch);
    ZSTD_freeDCtx(c->dctx);
    free(c);
}

static slot *find(gt_snap_chain *c, uint64_t tid, uint32_t n, int create)
{
    for (size_t i = 0; i < c->ns; i++)
        if (c->s[i].tid == tid && c->s[i].slot == n)
            return &c->s[i];
    if (!create)
        return NULL;
    if (c->ns == c->caps) {
        size_t cap = c->caps ? c->caps * 2 : 8;
        slot *v = realloc(c->s, cap * sizeof *v);
        if (!v)
            return NULL;
        c->s = v, c->caps = cap;
    }
    slot *s = &c->s[c->ns++];
    memset(s, 0, sizeof *s);
    s->tid = tid, s->slot = n;
    return s;
}

int gt_snap_chain_add(gt_snap_chain *c, uint64_t tid, const gt_snap_coded *in)
{
    slot *s = find(c, tid, in->slot, 1);
    if (!s)
        return -1;
    s->last_size = in->size;
    if (in->coding == GT_SNAP_KEY) {
        drop_pending(s);
        free(s->px);
        s->px = NULL, s->size = 0, s->broken = 0;
    } else if (s->broken || (!s->px && !s->np)) {
        s->broken = 1; /* nothing to apply it to until the next keyframe */
        return 0;
    }
    if (s->np == s->capp) {
        size_t cap = s->capp ? s->capp * 2 : 8;
        pend *v = realloc(s->p, cap * sizeof *v);
        if (!v)
            return -1;
        s->p = v, s->capp = cap;
    }
    pend *p = &s->p[s->np];
    size_t bpp = in->bpp && in->size % in->bpp == 0 ? in->bpp : 1;
    *p = (pend){in->coding, in->hash, NULL, in->len, in->size, bpp};
    if (in->len && !(p->data = malloc(in->len)))
        return -1;
    if (in->len)
        memcpy(p->data, in->data, in->len);
    s->np++;
    return 0;
}

/* Decompresses one frame of exactly `size` bytes into dst. */
static int inflate(gt_snap_chain *c, const pend *p, int skip, uint8_t *dst)
{
    size_t r = ZSTD_decompressDCtx(c->dctx, dst, p->size, p->data + skip, p->len - (size_t)skip);
    return ZSTD_isError(r) || r != p->size ? -1 : 0;
}

/* Applies the pending snapshots to the slot's pixels. */
static int apply(gt_snap_chain *c, slot *s, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->np; i++) {
        const pend *p = &s->p[i];
        if (p->coding == GT_SNAP_KEY) { /* the pixels themselves */
            if (p->len != p->size) {
                snprintf(err, errlen, "a keyframe of %zu bytes holds %zu", p->size, p->len);
                return -1;
            }
            free(s->px);
            s->px = p->data, s->size = p->size;
            s->p[i].data = NULL; /* taken */
            continue;
        }
        if (!s->px || s->size != p->size) {
            snprintf(err, errlen, "a delta of %zu bytes refers to %zu bytes of pixels", p->size, s->size);
            return -1;
        }
        if (!p->len)
            continue; /* equal to the previous one */
        if (c->scratch_size < p->size) {
            uint8_t *v = realloc(c->scratch, p->size);
            if (!v) {
                snprintf(err, errlen, "out of memory for %zu bytes of pixels", p->size);
                return -1;
            }
            c->scratch = v, c->scratch_size = p->size;
        }
        /* A zstd frame begins 0x28; format 3 puts a tag before its frame. */
        int rgb = p->data[0] == GT_SNAP_TAG_RGB && p->bpp == 4;
        if (inflate(c, p, rgb, c->scratch) != 0) {
            snprintf(err, errlen, "a delta's zstd frame is corrupt");
            return -1;
        }
        from_planes(s->px, c->scratch, p->size, p->bpp, rgb);
    }
    return 0;
}

const uint8_t *gt_snap_chain_pixels(gt_snap_chain *c, uint64_t tid, uint32_t n, char *err, size_t errlen)
{
    slot *s = find(c, tid, n, 0);
    if (!s || s->broken) {
        snprintf(err, errlen, "its pixels are coded against an earlier snapshot this reader did not see "
                              "(they come back at the next keyframe)");
        return NULL;
    }
    if (!s->np)
        return s->px;
    uint64_t want = s->p[s->np - 1].hash;
    int rc = apply(c, s, err, errlen);
    drop_pending(s);
    if (rc == 0 && gt_snap_hash(s->px, s->size) != want) {
        snprintf(err, errlen, "its decoded pixels do not have the recorded hash");
        rc = -1;
    }
    if (rc != 0) {
        free(s->px);
        s->px = NULL, s->size = 0, s->broken = 1;
        return NULL;
    }
    return s->px;
}

void gt_snap_chain_adopt(gt_snap_chain *c, uint64_t tid, uint32_t n, uint8_t *px)
{
    slot *s = find(c, tid, n, 0);
    if (!s) {
        free(px);
        return;
    }
    /* Pixels with the recorded hash mend a broken chain too. */
    s->size = s->last_size;
    drop_pending(s);
    free(s->px);
    s->px = px;
    s->broken = 0;
}
