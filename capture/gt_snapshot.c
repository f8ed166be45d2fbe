/* gt_snapshot.c: framebuffer and texture snapshots (gltraceSnapshot).
 *
 * The pixels are read straight into the thread's trace buffer, inside the
 * record, so a snapshot costs one glReadPixels and no copy; compression and
 * writing happen on the flusher thread. Every piece of GL state a read
 * needs changed (pack state, pixel-pack buffer, read framebuffer and read
 * buffer, renderbuffer and texture bindings) is saved before and restored
 * after, and only calls valid for the context's version are made, so the
 * app sees no difference, not even in glGetError. */
#include "gt_capture.h"
#include "gt_texel.h"
#include "gt_encoders.h"
#include "gt_real_fns.h"
#include "gt_trace.h"

#include <string.h>

enum { SRC_SURFACE = 0, SRC_ATTACHMENT = 1, SRC_TEXTURE = 2 };

static GLint get_int(GLenum pname)
{
    GLint v = 0;
    gt_real.f.glGetIntegerv(pname, &v);
    return v;
}

static int es_at_least(const gt_tls *t, int major, int minor)
{
    return t->cs && (t->cs->es_major > major || (t->cs->es_major == major && t->cs->es_minor >= minor));
}

/* ---------------------------------------------------------------- textures' targets */

/* Texture name -> the target it was first bound to (a name keeps its target
 * for life). Process-wide: names of different share groups may meet, and a
 * wrong guess only makes a texture snapshot be skipped. */
#define TEX_SLOTS 8192
static _Atomic uint64_t tex_slots[TEX_SLOTS];

void gt_hook_bind_texture(gt_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)t, (void)idx, (void)ret;
    uint32_t target = (uint32_t)args[0], name = (uint32_t)args[1];
    if (!name || !gt_opt_textures)
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

static GLenum texture_binding_query(GLenum target)
{
    switch (target) {
    case 0x0DE1: return 0x8069; /* TEXTURE_2D */
    case 0x8513: return 0x8514; /* CUBE_MAP */
    case 0x806F: return 0x806A; /* 3D */
    case 0x8C1A: return 0x8C1D; /* 2D_ARRAY */
    case 0x9009: return 0x900A; /* CUBE_MAP_ARRAY */
    default: return 0;
    }
}

/* Width and height of a texture level, through glGetTexLevelParameteriv
 * (GLES 3.1), with the texture bound for the moment. */
static int texture_size(gt_tls *t, uint32_t tex, int32_t level, int32_t face, GLint *w, GLint *h)
{
    uint32_t target = tex_target(tex);
    GLenum q = texture_binding_query(target);
    if (!q || !es_at_least(t, 3, 1))
        return -1;
    GLint old = get_int(q);
    gt_real.f.glBindTexture(target, tex);
    GLenum level_target = target == 0x8513 && face ? (GLenum)face : target;
    gt_real.f.glGetTexLevelParameteriv(level_target, level, 0x1000, w);
    gt_real.f.glGetTexLevelParameteriv(level_target, level, 0x1001, h);
    gt_real.f.glBindTexture(target, (GLuint)old);
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

static void save_and_set(gt_tls *t, saved *s)
{
    memset(s, 0, sizeof *s);
    s->align = get_int(0x0D05);
    gt_real.f.glPixelStorei(0x0D05, 1);
    if (t->es_major >= 3) {
        s->row_len = get_int(0x0D02);
        s->skip_rows = get_int(0x0D03);
        s->skip_px = get_int(0x0D04);
        s->pack_buf = get_int(0x88ED);
        s->read_fbo = get_int(0x8CAA);
        s->read_buf = get_int(0x0C02);
        gt_real.f.glPixelStorei(0x0D02, 0);
        gt_real.f.glPixelStorei(0x0D03, 0);
        gt_real.f.glPixelStorei(0x0D04, 0);
        if (s->pack_buf)
            gt_real.f.glBindBuffer(0x88EB, 0);
    } else if (t->es_major == 2) {
        s->read_fbo = get_int(0x8CA6);
    }
    if (t->es_major == 2 && t->cs && t->cs->pack_subimage) { /* NV_pack_subimage */
        s->row_len = get_int(0x0D02);
        s->skip_rows = get_int(0x0D03);
        s->skip_px = get_int(0x0D04);
        gt_real.f.glPixelStorei(0x0D02, 0);
        gt_real.f.glPixelStorei(0x0D03, 0);
        gt_real.f.glPixelStorei(0x0D04, 0);
    }
}

static void restore(gt_tls *t, const saved *s)
{
    gt_real.f.glPixelStorei(0x0D05, s->align);
    if (t->es_major >= 3 && s->other)
        gt_real.f.glReadBuffer((GLenum)s->other_read_buf); /* still bound for reading */
    if (t->es_major >= 3) {
        gt_real.f.glPixelStorei(0x0D02, s->row_len);
        gt_real.f.glPixelStorei(0x0D03, s->skip_rows);
        gt_real.f.glPixelStorei(0x0D04, s->skip_px);
        if (s->pack_buf)
            gt_real.f.glBindBuffer(0x88EB, (GLuint)s->pack_buf);
        gt_real.f.glBindFramebuffer(0x8CA8, (GLuint)s->read_fbo);
        gt_real.f.glReadBuffer((GLenum)s->read_buf);
    } else if (t->es_major == 2) {
        gt_real.f.glBindFramebuffer(0x8D40, (GLuint)s->read_fbo);
    }
    if (t->es_major == 2 && t->cs && t->cs->pack_subimage) {
        gt_real.f.glPixelStorei(0x0D02, s->row_len);
        gt_real.f.glPixelStorei(0x0D03, s->skip_rows);
        gt_real.f.glPixelStorei(0x0D04, s->skip_px);
    }
}

/* Makes `fbo` (0: the window surface) the read framebuffer, `att` its read
 * buffer. GLES 1 reads what is bound. */
static void bind_read(gt_tls *t, saved *s, GLuint fbo, GLenum att)
{
    if (t->es_major >= 3) {
        gt_real.f.glBindFramebuffer(0x8CA8, fbo);
        if ((GLint)fbo != s->read_fbo && !s->other) {
            s->other = 1;
            s->other_read_buf = get_int(0x0C02);
        }
        gt_real.f.glReadBuffer(att);
    } else if (t->es_major == 2) {
        gt_real.f.glBindFramebuffer(0x8D40, fbo);
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

/* Reads the bound read buffer into a gltraceSnapshot record. */
static void read_record(gt_tls *t, const snap *d)
{
    if (d->w <= 0 || d->h <= 0)
        return;
    size_t px = (size_t)d->w * (size_t)d->h * d->bpp;
    size_t body = vfield((uint64_t)d->w) + vfield((uint64_t)d->h) + vfield(d->format) + vfield(d->type) +
                  vfield(d->source) + vfield(d->attachment) + vfield(d->object) +
                  vfield((uint64_t)(int64_t)d->level) + vfield((uint64_t)(int64_t)d->layer) +
                  vfield(d->surface) + 1 + gt_varint_len(px) + px;
    uint8_t *p = gt_syn_begin(t, GT_FN_SNAPSHOT, body + 16);
    if (!p)
        return;
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
    if (d->format == 0x1908 && d->type == 0x1401 && t->es_major >= 2 && get_int(0x8B9B) == 0x80E1 &&
        get_int(0x8B9A) == 0x1401) { /* IMPLEMENTATION_COLOR_READ_FORMAT/TYPE: BGRA_EXT, UNSIGNED_BYTE */
        gt_real.f.glReadPixels(0, 0, d->w, d->h, 0x80E1, 0x1401, p);
        gt_texel_swap_red_blue(p, (size_t)d->w * (size_t)d->h);
    } else {
        gt_real.f.glReadPixels(0, 0, d->w, d->h, d->format, d->type, p);
    }
    gt_syn_end(t, p + px);
}

/* How to read the read framebuffer's `att` losslessly (GLES 3: floats as
 * floats, integers as integers; everything else as RGBA8). */
static void choose_format(gt_tls *t, GLuint fbo, GLenum att, snap *d)
{
    d->format = 0x1908, d->type = 0x1401, d->bpp = 4; /* RGBA, UNSIGNED_BYTE */
    if (t->es_major < 3 || !fbo)
        return;
    GLint ct = 0;
    gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA8, att, 0x8211, &ct); /* COMPONENT_TYPE */
    if (ct == 0x1406)
        d->type = 0x1406, d->bpp = 16;                      /* FLOAT */
    else if (ct == 0x1404)
        d->format = 0x8D99, d->type = 0x1404, d->bpp = 16;  /* RGBA_INTEGER, INT */
    else if (ct == 0x1405)
        d->format = 0x8D99, d->type = 0x1405, d->bpp = 16;  /* RGBA_INTEGER, UNSIGNED_INT */
}

/* ---------------------------------------------------------------- surfaces */

/* --fb-depth: the bound read framebuffer's depth (as 32-bit unsigned integers) and stencil
 * (bytes), where it has them and the driver can read them back (GLES has
 * no depth reads of its own: NV_read_depth, NV_read_stencil). */
static void read_depth_stencil(gt_tls *t, GLuint fbo, const snap *color)
{
    if (!gt_opt_fb_depth || !t->cs)
        return;
    GLint depth = 0, stencil = 0;
    if (!fbo) {
        depth = get_int(0x0D56);   /* DEPTH_BITS */
        stencil = get_int(0x0D57); /* STENCIL_BITS */
    } else {
        GLenum target = t->es_major >= 3 ? 0x8CA8 : 0x8D40;
        gt_real.f.glGetFramebufferAttachmentParameteriv(target, 0x8D00, 0x8CD0, &depth);   /* DEPTH_ATTACHMENT */
        gt_real.f.glGetFramebufferAttachmentParameteriv(target, 0x8D20, 0x8CD0, &stencil); /* STENCIL_ATTACHMENT */
    }
    snap d = *color;
    if (depth && t->cs->read_depth) {
        d.format = 0x1902, d.type = 0x1405, d.bpp = 4; /* DEPTH_COMPONENT, UNSIGNED_INT */
        d.attachment = fbo ? 0x8D00 : 0x1801;          /* DEPTH_ATTACHMENT, DEPTH */
        read_record(t, &d);
    }
    if (stencil && t->cs->read_stencil) {
        d.format = 0x1901, d.type = 0x1401, d.bpp = 1; /* STENCIL_INDEX, UNSIGNED_BYTE */
        d.attachment = fbo ? 0x8D20 : 0x1802;          /* STENCIL_ATTACHMENT, STENCIL */
        read_record(t, &d);
    }
}

void gt_snapshot_surface(gt_tls *t, uint64_t surface, int32_t w, int32_t h)
{
    saved s;
    save_and_set(t, &s);
    bind_read(t, &s, 0, 0x0405); /* BACK */
    snap d = {.w = w, .h = h, .source = SRC_SURFACE, .attachment = 0x0405, .surface = surface};
    choose_format(t, 0, 0x0405, &d);
    read_record(t, &d);
    read_depth_stencil(t, 0, &d);
    restore(t, &s);
}

/* ---------------------------------------------------------------- attachments */

static int attachment_size(gt_tls *t, GLuint fbo, GLenum att, GLint *w, GLint *h, snap *d)
{
    GLint type = 0, name = 0;
    GLenum target = t->es_major >= 3 ? 0x8CA8 : 0x8D40;
    gt_real.f.glGetFramebufferAttachmentParameteriv(target, att, 0x8CD0, &type); /* OBJECT_TYPE */
    if (type == 0)
        return -1; /* NONE: nothing attached */
    gt_real.f.glGetFramebufferAttachmentParameteriv(target, att, 0x8CD1, &name); /* OBJECT_NAME */
    d->object = fbo;
    if (type == 0x8D41) { /* RENDERBUFFER */
        GLint old = get_int(0x8CA7);
        gt_real.f.glBindRenderbuffer(0x8D41, (GLuint)name);
        gt_real.f.glGetRenderbufferParameteriv(0x8D41, 0x8D42, w);
        gt_real.f.glGetRenderbufferParameteriv(0x8D41, 0x8D43, h);
        gt_real.f.glBindRenderbuffer(0x8D41, (GLuint)old);
        return 0;
    }
    GLint level = 0, face = 0, layer = 0;
    gt_real.f.glGetFramebufferAttachmentParameteriv(target, att, 0x8CD2, &level);
    gt_real.f.glGetFramebufferAttachmentParameteriv(target, att, 0x8CD3, &face);
    if (t->es_major >= 3)
        gt_real.f.glGetFramebufferAttachmentParameteriv(target, att, 0x8CD4, &layer);
    d->level = level;
    d->layer = face ? face - 0x8515 : layer;
    if (texture_size(t, (uint32_t)name, level, face, w, h) == 0)
        return 0;
    /* The level's size is not known here (GLES < 3.1): the viewport's extent. */
    GLint vp[4] = {0};
    gt_real.f.glGetIntegerv(0x0BA2, vp);
    *w = vp[0] + vp[2];
    *h = vp[1] + vp[3];
    return 0;
}

/* After a draw (--fb=draw): every colour attachment of the draw
 * framebuffer, or the window surface when none is bound. */
void gt_snapshot_draw_buffers(gt_tls *t)
{
    if (t->es_major < 2) {
        GLint vp[4] = {0};
        gt_real.f.glGetIntegerv(0x0BA2, vp);
        saved s;
        save_and_set(t, &s);
        snap d = {.w = vp[0] + vp[2], .h = vp[1] + vp[3], .source = SRC_SURFACE, .attachment = 0x0405};
        choose_format(t, 0, 0x0405, &d);
        read_record(t, &d);
        restore(t, &s);
        return;
    }
    GLuint fbo = (GLuint)get_int(0x8CA6); /* (DRAW_)FRAMEBUFFER_BINDING */
    if (!fbo) {
        EGLDisplay dpy = gt_real.f.eglGetCurrentDisplay();
        EGLSurface surf = gt_real.f.eglGetCurrentSurface(0x3059); /* EGL_DRAW */
        EGLint w = 0, h = 0;
        if (!surf)
            return; /* surfaceless context with no framebuffer: nothing drawn to read */
        /* The size its buffers have (gt_resize.c), which may be older than
         * the window's: a draw before a resize is taken reads that. EGL is
         * asked only for a surface the table does not hold. */
        if (!gt_resize_known((uint64_t)(uintptr_t)surf, &w, &h) &&
            (!gt_real.f.eglQuerySurface(dpy, surf, 0x3057, &w) || !gt_real.f.eglQuerySurface(dpy, surf, 0x3056, &h)))
            return;
        gt_snapshot_surface(t, (uint64_t)(uintptr_t)surf, w, h);
        return;
    }
    int n = t->es_major >= 3 ? get_int(0x8CDF) : 1; /* MAX_COLOR_ATTACHMENTS */
    saved s;
    save_and_set(t, &s);
    bind_read(t, &s, fbo, 0x8CE0);
    if (t->es_major >= 3 && get_int(0x80A8)) { /* SAMPLE_BUFFERS: not readable */
        restore(t, &s);
        static _Atomic int told;
        if (!atomic_exchange(&told, 1))
            gt_log("draws into multisampled framebuffers have no snapshots");
        return;
    }
    for (int i = 0; i < n && i < 32; i++) {
        GLenum att = 0x8CE0 + (GLenum)i;
        snap d = {.source = SRC_ATTACHMENT, .attachment = att};
        GLint w = 0, h = 0;
        if (attachment_size(t, fbo, att, &w, &h, &d) != 0)
            continue;
        if (t->es_major >= 3)
            gt_real.f.glReadBuffer(att);
        d.w = w, d.h = h;
        choose_format(t, fbo, att, &d);
        read_record(t, &d);
        if (i == 0)
            read_depth_stencil(t, fbo, &d);
    }
    restore(t, &s);
}

/* ---------------------------------------------------------------- textures */

/* After a draw (--textures): the textures attached to the draw framebuffer
 * are remembered, to be read at the swap. */
void gt_snapshot_note_render_targets(gt_tls *t)
{
    gt_ctx_state *cs = t->cs;
    if (t->es_major < 3)
        return;
    GLuint fbo = (GLuint)get_int(0x8CA6);
    if (!fbo)
        return;
    int n = get_int(0x8CDF);
    for (int i = 0; i < n && i < 32; i++) {
        GLenum att = 0x8CE0 + (GLenum)i;
        GLint type = 0, name = 0, level = 0, face = 0, layer = 0;
        gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA9, att, 0x8CD0, &type);
        if (type != 0x1702) /* TEXTURE */
            continue;
        gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA9, att, 0x8CD1, &name);
        gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA9, att, 0x8CD2, &level);
        gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA9, att, 0x8CD3, &face);
        gt_real.f.glGetFramebufferAttachmentParameteriv(0x8CA9, att, 0x8CD4, &layer);
        int known = 0;
        for (int k = 0; k < cs->nrendered && !known; k++)
            known = cs->rendered[k].tex == (uint32_t)name && cs->rendered[k].level == level &&
                    cs->rendered[k].layer == (face ? face : layer);
        if (!known && cs->nrendered < GT_MAX_RENDERED)
            cs->rendered[cs->nrendered++] = (typeof(cs->rendered[0])){(uint32_t)name, (uint32_t)face, level,
                                                                      face ? face : layer};
    }
}

/* At a swap (--textures): the current contents of each texture drawn into
 * since the last swap, read through a framebuffer of ours. */
void gt_snapshot_rendered_textures(gt_tls *t)
{
    gt_ctx_state *cs = t->cs;
    if (!cs->nrendered)
        return;
    if (!es_at_least(t, 3, 1)) {
        static _Atomic int told;
        if (!atomic_exchange(&told, 1))
            gt_log("texture snapshots need GLES 3.1 (glGetTexLevelParameteriv); none taken");
        cs->nrendered = 0;
        return;
    }
    saved s;
    save_and_set(t, &s);
    if (!cs->snap_fbo)
        gt_real.f.glGenFramebuffers(1, &cs->snap_fbo);
    gt_real.f.glBindFramebuffer(0x8CA8, cs->snap_fbo);
    for (int k = 0; k < cs->nrendered; k++) {
        uint32_t tex = cs->rendered[k].tex, target = tex_target(tex), face = cs->rendered[k].target;
        int32_t level = cs->rendered[k].level, layer = cs->rendered[k].layer;
        GLint w = 0, h = 0;
        if (texture_size(t, tex, level, (int32_t)face, &w, &h) != 0)
            continue;
        if (target == 0x0DE1 || target == 0x8513)
            gt_real.f.glFramebufferTexture2D(0x8CA8, 0x8CE0, face ? face : target, tex, level);
        else
            gt_real.f.glFramebufferTextureLayer(0x8CA8, 0x8CE0, tex, level, layer);
        if (gt_real.f.glCheckFramebufferStatus(0x8CA8) != 0x8CD5) /* COMPLETE */
            continue;
        gt_real.f.glReadBuffer(0x8CE0);
        snap d = {.w = w, .h = h, .source = SRC_TEXTURE, .attachment = 0x8CE0, .object = tex,
                  .level = level, .layer = face ? (int32_t)face - 0x8515 : layer};
        choose_format(t, cs->snap_fbo, 0x8CE0, &d);
        read_record(t, &d);
    }
    gt_real.f.glFramebufferTexture2D(0x8CA8, 0x8CE0, 0x0DE1, 0, 0);
    restore(t, &s);
    cs->nrendered = 0;
}
