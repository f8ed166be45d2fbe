/* view_image.c: recorded snapshots as PNG files, full size or as
 * thumbnails, made on request and kept in the viewer's cache folder. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_enums.h"
#include "gt_show.h"
#include "view_internal.h"

/* Moved here from cli/cmd_extract.c: extract and the viewer show the same
 * pixels. */
int gt_view_snapshot_image(const Gltrace__GLMessage__FrameBuffer *fb, const uint8_t *px, size_t n,
                           gt_diff_image *img)
{
    if (fb->width <= 0 || fb->height <= 0 || !px)
        return -1;
    uint32_t type = fb->has_type ? fb->type : GL_UNSIGNED_BYTE;
    size_t bpp = type == GL_UNSIGNED_BYTE ? 4 : 16;
    size_t w = (size_t)fb->width, h = (size_t)fb->height;
    if (n != w * h * bpp || gt_diff_image_alloc(img, (uint32_t)w, (uint32_t)h) != 0)
        return -1;
    for (size_t y = 0; y < h; y++) {
        const uint8_t *src = px + (h - 1 - y) * w * bpp;
        uint8_t *dst = img->rgba + y * w * 4;
        for (size_t i = 0; i < w * 4; i++) {
            if (bpp == 4) {
                dst[i] = src[i];
            } else if (type == GL_FLOAT) {
                float v;
                memcpy(&v, src + i * 4, 4);
                dst[i] = (uint8_t)(isnan(v) ? 0 : v <= 0 ? 0 : v >= 1 ? 255 : lrintf(v * 255.0f));
            } else { /* GL_INT, GL_UNSIGNED_INT */
                int32_t v;
                memcpy(&v, src + i * 4, 4);
                uint32_t u = (uint32_t)v;
                if (type == GL_INT)
                    dst[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                else
                    dst[i] = (uint8_t)(u > 255 ? 255 : u);
            }
        }
    }
    return 0;
}

int view_thumbnail(const gt_diff_image *src, uint32_t max, gt_diff_image *dst)
{
    uint32_t big = src->width > src->height ? src->width : src->height;
    uint32_t k = big <= max ? 1 : (big + max - 1) / max;
    uint32_t w = (src->width + k - 1) / k, h = (src->height + k - 1) / k;
    if (gt_diff_image_alloc(dst, w, h) != 0)
        return -1;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t sum[4] = {0}, n = 0;
            for (uint32_t sy = y * k; sy < y * k + k && sy < src->height; sy++)
                for (uint32_t sx = x * k; sx < x * k + k && sx < src->width; sx++, n++)
                    for (int c = 0; c < 4; c++)
                        sum[c] += src->rgba[((size_t)sy * src->width + sx) * 4 + c];
            for (int c = 0; c < 4; c++)
                dst->rgba[((size_t)y * w + x) * 4 + c] = (uint8_t)(sum[c] / n);
        }
    return 0;
}

/* The same thread's snapshots before `pos` that a coded one at `pos` needs,
 * fed in call order into a new chain (gt_snapshot.h): back to its slot's
 * keyframe, which capture writes at least every GT_SNAP_KEY_INTERVAL
 * snapshots of a slot (the walk is bounded by a few times that). NULL
 * with err when out of memory or a record cannot be read. */
gt_snap_chain *view_snapshot_chain(view_cursor *c, const gt_view_index *ix, uint64_t pos, char *err, size_t errlen)
{
    gt_snap_chain *chain = gt_snap_chain_new();
    gt_record rec;
    Gltrace__GLMessage *m = chain ? view_cursor_get(c, pos, &rec, err, errlen) : NULL;
    if (!m) {
        if (!chain)
            snprintf(err, errlen, "out of memory");
        gt_snap_chain_free(chain);
        return NULL;
    }
    if (!m->fb || !m->fb->has_coding || m->fb->coding != GT_SNAP_DELTA)
        return chain; /* raw or a keyframe: nothing before it is needed */
    uint32_t slot = m->fb->slot, thread = ix->calls[pos].thread, seen = 0;
    uint64_t start = pos;
    for (uint64_t i = pos; i-- > 0 && seen < 8 * GT_SNAP_KEY_INTERVAL;) {
        if (!(ix->calls[i].flags & GT_VIEW_SNAPSHOT) || ix->calls[i].thread != thread)
            continue;
        seen++;
        if (!(m = view_cursor_get(c, i, &rec, err, errlen)))
            break;
        if (m->fb && m->fb->has_slot && m->fb->slot == slot) {
            start = i;
            if (m->fb->coding == GT_SNAP_KEY)
                break;
        }
    }
    char why[GT_ERRLEN];
    for (uint64_t i = start; i < pos; i++) {
        if (!(ix->calls[i].flags & GT_VIEW_SNAPSHOT) || ix->calls[i].thread != thread)
            continue;
        if ((m = view_cursor_get(c, i, &rec, err, errlen)) && m->fb)
            gt_show_snapshot_pixels(chain, m->fb, rec.thread_id, NULL, NULL, why, sizeof why);
    }
    return chain;
}

int view_image_file(const char *cache_dir, view_cursor *c, const gt_view_index *ix, uint64_t pos, int thumb,
                    char *out, size_t outlen, char *err, size_t errlen)
{
    const gt_view_call *call = &ix->calls[pos];
    if (!view_has_picture(call)) {
        snprintf(err, errlen, "call %" PRIu64 " is not a snapshot", call->seq);
        return -1;
    }
    snprintf(out, outlen, "%s/%s-%" PRIu64 ".png", cache_dir, thumb ? "thumb" : "image", call->seq);
    if (access(out, R_OK) == 0)
        return 0;
    gt_snap_chain *chain = view_snapshot_chain(c, ix, pos, err, errlen);
    gt_record rec;
    Gltrace__GLMessage *m = chain ? view_cursor_get(c, pos, &rec, err, errlen) : NULL;
    if (!m) {
        gt_snap_chain_free(chain);
        return -1;
    }
    gt_diff_image img = {0}, small = {0};
    int rc = -1;
    const uint8_t *px = NULL;
    size_t n = 0;
    char why[GT_ERRLEN] = "malformed";
    if (!m->fb || gt_show_snapshot_pixels(chain, m->fb, rec.thread_id, &px, &n, why, sizeof why) != 0 ||
        gt_view_snapshot_image(m->fb, px, n, &img) != 0) {
        snprintf(err, errlen, "snapshot record %" PRIu64 " (chunk at byte %" PRIu64 "): %s", rec.seq, rec.offset,
                 why);
        goto done;
    }
    if (thumb && view_thumbnail(&img, 160, &small) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* written under another name first: a reader never sees half a file */
    char tmp[4200], perr[GT_DIFF_ERR_MAX];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", out, (long)getpid());
    if (gt_diff_png_write(tmp, thumb ? &small : &img, perr) != 0) {
        snprintf(err, errlen, "%s", perr);
        goto done;
    }
    if (rename(tmp, out) != 0) {
        snprintf(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = 0;
done:
    gt_snap_chain_free(chain);
    gt_diff_image_free(&img);
    gt_diff_image_free(&small);
    return rc;
}
