/* view_internal.h: what the viewer's files share (not installed). */
#ifndef VIEW_INTERNAL_H
#define VIEW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gltrace.pb-c.h"
#include "gt_diff.h"
#include "gt_snapshot.h"
#include "gt_trace.h"
#include "gt_view.h"

/* ---- a growing text buffer (JSON answers are built in one) */
typedef struct view_buf {
    char *data;
    size_t len, cap;
    int failed; /* out of memory: the answer is dropped */
} view_buf;

void view_buf_put(view_buf *b, const void *p, size_t n);
void view_buf_printf(view_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void view_buf_str(view_buf *b, const char *s);       /* as a JSON string literal */
void view_buf_strn(view_buf *b, const char *s, size_t n);
void view_buf_free(view_buf *b);

/* ---- the function table's facts, cached per function number */
const char *view_fn_name(uint16_t fn, uint8_t alias, char *buf, size_t len);

/* ---- records read back by position (view_record.c) */
typedef struct view_cursor view_cursor;
view_cursor *view_cursor_open(const char *trace, const gt_view_index *ix, char *err, size_t errlen);
void view_cursor_close(view_cursor *c);
/* The record of index position `pos`, unpacked (freed by the cursor on the
 * next call), or NULL with err set. */
Gltrace__GLMessage *view_cursor_get(view_cursor *c, uint64_t pos, gt_record *rec, char *err, size_t errlen);
/* view_image.c: a chain with what the coded snapshot at `pos` needs before
 * it (the caller frees it), or NULL with err. */
gt_snap_chain *view_snapshot_chain(view_cursor *c, const gt_view_index *ix, uint64_t pos, char *err, size_t errlen);

/* One record as `gltrace dump` shows it: text (json 0) or JSON (json 1),
 * `full` all pointer data; appended to b without the trailing newline. */
void view_show(view_buf *b, const Gltrace__GLMessage *m, const gt_record *rec, int json, int full,
               gt_snap_chain *chain);

/* ---- images (view_image.c) */
/* A copy at most `max` pixels on its longer side (box filter). */
int view_thumbnail(const gt_diff_image *src, uint32_t max, gt_diff_image *dst);
/* The PNG of the snapshot at position pos in cache_dir (made when
 * missing): its path in out. */
int view_image_file(const char *cache_dir, view_cursor *c, const gt_view_index *ix, uint64_t pos, int thumb,
                    char *out, size_t outlen, char *err, size_t errlen);

/* ---- JSON answers shared by the server and the export (view_api.c) */
void view_api_info(view_buf *b, const char *trace, const gt_view_index *ix, int has_report);
int view_api_frames(view_buf *b, const gt_view_index *ix, uint64_t from, uint64_t count);
/* calls at positions pos[0..n-1]; `c` may be NULL (names only) */
int view_api_calls(view_buf *b, const gt_view_index *ix, view_cursor *c, const uint64_t *pos, size_t n,
                   uint64_t total, uint64_t from, char *err, size_t errlen);
int view_api_call(view_buf *b, const gt_view_index *ix, view_cursor *c, uint64_t pos, char *err, size_t errlen);
int view_api_stats(view_buf *b, const gt_view_index *ix, int64_t frame);
int view_api_timeline(view_buf *b, const gt_view_index *ix, uint64_t f0, uint64_t f1);

/* ---- the page's files, embedded at build time (view_assets.c, generated) */
typedef struct view_asset {
    const char *name; /* "index.html", "view.js", ... */
    const char *type; /* MIME type */
    const unsigned char *data;
    size_t size;
} view_asset;
extern const view_asset view_assets[];
extern const size_t view_nassets;
const view_asset *view_asset_find(const char *name);

/* ---- search patterns (view_regex.c) */
/* 0 when the POSIX extended pattern is safe to compile and match (its
 * compiled size bounded, no back-reference), else -1 and why in err. */
int view_regex_check(const char *re, char *err, size_t errlen);

/* ---- a directory for the viewer's cache files beside the index */
int view_cache_dir(const gt_view_index *ix, char *out, size_t len, char *err, size_t errlen);
int view_mkdirs(const char *path);

/* Whether a call's record holds a picture: a snapshot, or a new surface's
 * first contents (gltraceSurfaceContents: a picture, not one of the film
 * strip's snapshots). */
static inline int view_has_picture(const gt_view_call *c)
{
    return (c->flags & GT_VIEW_SNAPSHOT) || c->fn == GT_FN_SURFACE_CONTENTS;
}

#endif
