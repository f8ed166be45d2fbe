/* view_export.c: `gltrace view --export DIR`, a folder that shows the
 * trace from file://. A page opened from disk may not fetch() files
 * beside it, but it may load scripts: every answer the server would give
 * is written as data/KEY.js, a script that hands KEY and its JSON to the
 * page (gtData), and the snapshots as PNG files the page shows with <img>.
 * The page is the server's (view/page), told by data/export.js that it is
 * an export. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view_internal.h"

#define EXPORT_PAGE 256u   /* calls per chunk (the page asks for these pages) */
#define DETAIL_CHUNK 64u   /* call details per chunk, by call number */
#define EXPORT_MAX_CALLS 300000u

typedef struct exporter {
    const char *dir;
    const char *trace;
    gt_view_index *ix;
    view_cursor *cur;
    char err[GT_ERRLEN];
} exporter;

static int write_file(exporter *e, const char *name, const void *data, size_t len)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", e->dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        snprintf(e->err, sizeof e->err, "cannot write %.200s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

/* data/KEY.js: gtData("KEY", JSON); */
static int write_chunk(exporter *e, const char *key, view_buf *json)
{
    if (json->failed) {
        snprintf(e->err, sizeof e->err, "out of memory writing %s", key);
        return -1;
    }
    view_buf js = {0};
    view_buf_printf(&js, "gtData(\"%s\",", key);
    view_buf_put(&js, json->data ? json->data : "null", json->data ? json->len : 4);
    view_buf_put(&js, ");\n", 3);
    char name[256];
    snprintf(name, sizeof name, "data/%s.js", key);
    int rc = js.failed ? -1 : write_file(e, name, js.data, js.len);
    view_buf_free(&js);
    view_buf_free(json);
    return rc;
}

static int export_assets(exporter *e)
{
    for (size_t i = 0; i < view_nassets; i++)
        if (write_file(e, view_assets[i].name, view_assets[i].data, view_assets[i].size) != 0)
            return -1;
    return 0;
}

static int export_calls(exporter *e, uint64_t first, uint64_t end)
{
    uint64_t *pos = malloc(EXPORT_PAGE * sizeof *pos);
    if (!pos)
        return -1;
    int rc = 0;
    for (uint64_t p = first; rc == 0 && p < end; p += EXPORT_PAGE) {
        size_t n = 0;
        for (uint64_t i = p; i < end && n < EXPORT_PAGE; i++)
            pos[n++] = i;
        view_buf b = {0};
        char key[64];
        snprintf(key, sizeof key, "calls-%" PRIu64, (p - first) / EXPORT_PAGE);
        rc = view_api_calls(&b, e->ix, e->cur, pos, n, end - first, p - first, e->err, sizeof e->err);
        if (rc == 0)
            rc = write_chunk(e, key, &b);
        else
            view_buf_free(&b);
    }
    free(pos);
    return rc;
}

/* Details by call number, DETAIL_CHUNK a file: {"SEQ": detail, ...}. */
static int export_details(exporter *e, uint64_t first, uint64_t end)
{
    view_buf b = {0};
    uint64_t chunk = UINT64_MAX;
    for (uint64_t i = first; i < end; i++) {
        uint64_t seq = e->ix->calls[i].seq, c = seq / DETAIL_CHUNK;
        if (c != chunk) {
            if (chunk != UINT64_MAX) {
                char key[64];
                snprintf(key, sizeof key, "call-%" PRIu64, chunk);
                view_buf_put(&b, "}", 1);
                if (write_chunk(e, key, &b) != 0)
                    return -1;
            }
            chunk = c;
            view_buf_put(&b, "{", 1);
        } else {
            view_buf_put(&b, ",", 1);
        }
        view_buf_printf(&b, "\"%" PRIu64 "\":", seq);
        if (view_api_call(&b, e->ix, e->cur, i, e->err, sizeof e->err) != 0) {
            view_buf_free(&b);
            return -1;
        }
    }
    if (chunk != UINT64_MAX) {
        char key[64];
        snprintf(key, sizeof key, "call-%" PRIu64, chunk);
        view_buf_put(&b, "}", 1);
        return write_chunk(e, key, &b);
    }
    return 0;
}

static int export_frame(exporter *e, uint64_t f, const char *cache)
{
    view_buf b = {0};
    char key[64];
    snprintf(key, sizeof key, "stats-%" PRIu64, f);
    if (view_api_stats(&b, e->ix, (int64_t)f) != 0 || write_chunk(e, key, &b) != 0)
        return -1;
    snprintf(key, sizeof key, "timeline-%" PRIu64, f);
    if (view_api_timeline(&b, e->ix, f, f) != 0 || write_chunk(e, key, &b) != 0)
        return -1;
    /* the images of its snapshots, full size and thumbnails, copied */
    const gt_view_frame *fr = &e->ix->frames[f];
    for (uint64_t i = fr->first; i < fr->first + fr->count; i++) {
        if (!(e->ix->calls[i].flags & GT_VIEW_SNAPSHOT))
            continue;
        for (int thumb = 0; thumb < 2; thumb++) {
            char src[4400], dst[4400];
            if (view_image_file(cache, e->cur, e->ix, i, thumb, src, sizeof src, e->err, sizeof e->err) != 0)
                return -1;
            snprintf(dst, sizeof dst, "%s/img/%s-%" PRIu64 ".png", e->dir, thumb ? "thumb" : "image",
                     e->ix->calls[i].seq);
            FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
            char buf[65536];
            size_t n;
            int ok = in && out;
            while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
                ok = fwrite(buf, 1, n, out) == n;
            if (in)
                fclose(in);
            if (out && fclose(out) != 0)
                ok = 0;
            if (!ok) {
                snprintf(e->err, sizeof e->err, "cannot copy %.200s to %.200s: %s", src, dst, strerror(errno));
                return -1;
            }
        }
    }
    return 0;
}

static int export_all(exporter *e, uint64_t f0, uint64_t f1)
{
    char sub[4400], cache[4300];
    const char *const subs[] = {"", "/data", "/img"};
    for (int i = 0; i < 3; i++) {
        snprintf(sub, sizeof sub, "%s%s", e->dir, subs[i]);
        if (view_mkdirs(sub) != 0) {
            snprintf(e->err, sizeof e->err, "cannot make %.200s: %s", sub, strerror(errno));
            return -1;
        }
    }
    if (view_cache_dir(e->ix, cache, sizeof cache, e->err, sizeof e->err) != 0 || export_assets(e) != 0)
        return -1;
    uint64_t first = e->ix->frames[f0].first, end = e->ix->frames[f1].first + e->ix->frames[f1].count;
    if (end - first > EXPORT_MAX_CALLS) {
        snprintf(e->err, sizeof e->err, "frames %" PRIu64 "-%" PRIu64 " hold %" PRIu64 " calls, more than an export "
                 "takes (%u): choose fewer with --frames", f0, f1, end - first, EXPORT_MAX_CALLS);
        return -1;
    }
    view_buf b = {0};
    view_buf_printf(&b, "window.GT_EXPORT_INFO = {\"page\":%u,\"detail\":%u,\"f0\":%" PRIu64 ",\"f1\":%" PRIu64 "};\n",
                    EXPORT_PAGE, DETAIL_CHUNK, f0, f1);
    int w = b.failed ? -1 : write_file(e, "data/export.js", b.data, b.len);
    view_buf_free(&b);
    if (w != 0)
        return -1;
    view_api_info(&b, e->trace, e->ix, 0);
    if (write_chunk(e, "info", &b) != 0)
        return -1;
    view_api_frames(&b, e->ix, f0, f1 - f0 + 1);
    if (write_chunk(e, "frames", &b) != 0)
        return -1;
    view_api_stats(&b, e->ix, -1);
    if (write_chunk(e, "stats-all", &b) != 0)
        return -1;
    for (uint64_t f = f0; f <= f1; f++)
        if (export_frame(e, f, cache) != 0)
            return -1;
    return export_calls(e, first, end) != 0 || export_details(e, first, end) != 0 ? -1 : 0;
}

int gt_view_export(const char *trace, const char *dir, const uint64_t *frames, size_t nframes, char *err,
                   size_t errlen)
{
    exporter e = {.dir = dir, .trace = trace};
    e.ix = gt_view_index_open(trace, NULL, NULL, err, errlen);
    if (!e.ix)
        return -1;
    int rc = -1;
    if (!e.ix->nframes) {
        snprintf(err, errlen, "%s: no calls to export", trace);
        goto done;
    }
    uint64_t f0 = 0, f1 = e.ix->nframes - 1;
    if (nframes) {
        /* the span from the first to the last frame the set names */
        f0 = UINT64_MAX, f1 = 0;
        for (size_t k = 0; k < nframes; k++) {
            uint64_t a = frames[2 * k], b = frames[2 * k + 1];
            if (a >= e.ix->nframes)
                continue;
            if (b >= e.ix->nframes)
                b = e.ix->nframes - 1;
            f0 = a < f0 ? a : f0;
            f1 = b > f1 ? b : f1;
        }
        if (f0 == UINT64_MAX) {
            snprintf(err, errlen, "--frames: the trace has frames 0-%" PRIu64 " only", e.ix->nframes - 1);
            goto done;
        }
    }
    e.cur = view_cursor_open(trace, e.ix, err, errlen);
    if (!e.cur)
        goto done;
    rc = export_all(&e, f0, f1);
    if (rc != 0)
        snprintf(err, errlen, "%s", e.err);
done:
    view_cursor_close(e.cur);
    gt_view_index_close(e.ix);
    return rc;
}
