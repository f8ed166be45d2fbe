/* rp_initial.c: a new surface's first contents, written back.
 *
 * Capture reads a surface's colour buffer when a context first binds it
 * (capture/cap_fresh.c: EGL leaves it undefined, and what the recorded
 * process found there depends on its allocator). Replay's own new pbuffer
 * holds whatever its allocator gives, so the recorded pixels are drawn
 * into it: uploaded to a texture and blitted to the surface, in a context
 * of replay's own. */
#include "rp_internal.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
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

/* Writes w x h RGBA8 pixels into the draw surface bound on replay's
 * thread, from replay's own context, then binds the app's again. */
static void write_contents(rp *r, int w, int h, const uint8_t *px)
{
    EGLSurface draw = r->bound_draw, read = r->bound_read;
    EGLContext app = eglGetCurrentContext(), own = own_context(r);
    if (own == EGL_NO_CONTEXT || draw == EGL_NO_SURFACE || !eglMakeCurrent(r->dpy, draw, draw, own)) {
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: a new surface's recorded contents cannot be written "
                     "(EGL error 0x%x): replay's surfaces start as its driver makes them",
                     (unsigned long long)r->seq, eglGetError());
        return;
    }
    GLuint tex = 0, fbo = 0;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    GLenum err = glGetError();
    if (!eglMakeCurrent(r->dpy, draw, read, app))
        r->bound_ctx = -2; /* rebound at the next call */
    if (err != GL_NO_ERROR)
        rp_warn_once(r, GT_FN_SURFACE_CONTENTS, "record %llu: writing a new surface's recorded contents failed "
                     "(GL error 0x%x)", (unsigned long long)r->seq, err);
}

/* Capture reads the contents inside the eglMakeCurrent that first binds
 * the surface, so the record comes before that call's own: it waits here
 * for the binding (rp_initial_bound). */
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
    rp_initial *p = &r->initial[0];
    for (size_t i = 0; i < RP_MAX_INITIAL; i++) /* the same surface's, else a free slot, else the first */
        if (r->initial[i].surface == fb->surface || (!r->initial[i].px && p->px))
            p = &r->initial[i];
    uint8_t *px = malloc(fb->contents[0].len);
    if (!px)
        return;
    memcpy(px, fb->contents[0].data, fb->contents[0].len);
    free(p->px);
    *p = (rp_initial){.surface = fb->surface, .w = w, .h = h, .px = px};
}

void rp_initial_bound(rp *r, uint64_t tid, uint64_t draw)
{
    for (size_t i = 0; draw && i < RP_MAX_INITIAL; i++) {
        rp_initial *p = &r->initial[i];
        if (!p->px || p->surface != draw)
            continue;
        if (rp_make_current_for(r, tid) == 0)
            write_contents(r, p->w, p->h, p->px);
        free(p->px);
        *p = (rp_initial){0};
    }
}

void rp_initial_free(rp *r)
{
    for (size_t i = 0; i < RP_MAX_INITIAL; i++)
        free(r->initial[i].px);
    memset(r->initial, 0, sizeof r->initial);
}
