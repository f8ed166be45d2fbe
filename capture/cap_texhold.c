/* cap_texhold.c: texture levels and renderbuffers written off before the
 * start of a mid-run capture, written as read back.
 *
 * Before GLTRACE_START_FRAME's frame, or a trace server host's start
 * (cap_defer.c), an upload that defines or changes a level of a 2D
 * texture or a cube map face, or on GLES 3 of a 3D or 2D array texture
 * (read a layer at a time), in a format read back exactly, is not
 * written: the level is noted here with its size and format, and marked
 * changed. The formats: colour that a framebuffer reads as RGBA8 (8-bit
 * unsigned normalized RGBA, RGB, RG, red or BGRA); with NV_read_depth,
 * depth (GL_DEPTH_COMPONENT with GL_UNSIGNED_SHORT or GL_UNSIGNED_INT,
 * GL_DEPTH_COMPONENT16 and 24), read as 32-bit unsigned, and on GLES 3
 * GL_DEPTH_COMPONENT32F, read as floats (with NV_read_depth_stencil,
 * GL_DEPTH32F_STENCIL8 too, as GL_FLOAT_32_UNSIGNED_INT_24_8_REV); on GLES 3 with
 * EXT_color_buffer_float (or GLES 3.2), float colour (16- and 32-bit
 * float RGBA, RG and red, and R11F_G11F_B10F), read as 32-bit floats and
 * written as halves (16-bit), floats or packed (R11F_G11F_B10F); with
 * EXT_texture_norm16, 16-bit normalized RGBA, RG and red (a 10-bit
 * video's planes), read and written as GL_UNSIGNED_SHORT; on GLES 3 with
 * NV_read_stencil, stencil alone (GL_STENCIL_INDEX8: GLES 3.2 textures,
 * renderbuffers), read and written as bytes; on GLES 3, integer colour
 * (the colour-renderable 8-, 16- and 32-bit RGBA, RG and red, signed or
 * not, and RGB10_A2UI), read as 32-bit integers and written as the
 * format's own type. Nor is a draw, a
 * clear or a blit into a framebuffer object written whose colour buffer (one drawn,
 * or none) and, when it writes depth (its test on, or in a clear's mask),
 * depth buffer are such levels, or single-sampled renderbuffers of such a
 * format on GLES 3.2 (the storage command, written, makes one followed),
 * and whose stencil buffer, when it writes stencil, is one too, alone or
 * packed with depth (cap_defer_window_draw); nor a clear of such
 * a level by name (glClearTexImageEXT). Which commands upload comes from
 * the API description (api/emit_defer.py texture_upload, texture_clear,
 * renderbuffer_storage).
 *
 * A changed level is written, read through a framebuffer of ours, as one
 * upload that defines it (api/state.tsv `function texture-image`), with
 * its binding and the unpack state set for it and set back after:
 * - before a written command that may read or draw into any texture (a
 *   draw or clear not left out, a copy of pixels or between objects, an
 *   EGL image made): every changed level;
 * - before one that changes a texture otherwise (mipmaps, storage, a
 *   compressed upload): that texture's, which is then forgotten;
 * - when writing comes on, and before the thread makes another context
 *   current: all, and all are forgotten.
 * A deleted texture's levels are forgotten; one attached to a framebuffer
 * is written first (the framebuffer keeps it, and draws through it are
 * written from then).
 *
 * Levels made by glTexStorage2D or glTexStorage3D (its record written)
 * are followed the same way from there, and written back with
 * glTexSubImage2D (`texture-level`) or glTexSubImage3D (`texture-level-3d`).
 * A renderbuffer has no upload: it is written back as a texture of its
 * format, made, filled and copied into it (glCopyImageSubData: GLES 3.2),
 * then deleted, under a name capture takes from the driver for it
 * (`gen-textures`, `texture-storage`, `texture-level`, `copy-image`,
 * `delete-textures`).
 * What GLES cannot read back this way (compressed and luminance
 * textures, multisampled
 * renderbuffers, levels above 0 on GLES 2) is written as before.
 *
 * The table is the thread's own (one allocation, at its first level): no
 * lock. Levels beyond its room are written as before. */
#include "cap_internal.h"
#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_encoders.h"
#include "gt_texel.h"
#include "cap_real_get.h"

#include <stdlib.h>
#include <string.h>

#define TH_LEVELS 1024
#define TH_TARGETS 4 /* the binding targets written through: 2D, cube map, 3D, 2D array */

typedef struct level {
    uint32_t tex, face;        /* name; GL_TEXTURE_2D, the cube face, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY,
                                  or GL_RENDERBUFFER (a renderbuffer's name) */
    int32_t level, w, h, d;    /* d: depth or layers (1 for 2D) */
    uint32_t ifmt, fmt, type;  /* as defined: written with them */
    uint32_t att;              /* read through: GL_COLOR_ATTACHMENT0 (as RGBA8, or as float, 32-bit integer or
                                  16-bit RGBA for those types: read_size), GL_DEPTH_ATTACHMENT (as 32-bit),
                                  GL_DEPTH_STENCIL_ATTACHMENT (24 and 8 bits) or GL_STENCIL_ATTACHMENT (bytes) */
    uint8_t n;                 /* bytes a pixel has as written (8-bit colour: its components) */
    uint8_t changed;           /* since last written */
    uint8_t immutable;         /* made by a storage command (written): written back in place */
} level;

struct cap_texhold {
    level v[TH_LEVELS];
    uint32_t n;
    uint32_t attached[TH_LEVELS]; /* textures attached to a framebuffer: they outlive their names */
    uint32_t nattached;
    int busy; /* writing: a record it writes reads nothing back */
};

static const uint32_t targets[TH_TARGETS] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY};

/* The binding target of a level's target: 0 for one not held. */
static uint32_t bind_target(uint32_t target)
{
    if (target == GL_TEXTURE_2D || target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY)
        return target;
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        return GL_TEXTURE_CUBE_MAP;
    return 0;
}

static int layered(uint32_t target)
{
    return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY;
}

static int is_rb(const level *l)
{
    return l->face == GL_RENDERBUFFER;
}

/* A float colour level: read as four 32-bit floats a pixel. */
static int is_float(const level *l)
{
    return l->att == GL_COLOR_ATTACHMENT0 &&
           (l->type == GL_FLOAT || l->type == GL_HALF_FLOAT || l->type == GL_UNSIGNED_INT_10F_11F_11F_REV);
}

/* A 16-bit normalized colour level: read as four 16-bit values a pixel. */
static int is_norm16(const level *l)
{
    return l->att == GL_COLOR_ATTACHMENT0 && l->type == GL_UNSIGNED_SHORT;
}

/* An integer colour level: read as four 32-bit integers a pixel. */
static int is_int(const level *l)
{
    return l->att == GL_COLOR_ATTACHMENT0 &&
           (l->fmt == GL_RED_INTEGER || l->fmt == GL_RG_INTEGER || l->fmt == GL_RGBA_INTEGER);
}

/* Bytes a pixel of l has as read back. */
static size_t read_size(const level *l)
{
    if (is_float(l) || is_int(l))
        return 16;
    if (is_norm16(l) || l->type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
        return 8;
    return l->att == GL_STENCIL_ATTACHMENT ? 1 : 4;
}

/* Whether l is of object `name` (0: any) in the renderbuffers' name space
 * (rb) or the textures'. */
static int of(const level *l, uint32_t name, int rb)
{
    return !name || (l->tex == name && is_rb(l) == rb);
}

static uint32_t bound(uint32_t bind)
{
    uint32_t q = gt_api_binding_of(bind);
    return q ? (uint32_t)cap_get_int(q) : 0;
}

/* GLES 3.2 (or a later 3): glCopyImageSubData, which writes a renderbuffer back. */
static int copies_images(const cap_tls *t)
{
    return t->cs && (t->cs->es_major > 3 || (t->cs->es_major == 3 && t->cs->es_minor >= 2));
}

/* Integer colour (GLES 3, gt_texel_integer): read as GL_RGBA_INTEGER
 * with GL_INT or GL_UNSIGNED_INT, written as the format's own type
 * (gt_texel_pack_ints). Bytes a pixel has as written, or 0. */
static int int_format(const cap_tls *t, uint32_t ifmt, uint32_t *fmt, uint32_t *type)
{
    unsigned f, ty;
    int comps;
    if (t->es_major < 3 || !gt_texel_integer(ifmt, &f, &ty, &comps) || (*fmt && *fmt != f) || (*type && *type != ty))
        return 0;
    *fmt = f, *type = ty;
    return (int)gt_texel_bytes(f, ty);
}

/* Colour wider than 8 bits. 16-bit normalized (EXT_texture_norm16): read
 * as GL_RGBA GL_UNSIGNED_SHORT, written so. Float (EXT_color_buffer_float):
 * read as GL_RGBA GL_FLOAT, written with a type its internal format takes
 * from any (GLES 3.2 table 8.2): 16-bit floats as halves and
 * R11F_G11F_B10F packed (exact both ways, and fewer bytes than floats),
 * the rest as floats. The app's format and type, when given, were taken
 * by the GL for it. Bytes a pixel has as written, or 0. */
static int wide_format(const cap_tls *t, uint32_t ifmt, uint32_t *fmt, uint32_t *type)
{
    static const struct { uint32_t ifmt, fmt, type; uint8_t n; } fl[] = {
        {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8}, {GL_RG16F, GL_RG, GL_HALF_FLOAT, 4},
        {GL_R16F, GL_RED, GL_HALF_FLOAT, 2},     {GL_RGBA32F, GL_RGBA, GL_FLOAT, 16},
        {GL_RG32F, GL_RG, GL_FLOAT, 8},          {GL_R32F, GL_RED, GL_FLOAT, 4},
        {GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, 4},
    };
    /* EXT_texture_norm16: read as GL_RGBA GL_UNSIGNED_SHORT, written as the app wrote them */
    static const struct { uint32_t ifmt, fmt; uint8_t n; } n16[] = {
        {GL_R16_EXT, GL_RED, 2}, {GL_RG16_EXT, GL_RG, 4}, {GL_RGBA16_EXT, GL_RGBA, 8}};
    for (size_t i = 0; t->cs && t->cs->norm16 && t->es_major >= 3 && i < sizeof n16 / sizeof n16[0]; i++)
        if (n16[i].ifmt == ifmt && (!*fmt || *fmt == n16[i].fmt) && (!*type || *type == GL_UNSIGNED_SHORT)) {
            *fmt = n16[i].fmt, *type = GL_UNSIGNED_SHORT;
            return n16[i].n;
        }
    if (!t->cs || !t->cs->float_colour || t->es_major < 3)
        return 0;
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (fl[i].ifmt == ifmt && (!*fmt || *fmt == fl[i].fmt)) {
            *fmt = fl[i].fmt, *type = fl[i].type;
            return fl[i].n;
        }
    return 0;
}

/* Bytes a pixel of a format has as written back, or 0 for one not read
 * back exactly: colour that glReadPixels(GL_RGBA, GL_UNSIGNED_BYTE) reads
 * (its components); with NV_read_depth depth, read as GL_UNSIGNED_INT (16
 * and 24 bits widened, exact both ways; an unsized GL_DEPTH_COMPONENT
 * keeps the app's type, which chooses its size); on GLES 3 with
 * NV_read_stencil stencil alone as bytes, with NV_read_depth_stencil
 * 24-bit depth with 8-bit stencil, read and written as
 * GL_UNSIGNED_INT_24_8; wider colour (wide_format); integer colour
 * (int_format). A copy's or a renderbuffer's (fmt and
 * type 0) follows its internal format. *att: the attachment it is read
 * through. */
static int format_of(const cap_tls *t, uint32_t ifmt, uint32_t *fmt, uint32_t *type, uint32_t *att)
{
    static const struct { uint32_t ifmt, fmt; uint8_t n, es3; } ok[] = {
        {GL_RGBA, GL_RGBA, 4, 0},  {GL_RGB, GL_RGB, 3, 0},   {GL_RG, GL_RG, 2, 0},  {GL_RED, GL_RED, 1, 0},
        {GL_RGBA8, GL_RGBA, 4, 1}, {GL_RGB8, GL_RGB, 3, 1}, {GL_RG8, GL_RG, 2, 1}, {GL_R8, GL_RED, 1, 1},
        {GL_BGRA_EXT, GL_BGRA_EXT, 4, 0}, /* EXT_texture_format_BGRA8888: read as RGBA, red and blue swapped */
    };
    *att = GL_STENCIL_ATTACHMENT; /* stencil alone: bytes (NV_read_stencil; GLES 3.2's stencil textures) */
    if (t->cs && t->cs->read_stencil && t->es_major >= 3 && ifmt == GL_STENCIL_INDEX8 &&
        (!*fmt || *fmt == GL_STENCIL_INDEX) && (!*type || *type == GL_UNSIGNED_BYTE)) {
        *fmt = GL_STENCIL_INDEX, *type = GL_UNSIGNED_BYTE;
        return 1;
    }
    *att = GL_DEPTH_STENCIL_ATTACHMENT; /* read as GL_UNSIGNED_INT_24_8 (NV_read_depth_stencil) */
    if (t->cs && t->cs->read_depth_stencil && t->es_major >= 3 && ifmt == GL_DEPTH32F_STENCIL8 &&
        (!*fmt || *fmt == GL_DEPTH_STENCIL) && (!*type || *type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV)) {
        *fmt = GL_DEPTH_STENCIL, *type = GL_FLOAT_32_UNSIGNED_INT_24_8_REV; /* its float, then 24 bits and 8 */
        return 8;
    }
    if (t->cs && t->cs->read_depth_stencil && t->es_major >= 3 &&
        ((ifmt == GL_DEPTH24_STENCIL8 && (!*fmt || *fmt == GL_DEPTH_STENCIL)) ||
         (ifmt == GL_DEPTH_STENCIL && *fmt == GL_DEPTH_STENCIL && *type == GL_UNSIGNED_INT_24_8))) {
        *fmt = GL_DEPTH_STENCIL, *type = GL_UNSIGNED_INT_24_8;
        return 4;
    }
    *att = GL_DEPTH_ATTACHMENT;
    if (t->cs && t->cs->read_depth && ifmt == GL_DEPTH_COMPONENT && *fmt == GL_DEPTH_COMPONENT &&
        (*type == GL_UNSIGNED_INT || *type == GL_UNSIGNED_SHORT))
        return *type == GL_UNSIGNED_INT ? 4 : 2;
    if (t->cs && t->cs->read_depth && t->es_major >= 3 && ifmt == GL_DEPTH_COMPONENT32F &&
        (!*fmt || *fmt == GL_DEPTH_COMPONENT) && (!*type || *type == GL_FLOAT)) {
        *fmt = GL_DEPTH_COMPONENT, *type = GL_FLOAT; /* read as floats: exact */
        return 4;
    }
    if (t->cs && t->cs->read_depth && t->es_major >= 3 &&
        (ifmt == GL_DEPTH_COMPONENT16 || ifmt == GL_DEPTH_COMPONENT24) &&
        (!*fmt || *fmt == GL_DEPTH_COMPONENT)) {
        *fmt = GL_DEPTH_COMPONENT, *type = GL_UNSIGNED_INT;
        return 4;
    }
    *att = GL_COLOR_ATTACHMENT0;
    int n = wide_format(t, ifmt, fmt, type);
    if (!n)
        n = int_format(t, ifmt, fmt, type);
    if (n)
        return n;
    if (!*fmt && !*type)
        *type = GL_UNSIGNED_BYTE;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (ok[i].ifmt == ifmt && (!*fmt || ok[i].fmt == *fmt) && *type == GL_UNSIGNED_BYTE &&
            (!ok[i].es3 || t->es_major >= 3)) {
            *fmt = ok[i].fmt;
            return ok[i].n;
        }
    return 0;
}

static level *find(cap_tls *t, uint32_t tex, uint32_t face, int32_t lv)
{
    struct cap_texhold *h = t->th;
    for (uint32_t i = 0; h && i < h->n; i++)
        if (h->v[i].tex == tex && h->v[i].face == face && h->v[i].level == lv)
            return &h->v[i];
    return NULL;
}

static void changed(cap_tls *t, level *l)
{
    if (!l->changed)
        l->changed = 1, t->th_changed++;
}

static void forget(cap_tls *t, level *l)
{
    struct cap_texhold *h = t->th;
    if (l->changed)
        t->th_changed--;
    *l = h->v[--h->n];
    t->th_levels = h->n;
}

static struct cap_texhold *table(cap_tls *t);

static level *add(cap_tls *t)
{
    if (!table(t) || t->th->n == TH_LEVELS)
        return NULL;
    level *l = &t->th->v[t->th->n++];
    memset(l, 0, sizeof *l);
    t->th_levels = t->th->n;
    return l;
}

int cap_texhold_upload(cap_tls *t, int define, uint32_t target, int32_t lv, uint32_t ifmt, int32_t w, int32_t h,
                       int32_t d, uint32_t fmt, uint32_t type)
{
    uint32_t bind = bind_target(target);
    if (!bind || t->es_major < 2 || !t->cs || (t->th && t->th->busy) || (layered(bind) && t->es_major < 3))
        return 0;
    uint32_t tex = bound(bind);
    level *l = tex ? find(t, tex, target, lv) : NULL;
    if (!define || (l && l->immutable)) { /* a definition of an immutable level fails: written as the app made it */
        if (l && !define)
            changed(t, l);
        return l != NULL && !define; /* a level whose definition was written is written as it changes */
    }
    uint32_t att = 0;
    int n = tex && w > 0 && h > 0 && d > 0 && (lv == 0 || t->es_major >= 3) ? format_of(t, ifmt, &fmt, &type, &att)
                                                                              : 0;
    if (!n) {
        if (l)
            forget(t, l); /* written whole from here */
        return 0;
    }
    if (!l && !(l = add(t)))
        return 0;
    *l = (level){.tex = tex, .face = target, .level = lv, .w = w, .h = h, .d = d, .ifmt = ifmt, .fmt = fmt,
                 .type = type, .att = att, .n = (uint8_t)n, .changed = l->changed};
    changed(t, l);
    return 1;
}

/* glTexStorage2D or glTexStorage3D (written): its levels, each face's of
 * a cube map, are followed from now as if defined by uploads, their
 * contents unchanged. A 3D texture's depth halves with each level; an
 * array's layers do not. */
void cap_texhold_storage(cap_tls *t, uint32_t target, int32_t levels, uint32_t ifmt, int32_t w, int32_t h, int32_t d)
{
    uint32_t fmt = 0, type = 0, att = 0;
    int n = t->es_major >= 3 && t->cs && !(t->th && t->th->busy) ? format_of(t, ifmt, &fmt, &type, &att) : 0;
    int faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    if (t->th_levels)
        cap_texhold_touch(t, target); /* what it had goes */
    uint32_t tex = n && (bind_target(target) == target || faces == 6) ? bound(target) : 0;
    for (int32_t lv = 0; tex && lv < levels && lv < 16; lv++)
        for (int f = 0; f < faces; f++) {
            level *l = add(t);
            if (!l)
                return;
            int32_t ld = target == GL_TEXTURE_3D ? (d >> lv > 0 ? d >> lv : 1) : d;
            *l = (level){.tex = tex, .face = faces == 6 ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (uint32_t)f : target,
                         .level = lv, .w = w >> lv > 0 ? w >> lv : 1, .h = h >> lv > 0 ? h >> lv : 1, .d = ld,
                         .ifmt = ifmt, .fmt = fmt, .type = type, .att = att, .n = (uint8_t)n, .immutable = 1};
        }
}

/* glRenderbufferStorage* (written): the renderbuffer bound, when it has
 * one sample and a format read back exactly, is followed from now, its
 * contents unchanged; what it had goes either way. */
void cap_texhold_renderbuffer(cap_tls *t, uint32_t target, int32_t samples, uint32_t ifmt, int32_t w, int32_t h)
{
    if (t->es_major < 3 || !t->cs || (t->th && t->th->busy))
        return;
    uint32_t rb = bound(target);
    level *l = rb ? find(t, rb, GL_RENDERBUFFER, 0) : NULL;
    if (l)
        forget(t, l);
    uint32_t fmt = 0, type = 0, att = 0;
    int n = rb && samples == 0 && w > 0 && h > 0 && copies_images(t) ? format_of(t, ifmt, &fmt, &type, &att) : 0;
    if (n && ifmt != fmt && (l = add(t)) != NULL) /* a sized format: a texture of it is made to write it back */
        *l = (level){.tex = rb, .face = GL_RENDERBUFFER, .w = w, .h = h, .d = 1, .ifmt = ifmt, .fmt = fmt,
                     .type = type, .att = att, .n = (uint8_t)n};
}

static GLint att_param(GLenum fb, GLenum att, GLenum pname)
{
    GLint v = 0;
    cap_real.f.glGetFramebufferAttachmentParameteriv(fb, att, pname, &v);
    return v;
}

/* The level followed here that the framebuffer's attachment `att` is, and
 * reads through `att`. */
static level *attached(cap_tls *t, GLenum fb, GLenum att)
{
    GLint type = att_param(fb, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    if (type != GL_TEXTURE && type != GL_RENDERBUFFER)
        return NULL;
    uint32_t name = (uint32_t)att_param(fb, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
    level *l = NULL;
    if (type == GL_RENDERBUFFER) {
        l = find(t, name, GL_RENDERBUFFER, 0);
    } else {
        GLint lv = att_param(fb, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
        GLint face = att_param(fb, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE);
        l = find(t, name, face ? (uint32_t)face : GL_TEXTURE_2D, lv);
        if (!l && !face && t->es_major >= 3) /* a layer (or all, layered) of a 3D or array texture's level */
            l = find(t, name, GL_TEXTURE_3D, lv), l = l ? l : find(t, name, GL_TEXTURE_2D_ARRAY, lv);
    }
    /* A packed depth and stencil level is its framebuffer's depth and stencil buffer both. */
    int packed = l && l->att == GL_DEPTH_STENCIL_ATTACHMENT && (att == GL_DEPTH_ATTACHMENT || att == GL_STENCIL_ATTACHMENT);
    return l && (l->att == att || packed) ? l : NULL;
}

/* The framebuffer bound for drawing: what a draw (its tests) or a clear
 * (its mask) writes of it is levels followed here: its colour buffer (one
 * drawn, or none), its depth and stencil buffers when written. */
int cap_texhold_fbo_draw(cap_tls *t, uint32_t mask)
{
    if (t->es_major < 2 || (t->th && t->th->busy))
        return 0;
    int draw = mask == CAP_DRAW_ALL, es3 = t->es_major >= 3;
    GLenum fb = es3 ? GL_DRAW_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLint drawn = es3 ? cap_get_int(GL_DRAW_BUFFER0) : GL_COLOR_ATTACHMENT0;
    if (es3 && ((drawn != GL_COLOR_ATTACHMENT0 && drawn != GL_NONE) || cap_get_int(GL_DRAW_BUFFER1) != GL_NONE ||
                (draw && cap_defer_writes_elsewhere())))
        return 0;
    level *depth = NULL, *colour = NULL, *stencil = NULL;
    if (att_param(fb, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) != GL_NONE &&
        (draw ? cap_real.f.glIsEnabled(GL_STENCIL_TEST) != GL_FALSE : (mask & GL_STENCIL_BUFFER_BIT) != 0) &&
        !(stencil = attached(t, fb, GL_STENCIL_ATTACHMENT)))
        return 0;
    if (att_param(fb, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) != GL_NONE &&
        (draw ? cap_real.f.glIsEnabled(GL_DEPTH_TEST) != GL_FALSE : (mask & GL_DEPTH_BUFFER_BIT) != 0) &&
        !(depth = attached(t, fb, GL_DEPTH_ATTACHMENT)))
        return 0;
    if (drawn == GL_COLOR_ATTACHMENT0 &&
        att_param(fb, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) != GL_NONE &&
        !(colour = attached(t, fb, GL_COLOR_ATTACHMENT0)))
        return 0;
    if (!colour && !depth && !stencil)
        return 0;
    if (colour && (draw || (mask & GL_COLOR_BUFFER_BIT)))
        changed(t, colour);
    if (depth)
        changed(t, depth);
    if (stencil)
        changed(t, stencil);
    return 1;
}

/* ---------------------------------------------------------------- writing */

/* The unpack state the writing needs, and the app's, set and set back. */
typedef struct unpack {
    int n;
    GLint pname[6], app[6], buffer;
} unpack;

static void unpack_set(cap_tls *t, unpack *u)
{
    memset(u, 0, sizeof *u);
    u->pname[u->n++] = GL_UNPACK_ALIGNMENT;
    if (t->es_major >= 3 || t->cs->unpack_subimage) {
        u->pname[u->n++] = GL_UNPACK_ROW_LENGTH;
        u->pname[u->n++] = GL_UNPACK_SKIP_ROWS;
        u->pname[u->n++] = GL_UNPACK_SKIP_PIXELS;
    }
    if (t->es_major >= 3) { /* a 3D upload's */
        u->pname[u->n++] = GL_UNPACK_IMAGE_HEIGHT;
        u->pname[u->n++] = GL_UNPACK_SKIP_IMAGES;
    }
    if (t->es_major >= 3 && (u->buffer = cap_get_int(GL_PIXEL_UNPACK_BUFFER_BINDING)) != 0)
        cap_write_call(t, "bind-buffer", (int64_t[]){GL_PIXEL_UNPACK_BUFFER, 0}, NULL, 0);
    for (int i = 0; i < u->n; i++) {
        u->app[i] = cap_get_int((GLenum)u->pname[i]);
        if (u->app[i] != (i == 0 ? 1 : 0))
            cap_write_call(t, "pixel-store", (int64_t[]){u->pname[i], i == 0 ? 1 : 0}, NULL, 0);
    }
}

static void unpack_back(cap_tls *t, const unpack *u)
{
    for (int i = 0; i < u->n; i++)
        if (u->app[i] != (i == 0 ? 1 : 0))
            cap_write_call(t, "pixel-store", (int64_t[]){u->pname[i], u->app[i]}, NULL, 0);
    if (u->buffer)
        cap_write_call(t, "bind-buffer", (int64_t[]){GL_PIXEL_UNPACK_BUFFER, u->buffer}, NULL, 0);
}

/* The textures bound to each of `targets` on the active unit: the app's,
 * and those the writing left there. */
typedef struct binds {
    uint32_t app[TH_TARGETS], on[TH_TARGETS];
} binds;

static void bind(cap_tls *t, binds *b, uint32_t target, uint32_t tex)
{
    for (int i = 0; i < TH_TARGETS; i++)
        if (targets[i] == target && b->on[i] != tex) {
            cap_write_call(t, "bind-texture", (int64_t[]){target, tex}, NULL, 0);
            b->on[i] = tex;
        }
}

/* Every layer of a level read back into px, layer after layer: colour as
 * RGBA8, 16-bit RGBA or float RGBA, depth as 32-bit unsigned, depth and stencil as 24
 * and 8 bits. */
static int read_layers(cap_tls *t, const level *l, uint8_t *px)
{
    size_t layer = (size_t)l->w * (size_t)l->h * read_size(l);
    uint32_t fmt = GL_RGBA, type = GL_UNSIGNED_BYTE;
    if (is_float(l))
        type = GL_FLOAT;
    else if (is_int(l))
        fmt = GL_RGBA_INTEGER, type = gt_texel_signed(l->type) ? GL_INT : GL_UNSIGNED_INT;
    else if (is_norm16(l))
        type = GL_UNSIGNED_SHORT;
    else if (l->att == GL_DEPTH_ATTACHMENT)
        fmt = GL_DEPTH_COMPONENT, type = l->type == GL_FLOAT ? GL_FLOAT : GL_UNSIGNED_INT;
    else if (l->att == GL_STENCIL_ATTACHMENT)
        fmt = GL_STENCIL_INDEX, type = GL_UNSIGNED_BYTE;
    else if (l->att == GL_DEPTH_STENCIL_ATTACHMENT)
        fmt = GL_DEPTH_STENCIL, type = l->type; /* GL_UNSIGNED_INT_24_8 or GL_FLOAT_32_UNSIGNED_INT_24_8_REV */
    for (int32_t z = 0; z < l->d; z++)
        if (cap_snapshot_read_level(t, l->tex, l->face, l->level, z, l->w, l->h, l->att, fmt, type,
                                    px + layer * (size_t)z) != 0)
            return -1;
    return 0;
}

/* Float RGBA read back, packed down to the level's components, as floats
 * or halves, or as R11F_G11F_B10F's 32 bits. Forward in place: a pixel's
 * output never passes its input. */
static void pack_float(const level *l, uint8_t *px, size_t npx)
{
    int comps = l->type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3 : l->n / (l->type == GL_HALF_FLOAT ? 2 : 4);
    gt_texel_pack_floats(px, npx, comps, l->type, px);
}

/* What was read back, as the level is written: colour packed down to its
 * components (BGRA's red and blue swapped back; float: pack_float), depth of 16 bits
 * narrowed (the top half of the 32-bit value: exact). */
static void pack(const level *l, uint8_t *px, size_t npx)
{
    if (l->att != GL_COLOR_ATTACHMENT0) {
        for (size_t i = 0; i < npx && l->n == 2; i++) {
            uint32_t v;
            memcpy(&v, px + i * 4, 4);
            uint16_t s = (uint16_t)(v >> 16);
            memcpy(px + i * 2, &s, 2);
        }
        return;
    }
    if (is_float(l)) {
        pack_float(l, px, npx);
        return;
    }
    if (is_int(l)) {
        int comps = l->fmt == GL_RED_INTEGER ? 1 : l->fmt == GL_RG_INTEGER ? 2 : 4;
        gt_texel_pack_ints(px, npx, comps, l->type, px);
        return;
    }
    for (size_t i = 0; i < npx && is_norm16(l) && l->n < 8; i++)
        memmove(px + i * l->n, px + i * 8, l->n); /* its components of the four */
    if (is_norm16(l))
        return;
    if (l->fmt == GL_BGRA_EXT)
        gt_texel_swap_red_blue(px, npx);
    for (size_t i = 0; i < npx && l->n < 4; i++)
        memmove(px + i * l->n, px + i * 4, l->n);
}

/* A renderbuffer written back: a texture of its format made under a name
 * the driver gives capture (so no name of the app's), filled, copied into
 * the renderbuffer, deleted. */
static void write_renderbuffer(cap_tls *t, const level *l, const uint8_t *px, size_t len, binds *b)
{
    GLuint tex = 0;
    cap_real.f.glGenTextures(1, &tex);
    if (!tex)
        return;
    cap_write_call(t, "gen-textures", (int64_t[]){1, 0}, &tex, sizeof tex);
    bind(t, b, GL_TEXTURE_2D, tex);
    cap_write_call(t, "texture-storage", (int64_t[]){GL_TEXTURE_2D, 1, l->ifmt, l->w, l->h}, NULL, 0);
    cap_write_call(t, "texture-level", (int64_t[]){GL_TEXTURE_2D, 0, 0, 0, l->w, l->h, l->fmt, l->type, 0}, px, len);
    cap_write_call(t, "copy-image",
                   (int64_t[]){tex, GL_TEXTURE_2D, 0, 0, 0, 0, l->tex, GL_RENDERBUFFER, 0, 0, 0, 0, l->w, l->h, 1},
                   NULL, 0);
    cap_write_call(t, "delete-textures", (int64_t[]){1, 0}, &tex, sizeof tex);
    b->on[0] = 0; /* a deleted texture's bindings go back to 0 */
    cap_real.f.glDeleteTextures(1, &tex);
}

/* One level, read back, as one upload that defines it, or for an
 * immutable one, fills it (packed as written, rows unpadded: unpack
 * alignment 1). */
static void write_level(cap_tls *t, level *l, uint8_t *px, binds *b)
{
    static _Atomic int told;
    if (read_layers(t, l, px) != 0) {
        if (!atomic_exchange(&told, 1))
            cap_log("%s %u level %d could not be read back: its writes before the start are missing",
                    is_rb(l) ? "renderbuffer" : "texture", l->tex, l->level);
        return;
    }
    size_t npx = (size_t)l->w * (size_t)l->h * (size_t)l->d;
    pack(l, px, npx);
    if (is_rb(l)) {
        write_renderbuffer(t, l, px, npx * l->n, b);
        return;
    }
    bind(t, b, bind_target(l->face), l->tex);
    if (layered(l->face) && l->immutable)
        cap_write_call(t, "texture-level-3d",
                       (int64_t[]){l->face, l->level, 0, 0, 0, l->w, l->h, l->d, l->fmt, l->type, 0}, px,
                       npx * l->n);
    else if (layered(l->face))
        cap_write_call(t, "texture-image-3d",
                       (int64_t[]){l->face, l->level, l->ifmt, l->w, l->h, l->d, 0, l->fmt, l->type, 0}, px,
                       npx * l->n);
    else if (l->immutable)
        cap_write_call(t, "texture-level", (int64_t[]){l->face, l->level, 0, 0, l->w, l->h, l->fmt, l->type, 0}, px,
                       npx * l->n);
    else
        cap_write_call(t, "texture-image",
                       (int64_t[]){l->face, l->level, l->ifmt, l->w, l->h, 0, l->fmt, l->type, 0}, px, npx * l->n);
}

/* Writes the changed levels (of object `name` in the renderbuffers' name
 * space or the textures', or all: 0), after the state commands held
 * before them. */
static void write_changed(cap_tls *t, uint32_t name, int rb)
{
    struct cap_texhold *h = t->th;
    size_t most = 0;
    int any = 0;
    for (uint32_t i = 0; h && i < h->n; i++)
        if (h->v[i].changed && of(&h->v[i], name, rb)) {
            any = 1;
            size_t bytes = (size_t)h->v[i].w * (size_t)h->v[i].h * (size_t)h->v[i].d * read_size(&h->v[i]);
            most = bytes > most ? bytes : most;
        }
    if (!any || h->busy || !t->cs)
        return;
    uint8_t *px = malloc(most);
    if (!px) {
        cap_log("no memory to read back a texture level of %zu bytes: its writes before the start are missing",
                most);
        return;
    }
    h->busy = 1;
    cap_defer_flush(t);
    unpack u;
    unpack_set(t, &u);
    binds b;
    for (int i = 0; i < TH_TARGETS; i++)
        b.app[i] = b.on[i] = i < 2 || t->es_major >= 3 ? bound(targets[i]) : 0;
    for (uint32_t i = 0; i < h->n; i++) {
        level *l = &h->v[i];
        if (!l->changed || !of(l, name, rb))
            continue;
        write_level(t, l, px, &b);
        l->changed = 0, t->th_changed--;
    }
    for (int i = 0; i < TH_TARGETS; i++)
        if (b.on[i] != b.app[i])
            cap_write_call(t, "bind-texture", (int64_t[]){targets[i], b.app[i]}, NULL, 0);
    unpack_back(t, &u);
    h->busy = 0;
    free(px);
}

void cap_texhold_reading(cap_tls *t)
{
    write_changed(t, 0, 0);
}

void cap_texhold_touch(cap_tls *t, uint32_t target)
{
    uint32_t bind = target == GL_TEXTURE_CUBE_MAP ? target : bind_target(target);
    uint32_t tex = bind && t->es_major >= (layered(bind) ? 3 : 2) ? bound(bind) : 0;
    if (!tex || !t->th || t->th->busy)
        return;
    write_changed(t, tex, 0);
    for (uint32_t i = t->th->n; i-- > 0;)
        if (of(&t->th->v[i], tex, 0))
            forget(t, &t->th->v[i]);
}

static struct cap_texhold *table(cap_tls *t)
{
    if (!t->th && !(t->th = calloc(1, sizeof *t->th)))
        cap_log("no memory to leave texture uploads out before the start: they are written");
    return t->th;
}

/* A command that changes level `lv` of texture `tex`, named (a clear of
 * it): not written when every face of the level is followed here; when
 * some are, the texture is written and forgotten, and the command written. */
int cap_texhold_named(cap_tls *t, uint32_t tex, int32_t lv)
{
    struct cap_texhold *h = t->th;
    int n = 0, cube = 0;
    for (uint32_t i = 0; h && !h->busy && i < h->n; i++)
        if (of(&h->v[i], tex, 0) && h->v[i].level == lv)
            n++, cube |= bind_target(h->v[i].face) == GL_TEXTURE_CUBE_MAP;
    if (!n)
        return 0;
    if (n == (cube ? 6 : 1)) {
        for (uint32_t i = 0; i < h->n; i++)
            if (of(&h->v[i], tex, 0) && h->v[i].level == lv)
                changed(t, &h->v[i]);
        return 1;
    }
    write_changed(t, tex, 0);
    for (uint32_t i = h->n; i-- > 0;)
        if (of(&h->v[i], tex, 0))
            forget(t, &h->v[i]);
    return 0;
}

void cap_texhold_pinned(cap_tls *t, uint32_t tex)
{
    struct cap_texhold *h = tex && t->es_major >= 2 ? table(t) : NULL;
    if (!h)
        return;
    for (uint32_t i = 0; i < h->nattached; i++)
        if (h->attached[i] == tex)
            return;
    if (h->nattached < TH_LEVELS)
        h->attached[h->nattached++] = tex;
    else
        h->nattached = TH_LEVELS + 1; /* too many to follow: every deleted level written */
}

/* Whether tex was attached (and is no longer followed). */
static int unattach(struct cap_texhold *h, uint32_t tex)
{
    if (h->nattached > TH_LEVELS)
        return 1;
    for (uint32_t i = 0; i < h->nattached; i++)
        if (h->attached[i] == tex) {
            h->attached[i] = h->attached[--h->nattached];
            return 1;
        }
    return 0;
}

/* A deleted texture a framebuffer may still hold is written first: its
 * name no longer finds it, so draws through that framebuffer are then
 * written. */
void cap_texhold_deleted(cap_tls *t, int32_t n, const uint32_t *names)
{
    for (int32_t k = 0; names && k < n && t->th && !t->th->busy; k++) {
        if (!names[k])
            continue;
        if (unattach(t->th, names[k]))
            write_changed(t, names[k], 0);
        for (uint32_t i = t->th->n; i-- > 0;)
            if (of(&t->th->v[i], names[k], 0))
                forget(t, &t->th->v[i]);
    }
}

/* A deleted renderbuffer is written first when changed: only a
 * framebuffer draws into one, and it may still hold it. */
void cap_texhold_rb_deleted(cap_tls *t, int32_t n, const uint32_t *names)
{
    for (int32_t k = 0; names && k < n && t->th && !t->th->busy; k++) {
        level *l = names[k] ? find(t, names[k], GL_RENDERBUFFER, 0) : NULL;
        if (!l)
            continue;
        write_changed(t, names[k], 1);
        if ((l = find(t, names[k], GL_RENDERBUFFER, 0)) != NULL)
            forget(t, l);
    }
}

void cap_texhold_leave(cap_tls *t)
{
    write_changed(t, 0, 0);
    if (t->th && !t->th->busy)
        t->th->n = 0, t->th->nattached = 0, t->th_levels = 0, t->th_changed = 0;
}
