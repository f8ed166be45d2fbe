/* rp_snapshot.c: at each recorded snapshot, the same pixels read back from
 * the replay, in the format the snapshot was recorded in (RGBA8, float,
 * integer, depth, stencil; a surface, an attachment or a texture), and
 * compared: byte for byte by default (llvmpipe is deterministic on one
 * machine), or through the diff library's tolerant modes for RGBA8. The
 * replayed app's GL state is saved and restored around the read, as capture
 * does. PNGs go to the output folder for differing snapshots (or all, with
 * --save-all); each snapshot's verdict is kept for the reports. */
#include "rp_internal.h"

#include <GLES3/gl32.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api_state.h"
#include "gt_diff.h"
#include "gt_enums.h" /* GL_BGRA_EXT (EXT_read_format_bgra) */
#include "gt_read_buffer.h"
#include "gt_snapshot.h"
#include "gt_texel.h"
#include "gt_trace.h"

enum { SRC_SURFACE = 0, SRC_ATTACHMENT = 1, SRC_TEXTURE = 2 };

/* ---------------------------------------------------------------- textures' targets */

/* A texture keeps the target it was first bound to; texture snapshots need
 * it to attach the right way (a cube face and an array layer look alike in
 * the record). Keyed by share group and replayed name. */
void rp_hook_bind_texture(rp *r, const rp_msg *m, uint64_t ret)
{
    (void)ret;
    uint32_t tex = rp_name(r, RP_TEXTURE, (uint32_t)rp_arg_u(m, 1));
    uint64_t key = (uint64_t)(uint32_t)r->ctx[r->cur_ctx].group << 32 | tex, old;
    if (tex && !rp_map_get(&r->tex_targets, key, &old))
        rp_map_put(&r->tex_targets, key, rp_arg_u(m, 0));
}

/* The GLES version the context has (GL_VERSION), which is what decides
 * the reads it can make: Mesa gives a context asked for as version 2 all
 * of GLES 3.2 (mpv asks for 2 and renders into float textures). Asked once
 * per context; the recorded client version when GL does not say. */
static int es(rp *r)
{
    rp_ctx *cx = &r->ctx[r->cur_ctx];
    if (!cx->gl_major) {
        const char *v = (const char *)glGetString(GL_VERSION);
        const char *num = v ? strpbrk(v, "0123456789") : NULL;
        cx->gl_major = num ? num[0] - '0' : cx->version;
        if (cx->gl_major < cx->version)
            cx->gl_major = cx->version;
    }
    return cx->gl_major;
}

int rp_es_major(rp *r)
{
    return es(r);
}

/* ---------------------------------------------------------------- reading */

typedef struct saved {
    GLint align, row, skip_rows, skip_px, pbuf, rfb, rbuf;
    int es3, subimage;
} saved;

static void save(rp *r, saved *s)
{
    rp_ctx *cx = &r->ctx[r->cur_ctx];
    memset(s, 0, sizeof *s);
    s->es3 = es(r) >= 3;
    if (es(r) == 2 && !cx->pack_subimage) {
        const char *ext = (const char *)glGetString(GL_EXTENSIONS);
        cx->pack_subimage = ext && strstr(ext, "GL_NV_pack_subimage") ? 1 : 2;
    }
    s->subimage = s->es3 || (es(r) == 2 && cx->pack_subimage == 1); /* GLES 3's pack state */
    glGetIntegerv(GL_PACK_ALIGNMENT, &s->align);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (s->subimage) {
        glGetIntegerv(GL_PACK_ROW_LENGTH, &s->row);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &s->skip_rows);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &s->skip_px);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    }
    if (s->es3) {
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s->pbuf);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s->rfb);
        glGetIntegerv(GL_READ_BUFFER, &s->rbuf);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    } else if (es(r) == 2) {
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &s->rfb);
    }
}

static void restore(rp *r, const saved *s)
{
    glPixelStorei(GL_PACK_ALIGNMENT, s->align);
    if (s->subimage) {
        glPixelStorei(GL_PACK_ROW_LENGTH, s->row);
        glPixelStorei(GL_PACK_SKIP_ROWS, s->skip_rows);
        glPixelStorei(GL_PACK_SKIP_PIXELS, s->skip_px);
    }
    if (s->es3) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)s->pbuf);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)s->rfb);
        glReadBuffer(gt_read_buffer_settable(s->rbuf));
    } else if (es(r) == 2) {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)s->rfb);
    }
}

/* RGBA8 is read as BGRA where the read framebuffer prefers that
 * (GL_IMPLEMENTATION_COLOR_READ_FORMAT): llvmpipe's window and pbuffer
 * surfaces are BGRA, and its RGBA read of them converts pixel by pixel, 2.3
 * times the time of the BGRA read, which is a copy; swapping red and blue
 * back here costs less than the difference. */
static void read_pixels(rp *r, GLsizei w, GLsizei h, GLenum format, GLenum type, uint8_t *px)
{
    if (format == GL_RGBA && type == GL_UNSIGNED_BYTE && es(r) >= 2) {
        /* GLES 2's own query: the pair it gives is always readable. */
        GLint f = 0, t = 0;
        glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &f);
        glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &t);
        if (f == GL_BGRA_EXT && t == GL_UNSIGNED_BYTE) {
            glReadPixels(0, 0, w, h, GL_BGRA_EXT, GL_UNSIGNED_BYTE, px);
            gt_texel_swap_red_blue(px, (size_t)w * (size_t)h);
            return;
        }
    }
    glReadPixels(0, 0, w, h, format, type, px);
}

static int is_color(GLenum att)
{
    return att == GL_BACK || (att >= GL_COLOR_ATTACHMENT0 && att <= GL_COLOR_ATTACHMENT31);
}

/* The internal format of the read framebuffer's attachment `att` (0: not
 * known, a texture replay never saw bound). */
static GLint attachment_format(rp *r, GLenum att)
{
    GLint type = 0, name = 0, f = 0, was = 0;
    glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    uint64_t target = 0;
    if (type == GL_RENDERBUFFER) {
        glGetIntegerv(GL_RENDERBUFFER_BINDING, &was);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &f);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)was);
    } else if (type == GL_TEXTURE && es(r) >= 3 &&
               rp_map_get(&r->tex_targets, (uint64_t)(uint32_t)r->ctx[r->cur_ctx].group << 32 | (uint32_t)name,
                          &target)) {
        glGetIntegerv(gt_api_binding_of((GLenum)target), &was);
        glBindTexture((GLenum)target, (GLuint)name);
        glGetTexLevelParameteriv((GLenum)target, 0, GL_TEXTURE_INTERNAL_FORMAT, &f);
        glBindTexture((GLenum)target, (GLuint)was);
    }
    return f;
}

/* A multisampled attachment (the read framebuffer's `att`, also the draw
 * framebuffer, as at capture) resolved into a renderbuffer of replay's own
 * of its format, as capture did (capture/cap_snapshot.c), and read there.
 * Returns -1 when it cannot be. */
static int read_resolved(rp *r, GLuint fbo, GLenum att, GLsizei w, GLsizei h, GLenum format, GLenum type,
                         uint8_t *px)
{
    GLint internal = attachment_format(r, att), was_rb = 0, was_draw = 0;
    if (!internal)
        return -1;
    GLuint rb = 0, own = 0;
    glGetIntegerv(GL_RENDERBUFFER_BINDING, &was_rb);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &was_draw);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, (GLenum)internal, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)was_rb);
    glGenFramebuffers(1, &own);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, own);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    int ok = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) {
        GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
        if (scissor)
            glDisable(GL_SCISSOR_TEST);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        if (scissor)
            glEnable(GL_SCISSOR_TEST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, own);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        read_pixels(r, w, h, format, type, px);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)was_draw);
    glDeleteFramebuffers(1, &own);
    glDeleteRenderbuffers(1, &rb);
    return ok ? 0 : -1;
}

/* Reads a surface or framebuffer attachment (bound as the read
 * framebuffer, whose own read buffer is put back after). */
static int read_framebuffer(rp *r, const Gltrace__GLMessage__FrameBuffer *fb, GLenum format, GLenum type,
                            uint8_t *px)
{
    int version = es(r);
    GLenum att = fb->has_attachment ? fb->attachment : GL_BACK;
    if (version >= 2) {
        GLuint fbo = fb->has_source && fb->source == SRC_ATTACHMENT ? rp_name(r, RP_FRAMEBUFFER, (uint32_t)fb->object)
                                                                    : 0;
        glBindFramebuffer(version >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, fbo);
        if (version >= 3 && is_color(att)) {
            GLint own = 0, draw = 0, samples = 0; /* each framebuffer keeps its own read buffer */
            glGetIntegerv(GL_READ_BUFFER, &own);
            glReadBuffer(att);
            glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
            if (fbo && (GLuint)draw == fbo) /* GL_SAMPLE_BUFFERS is the draw framebuffer's */
                glGetIntegerv(GL_SAMPLE_BUFFERS, &samples);
            int rc = 0;
            if (samples > 0)
                rc = read_resolved(r, fbo, att, fb->width, fb->height, format, type, px);
            else
                read_pixels(r, fb->width, fb->height, format, type, px);
            glReadBuffer(gt_read_buffer_settable(own));
            return rc;
        }
    }
    read_pixels(r, fb->width, fb->height, format, type, px);
    return 0;
}

/* Reads a texture level (and layer or cube face) through a framebuffer of
 * replay's own. Returns -1 when it cannot be attached. */
static int read_texture(rp *r, const Gltrace__GLMessage__FrameBuffer *fb, GLenum format, GLenum type, uint8_t *px)
{
    rp_ctx *cx = &r->ctx[r->cur_ctx];
    uint32_t tex = rp_name(r, RP_TEXTURE, (uint32_t)fb->object);
    uint64_t target = 0;
    if (es(r) < 3 || !rp_map_get(&r->tex_targets, (uint64_t)(uint32_t)cx->group << 32 | tex, &target))
        return -1;
    GLint level = fb->has_level ? fb->level : 0, layer = fb->has_layer ? fb->layer : 0;
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    if (target == GL_TEXTURE_2D)
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, level);
    else if (target == GL_TEXTURE_CUBE_MAP)
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                               (GLenum)(GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer), tex, level);
    else
        glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, level, layer);
    int ok = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) {
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        read_pixels(r, fb->width, fb->height, format, type, px);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    return ok ? 0 : -1;
}

/* ---------------------------------------------------------------- pictures */

/* Recorded bytes (rows bottom first) as an RGBA8 picture (rows top first):
 * floats clamped to 0..1, integers clamped to 0..255, depth as grey from
 * its top byte, stencil as grey. */
static int to_image(const uint8_t *px, int w, int h, GLenum format, GLenum type, gt_diff_image *img)
{
    if (gt_diff_image_alloc(img, (uint32_t)w, (uint32_t)h) != 0)
        return -1;
    for (int y = 0; y < h; y++) {
        uint8_t *o = img->rgba + (size_t)y * (size_t)w * 4;
        const uint8_t *row = px + (size_t)(h - 1 - y) * (size_t)w * (size_t)gt_texel_bytes(format, type);
        for (int x = 0; x < w; x++, o += 4) {
            if (format == GL_RGBA && type == GL_UNSIGNED_BYTE) {
                memcpy(o, row + 4 * x, 4);
            } else if (format == GL_RGBA && type == GL_FLOAT) {
                for (int c = 0; c < 4; c++) {
                    float f;
                    memcpy(&f, row + 16 * x + 4 * c, 4);
                    o[c] = f != f || f <= 0 ? 0 : f >= 1 ? 255 : (uint8_t)(f * 255.0f + 0.5f);
                }
            } else if (format == GL_RGBA_INTEGER) {
                for (int c = 0; c < 4; c++) {
                    int32_t v;
                    memcpy(&v, row + 16 * x + 4 * c, 4);
                    o[c] = type == GL_INT ? (v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v)
                                          : ((uint32_t)v > 255 ? 255 : (uint8_t)v);
                }
            } else if (format == GL_DEPTH_COMPONENT) {
                uint32_t v;
                memcpy(&v, row + 4 * x, 4);
                o[0] = o[1] = o[2] = (uint8_t)(v >> 24), o[3] = 255;
            } else { /* STENCIL_INDEX */
                o[0] = o[1] = o[2] = row[x], o[3] = 255;
            }
        }
    }
    return 0;
}

static void write_png(rp *r, const gt_diff_image *img, const char *what, const char *kind, char *name, size_t len)
{
    name[0] = 0;
    if (!r->opt->out_dir || !img->rgba)
        return;
    char path[4096], err[GT_DIFF_ERR_MAX];
    snprintf(name, len, "frame%06" PRIu64 "-call%09" PRIu64 "-%s-%s.png", r->frame, r->seq, what, kind);
    snprintf(path, sizeof path, "%s/%s", r->opt->out_dir, name);
    if (gt_diff_png_write(path, img, err) != 0) {
        rp_warn_once(r, -1, "%s", err);
        name[0] = 0;
    }
}

/* ---------------------------------------------------------------- comparing */

static gt_replay_snapshot *new_result(rp *r)
{
    gt_replay_summary *s = r->sum;
    if (s->nsnaps == s->snaps_cap) {
        size_t cap = s->snaps_cap ? s->snaps_cap * 2 : 64;
        gt_replay_snapshot *v = realloc(s->snaps, cap * sizeof *v);
        if (!v)
            return NULL;
        s->snaps = v, s->snaps_cap = cap;
    }
    gt_replay_snapshot *o = &s->snaps[s->nsnaps++];
    memset(o, 0, sizeof *o);
    o->seq = r->seq, o->frame = r->frame;
    return o;
}

static void describe(const Gltrace__GLMessage__FrameBuffer *fb, char *what, size_t len)
{
    uint32_t source = fb->has_source ? fb->source : SRC_SURFACE;
    uint32_t att = fb->has_attachment ? fb->attachment : GL_BACK;
    const char *part = att == GL_DEPTH || att == GL_DEPTH_ATTACHMENT     ? "depth"
                       : att == GL_STENCIL || att == GL_STENCIL_ATTACHMENT ? "stencil"
                                                                           : "color";
    if (source == SRC_TEXTURE)
        snprintf(what, len, "texture%" PRIu32 "-level%d-layer%d", fb->object, fb->has_level ? fb->level : 0,
                 fb->has_layer ? fb->layer : 0);
    else if (source == SRC_ATTACHMENT)
        snprintf(what, len, "fbo%" PRIu32 "-%s%d", fb->object, part,
                 att >= GL_COLOR_ATTACHMENT0 && att <= GL_COLOR_ATTACHMENT31 ? (int)(att - GL_COLOR_ATTACHMENT0) : 0);
    else
        snprintf(what, len, "surface-%s", part);
}

/* The checksum of what replay drew (gt_replay_snapshot.hash). Other
 * formats are hashed as their bytes, four to a pixel of a one-row image. */
static void hash_replayed(gt_replay_snapshot *o, uint8_t *px, size_t n, int w, int h, int rgba8)
{
    gt_diff_image view = {(uint32_t)w, (uint32_t)h, px};
    if (!rgba8)
        view.width = (uint32_t)(n / 4), view.height = 1;
    if (!rgba8 && n % 4)
        return;
    o->hash = gt_diff_image_hash(&view);
    o->has_hash = 1;
}

/* `failure`: the snapshot was wanted but replay could not read it. */
static void not_compared(rp *r, gt_replay_snapshot *o, const char *why, int failure)
{
    r->sum->not_compared++;
    r->sum->unreadable += failure != 0;
    if (o) {
        o->status = failure ? GT_REPLAY_UNREADABLE : GT_REPLAY_NOT_COMPARED;
        snprintf(o->message, sizeof o->message, "%s", why);
    }
}

/* ---------------------------------------------------------------- coded pixels */

/* A coded snapshot (FORMAT.md, "Snapshot coding") joins its slot's chain,
 * whose pixels are decoded only when they are asked for. 0: coded, with
 * *c filled; 1: raw; -1: the record is malformed or memory ran out (the
 * summary's error set). */
static int coded(rp *r, const Gltrace__GLMessage__FrameBuffer *fb, uint64_t tid, size_t n, gt_snap_coded *c)
{
    if (!fb->has_coding || fb->coding == GT_SNAP_RAW)
        return 1;
    if ((fb->coding != GT_SNAP_KEY && fb->coding != GT_SNAP_DELTA) || !fb->has_hash || !fb->has_slot ||
        fb->n_contents > 1) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %" PRIu64 ": a snapshot coded as %u without its hash or slot", r->path, r->seq,
                 fb->coding);
        return -1;
    }
    *c = (gt_snap_coded){.hash = fb->hash, .coding = fb->coding, .slot = fb->slot, .size = n,
                         .bpp = n / ((size_t)fb->width * (size_t)fb->height),
                         .data = fb->n_contents ? fb->contents[0].data : NULL,
                         .len = fb->n_contents ? fb->contents[0].len : 0};
    if ((!r->snaps && !(r->snaps = gt_snap_chain_new())) || gt_snap_chain_add(r->snaps, tid, c) != 0) {
        snprintf(r->sum->error, sizeof r->sum->error, "%s: record %" PRIu64 ": out of memory", r->path, r->seq);
        return -1;
    }
    return 0;
}

/* Bytes of a snapshot's pixels, 0 when its size or format is not one (a
 * coded one with a side over GT_SNAP_MAX_SIDE: no framebuffer is that
 * large, and nothing else in the record bounds it). */
static size_t pixel_bytes(const Gltrace__GLMessage__FrameBuffer *fb)
{
    GLenum format = fb->has_format ? fb->format : GL_RGBA, type = fb->has_type ? fb->type : GL_UNSIGNED_BYTE;
    long bpp = gt_texel_bytes(format, type);
    int coded = fb->has_coding && fb->coding != GT_SNAP_RAW;
    if (bpp <= 0 || fb->width <= 0 || fb->height <= 0 ||
        (coded && (fb->width > GT_SNAP_MAX_SIDE || fb->height > GT_SNAP_MAX_SIDE)))
        return 0;
    return (size_t)fb->width * (size_t)fb->height * (size_t)bpp;
}

void rp_snapshot_free(rp *r)
{
    gt_snap_chain_free(r->snaps);
    r->snaps = NULL;
}

void rp_snapshot_no_context(rp *r, const rp_msg *m, uint64_t tid)
{
    const Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    gt_snap_coded c;
    if (fb && pixel_bytes(fb) && coded(r, fb, tid, pixel_bytes(fb), &c) < 0)
        return;
    r->sum->snapshots++;
    gt_replay_snapshot *o = new_result(r);
    if (o && fb) {
        describe(fb, o->what, sizeof o->what);
        o->width = (uint32_t)fb->width, o->height = (uint32_t)fb->height;
    }
    if (rp_in_range(r))
        not_compared(r, o, "no context was current on its thread on replay", 1);
    else
        not_compared(r, o, "outside --frames/--calls", 0);
}

void rp_snapshot_compare(rp *r, const rp_msg *m, uint64_t tid)
{
    const Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    GLenum format = fb && fb->has_format ? fb->format : GL_RGBA;
    GLenum type = fb && fb->has_type ? fb->type : GL_UNSIGNED_BYTE;
    size_t n = fb ? pixel_bytes(fb) : 0;
    gt_snap_coded c;
    int raw = fb && n ? coded(r, fb, tid, n, &c) : 1;
    if (raw < 0)
        return;
    r->sum->snapshots++;
    gt_replay_snapshot *o = new_result(r);
    if (!fb || (raw && !fb->n_contents) || fb->width <= 0 || fb->height <= 0) {
        not_compared(r, o, "an empty snapshot", 1);
        return;
    }
    if (o) {
        describe(fb, o->what, sizeof o->what);
        o->width = (uint32_t)fb->width, o->height = (uint32_t)fb->height;
    }
    if (!rp_in_range(r)) {
        not_compared(r, o, "outside --frames/--calls", 0);
        return;
    }
    if (r->cur_ctx >= 0 && r->ctx[r->cur_ctx].desktop) {
        not_compared(r, o, "of a desktop OpenGL context, not replayed", 0);
        return;
    }
    int w = fb->width, h = fb->height;
    if (!n || (raw && fb->contents[0].len != n)) {
        snprintf(r->sum->error, sizeof r->sum->error,
                 "%s: record %" PRIu64 ": a %dx%d snapshot (format 0x%x, type 0x%x) of %zu bytes", r->path, r->seq, w,
                 h, format, type, raw ? fb->contents[0].len : n);
        return;
    }
    if (es(r) < 2 && !(format == GL_RGBA && type == GL_UNSIGNED_BYTE)) {
        not_compared(r, o, "GLES 1 reads RGBA8 only", 1);
        return;
    }
    uint8_t *px = malloc(n);
    if (!px) {
        not_compared(r, o, "out of memory", 1);
        return;
    }
    saved s;
    save(r, &s);
    rp_hold_errors(r); /* the replayed app's own, kept for its glGetError with --check */
    int texture = fb->has_source && fb->source == SRC_TEXTURE;
    int got = texture ? read_texture(r, fb, format, type, px) : read_framebuffer(r, fb, format, type, px);
    GLenum gl_err = glGetError();
    restore(r, &s);
    if (got != 0 || gl_err != GL_NO_ERROR) {
        free(px);
        not_compared(r, o,
                     got == 0  ? "the replay driver cannot read it"
                     : texture ? "the texture cannot be attached for reading"
                               : "the multisampled attachment cannot be resolved for reading",
                     1);
        return;
    }
    /* Coded: the hashes first; the recorded pixels are decoded only when
     * they differ (or for a picture), and replay's own read, equal, is
     * what the next delta of the slot applies to. */
    const uint8_t *want = raw ? fb->contents[0].data : NULL;
    int same = raw ? memcmp(px, want, n) == 0 : gt_snap_hash(px, n) == c.hash, pass = same;
    char why[GT_ERRLEN] = "";
    if (!raw && same)
        want = px;
    else if (!raw)
        want = gt_snap_chain_pixels(r->snaps, tid, c.slot, why, sizeof why);
    if (o)
        hash_replayed(o, px, n, w, h, format == GL_RGBA && type == GL_UNSIGNED_BYTE);
    gt_diff_image e = {0}, a = {0}, d = {0};
    int rgba8 = format == GL_RGBA && type == GL_UNSIGNED_BYTE;
    int pictures = r->opt->out_dir && (!same || r->opt->save_all) && want;
    uint8_t *mask = NULL;
    if (((!same && rgba8) || pictures) && want) {
        if (to_image(want, w, h, format, type, &e) != 0 || to_image(px, w, h, format, type, &a) != 0)
            pictures = 0;
    }
    if (!same && o && !want) {
        snprintf(o->message, sizeof o->message, "differs; recorded pixels not decoded: %.50s", why);
    } else if (!same && o) {
        o->max_channel_diff = 0;
        if (rgba8 && e.rgba && a.rgba) {
            gt_diff_options exact;
            gt_diff_options_init(&exact);
            const gt_diff_options *opt = r->opt->compare ? r->opt->compare : &exact;
            gt_diff_result res;
            char err[GT_DIFF_ERR_MAX];
            mask = pictures ? malloc((size_t)w * (size_t)h) : NULL;
            if (gt_diff_compare(&e, &a, opt, 1, &res, mask, err) == 0) {
                pass = r->opt->compare ? res.pass : 0;
                o->diff_pixels = res.diff_pixels, o->diff_percent = res.diff_percent;
                o->max_channel_diff = res.max_channel_diff, o->rmse = res.rmse, o->psnr = res.psnr;
                o->has_metrics = 1;
            }
            if (mask && gt_diff_render(&e, mask, &d) != 0)
                gt_diff_image_free(&d);
        } else {
            for (size_t i = 0; i < n; i++) /* bytes that differ, for the report */
                o->diff_pixels += px[i] != want[i];
        }
    }
    if (pass) {
        r->sum->matched++;
    } else {
        if (!r->sum->differing && !r->sum->reads_differing) {
            r->sum->first_diff_seq = r->seq;
            r->sum->first_diff_frame = r->frame;
        }
        r->sum->differing++;
    }
    if (o) {
        o->status = pass ? GT_REPLAY_MATCHED : GT_REPLAY_DIFFERS;
        o->identical = same;
        if (pictures) {
            write_png(r, &e, o->what, "expected", o->expected_png, sizeof o->expected_png);
            write_png(r, &a, o->what, "actual", o->actual_png, sizeof o->actual_png);
            write_png(r, &d, o->what, "diff", o->diff_png, sizeof o->diff_png);
        }
    }
    if (r->probe)
        rp_probe_snapshot(r, o, same, &e, &a);
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
    gt_diff_image_free(&d);
    free(mask);
    if (!raw && same)
        gt_snap_chain_adopt(r->snaps, tid, c.slot, px);
    else
        free(px);
}

/* A snapshot of the frame --loop repeats (no --benchmark): replay's read
 * against the record, by hash (coded) or bytes (raw). Nothing joins the
 * slot's chain, whose deltas follow the recorded order only; a difference
 * is counted, not pictured. */
void rp_snapshot_loop(rp *r, const rp_msg *m)
{
    const Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    size_t n = fb ? pixel_bytes(fb) : 0;
    int raw = fb && (!fb->has_coding || fb->coding == GT_SNAP_RAW);
    if (!n || (raw && (!fb->n_contents || fb->contents[0].len != n)) || (!raw && !fb->has_hash) ||
        (es(r) < 2 && fb->has_format && fb->has_type && !(fb->format == GL_RGBA && fb->type == GL_UNSIGNED_BYTE)))
        return;
    uint8_t *px = malloc(n);
    if (!px)
        return;
    GLenum format = fb->has_format ? fb->format : GL_RGBA, type = fb->has_type ? fb->type : GL_UNSIGNED_BYTE;
    saved s;
    save(r, &s);
    rp_hold_errors(r);
    int texture = fb->has_source && fb->source == SRC_TEXTURE;
    int got = texture ? read_texture(r, fb, format, type, px) : read_framebuffer(r, fb, format, type, px);
    GLenum gl_err = glGetError();
    restore(r, &s);
    r->sum->loop_compared++;
    if (got == 0 && gl_err == GL_NO_ERROR &&
        (raw ? memcmp(px, fb->contents[0].data, n) == 0 : gt_snap_hash(px, n) == fb->hash))
        r->sum->loop_matched++;
    free(px);
}

/* ---------------------------------------------------------------- --snapshot */

void rp_attachment_size(GLenum target, GLenum att, int level_query, GLint *w, GLint *h)
{
    GLint type = 0, name = 0, level = 0, face = 0;
    *w = *h = 0;
    glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    if (type == GL_RENDERBUFFER) {
        GLint was = 0;
        glGetIntegerv(GL_RENDERBUFFER_BINDING, &was);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, w);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, h);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)was);
    } else if (type == GL_TEXTURE && level_query) {
        /* GLES 3.1's level query, on the texture bound for the moment. */
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
        GLenum t = face ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
        GLint was = 0;
        glGetIntegerv(gt_api_binding_of(t), &was);
        glBindTexture(t, (GLuint)name);
        glGetTexLevelParameteriv(face ? (GLenum)face : t, level, GL_TEXTURE_WIDTH, w);
        glGetTexLevelParameteriv(face ? (GLenum)face : t, level, GL_TEXTURE_HEIGHT, h);
        glBindTexture(t, (GLuint)was);
        while (glGetError() != GL_NO_ERROR) /* a texture of another kind: no size */
            ;
    }
}

/* The width and height of what the read framebuffer's colour attachment 0
 * (or the bound surface) holds. 0 when replay cannot tell. */
static void extent(rp *r, GLuint fbo, GLint *w, GLint *h)
{
    *w = *h = 0;
    if (!fbo) {
        eglQuerySurface(r->dpy, r->bound_draw, EGL_WIDTH, w);
        eglQuerySurface(r->dpy, r->bound_draw, EGL_HEIGHT, h);
        return;
    }
    rp_attachment_size(es(r) >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, es(r) >= 3, w, h);
    if (*w <= 0 || *h <= 0) { /* a texture of another kind: the viewport's corner is a fair guess */
        GLint vp[4] = {0};
        glGetIntegerv(GL_VIEWPORT, vp);
        *w = vp[0] + vp[2], *h = vp[1] + vp[3];
    }
}

int rp_snapshot_read(rp *r, int back_buffer, gt_diff_image *img, int *fbo_out)
{
    if (r->initial_held)
        rp_initial_flush(r);
    int version = es(r);
    saved s;
    save(r, &s);
    rp_hold_errors(r);
    GLint fbo = 0;
    if (!back_buffer)
        glGetIntegerv(version >= 3 ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fbo);
    if (version >= 2)
        glBindFramebuffer(version >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, (GLuint)fbo);
    GLint w = 0, h = 0, own = 0;
    extent(r, (GLuint)fbo, &w, &h);
    uint8_t *px = w > 0 && h > 0 && w <= 16384 && h <= 16384 ? malloc((size_t)w * (size_t)h * 4) : NULL;
    if (px) {
        if (version >= 3) {
            glGetIntegerv(GL_READ_BUFFER, &own);
            glReadBuffer(fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK);
        }
        read_pixels(r, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
        if (version >= 3)
            glReadBuffer(gt_read_buffer_settable(own));
    }
    GLenum err = glGetError();
    restore(r, &s);
    *fbo_out = fbo;
    int rc = 0;
    if (!px || err != GL_NO_ERROR || to_image(px, w, h, GL_RGBA, GL_UNSIGNED_BYTE, img) != 0) {
        rp_warn_once(r, GT_FN_SNAPSHOT, "call %" PRIu64 ": could not read the framebuffer (%dx%d, GL error 0x%x); "
                     "such calls get no picture", r->seq, w, h, err);
        rc = -1;
    }
    free(px);
    return rc;
}

void rp_snapshot_extra(rp *r, int back_buffer, const char *why)
{
    gt_diff_image img = {0};
    int fbo = 0;
    if (rp_snapshot_read(r, back_buffer, &img, &fbo) == 0) {
        char what[32], name[160];
        snprintf(what, sizeof what, fbo ? "fbo%d" : "surface", fbo);
        write_png(r, &img, what, why, name, sizeof name);
        r->sum->extra_pngs += name[0] != 0;
    }
    gt_diff_image_free(&img);
}

int rp_snapshot_wanted(const rp *r, uint64_t seq)
{
    for (size_t i = 0; i < r->opt->nsnap_calls; i++)
        if (seq >= r->opt->snap_calls[2 * i] && seq <= r->opt->snap_calls[2 * i + 1])
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- the app's own reads */

/* What the app read is output it observed: the bytes it got are in the
 * record (the call's out-data), and replay's read of the same pixels under
 * the same pack state went into a copy of them (rp_arg_out), so the two
 * compare byte for byte, padding included. A read into a pixel pack
 * buffer has no bytes in the record and is not compared. Parameters 2-5
 * of the commands hooked: width, height, format, type. */
void rp_hook_read_pixels(rp *r, const rp_msg *m, uint64_t ret)
{
    (void)ret;
    uint8_t *got = r->last_out;
    size_t n = 0;
    const uint8_t *want = got ? rp_arg_bytes(m, r->last_out_arg, &n) : NULL;
    r->last_out = NULL;
    if (!want || !n || r->opt->benchmark)
        return;
    if (r->looping) { /* the repeated frame's read, against the recorded bytes */
        r->sum->loop_compared++;
        r->sum->loop_matched += glGetError() == GL_NO_ERROR && memcmp(got, want, n) == 0;
        return;
    }
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) { /* the app's, kept for its glGetError with --check */
        if (r->opt->check && !r->ctx[r->cur_ctx].held_error)
            r->ctx[r->cur_ctx].held_error = err;
        rp_hold_errors(r);
    }
    gt_replay_summary *s = r->sum;
    s->reads++;
    if (!rp_in_range(r) || err != GL_NO_ERROR) {
        if (err != GL_NO_ERROR)
            rp_warn_once(r, GT_FN_SNAPSHOT, "call %" PRIu64 ": the app's pixel read gives GL error 0x%x on replay; "
                         "such reads are not compared", r->seq, err);
        s->reads_not_compared++;
        return;
    }
    int w = (int)rp_arg_i(m, 2), h = (int)rp_arg_i(m, 3);
    GLenum format = (GLenum)rp_arg_i(m, 4), type = (GLenum)rp_arg_i(m, 5);
    int same = memcmp(got, want, n) == 0;
    if (same) {
        s->reads_matched++;
        if (!r->opt->save_all)
            return;
    } else {
        if (!s->differing && !s->reads_differing)
            s->first_diff_seq = r->seq, s->first_diff_frame = r->frame;
        s->reads_differing++;
    }
    /* PNGs of an RGBA8 read packed tightly, as of a snapshot. */
    gt_diff_image e = {0}, a = {0};
    char what[32], name[160];
    snprintf(what, sizeof what, "read-%dx%d", w, h);
    if (format == GL_RGBA && type == GL_UNSIGNED_BYTE && w > 0 && h > 0 && n == (size_t)w * (size_t)h * 4 &&
        r->opt->out_dir && to_image(want, w, h, format, type, &e) == 0 && to_image(got, w, h, format, type, &a) == 0) {
        write_png(r, &e, what, "expected", name, sizeof name);
        write_png(r, &a, what, "actual", name, sizeof name);
    }
    gt_diff_image_free(&e);
    gt_diff_image_free(&a);
}
