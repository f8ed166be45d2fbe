/* rp_trim_draws.c: the draws of a trim's setup into textures, left out,
 * and the textures' pixels read back at the start and written instead as
 * uploads (TRIM.md step 9).
 *
 * A program that renders into textures and never swaps (a browser's GPU
 * process: tiles, compositor layers) keeps every draw into a texture that
 * is alive at the start, and with it everything those draws read: its
 * setup grows with the start. GLES can read back a colour texture through
 * a framebuffer, so the draws need not stay: what they left is read at the
 * start by the replay that plans the trim, and written as glTexSubImage2D
 * records before the start marker (rp_trim_write.c).
 *
 * Walked backwards from the start, a draw, clear or blit goes when
 * everything it writes can be written so (a colour attachment that is a
 * 2D texture level or a cube face of a format read back exactly, of the
 * start's share group, a single-sampled renderbuffer of such a format on
 * GLES 3.2, written through a texture and glCopyImageSubData as capture
 * writes one, or a pbuffer's colour buffer) or is replaced whole
 * before the start (a clear of all of it, a deletion; a clear of all of a
 * colour buffer is taken to end what the depth and stencil beside it held:
 * a guess), and nothing kept after it reads what it wrote. What reads a texture: a
 * kept draw (the textures its program's samplers use, asked of the
 * replay's driver, and what it draws into), a read through a framebuffer
 * (`pixels reads`: a pixel read into a buffer, a copy, a blit), mipmap
 * generation, storage or an EGL image target (a contents record with
 * neither a level nor a pname, as step 7 has them). A copy between any
 * objects, a compute dispatch, a draw with storage or images, an EGL
 * image made or a pbuffer bound as a texture read every texture. A
 * deletion ends what a texture held: draws into it before go, and need
 * nothing written back. GLES 1 draws stay and read every texture bound.
 * An upload of a region (glTexSubImage2D, note_upload) is a draw that
 * reads nothing; a level only uploaded into is read back when written in
 * UPLOADS_MIN or more. A depth or stencil buffer, or a colour
 * renderbuffer not read back (multisampled), that never carried what it
 * held into the next frame is taken as cleared before the kept frames
 * read it: a guess, as is the pass a colour clear begins.
 *
 * The check of the result compares the state at the start (bound
 * textures' pixels included) and the kept frames' pixels; when it fails,
 * the trim is made again keeping these draws (--keep-texture-draws). */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_trace.h"
#include "gt_texel.h"

enum { EV_DRAW, EV_READ, EV_KILL, EV_BARRIER };

enum { IMG_TEX, IMG_RB, IMG_SURF };   /* a texture level (a cube face), a renderbuffer, a surface's buffer */
enum { ASP_COLOR, ASP_DEPTH, ASP_STENCIL };

typedef struct image { /* what a draw writes into */
    uint64_t key;      /* in the walk: a texture (all its levels), or a renderbuffer's or surface's buffer */
    uint64_t surface;  /* IMG_SURF: the recorded EGLSurface */
    uint32_t name, face, level; /* IMG_TEX: replayed name, GL_TEXTURE_2D or the cube face, level */
    uint8_t kind, aspect;
    int group;
    int restorable;    /* read back at the start: a texture's colour or a pbuffer's */
    size_t restore;    /* index in plan->restores or plan->surfaces */
    uint8_t painted;   /* written by a draw, clear or blit */
    uint32_t uploads;  /* written by glTexSubImage2D (note_upload) */
    uint8_t fresh;     /* written (drawn into, cleared) in the frame under way */
    uint8_t holds;     /* a stencil buffer read back at the start with a value not 0: no guess clears it */
    uint8_t drawn;     /* drawn into since its last whole clear */
    uint8_t crossed;   /* and a frame ended since */
    uint8_t carried;   /* read by a test, a read or a draw over it after that (a colour buffer's: by a read, or
                          a draw or clear that leaves some of it): it carries what it holds into the next frame */
} image;

typedef struct event {
    uint64_t seq;
    uint8_t kind, droppable, upload; /* upload: an EV_DRAW that is a glTexSubImage2D */
    uint32_t at, nw, nr, nk; /* ids[at..): images written (indices), keys read, images a whole clear replaced */
    uint32_t ca_at, nca; /* a draw's client array records: cas[ca_at..) */
    uint64_t dest;       /* a read's: the texture it writes into (a copy, mipmaps), 0 another place */
} event;

#define PEND 64
#define UPLOADS_MIN 3 /* uploads into a level (never drawn into) for it to be read back at the start */
#define SURFACE (1ull << 63)
#define ENDS (1ull << 63) /* in an event's cleared images: one a colour clear's pass is guessed to end */
#define RBUF (1ull << 62)

struct rp_trim_draws {
    event *ev;
    size_t n, cap;
    uint64_t *ids;
    size_t nids, capids;
    uint64_t *cas;
    size_t ncas, capcas;
    image *img;
    size_t nimg, capimg;
    rp_map img_of;   /* (texture, face, level) hash -> index + 1 */
    uint64_t pend[PEND]; /* client array records waiting for their draw */
    int npend;
    int32_t pend_ctx;
    rp_map swapped;  /* surfaces swapped (their pixels are the window's business, step 2) */
    int swaps;       /* a swap was seen: frames end there, else at snapshots (an app that never swaps) */
    int oom;
};

rp_trim_draws *rp_trim_draws_new(void)
{
    return calloc(1, sizeof(rp_trim_draws));
}

void rp_trim_draws_free(rp_trim_draws *d)
{
    if (!d)
        return;
    free(d->ev), free(d->ids), free(d->cas), free(d->img);
    rp_map_free(&d->img_of);
    rp_map_free(&d->swapped);
    free(d);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size, int *oom)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        *oom = 1;
        return NULL;
    }
    *cap = c;
    return q;
}

static uint64_t tex_key(const rp *r, uint32_t name)
{
    return (uint64_t)(uint32_t)r->ctx[r->cur_ctx].group << 32 | name;
}

static int push_id(rp_trim_draws *d, uint64_t id)
{
    uint64_t *ids = grow(d->ids, &d->capids, d->nids + 1, sizeof *ids, &d->oom);
    if (!ids)
        return -1;
    d->ids = ids;
    d->ids[d->nids++] = id;
    return 0;
}

/* The index of an image, made on first use (from `proto`); -1: out of
 * memory. */
static long image_get(rp_trim_draws *d, const image *proto)
{
    uint64_t h = (proto->key * 0x9e3779b97f4a7c15ull ^ (uint64_t)proto->face << 20 ^ proto->level ^
                  (uint64_t)proto->aspect << 40) | 1, v;
    if (rp_map_get(&d->img_of, h, &v) && v)
        return (long)v - 1;
    image *img = grow(d->img, &d->capimg, d->nimg + 1, sizeof *img, &d->oom);
    if (!img)
        return -1;
    d->img = img;
    d->img[d->nimg] = *proto;
    if (rp_map_put(&d->img_of, h, d->nimg + 1) != 0)
        return d->oom = 1, -1;
    return (long)d->nimg++;
}

/* ---------------------------------------------------------------- what a draw writes */

/* What an attachment point of the bound framebuffer (fb 0: the surface)
 * is, as an image in *img, with its size; 0 none, 1 an image, -1 one this
 * step cannot follow (a layer of a 3D or array texture, multisampled). */
static int attachment(rp_trim_draws *d, rp *r, GLenum fbt, GLint fb, GLenum att, int aspect, long *img, GLint *w,
                      GLint *h)
{
    image im = {.aspect = (uint8_t)aspect, .group = r->ctx[r->cur_ctx].group};
    *w = *h = -1;
    if (!fb) {
        uint64_t surface = !r->mc_thr ? 0 : fbt == GL_READ_FRAMEBUFFER ? r->mc_thr->read : r->mc_thr->draw;
        GLint bits = 1; /* refused: taken as there */
        if (aspect != ASP_COLOR)
            glGetIntegerv(aspect == ASP_DEPTH ? GL_DEPTH_BITS : GL_STENCIL_BITS, &bits);
        if (!surface || !bits)
            return surface ? 0 : -1;
        im.kind = IMG_SURF, im.surface = surface, im.key = SURFACE | (uint64_t)aspect << 56 | surface;
        *img = image_get(d, &im);
        return *img < 0 ? -1 : 1;
    }
    GLint type = GL_NONE, name = 0, level = 0, face = 0, samples = 0;
    glGetFramebufferAttachmentParameteriv(fbt, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_NONE)
        return 0;
    glGetFramebufferAttachmentParameteriv(fbt, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    if (type == GL_RENDERBUFFER) {
        GLint old = 0;
        glGetIntegerv(GL_RENDERBUFFER_BINDING, &old);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, w);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, h);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)old);
        im.kind = IMG_RB, im.name = (uint32_t)name;
        im.key = RBUF | (uint64_t)aspect << 56 | tex_key(r, (uint32_t)name);
        *img = image_get(d, &im);
        return *img < 0 ? -1 : 1;
    }
    glGetFramebufferAttachmentParameteriv(fbt, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    glGetFramebufferAttachmentParameteriv(fbt, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
    /* EXT_multisampled_render_to_texture's samples (refused without it) */
    glGetFramebufferAttachmentParameteriv(fbt, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_SAMPLES_EXT, &samples);
    uint64_t target = 0;
    rp_map_get(&r->tex_targets, tex_key(r, (uint32_t)name), &target);
    if ((target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP) || samples > 0)
        return -1;
    GLenum lt = face ? (GLenum)face : GL_TEXTURE_2D;
    GLenum binding = target == GL_TEXTURE_2D ? GL_TEXTURE_BINDING_2D : GL_TEXTURE_BINDING_CUBE_MAP;
    GLint old = 0;
    glGetIntegerv(binding, &old);
    glBindTexture((GLenum)target, (GLuint)name);
    glGetTexLevelParameteriv(lt, level, GL_TEXTURE_WIDTH, w);
    glGetTexLevelParameteriv(lt, level, GL_TEXTURE_HEIGHT, h);
    glBindTexture((GLenum)target, (GLuint)old);
    im.kind = IMG_TEX, im.key = tex_key(r, (uint32_t)name), im.name = (uint32_t)name, im.face = lt;
    im.level = (uint32_t)level;
    *img = image_get(d, &im);
    return *img < 0 ? -1 : 1;
}

/* ---------------------------------------------------------------- what a draw reads */

static GLenum sampler_target(GLenum type)
{
    switch (type) {
    case GL_SAMPLER_2D: case GL_SAMPLER_2D_SHADOW: case GL_INT_SAMPLER_2D: case GL_UNSIGNED_INT_SAMPLER_2D:
        return GL_TEXTURE_BINDING_2D;
    case GL_SAMPLER_CUBE: case GL_SAMPLER_CUBE_SHADOW: case GL_INT_SAMPLER_CUBE: case GL_UNSIGNED_INT_SAMPLER_CUBE:
        return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_SAMPLER_3D: case GL_INT_SAMPLER_3D: case GL_UNSIGNED_INT_SAMPLER_3D:
        return GL_TEXTURE_BINDING_3D;
    case GL_SAMPLER_2D_ARRAY: case GL_SAMPLER_2D_ARRAY_SHADOW: case GL_INT_SAMPLER_2D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY:
        return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_SAMPLER_EXTERNAL_OES:
        return GL_TEXTURE_BINDING_EXTERNAL_OES;
    case GL_SAMPLER_2D_MULTISAMPLE: case GL_INT_SAMPLER_2D_MULTISAMPLE: case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
        return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_SAMPLER_2D_MULTISAMPLE_ARRAY: case GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
        return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    case GL_SAMPLER_CUBE_MAP_ARRAY: case GL_SAMPLER_CUBE_MAP_ARRAY_SHADOW: case GL_INT_SAMPLER_CUBE_MAP_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY:
        return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    case GL_SAMPLER_BUFFER: case GL_INT_SAMPLER_BUFFER: case GL_UNSIGNED_INT_SAMPLER_BUFFER:
        return GL_TEXTURE_BINDING_BUFFER;
    default:
        return 0;
    }
}

static int is_image_type(GLenum type)
{
    return (type >= GL_IMAGE_2D && type <= GL_UNSIGNED_INT_IMAGE_CUBE) ||
           (type >= GL_IMAGE_BUFFER && type <= GL_UNSIGNED_INT_IMAGE_CUBE_MAP_ARRAY) ||
           type == GL_IMAGE_CUBE_MAP_ARRAY || type == GL_INT_IMAGE_CUBE_MAP_ARRAY;
}

/* The texture bound to `binding` on texture unit `unit`. */
static uint32_t bound_on(GLint unit, GLenum binding)
{
    GLint active = GL_TEXTURE0, name = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    glGetIntegerv(binding, &name);
    glActiveTexture((GLenum)active);
    return (uint32_t)name;
}

/* Every texture bound on every unit, as read (GLES 1, a sampler array). */
static int read_all_bound(rp_trim_draws *d, rp *r, GLenum only, uint32_t *nr)
{
    static const GLenum bindings[] = {GL_TEXTURE_BINDING_2D, GL_TEXTURE_BINDING_CUBE_MAP, GL_TEXTURE_BINDING_3D,
                                      GL_TEXTURE_BINDING_2D_ARRAY, GL_TEXTURE_BINDING_EXTERNAL_OES};
    GLint units = 0;
    glGetIntegerv(r->ctx[r->cur_ctx].version >= 2 ? GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS : GL_MAX_TEXTURE_UNITS,
                  &units);
    for (GLint u = 0; u < units && u < 256; u++)
        for (size_t b = 0; b < sizeof bindings / sizeof bindings[0]; b++) {
            if (only && bindings[b] != only)
                continue;
            uint32_t name = bound_on(u, bindings[b]);
            if (name && push_id(d, tex_key(r, name)) == 0)
                ++*nr;
        }
    return d->oom ? -1 : 0;
}

/* The textures the program in use samples: each sampler uniform's unit
 * and the texture bound there to its type's target. 1 when the program
 * has image uniforms (it reads and writes any texture). */
static int read_sampled(rp_trim_draws *d, rp *r, GLuint prog, uint32_t *nr)
{
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    for (GLint i = 0; i < n; i++) {
        char name[256];
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name, &len, &size, &type, name);
        if (is_image_type(type))
            return 1;
        GLenum binding = sampler_target(type);
        if (!binding)
            continue;
        if (size > 1) { /* an array: every unit it may name */
            read_all_bound(d, r, binding, nr);
            continue;
        }
        GLint unit = 0, loc = glGetUniformLocation(prog, name);
        if (loc < 0)
            continue;
        glGetUniformiv(prog, loc, &unit);
        uint32_t tex = bound_on(unit, binding);
        if (tex && push_id(d, tex_key(r, tex)) == 0)
            ++*nr;
    }
    return 0;
}

/* Whether the draw has effects beyond its framebuffer: transform
 * feedback, storage blocks, atomic counters (GLES 3.1). */
/* A texture bound to an image unit (GLES 3.1): a draw may store into it
 * (whether the program does is not asked). */
static int images_bound(void)
{
    GLint units = 0, name = 0;
    glGetIntegerv(GL_MAX_IMAGE_UNITS, &units);
    for (GLint i = 0; i < units && i < 32 && !name; i++)
        glGetIntegeri_v(GL_IMAGE_BINDING_NAME, (GLuint)i, &name);
    return name != 0;
}

int rp_draw_side_effects(rp *r, GLuint prog)
{
    GLboolean xfb = GL_FALSE;
    GLint ssbo = 0, atomics = 0, major = 0, minor = 0;
    if (r->ctx[r->cur_ctx].version < 3)
        return 0;
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &xfb);
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (prog && major * 10 + minor >= 31) {
        glGetProgramiv(prog, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, &atomics);
        glGetProgramInterfaceiv(prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &ssbo);
    }
    return xfb || ssbo || atomics || (major * 10 + minor >= 31 && images_bound());
}

/* ---------------------------------------------------------------- the events */

static event *new_event(rp_trim_draws *d, uint64_t seq, int kind)
{
    event *ev = grow(d->ev, &d->cap, d->n + 1, sizeof *ev, &d->oom);
    if (!ev)
        return NULL;
    d->ev = ev;
    event *e = &d->ev[d->n++];
    *e = (event){.seq = seq, .kind = (uint8_t)kind, .at = (uint32_t)d->nids};
    return e;
}

typedef struct drawn { /* a draw's or clear's images */
    long img[20];
    int aspect[20], n, whole[20];
    int ends[20];       /* not written: a depth or stencil buffer whose pass a colour clear began */
    int followed;       /* every attachment is one this step follows */
    GLint w, h, same;   /* the first image's size; whether all have it */
} drawn;

/* The images of the draw framebuffer written by a draw or clear (its mask,
 * or 0 for a draw): colour when a colour is written, depth and stencil
 * when their test (or the clear) writes them. `whole`: what a clear
 * replaces whole (no scissor, or a box covering it; every bit written). */
static void written(rp_trim_draws *d, rp *r, GLint fb, int clear, GLbitfield mask, drawn *dw)
{
    int es3 = r->ctx[r->cur_ctx].version >= 3;
    GLenum fbt = es3 ? GL_DRAW_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLboolean cm[4] = {0}, dm = GL_FALSE;
    GLint sm = 0, smb = 0, max = 1;
    glGetBooleanv(GL_COLOR_WRITEMASK, cm);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &dm);
    glGetIntegerv(GL_STENCIL_WRITEMASK, &sm);
    glGetIntegerv(GL_STENCIL_BACK_WRITEMASK, &smb);
    int scissor = glIsEnabled(GL_SCISSOR_TEST), discard = es3 && glIsEnabled(GL_RASTERIZER_DISCARD);
    int color = (cm[0] || cm[1] || cm[2] || cm[3]) && (!clear || (mask & GL_COLOR_BUFFER_BIT));
    int depth = dm && (clear ? (mask & GL_DEPTH_BUFFER_BIT) != 0 : glIsEnabled(GL_DEPTH_TEST));
    int stencil = (clear ? (mask & GL_STENCIL_BUFFER_BIT) && sm : glIsEnabled(GL_STENCIL_TEST) && (sm || smb));
    if (fb && es3)
        glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max);
    dw->n = 0, dw->followed = 1, dw->same = 1, dw->w = dw->h = -1;
    for (GLint i = -2; i < (fb ? max : 1) && i < 16; i++) {
        int aspect = i == -2 ? ASP_DEPTH : i == -1 ? ASP_STENCIL : ASP_COLOR;
        GLenum att = i == -2 ? GL_DEPTH_ATTACHMENT : i == -1 ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (GLenum)i;
        long img = -1;
        GLint w, h;
        int got = attachment(d, r, fbt, fb, att, aspect, &img, &w, &h);
        if (got < 0)
            dw->followed = 0;
        if (got <= 0)
            continue;
        if (dw->w < 0)
            dw->w = w, dw->h = h;
        dw->same &= w == dw->w && h == dw->h;
        int wr = aspect == ASP_COLOR ? color : aspect == ASP_DEPTH ? depth : stencil;
        if (!wr || dw->n == 20)
            continue;
        dw->img[dw->n] = img, dw->aspect[dw->n] = aspect, dw->ends[dw->n] = 0;
        dw->whole[dw->n] = clear && !discard &&
                           (aspect == ASP_COLOR ? cm[0] && cm[1] && cm[2] && cm[3]
                                                : aspect == ASP_DEPTH ? 1 : (sm & 0xff) == 0xff);
        dw->n++;
    }
    if (scissor) { /* a box that covers the attachments leaves all of them to a clear (mpv clears so) */
        GLint box[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_SCISSOR_BOX, box);
        scissor = dw->w <= 0 || box[0] > 0 || box[1] > 0 || (int64_t)box[0] + box[2] < dw->w ||
                  (int64_t)box[1] + box[3] < dw->h;
    }
    for (int k = 0; k < dw->n; k++)
        dw->whole[k] &= dw->same && !scissor;
    /* A clear of all of a colour buffer starts a pass: what the depth and
     * stencil buffers beside it held is taken as not read after it (an
     * app clears them too, or leaves stencil as it found it, as Skia's
     * stencil-then-cover paths do); a guess the check of the trim tests. */
    int pass = 0;
    for (int k = 0; k < dw->n; k++)
        pass |= dw->whole[k] && dw->aspect[k] == ASP_COLOR;
    for (GLint i = -2; pass && i < 0 && dw->n < 20; i++) {
        long img = -1;
        GLint w, h;
        int aspect = i == -2 ? ASP_DEPTH : ASP_STENCIL, dup = 0;
        if (attachment(d, r, fbt, fb, i == -2 ? GL_DEPTH_ATTACHMENT : GL_STENCIL_ATTACHMENT, aspect, &img, &w, &h) <= 0)
            continue;
        for (int k = 0; k < dw->n; k++)
            dup |= dw->img[k] == img;
        if (!dup)
            dw->img[dw->n] = img, dw->aspect[dw->n] = aspect, dw->whole[dw->n] = 1, dw->ends[dw->n++] = 1;
    }
}

/* A draw or clear, after the replay made it. */
static int note_draw(rp_trim_draws *d, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq, int clear)
{
    GLint fb = 0, prog = 0;
    int version = r->ctx[r->cur_ctx].version;
    if (!clear && (!f->nparams || strcmp(f->params[0].name, "mode") != 0)) { /* a compute dispatch */
        new_event(d, seq, EV_BARRIER);
        return d->oom ? -1 : 0;
    }
    if (!new_event(d, seq, EV_DRAW))
        return -1;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fb);
    if (version >= 2)
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    GLbitfield mask = clear && m->n_args ? (GLbitfield)rp_arg_u(m, 0) : 0;
    drawn dw;
    written(d, r, fb, clear, mask, &dw);
    int droppable = version >= 2 && (clear || prog != 0) && dw.followed;
    for (int k = 0; k < dw.n; k++)
        if (!dw.ends[k] && push_id(d, (uint64_t)dw.img[k]) == 0)
            d->ev[d->n - 1].nw++;
    if (!clear) {
        int barrier = rp_draw_side_effects(r, (GLuint)prog);
        if (!barrier && prog)
            barrier = read_sampled(d, r, (GLuint)prog, &d->ev[d->n - 1].nr);
        else if (!barrier)
            read_all_bound(d, r, 0, &d->ev[d->n - 1].nr);
        if (barrier)
            d->ev[d->n - 1].kind = EV_BARRIER, droppable = 0;
        /* What its tests read (a kept draw's: a left out one reads nothing). */
        GLint w, h;
        long img;
        int es3 = version >= 3;
        if (glIsEnabled(GL_DEPTH_TEST) &&
            attachment(d, r, es3 ? GL_DRAW_FRAMEBUFFER : GL_FRAMEBUFFER, fb, GL_DEPTH_ATTACHMENT, ASP_DEPTH, &img, &w,
                       &h) > 0 &&
            push_id(d, d->img[img].key) == 0) {
            d->ev[d->n - 1].nr++;
            d->img[img].carried |= d->img[img].crossed;
        }
        if (glIsEnabled(GL_STENCIL_TEST) &&
            attachment(d, r, es3 ? GL_DRAW_FRAMEBUFFER : GL_FRAMEBUFFER, fb, GL_STENCIL_ATTACHMENT, ASP_STENCIL, &img,
                       &w, &h) > 0 &&
            push_id(d, d->img[img].key) == 0) {
            d->ev[d->n - 1].nr++;
            d->img[img].carried |= d->img[img].crossed;
        }
        /* Its client arrays go with it. */
        event *e = &d->ev[d->n - 1];
        uint64_t *cas = grow(d->cas, &d->capcas, d->ncas + (size_t)d->npend, sizeof *cas, &d->oom);
        if (cas) {
            d->cas = cas;
            e->ca_at = (uint32_t)d->ncas, e->nca = (uint32_t)d->npend;
            for (int i = 0; i < d->npend; i++)
                d->cas[d->ncas++] = d->pend[i];
        }
        if (d->npend == PEND)
            droppable = 0; /* more arrays than it holds: some would stay without their draw */
    }
    for (int k = 0; clear && k < dw.n; k++)
        if (dw.whole[k] && push_id(d, (uint64_t)dw.img[k] | (dw.ends[k] ? ENDS : 0)) == 0)
            d->ev[d->n - 1].nk++;
    for (int k = 0; k < dw.n; k++) { /* after its tests read: what it leaves */
        image *im = &d->img[dw.img[k]];
        im->painted = 1;
        im->fresh |= !dw.ends[k];
        if (im->aspect == ASP_COLOR && !(clear && dw.whole[k]))
            im->carried |= im->crossed; /* drawn over what an earlier frame left */
        im->drawn = !(clear && dw.whole[k]) && !dw.ends[k];
        im->crossed &= im->drawn;
    }
    d->ev[d->n - 1].droppable = (uint8_t)droppable;
    return d->oom ? -1 : 0;
}

/* The textures attached to the read and draw framebuffers, read (a pixel
 * read, a copy, a blit: the draw side is what a blit writes only in part). */
static int note_read(rp_trim_draws *d, rp *r, uint64_t seq, uint64_t dest)
{
    if (!new_event(d, seq, EV_READ))
        return -1;
    d->ev[d->n - 1].dest = dest;
    int es3 = r->ctx[r->cur_ctx].version >= 3;
    GLenum fbs[2] = {es3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, es3 ? GL_DRAW_FRAMEBUFFER : 0};
    GLint max = 1;
    if (es3)
        glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max);
    for (int k = 0; k < 2 && fbs[k]; k++) {
        GLint fb = 0;
        glGetIntegerv(k == 0 && es3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fb);
        for (GLint i = -2; i < (fb ? max : 1) && i < 16; i++) {
            int aspect = i == -2 ? ASP_DEPTH : i == -1 ? ASP_STENCIL : ASP_COLOR;
            GLenum att = i == -2 ? GL_DEPTH_ATTACHMENT : i == -1 ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (GLenum)i;
            long img = -1;
            GLint w, h;
            if (attachment(d, r, fbs[k], fb, att, aspect, &img, &w, &h) > 0 && push_id(d, d->img[img].key) == 0) {
                d->ev[d->n - 1].nr++;
                d->img[img].carried |= d->img[img].crossed;
            }
        }
    }
    return d->oom ? -1 : 0;
}

/* A blit (a pixels read with a `filter`): a draw-like write of the draw
 * framebuffer's images its mask names, whatever the write masks, that
 * reads the read framebuffer's. It goes like a draw: a multisampled
 * renderbuffer resolved into a texture then needs no pass drawn into it. */
static int note_blit(rp_trim_draws *d, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq)
{
    GLbitfield mask = 0;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
        if (!strcmp(f->params[i].name, "mask"))
            mask = (GLbitfield)rp_arg_u(m, i);
    if (!new_event(d, seq, EV_DRAW))
        return -1;
    int droppable = 1;
    for (int k = 1; k >= 0; k--) { /* the draw side (writes) first, then the read side */
        GLenum fbt = k ? GL_DRAW_FRAMEBUFFER : GL_READ_FRAMEBUFFER;
        GLint fb = 0, max = 1;
        glGetIntegerv(k ? GL_DRAW_FRAMEBUFFER_BINDING : GL_READ_FRAMEBUFFER_BINDING, &fb);
        if (fb)
            glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max);
        for (GLint i = -2; i < (fb ? max : 1) && i < 16; i++) {
            int aspect = i == -2 ? ASP_DEPTH : i == -1 ? ASP_STENCIL : ASP_COLOR;
            GLbitfield bit = aspect == ASP_DEPTH ? GL_DEPTH_BUFFER_BIT
                                                 : aspect == ASP_STENCIL ? GL_STENCIL_BUFFER_BIT : GL_COLOR_BUFFER_BIT;
            GLenum att = i == -2 ? GL_DEPTH_ATTACHMENT : i == -1 ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (GLenum)i;
            long img = -1;
            GLint w, h;
            int got = attachment(d, r, fbt, fb, att, aspect, &img, &w, &h);
            if (got < 0 && k)
                droppable = 0;
            if (got <= 0 || !(mask & bit))
                continue;
            if (push_id(d, k ? (uint64_t)img : d->img[img].key) == 0)
                ++*(k ? &d->ev[d->n - 1].nw : &d->ev[d->n - 1].nr);
            if (k)
                d->img[img].painted = d->img[img].fresh = 1;
            else
                d->img[img].carried |= d->img[img].crossed; /* read after a frame ended */
        }
    }
    d->ev[d->n - 1].droppable = (uint8_t)droppable;
    return d->oom ? -1 : 0;
}

/* An upload of a region of a 2D texture's or a cube face's level from
 * client memory or a pixel unpack buffer (glTexSubImage2D: an `xoffset`
 * and a `type`, no `zoffset`): a draw-like write of that level, which
 * reads no texture. A level written so in UPLOADS_MIN or more uploads
 * (or drawn into) is read back at the start: the uploads go like draws
 * (a text atlas a browser writes glyphs into every frame kept every
 * upload, its setup growing with the start). */
static int note_upload(rp_trim_draws *d, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq)
{
    int64_t target = rp_trim_arg(f, m, "target", 0), level = rp_trim_arg(f, m, "level", -1);
    int cls = 0;
    uint32_t name = target > 0 ? rp_trim_bound((uint32_t)target, &cls) : 0;
    uint64_t kind = 0;
    if (name)
        rp_map_get(&r->tex_targets, tex_key(r, name), &kind);
    if (!name || cls != GT_STATE_TEXTURE_NAME || level < 0 || level > 15 ||
        (kind != GL_TEXTURE_2D && kind != GL_TEXTURE_CUBE_MAP))
        return 0; /* not followed: it stays, and writes nothing this step reads */
    image im = {.kind = IMG_TEX, .key = tex_key(r, name), .name = name, .face = (uint32_t)target,
                .level = (uint32_t)level, .aspect = ASP_COLOR, .group = r->ctx[r->cur_ctx].group};
    long img = image_get(d, &im);
    if (img < 0 || !new_event(d, seq, EV_DRAW) || push_id(d, (uint64_t)img) != 0)
        return -1;
    event *e = &d->ev[d->n - 1];
    e->nw = 1, e->upload = 1, e->droppable = r->ctx[r->cur_ctx].version >= 2;
    d->img[img].uploads++;
    return 0;
}

/* The textures a glDeleteTextures names: what they held ends. */
static int note_delete(rp_trim_draws *d, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq)
{
    size_t len = 0;
    const uint8_t *bytes = rp_arg_bytes(m, f->obj_param, &len);
    event *e = new_event(d, seq, EV_KILL);
    if (!e)
        return -1;
    for (size_t i = 0; bytes && i + 4 <= len; i += 4) {
        uint32_t rec;
        memcpy(&rec, bytes + i, 4);
        uint32_t name = rec ? rp_name(r, rp_class_of_state(GT_STATE_TEXTURE_NAME), rec) : 0;
        if (name && push_id(d, tex_key(r, name)) == 0)
            d->ev[d->n - 1].nr++;
    }
    return d->oom ? -1 : 0;
}

/* The texture a record writes through a binding (a copy from the
 * framebuffer, mipmap generation), as the walk keys it; 0 another place. */
static uint64_t written_texture(const rp *r, const gt_api_fn *f, const rp_msg *m)
{
    int cls = 0;
    uint32_t name = f->obj_role == GT_OBJ_CONTENTS && f->obj_where == GT_WHERE_BOUND && f->obj_param < m->n_args
                        ? rp_trim_bound((uint32_t)rp_arg_u(m, f->obj_param), &cls)
                        : 0;
    return name && cls == GT_STATE_TEXTURE_NAME ? tex_key(r, name) : 0;
}

int rp_trim_draws_note(rp_trim_draws *d, rp *r, const rp_msg *m, const rp_entry *e, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX)
        return 0;
    if (m->function == GT_FN_VERTEX_ATTRIB_POINTER_DATA) {
        if (d->pend_ctx != r->cur_ctx)
            d->npend = 0, d->pend_ctx = r->cur_ctx;
        if (d->npend < PEND)
            d->pend[d->npend++] = seq;
        return 0;
    }
    if ((m->function == GT_FN_SNAPSHOT || m->function == GT_FN_FRAME_END) && !d->swaps)
        for (size_t i = 0; i < d->nimg; i++) /* a frame of an app that never swaps ends (proto/gt_frames.c) */
            d->img[i].crossed |= d->img[i].drawn, d->img[i].fresh = 0;
    if (GT_FN_IS_SYNTHETIC(m->function))
        return 0; /* the records gltrace adds read no texture */
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    int rc = 0;
    rp_hold_errors(r);
    if (!f) {
        rc = new_event(d, seq, EV_BARRIER) ? 0 : -1;
    } else if (f->is_egl && f->cls == GT_CLASS_FRAME) {
        for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
            if (!strcmp(f->params[i].name, "surface"))
                rp_map_put(&d->swapped, rp_arg_u(m, i), 1);
        d->swaps = 1;
        for (size_t i = 0; i < d->nimg; i++)
            d->img[i].crossed |= d->img[i].drawn, d->img[i].fresh = 0;
    } else if (f->is_egl) {
        /* An EGL image made, or a pbuffer bound as a texture: a texture
         * is shared where this step does not follow it. */
        if (rp_trim_param(f, "buffer") >= 0)
            rc = new_event(d, seq, EV_BARRIER) ? 0 : -1;
    } else if (e && (e->cls == GT_CLASS_DRAW || e->pixels == RP_PIXELS_CLEARS)) {
        rc = note_draw(d, r, m, f, seq, e->cls != GT_CLASS_DRAW);
    } else if (e && e->pixels == RP_PIXELS_READS && r->ctx[r->cur_ctx].version >= 3 &&
               rp_trim_param(f, "filter") >= 0) {
        rc = note_blit(d, r, m, f, seq);
    } else if (e && e->pixels == RP_PIXELS_READS) {
        rc = note_read(d, r, seq, written_texture(r, f, m));
    } else if (f->obj_role == GT_OBJ_CONTENTS && rp_trim_param(f, "xoffset") >= 0 && rp_trim_param(f, "type") >= 0 &&
               rp_trim_param(f, "zoffset") < 0) {
        rc = note_upload(d, r, m, f, seq);
    } else if (f->obj_role == GT_OBJ_READS && f->obj_where == GT_WHERE_ALL) {
        rc = new_event(d, seq, EV_BARRIER) ? 0 : -1;
    } else if (f->obj_role == GT_OBJ_DELETES && f->obj_class == GT_STATE_TEXTURE_NAME) {
        rc = note_delete(d, r, m, f, seq);
    } else if (f->obj_role == GT_OBJ_CONTENTS && f->obj_where == GT_WHERE_BOUND && rp_trim_param(f, "level") < 0 &&
               rp_trim_param(f, "pname") < 0 && f->obj_param < m->n_args) {
        /* glGenerateMipmap, storage, an EGL image target: may read what came before */
        uint64_t dest = written_texture(r, f, m);
        event *ev = dest ? new_event(d, seq, EV_READ) : NULL;
        if (ev && push_id(d, dest) == 0)
            d->ev[d->n - 1].nr = 1, d->ev[d->n - 1].dest = dest;
        rc = d->oom ? -1 : 0;
    }
    if (!e || e->cls == GT_CLASS_DRAW)
        d->npend = 0;
    while (glGetError() != GL_NO_ERROR)
        ; /* what this step asked and the driver refused (a GLES 2 context) */
    return rc;
}

/* ---------------------------------------------------------------- the start: the textures read back */

typedef struct layout { /* how a texture level is read back and written */
    GLenum read_format, read_type; /* glReadPixels's: GL_RGBA, or GL_RGBA_INTEGER for an integer level */
    int channels;       /* kept of the four read, in order (BGRA: swapped) */
    GLenum format, type; /* glTexSubImage2D's */
    int swap;           /* red and blue swapped (BGRA) */
    int alpha_last;     /* the last channel kept is alpha, read as the fourth (alpha, luminance-alpha) */
} layout;

/* Integer colour (gt_texel_integer): read as four 32-bit integers, signed
 * or not as the format is, and written as its own type
 * (gt_texel_pack_ints). 0 for another format. */
static int integer_layout(GLint internal, layout *l)
{
    unsigned format, type;
    int comps;
    if (!gt_texel_integer((unsigned)internal, &format, &type, &comps))
        return 0;
    *l = (layout){GL_RGBA_INTEGER, gt_texel_signed(type) ? GL_INT : GL_UNSIGNED_INT, comps, format, type, 0, 0};
    return 1;
}

/* The layout of a texture level of this internal format (the sizes and
 * component type tell an unsized one), or 0 when it is not read back
 * exactly. */
static int layout_of(GLint internal, GLint red_bits, GLint alpha_bits, GLint ctype, layout *l)
{
    int unorm8 = red_bits == 8 && ctype == GL_UNSIGNED_NORMALIZED;
    *l = (layout){GL_RGBA, GL_UNSIGNED_BYTE, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0, 0};
    if (integer_layout(internal, l))
        return 1;
    switch (internal) {
    case GL_RGBA8: case GL_SRGB8_ALPHA8:
        return 1;
    case GL_RGBA:
        return unorm8 && alpha_bits == 8;
    case GL_BGRA_EXT: case GL_BGRA8_EXT:
        return l->format = GL_BGRA_EXT, l->swap = 1, unorm8;
    case GL_RGB8:
        return l->channels = 3, l->format = GL_RGB, 1;
    case GL_RGB:
        return l->channels = 3, l->format = GL_RGB, unorm8;
    case GL_R8:
        return l->channels = 1, l->format = GL_RED, 1;
    case GL_RG8:
        return l->channels = 2, l->format = GL_RG, 1;
    /* Float: read as floats; 16-bit ones written as halves (exact, half the bytes). */
    case GL_RGBA16F:
        return l->read_type = GL_FLOAT, l->type = GL_HALF_FLOAT, 1;
    case GL_RGBA32F:
        return l->read_type = l->type = GL_FLOAT, 1;
    case GL_RGB16F:
        return l->read_type = GL_FLOAT, l->type = GL_HALF_FLOAT, l->channels = 3, l->format = GL_RGB, 1;
    case GL_RGB32F:
        return l->read_type = l->type = GL_FLOAT, l->channels = 3, l->format = GL_RGB, 1;
    case GL_RG16F:
        return l->read_type = GL_FLOAT, l->type = GL_HALF_FLOAT, l->channels = 2, l->format = GL_RG, 1;
    case GL_RG32F:
        return l->read_type = l->type = GL_FLOAT, l->channels = 2, l->format = GL_RG, 1;
    case GL_R16F:
        return l->read_type = GL_FLOAT, l->type = GL_HALF_FLOAT, l->channels = 1, l->format = GL_RED, 1;
    case GL_R32F:
        return l->read_type = l->type = GL_FLOAT, l->channels = 1, l->format = GL_RED, 1;
    /* 16-bit normalized (EXT_texture_norm16: a 10-bit video's planes): read and written as such */
    case GL_R16_EXT:
        return l->read_type = l->type = GL_UNSIGNED_SHORT, l->channels = 1, l->format = GL_RED, 1;
    case GL_RG16_EXT:
        return l->read_type = l->type = GL_UNSIGNED_SHORT, l->channels = 2, l->format = GL_RG, 1;
    case GL_RGBA16_EXT:
        return l->read_type = l->type = GL_UNSIGNED_SHORT, 1;
    case GL_R11F_G11F_B10F: /* packed: 32 bits a pixel */
        return l->read_type = GL_FLOAT, l->type = GL_UNSIGNED_INT_10F_11F_11F_REV, l->channels = 3,
               l->format = GL_RGB, 1;
    default:
        return 0;
    }
}

/* The pixels of colour attachment 0 of replay's own framebuffer (w by h,
 * laid out as l), read into a new restore of the plan (its object left
 * for the caller); 0, or -1 when it cannot be (incomplete, refused). */
static int read_attached(const layout *lp, GLint w, GLint h, rp_trim_plan *plan)
{
    const layout l = *lp;
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return -1;
    int integer = l.read_format == GL_RGBA_INTEGER, wide = l.read_type == GL_FLOAT || integer;
    size_t comp = wide ? 4 : l.read_type == GL_UNSIGNED_SHORT ? 2 : 1, px = (size_t)w * (size_t)h;
    long written = gt_texel_bytes(l.format, l.type); /* a pixel's bytes as written */
    if (written <= 0)
        return -1;
    size_t opx = (size_t)written;
    uint8_t *rgba = malloc(px * 4 * comp);
    uint8_t *out = malloc(px * opx);
    struct rp_trim_restore *rs = realloc(plan->restores, (plan->nrestores + 1) * sizeof *rs);
    if (rs)
        plan->restores = rs;
    if (!rgba || !out || !rs) {
        free(rgba), free(out);
        return -1;
    }
    glReadPixels(0, 0, w, h, l.read_format, l.read_type, rgba);
    if (glGetError() != GL_NO_ERROR) {
        free(rgba), free(out);
        return -1;
    }
    if (integer)
        gt_texel_pack_ints(rgba, px, l.channels, l.type, out);
    else if (l.read_type == GL_FLOAT) /* halves, packed or floats */
        gt_texel_pack_floats(rgba, px, l.channels, l.type, out);
    for (size_t i = 0; i < px && !wide; i++) {
        uint8_t *sp = rgba + i * 4 * comp, *o = out + i * opx;
        memcpy(o, sp, (size_t)l.channels * comp);
        if (l.swap) /* BGRA: unsigned bytes */
            o[0] = sp[2], o[2] = sp[0];
        if (l.alpha_last)
            o[l.channels - 1] = sp[3];
    }
    free(rgba);
    plan->restores[plan->nrestores++] = (struct rp_trim_restore){.w = w, .h = h, .format = l.format, .type = l.type,
                                                                 .px = out, .len = px * opx};
    return 0;
}

/* Luminance and alpha, unsized or EXT_texture_storage's 8-bit ones (a
 * GLES 2 app's glyph atlas or video planes): no framebuffer holds them, so
 * they are read through the shader copy, as sampling gives them (L, L, L,
 * 1; 0, 0, 0, A): luminance from red, alpha from the fourth. A float one
 * (OES_texture_float) has a float internal format here: none of these. */
static int luminance_layout(GLint internal, layout *l)
{
    *l = (layout){GL_RGBA, GL_UNSIGNED_BYTE, 1, GL_LUMINANCE, GL_UNSIGNED_BYTE, 0, 0};
    switch (internal) {
    case GL_LUMINANCE: case GL_LUMINANCE8_EXT:
        return 1;
    case GL_ALPHA: case GL_ALPHA8_EXT:
        return l->format = GL_ALPHA, l->alpha_last = 1, 1;
    case GL_LUMINANCE_ALPHA: case GL_LUMINANCE8_ALPHA8_EXT:
        return l->channels = 2, l->format = GL_LUMINANCE_ALPHA, l->alpha_last = 1, 1;
    default:
        return 0;
    }
}

typedef struct copied { const layout *l; rp_trim_plan *plan; } copied;

static const char *read_copied(void *arg, GLint w, GLint h)
{
    const copied *c = arg;
    return read_attached(c->l, w, h, c->plan) == 0 ? NULL : "refused";
}

/* A luminance or alpha level through the shader copy (GLES 3: texelFetch):
 * of a 2D texture (a cube face is sampled only when the cube is
 * complete), at its base level (another is fetched only when the texture
 * is mipmap complete); 0, or -1. */
static int read_luminance(rp_shader_copier *copier, const image *im, const layout *l, GLint w, GLint h,
                          rp_trim_plan *plan)
{
    GLint major = 0, base = -1;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, &base);
    if (major < 3 || im->face != GL_TEXTURE_2D || base != (GLint)im->level)
        return -1;
    size_t had = plan->nrestores;
    const char *why = rp_shader_copy(copier, im->name, GL_TEXTURE_2D, (GLint)im->level, 0, w, h, read_copied,
                                     &(copied){l, plan});
    return !why && plan->nrestores == had + 1 ? 0 : -1;
}

/* The pixels of a texture level, read through a framebuffer of replay's
 * own (or a shader copy) into a new restore of the plan; 0, or -1 when it
 * cannot be (not alive, a format not read back exactly, refused). The
 * caller saved and restores the bindings and pixel pack state this
 * changes. */
static int read_back(rp *r, const image *im, const rp_map *rev, rp_trim_plan *plan, rp_shader_copier *copier)
{
    GLenum bind = im->face == GL_TEXTURE_2D ? GL_TEXTURE_2D : GL_TEXTURE_CUBE_MAP;
    if (!glIsTexture(im->name))
        return -1;
    glBindTexture(bind, im->name);
    GLint w = 0, h = 0, internal = 0, red = 0, alpha = 0, ctype = 0;
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_HEIGHT, &h);
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_RED_SIZE, &red);
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_ALPHA_SIZE, &alpha);
    glGetTexLevelParameteriv(im->face, (GLint)im->level, GL_TEXTURE_RED_TYPE, &ctype);
    layout l;
    if (glGetError() != GL_NO_ERROR || w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return -1;
    if (layout_of(internal, red, alpha, ctype, &l)) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, im->face, im->name, (GLint)im->level);
        if (read_attached(&l, w, h, plan) != 0)
            return -1;
    } else if (!luminance_layout(internal, &l) || read_luminance(copier, im, &l, w, h, plan) != 0) {
        return -1; /* (the copy puts back the framebuffers it binds) */
    }
    struct rp_trim_restore *x = &plan->restores[plan->nrestores - 1];
    x->texture = rp_name_recorded(r, rev, rp_class_of_state(GT_STATE_TEXTURE_NAME), im->name);
    x->bind = bind, x->face = im->face, x->level = im->level;
    return 0;
}

/* A renderbuffer written back at the start: bound, on a GLES 3.2 context
 * (written through glCopyImageSubData, refused on an earlier one),
 * single-sampled, of a size read back; its size and internal format. 0,
 * or -1. */
static int renderbuffer_of(const image *im, GLint *w, GLint *h, GLint *internal)
{
    GLint major = 0, minor = 0, samples = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major * 10 + minor < 32 || !glIsRenderbuffer(im->name))
        return -1;
    glBindRenderbuffer(GL_RENDERBUFFER, im->name);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, w);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, h);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, internal);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
    return glGetError() != GL_NO_ERROR || *w <= 0 || *h <= 0 || *w > 16384 || *h > 16384 || samples > 0 ? -1 : 0;
}

/* A single-sampled colour renderbuffer's pixels, read as read_back reads
 * a level, into a restore that writes it through a texture of its format. */
static int read_back_renderbuffer(rp *r, const image *im, const rp_map *rev, rp_trim_plan *plan)
{
    GLint w = 0, h = 0, internal = 0, red = 0, alpha = 0;
    if (renderbuffer_of(im, &w, &h, &internal) != 0)
        return -1;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_RED_SIZE, &red);
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_ALPHA_SIZE, &alpha);
    layout l;
    /* A renderbuffer's format is sized: an unsized one of layout_of (GL_RGBA) is none of its. */
    if (glGetError() != GL_NO_ERROR || internal == GL_RGBA || internal == GL_RGB ||
        !layout_of(internal, red, alpha, GL_UNSIGNED_NORMALIZED, &l))
        return -1;
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, im->name);
    int rc = read_attached(&l, w, h, plan);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
    if (rc != 0)
        return -1;
    struct rp_trim_restore *x = &plan->restores[plan->nrestores - 1];
    x->texture = rp_name_recorded(r, rev, rp_class_of_state(GT_STATE_RENDERBUFFER_NAME), im->name);
    x->bind = GL_RENDERBUFFER, x->face = GL_RENDERBUFFER, x->internal = (uint32_t)internal;
    return 0;
}

/* A single-sampled GL_STENCIL_INDEX8 renderbuffer's values (NV_read_stencil;
 * written back through a stencil texture and glCopyImageSubData, GLES
 * 3.2), into a new restore; *holds: one is not 0. A stencil that holds
 * nothing at the start is what a clear to 0 leaves (Skia's paths zero
 * theirs after each use): the guesses that a colour clear or a frame
 * ends it stand. One that holds counts (trim_app stencil) is written. */
static int read_back_stencil(rp *r, const image *im, const rp_map *rev, rp_trim_plan *plan, uint8_t *holds)
{
    GLint w = 0, h = 0, internal = 0;
    if (renderbuffer_of(im, &w, &h, &internal) != 0 || internal != GL_STENCIL_INDEX8)
        return -1;
    struct rp_trim_restore *rs = realloc(plan->restores, (plan->nrestores + 1) * sizeof *rs);
    if (!rs)
        return -1;
    plan->restores = rs;
    uint8_t *px = malloc((size_t)w * (size_t)h);
    if (!px)
        return -1;
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, im->name);
    int ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (ok)
        glReadPixels(0, 0, w, h, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, px);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 0);
    if (!ok || glGetError() != GL_NO_ERROR) {
        free(px);
        return -1;
    }
    size_t len = (size_t)w * (size_t)h;
    for (size_t i = 0; i < len && !*holds; i++)
        *holds = px[i] != 0;
    plan->restores[plan->nrestores++] = (struct rp_trim_restore){
        .texture = rp_name_recorded(r, rev, rp_class_of_state(GT_STATE_RENDERBUFFER_NAME), im->name),
        .bind = GL_RENDERBUFFER, .face = GL_RENDERBUFFER, .internal = GL_STENCIL_INDEX8, .w = w, .h = h,
        .format = GL_STENCIL_INDEX, .type = GL_UNSIGNED_BYTE, .px = px, .len = len};
    return 0;
}

void rp_trim_draws_start(rp_trim_draws *d, rp *r, rp_trim_plan *plan)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->ctx[r->cur_ctx].version < 2 || !d->nimg)
        return; /* a level read back needs its size and format (GLES 3.1's level queries; a context a
                   GLES 2 app asked for has them when the driver gives more, as Mesa does; refused,
                   nothing is read back and no draw goes) */
    int cls = rp_class_of_state(GT_STATE_TEXTURE_NAME);
    rp_map rev = {0};
    rp_names_reverse(r, &rev);
    rp_hold_errors(r);
    GLint fb_draw = 0, fb_read = 0, t2d = 0, tcube = 0, pack_buf = 0, unpack_buf = 0, active = 0, rb = 0;
    static const GLenum pack[] = {GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS};
    static const GLenum unpack[] = {GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                    GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES};
    GLint packv[4];
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb_draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb_read);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &t2d);
    glGetIntegerv(GL_TEXTURE_BINDING_CUBE_MAP, &tcube);
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buf);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glGetIntegerv(GL_RENDERBUFFER_BINDING, &rb);
    for (int i = 0; i < 4; i++)
        glGetIntegerv(pack[i], &packv[i]);
    /* What the restore records set and set back (rp_trim_write.c). */
    struct rp_trim_restore_state *st = &plan->restore_state;
    for (int i = 0; i < 6; i++)
        glGetIntegerv(unpack[i], &st->unpack[i]);
    st->unpack_buffer = rp_name_recorded(r, &rev, rp_class_of_state(GT_STATE_BUFFER_NAME), (uint32_t)unpack_buf);
    st->tex2d = rp_name_recorded(r, &rev, cls, (uint32_t)t2d);
    st->texcube = rp_name_recorded(r, &rev, cls, (uint32_t)tcube);
    st->ctx = r->thr[0].ctx;
    for (size_t i = 0; i < r->nthr; i++)
        if (r->thr[i].tid == plan->last_tid)
            st->ctx = r->thr[i].ctx;
    GLuint fb = 0;
    rp_shader_copier copier = {0};
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    for (int i = 0; i < 4; i++)
        glPixelStorei(pack[i], i == 0 ? 4 : 0);
    while (glGetError() != GL_NO_ERROR)
        ;
    int group = r->ctx[r->cur_ctx].group;
    for (size_t i = 0; i < d->nimg; i++) {
        image *im = &d->img[i];
        if (im->kind == IMG_RB && im->aspect == ASP_STENCIL) {
            im->restore = plan->nrestores;
            im->restorable = im->group == group && read_back_stencil(r, im, &rev, plan, &im->holds) == 0;
            while (glGetError() != GL_NO_ERROR)
                ;
            continue;
        }
        if ((im->kind != IMG_TEX && im->kind != IMG_RB) || im->aspect != ASP_COLOR ||
            (!im->painted && im->uploads < UPLOADS_MIN))
            continue; /* a level only uploaded into, a few times: its uploads stay */
        im->restore = plan->nrestores;
        im->restorable = im->group == group && (im->kind == IMG_TEX ? read_back(r, im, &rev, plan, &copier)
                                                                     : read_back_renderbuffer(r, im, &rev, plan)) == 0;
        while (glGetError() != GL_NO_ERROR)
            ;
    }
    rp_shader_copy_done(&copier);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)fb_draw);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)fb_read);
    glDeleteFramebuffers(1, &fb);
    glBindTexture(GL_TEXTURE_2D, (GLuint)t2d);
    glBindTexture(GL_TEXTURE_CUBE_MAP, (GLuint)tcube);
    glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)rb);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
    for (int i = 0; i < 4; i++)
        glPixelStorei(pack[i], packv[i]);
    glActiveTexture((GLenum)active);
    while (glGetError() != GL_NO_ERROR)
        ;
    rp_map_free(&rev);
    /* Surfaces never swapped (pbuffers): their colour buffers, as
     * gltraceSurfaceContents records would write them. */
    for (size_t i = 0; i < d->nimg; i++) {
        image *im = &d->img[i];
        uint64_t v;
        if (im->kind != IMG_SURF || im->aspect != ASP_COLOR || (rp_map_get(&d->swapped, im->surface, &v) && v))
            continue;
        struct rp_trim_window *ws = realloc(plan->surfaces, (plan->nsurfaces + 1) * sizeof *ws);
        if (!ws)
            continue;
        plan->surfaces = ws;
        struct rp_trim_window *w = &ws[plan->nsurfaces];
        if (rp_initial_read(r, im->surface, &w->px, &w->w, &w->h) == 0) {
            w->surface = im->surface, w->used = 0;
            im->restore = plan->nsurfaces++;
            im->restorable = 1;
        }
    }
    rp_hold_errors(r);
}

/* ---------------------------------------------------------------- backwards from the start */

/* The textures whose pixels at a point something later reads: those set
 * since the last barrier (stamp), or all but those when one was passed
 * (everything read then; a deletion since ends a texture's). */
typedef struct needs {
    rp_map m; /* texture -> stamp << 1 | needed */
    uint64_t stamp;
    int all;
} needs;

static int needed(const needs *n, uint64_t tex)
{
    uint64_t v;
    if (rp_map_get(&n->m, tex, &v) && v >> 1 == n->stamp)
        return (int)(v & 1);
    return n->all;
}

static void set_needed(needs *n, uint64_t tex, int yes)
{
    rp_map_put(&n->m, tex, n->stamp << 1 | (uint64_t)(yes != 0));
}

static void drop_seq(rp_trim_plan *plan, size_t nbytes, uint64_t s)
{
    if ((s >> 3) < nbytes)
        plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
}

void rp_trim_draws_finish(rp_trim_draws *d, rp_trim_plan *plan, size_t nbytes, const rp_trim_objs *objs)
{
    needs n = {{0}, 1, 0};
    rp_map killed = {0}; /* textures deleted between a point and the start, or that nothing kept reaches */
    uint8_t *want = calloc(d->nimg + 1, 1); /* images a dropped draw wrote: written back */
    if (!want || d->oom) {
        free(want);
        return;
    }
    /* A texture or renderbuffer alive at the start that no kept record
     * reaches (rp_trim_objs_unreached) holds nothing anything kept reads,
     * as if deleted there: the draws into it go, its pixels unwritten.
     * glmark2 with one context for all its scenes leaves the framebuffers
     * of some alive, drawn into every frame of their scene. */
    for (size_t i = 0; i < d->nimg; i++) {
        const image *im = &d->img[i];
        int cls = im->kind == IMG_TEX ? GT_STATE_TEXTURE_NAME : GT_STATE_RENDERBUFFER_NAME;
        if (im->kind != IMG_SURF && rp_trim_objs_unreached(objs, im->group, cls, im->name))
            rp_map_put(&killed, im->key, 1);
        /* A depth or stencil buffer that never carried what it held into
         * the next frame is taken as cleared by the kept calls before they
         * read it (a guess the check tests): not written back, its last
         * pass before the start need not stay, nor what that pass read.
         * GStreamer's glfiltercube clears its depth each frame, then draws
         * with a texture another element drew without clearing: every
         * frame's passes stayed, so the setup grew with the start. */
        int mid_pass = im->fresh; /* written in the frame the start falls in: that pass reads on (a --calls start) */
        if (im->kind != IMG_SURF && im->aspect != ASP_COLOR && !im->carried && !mid_pass && !im->holds)
            rp_map_put(&killed, im->key, 1);
        /* So is a colour renderbuffer not read back (multisampled) that
         * never carried what it held into the next frame: a pass cleared
         * each frame, then resolved. Chromium's canvas draws its text into
         * one with glyphs from an atlas, so the atlas's every upload
         * stayed with the pass's draws. */
        if (im->kind == IMG_RB && im->aspect == ASP_COLOR && !im->restorable && !im->carried && !mid_pass)
            rp_map_put(&killed, im->key, 1);
    }
    for (size_t i = d->n; i-- > 0;) {
        const event *e = &d->ev[i];
        uint64_t v;
        if (rp_trim_dropped(plan, e->seq))
            continue; /* another step left it out: it reads nothing */
        static const uint64_t none[1];
        const uint64_t *w = d->ids ? d->ids + e->at : none, *rd = d->ids ? w + e->nw : none; /* no ids: none read */
        if (e->kind == EV_BARRIER) {
            n.all = 1, n.stamp++;
            continue;
        }
        if (e->kind == EV_READ && e->dest && rp_map_get(&killed, e->dest, &v) && v && !needed(&n, e->dest))
            continue; /* it writes only into a texture nothing reads from here to its end: it reads nothing */
        if (e->kind == EV_KILL) {
            for (uint32_t k = 0; k < e->nr; k++)
                set_needed(&n, rd[k], 0), rp_map_put(&killed, rd[k], 1);
            continue;
        }
        const uint64_t *kl = d->ids ? rd + e->nr : none;
        int go = e->kind == EV_DRAW && e->droppable && e->nw;
        for (uint32_t k = 0; go && k < e->nw; k++) {
            const image *im = &d->img[w[k]];
            int gone = rp_map_get(&killed, im->key, &v) && v;
            go = !needed(&n, im->key) && (gone || im->restorable);
        }
        if (go) {
            for (uint32_t k = 0; k < e->nw; k++)
                if (!(rp_map_get(&killed, d->img[w[k]].key, &v) && v))
                    want[w[k]] = 1;
            drop_seq(plan, nbytes, e->seq);
            for (uint32_t k = 0; k < e->nca; k++)
                drop_seq(plan, nbytes, d->cas[e->ca_at + k]);
            ++*(e->upload ? &plan->dropped_texture_uploads : &plan->dropped_texture_draws);
        } else {
            for (uint32_t k = 0; k < e->nw; k++) /* a kept draw writes part of it: what was there stays */
                set_needed(&n, d->img[w[k]].key, 1);
            for (uint32_t k = 0; k < e->nr; k++)
                set_needed(&n, rd[k], 1);
        }
        /* What a clear replaced whole: nothing before it is read through it. */
        for (uint32_t k = 0; k < e->nk; k++) {
            const image *im = &d->img[kl[k] & ~ENDS];
            if (!((kl[k] & ENDS) && im->holds))
                set_needed(&n, im->key, 0), rp_map_put(&killed, im->key, 1);
        }
    }
    /* The read-back images no dropped draw wrote are not written. */
    for (size_t i = 0; i < d->nimg; i++) {
        const image *im = &d->img[i];
        if (im->restorable && want[i] && im->kind == IMG_SURF)
            plan->surfaces[im->restore].used = 1;
        else if (im->restorable && want[i])
            plan->restores[im->restore].used = 1;
    }
    free(want);
    rp_map_free(&n.m);
    rp_map_free(&killed);
}
