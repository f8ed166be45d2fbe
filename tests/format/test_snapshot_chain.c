/* test_snapshot_chain: snapshot coding (proto/gt_snapshot.h) as a reader
 * meets it. Pixels coded as a keyframe and deltas decode to what was coded
 * (RGBA8 and 16-byte texels); an equal snapshot codes to no bytes; a
 * reader that adopts its own equal pixels goes on decoding later deltas; a
 * delta seen without its keyframe (a seek) gives no pixels and says why,
 * until pixels with the recorded hash mend the chain; a corrupt delta and a
 * wrong hash are refused with a reason; a delta of RGBA8 pixels carries
 * the colour-difference tag, and one coded as format 2 wrote it (no tag,
 * plain differences) still decodes. Exit 0 when all hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "gt_snapshot.h"
#include "tcheck.h"

enum { W = 37, H = 23 };

/* A frame: a gradient with a moving square, `t` its position. */
static void frame(uint8_t *px, size_t bpp, int t)
{
    for (size_t i = 0; i < (size_t)W * H; i++) {
        int x = (int)(i % W), y = (int)(i / W);
        for (size_t k = 0; k < bpp; k++)
            px[i * bpp + k] = (uint8_t)(x * 3 + y * 5 + (int)k);
        if (x >= t && x < t + 8 && y >= 4 && y < 12)
            memset(px + i * bpp, 0xee, bpp);
    }
}

typedef struct coder {
    ZSTD_CCtx *z;
    uint8_t out[1 << 16], scratch[W * H * 16];
} coder;

static gt_snap_coded key(const uint8_t *px, size_t n, size_t bpp)
{
    return (gt_snap_coded){gt_snap_hash(px, n), GT_SNAP_KEY, 3, px, n, n, bpp};
}

static gt_snap_coded delta(coder *c, const uint8_t *px, const uint8_t *prev, size_t n, size_t bpp)
{
    long z = gt_snap_encode(c->z, 1, px, prev, c->scratch, n, bpp, c->out, sizeof c->out);
    CHECK(z >= 0, "a delta of %zu bytes codes", n);
    return (gt_snap_coded){gt_snap_hash(px, n), GT_SNAP_DELTA, 3, c->out, z < 0 ? 0 : (size_t)z, n, bpp};
}

static void roundtrip(coder *c, size_t bpp)
{
    size_t n = (size_t)W * H * bpp;
    uint8_t *a = malloc(n), *b = malloc(n), *d = malloc(n);
    frame(a, bpp, 2), frame(b, bpp, 9), frame(d, bpp, 20);
    gt_snap_chain *ch = gt_snap_chain_new();
    char err[512];
    gt_snap_coded s = key(a, n, bpp);
    gt_snap_chain_add(ch, 7, &s);
    s = delta(c, b, a, n, bpp);
    CHECK(s.len > 0 && s.len < n / 2, "a moved square codes in a fraction of the pixels (%zu of %zu)", s.len, n);
    gt_snap_chain_add(ch, 7, &s);
    const uint8_t *got = gt_snap_chain_pixels(ch, 7, 3, err, sizeof err);
    CHECK(got && memcmp(got, b, n) == 0, "bpp %zu: key then delta decode to the second frame (%s)", bpp,
          got ? "other pixels" : err);
    s = delta(c, b, b, n, bpp);
    CHECK(s.len == 0, "an equal snapshot codes to no bytes (%zu)", s.len);
    gt_snap_chain_add(ch, 7, &s);
    got = gt_snap_chain_pixels(ch, 7, 3, err, sizeof err);
    CHECK(got && memcmp(got, b, n) == 0, "bpp %zu: an empty delta keeps the pixels", bpp);
    /* Adopted: the reader's own equal read stands for the decoded one. */
    s = delta(c, d, b, n, bpp);
    gt_snap_chain_add(ch, 7, &s);
    uint8_t *mine = malloc(n);
    memcpy(mine, d, n);
    gt_snap_chain_adopt(ch, 7, 3, mine);
    s = delta(c, a, d, n, bpp);
    gt_snap_chain_add(ch, 7, &s);
    got = gt_snap_chain_pixels(ch, 7, 3, err, sizeof err);
    CHECK(got && memcmp(got, a, n) == 0, "bpp %zu: a delta after adopted pixels decodes", bpp);
    /* Another thread's slot 3 is another target. */
    got = gt_snap_chain_pixels(ch, 8, 3, err, sizeof err);
    CHECK(!got && strstr(err, "did not see"), "a slot of another thread has no pixels (%s)", err);
    gt_snap_chain_free(ch);
    free(a), free(b), free(d);
}

/* A delta as format 2 wrote it: the planes of plain differences, one zstd
 * frame, no tag. */
static void format2(coder *c)
{
    size_t n = (size_t)W * H * 4, t = (size_t)W * H;
    uint8_t a[W * H * 4], b[W * H * 4];
    frame(a, 4, 1), frame(b, 4, 5);
    for (size_t i = 0; i < t; i++)
        for (size_t k = 0; k < 4; k++)
            c->scratch[k * t + i] = (uint8_t)(b[i * 4 + k] - a[i * 4 + k]);
    size_t z = ZSTD_compress(c->out, sizeof c->out, c->scratch, n, 1);
    gt_snap_chain *ch = gt_snap_chain_new();
    gt_snap_coded s = key(a, n, 4);
    gt_snap_chain_add(ch, 1, &s);
    s = (gt_snap_coded){gt_snap_hash(b, n), GT_SNAP_DELTA, 3, c->out, z, n, 4};
    gt_snap_chain_add(ch, 1, &s);
    char err[512] = "";
    const uint8_t *got = gt_snap_chain_pixels(ch, 1, 3, err, sizeof err);
    CHECK(!ZSTD_isError(z) && got && memcmp(got, b, n) == 0, "a format-2 delta decodes (%s)", got ? "other pixels" : err);
    s = delta(c, a, b, n, 4);
    CHECK(s.len > 1 && s.data[0] == GT_SNAP_TAG_RGB, "a delta of RGBA8 pixels now begins with the tag");
    gt_snap_chain_add(ch, 1, &s);
    got = gt_snap_chain_pixels(ch, 1, 3, err, sizeof err);
    CHECK(got && memcmp(got, a, n) == 0, "and decodes after the format-2 one (%s)", got ? "other pixels" : err);
    gt_snap_chain_free(ch);
}

static void damage(coder *c)
{
    size_t n = (size_t)W * H * 4;
    uint8_t a[W * H * 4], b[W * H * 4];
    frame(a, 4, 1), frame(b, 4, 5);
    char err[512] = "";
    /* A delta first (a reader that started mid-trace). */
    gt_snap_chain *ch = gt_snap_chain_new();
    gt_snap_coded s = delta(c, b, a, n, 4);
    gt_snap_chain_add(ch, 1, &s);
    const uint8_t *got = gt_snap_chain_pixels(ch, 1, 3, err, sizeof err);
    CHECK(!got && strstr(err, "keyframe"), "a delta without its keyframe gives no pixels and says why (%s)", err);
    uint8_t *mine = malloc(n);
    memcpy(mine, b, n);
    gt_snap_chain_adopt(ch, 1, 3, mine);
    s = delta(c, a, b, n, 4);
    gt_snap_chain_add(ch, 1, &s);
    got = gt_snap_chain_pixels(ch, 1, 3, err, sizeof err);
    CHECK(got && memcmp(got, a, n) == 0, "pixels with the recorded hash mend the chain");
    gt_snap_chain_free(ch);
    /* A corrupt delta, a wrong hash, a tag changed. */
    for (int kind = 0; kind < 3; kind++) {
        ch = gt_snap_chain_new();
        s = key(a, n, 4);
        gt_snap_chain_add(ch, 1, &s);
        s = delta(c, b, a, n, 4);
        if (kind == 0)
            c->out[s.len / 2] ^= 0x55, c->out[1] ^= 0xff;
        else if (kind == 1)
            s.hash ^= 1;
        else
            c->out[0] ^= 0x03;
        gt_snap_chain_add(ch, 1, &s);
        err[0] = 0;
        got = gt_snap_chain_pixels(ch, 1, 3, err, sizeof err);
        CHECK(!got && err[0], "a %s is refused with a reason (%s)",
              kind == 1 ? "wrong hash" : kind ? "changed tag" : "corrupt delta", err);
        gt_snap_chain_free(ch);
    }
}

int main(void)
{
    coder *c = calloc(1, sizeof *c);
    c->z = ZSTD_createCCtx();
    roundtrip(c, 4);
    roundtrip(c, 16);
    roundtrip(c, 1);
    damage(c);
    format2(c);
    ZSTD_freeCCtx(c->z);
    free(c);
    return tcheck_exit("test_snapshot_chain");
}
