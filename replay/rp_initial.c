/* rp_initial.c: a new surface's first contents, written back when needed.
 *
 * Capture reads a surface's colour buffer when a context first binds it
 * (capture/cap_fresh.c: EGL leaves it undefined, and what the recorded
 * process found there depends on its allocator). Replay's own new pbuffer
 * holds whatever its allocator gives, so the recorded pixels are drawn
 * into it: uploaded to a texture and blitted to the surface, in a context
 * of replay's own. The blit is dear on llvmpipe (it compiles its blit
 * shaders, most of an otherwise empty replay's instructions), so it waits
 * for the first command that may see the pixels (`pixels reads` in
 * api/annotations.txt, or a snapshot), and is never made when a clear of
 * the whole colour buffer comes first (`pixels clears`). */
#include "rp_internal.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>
#include <stdlib.h>
#include <string.h>

#include "gt_trace.h"

/* A context of replay's own for the writing, so that the app's contexts
 * keep their state and their object names (a texture replay made there
 * would take a name the app's next glGen* gets, and `--check` compares
 * names). Configless, so it goes with any surface; GLES 3 for the blit,
 * whatever the app's version. */
static EGLContext own_context(rp *r)
{
    if (r->initial_ctx == EGL_NO_CONTEXT) {
        static const EGLint attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
        r->initial_ctx = eglCreateContext(r->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attr);
    }
    return r->initial_ctx;
}

static void drop(rp *r, rp_initial *p)
{
    free(p->px);
    *p = (rp_initial){0};
    r->initial_held--;
}

/* Writes slot p's pixels into its surface from replay's own context, then
 * binds what was bound again; the slot is emptied. */
static void write_contents(rp *r, rp_initial *p)
{
    uint64_t v = 0;
    EGLSurface target = rp_map_get(&r->surfaces, p->surface | 1ull << 63, &v) ? (EGLSurface)(uintptr_t)v
                                                                               : EGL_NO_SURFACE;
    EGLContext app = eglGetCurrentContext(), own = own_context(r);
    if (own == EGL_NO_CONTEXT || target == EGL_NO_SURFACE || !eglMakeCurrent(r->dpy, target, target, own)) {
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: a new surface's recorded contents cannot be written "
                     "(EGL error 0x%x): replay's surfaces start as its driver makes them",
                     (unsigned long long)r->seq, eglGetError());
        drop(r, p);
        return;
    }
    GLuint tex = 0, fbo = 0;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, p->w, p->h, 0, GL_RGBA, GL_UNSIGNED_BYTE, p->px);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, p->w, p->h, 0, 0, p->w, p->h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    GLenum err = glGetError();
    if (!eglMakeCurrent(r->dpy, r->bound_draw, r->bound_read, app))
        r->bound_ctx = -2; /* rebound at the next call */
    if (err != GL_NO_ERROR)
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: writing a new surface's recorded contents failed "
                     "(GL error 0x%x)", (unsigned long long)r->seq, err);
    drop(r, p);
}

/* Capture reads the contents inside the eglMakeCurrent that first binds
 * the surface, so the record comes before that call's own; it is held
 * until a command may see the pixels. */
void rp_snapshot_initial(rp *r, const rp_msg *m)
{
    const Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    int w = fb->width, h = fb->height;
    if (!fb->n_contents || w <= 0 || h <= 0 || (fb->has_format && fb->format != GL_RGBA) ||
        (fb->has_type && fb->type != GL_UNSIGNED_BYTE) || fb->contents[0].len != (size_t)w * (size_t)h * 4) {
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: a new surface's contents that replay cannot use",
                     (unsigned long long)r->seq);
        return;
    }
    if (rp_initial_hold(r, fb->surface, fb->contents[0].data, w, h) != 0)
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: out of memory for a new surface's contents",
                     (unsigned long long)r->seq);
}

/* Holds w x h RGBA8 pixels (bottom row first) for recorded surface
 * `surface`, to be written before a command may see them (a copy). */
int rp_initial_hold(rp *r, uint64_t surface, const uint8_t *pixels, int w, int h)
{
    rp_initial *p = NULL;
    for (size_t i = 0; i < RP_MAX_INITIAL; i++) /* the same surface's, else a free slot */
        if (r->initial[i].px && r->initial[i].surface == surface)
            p = &r->initial[i];
    for (size_t i = 0; !p && i < RP_MAX_INITIAL; i++)
        if (!r->initial[i].px)
            p = &r->initial[i];
    if (!p) { /* else the first slot's pixels are written now, as if seen */
        p = &r->initial[0];
        write_contents(r, p);
    }
    if (p->px)
        drop(r, p);
    size_t n = (size_t)w * (size_t)h * 4;
    uint8_t *px = malloc(n);
    if (!px)
        return -1;
    memcpy(px, pixels, n);
    *p = (rp_initial){.surface = surface, .w = w, .h = h, .px = px};
    r->initial_held++;
    return 0;
}

static rp_initial *held_for(rp *r, uint64_t surface)
{
    for (size_t i = 0; surface && i < RP_MAX_INITIAL; i++)
        if (r->initial[i].px && r->initial[i].surface == surface)
            return &r->initial[i];
    return NULL;
}

/* Whether glClear(mask) as the current context's state stands writes
 * every pixel of the default framebuffer's colour buffer: colour in the
 * mask, no scissor, every channel written, and (GLES 3) the back buffer
 * drawn and rasterizer discard off. */
static int clears_all(rp *r, const rp_msg *m)
{
    if (!(rp_arg_u(m, 0) & GL_COLOR_BUFFER_BIT) || glIsEnabled(GL_SCISSOR_TEST))
        return 0;
    GLboolean mask[4] = {0};
    glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    if (!mask[0] || !mask[1] || !mask[2] || !mask[3])
        return 0;
    if (rp_es_major(r) < 3)
        return 1;
    GLint buf = GL_NONE;
    glGetIntegerv(GL_DRAW_BUFFER0, &buf);
    return buf == GL_BACK && !glIsEnabled(GL_RASTERIZER_DISCARD);
}

/* Before command e on thread tid, while some surface's contents are held
 * (rp_run.c asks only then). EGL commands (swaps, copies) see the
 * surfaces whatever framebuffer is bound; GL commands only through the
 * default framebuffer. Replay's own queries keep the app's GL errors
 * (rp_hold_errors) and leave none of their own. */
void rp_initial_seen(rp *r, const rp_entry *e, const rp_msg *m, uint64_t tid)
{
    if (rp_make_current_for(r, tid) != 0)
        return;
    rp_initial *d = held_for(r, r->mc_draw), *rd = r->mc_read != r->mc_draw ? held_for(r, r->mc_read) : NULL;
    if (!d && !rd)
        return;
    if (e->how != RP_EGL) {
        rp_hold_errors(r);
        GLint draw_fb = 0, read_fb = 0;
        /* GLES 1 has the binding only with OES_framebuffer_object: where
         * it does not, the query fails and 0 (the default) stands. */
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &draw_fb);
        read_fb = draw_fb;
        if (rp_es_major(r) >= 3)
            glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
        int cleared = d && draw_fb == 0 && e->pixels == RP_PIXELS_CLEARS && clears_all(r, m);
        while (glGetError() != GL_NO_ERROR)
            ;
        if (cleared) {
            drop(r, d);
            d = NULL;
        }
        if (draw_fb != 0)
            d = NULL;
        if (read_fb != 0 || e->pixels == RP_PIXELS_CLEARS)
            rd = NULL;
    }
    if (d)
        write_contents(r, d);
    if (rd)
        write_contents(r, rd);
}

/* Before replay reads a framebuffer itself (a snapshot, inspect): the
 * held contents of the surfaces bound now (rp_make_current_for's last
 * success) are in them first, whatever framebuffer it reads. */
void rp_initial_flush(rp *r)
{
    if (!r->mc_thr)
        return;
    rp_initial *d = held_for(r, r->mc_draw);
    if (d)
        write_contents(r, d);
    rp_initial *rd = held_for(r, r->mc_read);
    if (rd)
        write_contents(r, rd);
}

void rp_initial_free(rp *r)
{
    for (size_t i = 0; i < RP_MAX_INITIAL; i++)
        free(r->initial[i].px);
    memset(r->initial, 0, sizeof r->initial);
    r->initial_held = 0;
}

/* The read side, for gltrace trim: recorded surface `surface`'s colour
 * buffer as replay has it now, RGBA8 bottom row first (*px malloc'd,
 * w*h*4 bytes), read through replay's own context as write_contents
 * writes it; contents still held for it are written first. 0, or -1 (no
 * such surface alive, or the read failed). */
int rp_initial_read(rp *r, uint64_t surface, uint8_t **px, int *w, int *h)
{
    uint64_t v = 0;
    *px = NULL;
    rp_initial *held = held_for(r, surface);
    if (held)
        write_contents(r, held);
    EGLSurface s = rp_map_get(&r->surfaces, surface | 1ull << 63, &v) ? (EGLSurface)(uintptr_t)v : EGL_NO_SURFACE;
    EGLint sw = 0, sh = 0;
    if (s == EGL_NO_SURFACE || !eglQuerySurface(r->dpy, s, EGL_WIDTH, &sw) ||
        !eglQuerySurface(r->dpy, s, EGL_HEIGHT, &sh) || sw <= 0 || sh <= 0)
        return -1;
    EGLContext app = eglGetCurrentContext(), own = own_context(r);
    if (own == EGL_NO_CONTEXT || !eglMakeCurrent(r->dpy, s, s, own))
        return -1;
    uint8_t *p = malloc((size_t)sw * (size_t)sh * 4);
    if (p) {
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadPixels(0, 0, sw, sh, GL_RGBA, GL_UNSIGNED_BYTE, p);
        if (glGetError() != GL_NO_ERROR)
            free(p), p = NULL;
    }
    if (!eglMakeCurrent(r->dpy, r->bound_draw, r->bound_read, app))
        r->bound_ctx = -2; /* rebound at the next call */
    *px = p, *w = sw, *h = sh;
    return p ? 0 : -1;
}
