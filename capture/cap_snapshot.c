/* cap_snapshot.c: framebuffer and texture snapshots (gltraceSnapshot).
 *
 * The pixels are read straight into the thread's trace buffer, inside the
 * record, so a snapshot costs one glReadPixels and no copy; coding against
 * the previous snapshot (cap_snapshot_code.c), compression and writing
 * happen on the flusher thread. Every piece of GL state a read
 * needs changed (pack state, pixel-pack buffer, read framebuffer and read
 * buffer, renderbuffer and texture bindings) is saved before and restored
 * after, and only calls valid for the context's version are made, so the
 * app sees no difference, not even in glGetError. */
#include "cap_internal.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_read_buffer.h"
#include "gt_texel.h"
#include "gt_encoders.h"
#include "cap_real_get.h"
#include "gt_trace.h"

#include <string.h>

enum { SRC_SURFACE = 0, SRC_ATTACHMENT = 1, SRC_TEXTURE = 2 };

/* One parameter of the attachment `att` of the framebuffer bound to `target`. */
static GLint attachment_param(GLenum target, GLenum att, GLenum pname)
{
    GLint v = 0;
    cap_real.f.glGetFramebufferAttachmentParameteriv(target, att, pname, &v);
    return v;
}

static int es_at_least(const cap_tls *t, int major, int minor)
{
    return t->cs && (t->cs->es_major > major || (t->cs->es_major == major && t->cs->es_minor >= minor));
}

/* ---------------------------------------------------------------- textures' targets */

/* Texture name -> the target it was first bound to (a name keeps its target
 * for life). Process-wide: names of different share groups may meet, and a
 * wrong guess only makes a texture snapshot be skipped. */
#define TEX_SLOTS 8192
static _Atomic uint64_t tex_slots[TEX_SLOTS];

static void note_target(uint32_t name, uint32_t target)
{
    /* Framebuffer snapshots need it too: the size of a texture level
     * attached (a smaller mip level, a view's) is asked of its target. */
    if (!name || (!cap_opt_textures && cap_opt_fb == GT_FB_NONE))
        return;
    for (uint32_t i = 0, h = name * 2654435761u; i < 64; i++) {
        _Atomic uint64_t *s = &tex_slots[(h + i) % TEX_SLOTS];
        uint64_t v = atomic_load_explicit(s, memory_order_relaxed);
        if (v >> 32 == name)
            return;
        uint64_t expect = 0;
        if (!v && atomic_compare_exchange_strong(s, &expect, (uint64_t)name << 32 | target))
            return;
    }
}

void cap_hook_bind_texture(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx, (void)ret;
    note_target((uint32_t)args[1], (uint32_t)args[0]);
}

/* A texture view may be attached without ever being bound. */
void cap_hook_texture_view(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx, (void)ret;
    note_target((uint32_t)args[0], (uint32_t)args[1]);
}

static uint32_t tex_target(uint32_t name)
{
    for (uint32_t i = 0, h = name * 2654435761u; i < 64; i++) {
        uint64_t v = atomic_load_explicit(&tex_slots[(h + i) % TEX_SLOTS], memory_order_relaxed);
        if (v >> 32 == name)
            return (uint32_t)v;
        if (!v)
            break;
    }
    return 0;
}

/* Width and height of a texture level, through glGetTexLevelParameteriv
 * (GLES 3.1), with the texture bound for the moment. */
static int texture_size(cap_tls *t, uint32_t tex, int32_t level, int32_t face, GLint *w, GLint *h)
{
    uint32_t target = tex_target(tex);
    GLenum q = gt_api_binding_of(target);
    if (!q || !es_at_least(t, 3, 1))
        return -1;
    GLint old = cap_get_int(q);
    cap_real.f.glBindTexture(target, tex);
    GLenum level_target = target == GL_TEXTURE_CUBE_MAP && face ? (GLenum)face : target;
    cap_real.f.glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_WIDTH, w);
    cap_real.f.glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_HEIGHT, h);
    cap_real.f.glBindTexture(target, (GLuint)old);
    return 0;
}

/* ---------------------------------------------------------------- state */

typedef struct saved {
    GLint align, row_len, skip_rows, skip_px, pack_buf, read_fbo, read_buf;
    /* A framebuffer other than the app's read framebuffer whose read buffer
     * a snapshot sets (each framebuffer keeps its own): put back too. */
    int other;
    GLint other_read_buf;
} saved;

static void save_and_set(cap_tls *t, saved *s)
{
    memset(s, 0, sizeof *s);
    s->align = cap_get_int(GL_PACK_ALIGNMENT);
    cap_real.f.glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (t->es_major >= 3) {
        s->row_len = cap_get_int(GL_PACK_ROW_LENGTH);
        s->skip_rows = cap_get_int(GL_PACK_SKIP_ROWS);
        s->skip_px = cap_get_int(GL_PACK_SKIP_PIXELS);
        s->pack_buf = cap_get_int(GL_PIXEL_PACK_BUFFER_BINDING);
        s->read_fbo = cap_get_int(GL_READ_FRAMEBUFFER_BINDING);
        s->read_buf = cap_get_int(GL_READ_BUFFER);
        cap_real.f.glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        if (s->pack_buf)
            cap_real.f.glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    } else if (t->es_major == 2) {
        s->read_fbo = cap_get_int(GL_FRAMEBUFFER_BINDING);
    }
    if (t->es_major == 2 && t->cs && t->cs->pack_subimage) { /* NV_pack_subimage */
        s->row_len = cap_get_int(GL_PACK_ROW_LENGTH);
        s->skip_rows = cap_get_int(GL_PACK_SKIP_ROWS);
        s->skip_px = cap_get_int(GL_PACK_SKIP_PIXELS);
        cap_real.f.glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    }
}

static void restore(cap_tls *t, const saved *s)
{
    cap_real.f.glPixelStorei(GL_PACK_ALIGNMENT, s->align);
    if (t->es_major >= 3 && s->other)
        cap_real.f.glReadBuffer(gt_read_buffer_settable(s->other_read_buf)); /* still bound for reading */
    if (t->es_major >= 3) {
        cap_real.f.glPixelStorei(GL_PACK_ROW_LENGTH, s->row_len);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_ROWS, s->skip_rows);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_PIXELS, s->skip_px);
        if (s->pack_buf)
            cap_real.f.glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)s->pack_buf);
        cap_real.f.glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)s->read_fbo);
        cap_real.f.glReadBuffer(gt_read_buffer_settable(s->read_buf));
    } else if (t->es_major == 2) {
        cap_real.f.glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)s->read_fbo);
    }
    if (t->es_major == 2 && t->cs && t->cs->pack_subimage) {
        cap_real.f.glPixelStorei(GL_PACK_ROW_LENGTH, s->row_len);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_ROWS, s->skip_rows);
        cap_real.f.glPixelStorei(GL_PACK_SKIP_PIXELS, s->skip_px);
    }
}

/* Makes `fbo` (0: the window surface) the read framebuffer, `att` its read
 * buffer. GLES 1 reads what is bound. */
static void bind_read(cap_tls *t, saved *s, GLuint fbo, GLenum att)
{
    if (t->es_major >= 3) {
        cap_real.f.glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        if ((GLint)fbo != s->read_fbo && !s->other) {
            s->other = 1;
            s->other_read_buf = cap_get_int(GL_READ_BUFFER);
        }
        cap_real.f.glReadBuffer(att);
    } else if (t->es_major == 2) {
        cap_real.f.glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
}

/* ---------------------------------------------------------------- the record */

typedef struct snap {
    int32_t w, h;
    uint32_t format, type, bpp;
    uint32_t source, attachment, object;
    int32_t level, layer;
    uint64_t surface;
} snap;

static size_t vfield(uint64_t v)
{
    return 1 + gt_varint_len(v);
}

/* Reads the bound read buffer into a record `fn` (gltraceSnapshot,
 * gltraceSurfaceContents). */
static void read_record_as(cap_tls *t, const snap *d, int32_t fn)
{
    if (d->w <= 0 || d->h <= 0)
        return;
    uint64_t t0 = cap_clock_now(); /* the record's duration: the read's cost to the app (bench/snapshot_cost.sh) */
    size_t px = (size_t)d->w * (size_t)d->h * d->bpp;
    size_t body = vfield((uint64_t)d->w) + vfield((uint64_t)d->h) + vfield(d->format) + vfield(d->type) +
                  vfield(d->source) + vfield(d->attachment) + vfield(d->object) +
                  vfield((uint64_t)(int64_t)d->level) + vfield((uint64_t)(int64_t)d->layer) +
                  vfield(d->surface) + 1 + gt_varint_len(px) + px;
    uint8_t *p = cap_syn_begin(t, fn, body + 16);
    if (!p)
        return;
    atomic_fetch_add_explicit(&t->buf->snaps, 1, memory_order_relaxed); /* the flusher codes it */
    *p++ = 0x3a; /* fb */
    p = gt_put_varint(p, body);
    *p++ = 0x08, p = gt_put_varint(p, (uint64_t)d->w);
    *p++ = 0x10, p = gt_put_varint(p, (uint64_t)d->h);
    *p++ = 0x20, p = gt_put_varint(p, d->format);
    *p++ = 0x28, p = gt_put_varint(p, d->type);
    *p++ = 0x30, p = gt_put_varint(p, d->source);
    *p++ = 0x38, p = gt_put_varint(p, d->attachment);
    *p++ = 0x40, p = gt_put_varint(p, d->object);
    *p++ = 0x48, p = gt_put_varint(p, (uint64_t)(int64_t)d->level);
    *p++ = 0x50, p = gt_put_varint(p, (uint64_t)(int64_t)d->layer);
    *p++ = 0x58, p = gt_put_varint(p, d->surface);
    *p++ = 0x1a, p = gt_put_varint(p, px);
    /* RGBA8 as BGRA where that is the framebuffer's own layout: a copy in
     * the driver instead of a conversion pixel by pixel (gt_texel.h). */
    if (d->format == GL_RGBA && d->type == GL_UNSIGNED_BYTE && t->es_major >= 2 &&
        cap_get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT) == GL_BGRA_EXT &&
        cap_get_int(GL_IMPLEMENTATION_COLOR_READ_TYPE) == GL_UNSIGNED_BYTE) {
        cap_real.f.glReadPixels(0, 0, d->w, d->h, GL_BGRA_EXT, GL_UNSIGNED_BYTE, p);
        gt_texel_swap_red_blue(p, (size_t)d->w * (size_t)d->h);
    } else {
        cap_real.f.glReadPixels(0, 0, d->w, d->h, d->format, d->type, p);
    }
    cap_syn_end_timed(t, p + px, t0);
}

static void read_record(cap_tls *t, const snap *d)
{
    read_record_as(t, d, GT_FN_SNAPSHOT);
}

/* How to read the read framebuffer's `att` losslessly (GLES 3: floats as
 * floats, integers as integers; everything else as RGBA8). */
static void choose_format(cap_tls *t, GLuint fbo, GLenum att, snap *d)
{
    d->format = GL_RGBA, d->type = GL_UNSIGNED_BYTE, d->bpp = 4;
    if (t->es_major < 3 || !fbo)
        return;
    GLint ct = attachment_param(GL_READ_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE);
    if (ct == GL_FLOAT)
        d->type = GL_FLOAT, d->bpp = 16;
    else if (ct == GL_INT)
        d->format = GL_RGBA_INTEGER, d->type = GL_INT, d->bpp = 16;
    else if (ct == GL_UNSIGNED_INT)
        d->format = GL_RGBA_INTEGER, d->type = GL_UNSIGNED_INT, d->bpp = 16;
    else if (ct == GL_SIGNED_NORMALIZED) { /* EXT_render_snorm: no RGBA8 read; the driver's own pair is valid */
        GLint f = cap_get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT), ty = cap_get_int(GL_IMPLEMENTATION_COLOR_READ_TYPE);
        long bpp = gt_texel_bytes((unsigned)f, (unsigned)ty);
        if (bpp > 0)
            d->format = (uint32_t)f, d->type = (uint32_t)ty, d->bpp = (uint32_t)bpp;
    }
}

/* ---------------------------------------------------------------- surfaces */

/* --fb-depth: the bound read framebuffer's depth (as 32-bit unsigned integers) and stencil
 * (bytes), where it has them and the driver can read them back (GLES has
 * no depth reads of its own: NV_read_depth, NV_read_stencil). */
static void read_depth_stencil(cap_tls *t, GLuint fbo, const snap *color)
{
    if (!cap_opt_fb_depth || !t->cs)
        return;
    GLint depth = 0, stencil = 0;
    if (!fbo) {
        depth = cap_get_int(GL_DEPTH_BITS);
        stencil = cap_get_int(GL_STENCIL_BITS);
    } else {
        GLenum target = t->es_major >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
        depth = attachment_param(target, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
        stencil = attachment_param(target, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    }
    snap d = *color;
    if (depth && t->cs->read_depth) {
        d.format = GL_DEPTH_COMPONENT, d.type = GL_UNSIGNED_INT, d.bpp = 4;
        d.attachment = fbo ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
        read_record(t, &d);
    }
    if (stencil && t->cs->read_stencil) {
        d.format = GL_STENCIL_INDEX, d.type = GL_UNSIGNED_BYTE, d.bpp = 1;
        d.attachment = fbo ? GL_STENCIL_ATTACHMENT : GL_STENCIL;
        read_record(t, &d);
    }
}

void cap_snapshot_surface(cap_tls *t, uint64_t surface, int32_t w, int32_t h)
{
    saved s;
    save_and_set(t, &s);
    bind_read(t, &s, 0, GL_BACK);
    snap d = {.w = w, .h = h, .source = SRC_SURFACE, .attachment = GL_BACK, .surface = surface};
    choose_format(t, 0, GL_BACK, &d);
    read_record(t, &d);
    read_depth_stencil(t, 0, &d);
    restore(t, &s);
}

void cap_snapshot_initial(cap_tls *t, uint64_t surface, int32_t w, int32_t h)
{
    saved s;
    save_and_set(t, &s);
    bind_read(t, &s, 0, GL_BACK);
    snap d = {.w = w, .h = h, .source = SRC_SURFACE, .attachment = GL_BACK, .surface = surface,
              .format = GL_RGBA, .type = GL_UNSIGNED_BYTE, .bpp = 4};
    read_record_as(t, &d, GT_FN_SURFACE_CONTENTS); /* RGBA8: what replay writes back */
    restore(t, &s);
}

/* ---------------------------------------------------------------- attachments */

static int attachment_size(cap_tls *t, GLuint fbo, GLenum att, GLint *w, GLint *h, snap *d)
{
    GLenum target = t->es_major >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLint type = attachment_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    if (type == 0)
        return -1; /* NONE: nothing attached */
    GLint name = attachment_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
    d->object = fbo;
    if (type == GL_RENDERBUFFER) {
        GLint old = cap_get_int(GL_RENDERBUFFER_BINDING);
        cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
        cap_real.f.glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, w);
        cap_real.f.glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, h);
        cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)old);
        return 0;
    }
    GLint level = attachment_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
    GLint face = attachment_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE);
    GLint layer = t->es_major >= 3 ? attachment_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER) : 0;
    d->level = level;
    d->layer = face ? face - GL_TEXTURE_CUBE_MAP_POSITIVE_X : layer;
    if (texture_size(t, (uint32_t)name, level, face, w, h) == 0)
        return 0;
    /* The level's size is not known here (GLES < 3.1): the viewport's extent. */
    GLint vp[4] = {0};
    cap_real.f.glGetIntegerv(GL_VIEWPORT, vp);
    *w = vp[0] + vp[2];
    *h = vp[1] + vp[3];
    return 0;
}

/* ---------------------------------------------------------------- multisampled */

/* The internal format of the read framebuffer's attachment `att`; 0 when
 * it cannot be told (a texture whose target is not known). */
static GLint attachment_format(cap_tls *t, GLenum att)
{
    GLint type = attachment_param(GL_READ_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    GLint name = attachment_param(GL_READ_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
    GLint f = 0;
    if (type == GL_RENDERBUFFER) {
        GLint old = cap_get_int(GL_RENDERBUFFER_BINDING);
        cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
        cap_real.f.glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &f);
        cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)old);
    } else if (type == GL_TEXTURE && es_at_least(t, 3, 1)) {
        uint32_t target = tex_target((uint32_t)name);
        GLenum q = gt_api_binding_of(target);
        if (!q)
            return 0;
        GLint old = cap_get_int(q);
        cap_real.f.glBindTexture(target, (GLuint)name);
        cap_real.f.glGetTexLevelParameteriv(target, 0, GL_TEXTURE_INTERNAL_FORMAT, &f);
        cap_real.f.glBindTexture(target, (GLuint)old);
    }
    return f;
}

/* A multisampled attachment cannot be read: it is resolved, as the app's
 * own blit would, into a renderbuffer of ours of its format and size (the
 * scissor test, which applies to blits, off for the moment) and read
 * there. Replay resolves the same way (replay/rp_snapshot.c). The read
 * framebuffer is `fbo` with `d->attachment` its read buffer on entry and
 * on return. Returns -1 when the attachment's format is not known. */
static int read_resolved(cap_tls *t, GLuint fbo, const snap *d)
{
    GLint format = attachment_format(t, d->attachment);
    if (!format)
        return -1;
    GLuint rb = 0, own = 0;
    GLint old_rb = cap_get_int(GL_RENDERBUFFER_BINDING);
    cap_real.f.glGenRenderbuffers(1, &rb);
    cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, rb);
    cap_real.f.glRenderbufferStorage(GL_RENDERBUFFER, (GLenum)format, d->w, d->h);
    cap_real.f.glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)old_rb);
    cap_real.f.glGenFramebuffers(1, &own);
    cap_real.f.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, own);
    cap_real.f.glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    int ok = cap_real.f.glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) {
        GLboolean scissor = cap_real.f.glIsEnabled(GL_SCISSOR_TEST);
        if (scissor)
            cap_real.f.glDisable(GL_SCISSOR_TEST);
        cap_real.f.glBlitFramebuffer(0, 0, d->w, d->h, 0, 0, d->w, d->h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        if (scissor)
            cap_real.f.glEnable(GL_SCISSOR_TEST);
        cap_real.f.glBindFramebuffer(GL_READ_FRAMEBUFFER, own);
        cap_real.f.glReadBuffer(GL_COLOR_ATTACHMENT0);
        read_record(t, d);
        cap_real.f.glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        cap_real.f.glReadBuffer(d->attachment);
    }
    cap_real.f.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    cap_real.f.glDeleteFramebuffers(1, &own);
    cap_real.f.glDeleteRenderbuffers(1, &rb);
    return ok ? 0 : -1;
}

/* After a draw (--fb=draw): every colour attachment of the draw
 * framebuffer, or the window surface when none is bound. */
void cap_snapshot_draw_buffers(cap_tls *t)
{
    if (t->es_major < 2) {
        GLint vp[4] = {0};
        cap_real.f.glGetIntegerv(GL_VIEWPORT, vp);
        saved s;
        save_and_set(t, &s);
        snap d = {.w = vp[0] + vp[2], .h = vp[1] + vp[3], .source = SRC_SURFACE, .attachment = GL_BACK};
        choose_format(t, 0, GL_BACK, &d);
        read_record(t, &d);
        restore(t, &s);
        return;
    }
    GLuint fbo = (GLuint)cap_get_int(GL_FRAMEBUFFER_BINDING); /* DRAW_FRAMEBUFFER_BINDING in GLES 3 */
    if (!fbo) {
        EGLDisplay dpy = cap_real.f.eglGetCurrentDisplay();
        EGLSurface surf = cap_real.f.eglGetCurrentSurface(EGL_DRAW);
        EGLint w = 0, h = 0;
        if (!surf)
            return; /* surfaceless context with no framebuffer: nothing drawn to read */
        /* The size its buffers have (cap_resize.c), which may be older than
         * the window's: a draw before a resize is taken reads that. EGL is
         * asked only for a surface the table does not hold. */
        if (!cap_resize_known((uint64_t)(uintptr_t)surf, &w, &h) &&
            (!cap_real.f.eglQuerySurface(dpy, surf, EGL_WIDTH, &w) ||
             !cap_real.f.eglQuerySurface(dpy, surf, EGL_HEIGHT, &h)))
            return;
        cap_snapshot_surface(t, (uint64_t)(uintptr_t)surf, w, h);
        return;
    }
    int n = t->es_major >= 3 ? cap_get_int(GL_MAX_COLOR_ATTACHMENTS) : 1;
    saved s;
    save_and_set(t, &s);
    bind_read(t, &s, fbo, GL_COLOR_ATTACHMENT0);
    int multisampled = t->es_major >= 3 && cap_get_int(GL_SAMPLE_BUFFERS); /* of the draw framebuffer, fbo */
    for (int i = 0; i < n && i < 32; i++) {
        GLenum att = GL_COLOR_ATTACHMENT0 + (GLenum)i;
        snap d = {.source = SRC_ATTACHMENT, .attachment = att};
        GLint w = 0, h = 0;
        if (attachment_size(t, fbo, att, &w, &h, &d) != 0)
            continue;
        if (t->es_major >= 3)
            cap_real.f.glReadBuffer(att);
        d.w = w, d.h = h;
        choose_format(t, fbo, att, &d);
        if (multisampled) {
            if (read_resolved(t, fbo, &d) != 0) {
                static _Atomic int told;
                if (!atomic_exchange(&told, 1))
                    cap_log("a multisampled attachment of unknown format could not be resolved; it has no snapshots");
            }
            continue;
        }
        read_record(t, &d);
        if (i == 0)
            read_depth_stencil(t, fbo, &d);
    }
    restore(t, &s);
}

/* ---------------------------------------------------------------- textures */

/* After a draw (--textures): the textures attached to the draw framebuffer
 * are remembered, to be read at the swap. */
void cap_snapshot_note_render_targets(cap_tls *t)
{
    cap_ctx_state *cs = t->cs;
    if (t->es_major < 3)
        return;
    GLuint fbo = (GLuint)cap_get_int(GL_FRAMEBUFFER_BINDING);
    if (!fbo)
        return;
    int n = cap_get_int(GL_MAX_COLOR_ATTACHMENTS);
    for (int i = 0; i < n && i < 32; i++) {
        GLenum att = GL_COLOR_ATTACHMENT0 + (GLenum)i;
        if (attachment_param(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) != GL_TEXTURE)
            continue;
        GLint name = attachment_param(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
        GLint level = attachment_param(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
        GLint face = attachment_param(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE);
        GLint layer = attachment_param(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER);
        int known = 0;
        for (int k = 0; k < cs->nrendered && !known; k++)
            known = cs->rendered[k].tex == (uint32_t)name && cs->rendered[k].level == level &&
                    cs->rendered[k].layer == (face ? face : layer);
        if (!known && cs->nrendered < CAP_MAX_RENDERED)
            cs->rendered[cs->nrendered++] = (typeof(cs->rendered[0])){(uint32_t)name, (uint32_t)face, level,
                                                                      face ? face : layer};
    }
}

/* At a swap (--textures): the current contents of each texture drawn into
 * since the last swap, read through a framebuffer of ours. */
void cap_snapshot_rendered_textures(cap_tls *t)
{
    cap_ctx_state *cs = t->cs;
    if (!cs->nrendered)
        return;
    if (!es_at_least(t, 3, 1)) {
        static _Atomic int told;
        if (!atomic_exchange(&told, 1))
            cap_log("texture snapshots need GLES 3.1 (glGetTexLevelParameteriv); none taken");
        cs->nrendered = 0;
        return;
    }
    saved s;
    save_and_set(t, &s);
    if (!cs->snap_fbo)
        cap_real.f.glGenFramebuffers(1, &cs->snap_fbo);
    cap_real.f.glBindFramebuffer(GL_READ_FRAMEBUFFER, cs->snap_fbo);
    for (int k = 0; k < cs->nrendered; k++) {
        uint32_t tex = cs->rendered[k].tex, target = tex_target(tex), face = cs->rendered[k].target;
        int32_t level = cs->rendered[k].level, layer = cs->rendered[k].layer;
        GLint w = 0, h = 0;
        if (texture_size(t, tex, level, (int32_t)face, &w, &h) != 0)
            continue;
        if (target == GL_TEXTURE_2D || target == GL_TEXTURE_CUBE_MAP)
            cap_real.f.glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, face ? face : target, tex,
                                             level);
        else
            cap_real.f.glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, level, layer);
        if (cap_real.f.glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            continue;
        cap_real.f.glReadBuffer(GL_COLOR_ATTACHMENT0);
        snap d = {.w = w, .h = h, .source = SRC_TEXTURE, .attachment = GL_COLOR_ATTACHMENT0, .object = tex,
                  .level = level, .layer = face ? (int32_t)face - GL_TEXTURE_CUBE_MAP_POSITIVE_X : layer};
        choose_format(t, cs->snap_fbo, GL_COLOR_ATTACHMENT0, &d);
        read_record(t, &d);
    }
    cap_real.f.glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    restore(t, &s);
    cs->nrendered = 0;
}

/* A level of a 2D texture or of a cube map's face (`face`: the level's
 * target), a layer of a 3D or array texture's level, or a renderbuffer
 * (face GL_RENDERBUFFER), w x h, attached at `att` of the context's
 * framebuffer of ours and read as fmt/type into px (cap_texhold.c: what
 * was written off before the start). -1: it cannot be attached or read. */
int cap_snapshot_read_level(cap_tls *t, uint32_t tex, uint32_t face, int32_t level, int32_t layer, int32_t w,
                            int32_t h, uint32_t att, uint32_t fmt, uint32_t type, uint8_t *px)
{
    cap_ctx_state *cs = t->cs;
    if (!cs || t->es_major < 2)
        return -1;
    GLenum fb = t->es_major >= 3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    saved s;
    save_and_set(t, &s);
    if (!cs->snap_fbo)
        cap_real.f.glGenFramebuffers(1, &cs->snap_fbo);
    cap_real.f.glBindFramebuffer(fb, cs->snap_fbo);
    int layered = face == GL_TEXTURE_3D || face == GL_TEXTURE_2D_ARRAY;
    if (face == GL_RENDERBUFFER)
        cap_real.f.glFramebufferRenderbuffer(fb, att, GL_RENDERBUFFER, tex);
    else if (layered && t->es_major >= 3)
        cap_real.f.glFramebufferTextureLayer(fb, att, tex, level, layer);
    else if (!layered)
        cap_real.f.glFramebufferTexture2D(fb, att, face, tex, level);
    int colour = att == GL_COLOR_ATTACHMENT0;
    if (t->es_major >= 3)
        cap_real.f.glReadBuffer(colour ? GL_COLOR_ATTACHMENT0 : GL_NONE);
    int ok = cap_real.f.glCheckFramebufferStatus(fb) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) /* no glGetError: an error of the app's must stay for it to read (fmt/type are ones the driver takes) */
        cap_real.f.glReadPixels(0, 0, w, h, fmt, type, px);
    if (face == GL_RENDERBUFFER)
        cap_real.f.glFramebufferRenderbuffer(fb, att, GL_RENDERBUFFER, 0);
    else
        cap_real.f.glFramebufferTexture2D(fb, att, GL_TEXTURE_2D, 0, 0);
    restore(t, &s);
    return ok ? 0 : -1;
}
