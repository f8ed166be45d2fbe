/* fresh_surfaces: new surfaces whose first contents an app sees. EGL
 * leaves a new surface's pixels undefined; in practice a pbuffer made just
 * after another of its size was destroyed starts with the old one's pixels
 * (the allocator hands the same memory back). Each case clears an old
 * surface to a colour of its own, destroys it, makes a new one, and then
 * does something first that keeps or shows some of what the new surface
 * started with:
 *   draw     a small triangle, no clear
 *   scissor  a clear inside a scissor box
 *   masked   a clear of red and blue only (colour mask)
 *   read     the app reads the whole surface (its hash is printed)
 *   fbo      draws a whole FBO first (the surface untouched), then blits
 *            the FBO over half the surface
 *   clear    a clear of the whole surface (nothing of before stays)
 * then swaps. Replay must give every swap's picture and the app's read as
 * recorded, which it can only do by writing the new surfaces' recorded
 * first contents before the first command that sees them, and by skipping
 * them where a full clear came first. GLES 3. */
#include <GLES3/gl3.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "fresh_surfaces"
#define W 64
#define H 64

static const char *vs_src = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
static const char *fs_src = "precision mediump float; void main() { gl_FragColor = vec4(1.0, 1.0, 0.0, 1.0); }";

static EGLSurface new_surface(sample_egl *e)
{
    const EGLint attr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(e->dpy, e->cfg, attr);
    if (s == EGL_NO_SURFACE || !eglMakeCurrent(e->dpy, s, s, e->ctx)) {
        fprintf(stderr, APP ": a new pbuffer: EGL error 0x%x\n", eglGetError());
        return EGL_NO_SURFACE;
    }
    return s;
}

/* The surface current now is cleared to colour c and destroyed; a new one
 * of its size is made current in its place. */
static EGLSurface replace(sample_egl *e, EGLSurface old, const float *c)
{
    glClearColor(c[0], c[1], c[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx);
    eglDestroySurface(e->dpy, old);
    return new_surface(e);
}

static void first_touch(const char *what, GLuint fbo)
{
    if (!strcmp(what, "draw")) {
        glDrawArrays(GL_TRIANGLES, 0, 3);
    } else if (!strcmp(what, "scissor")) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(8, 8, 16, 16);
        glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
    } else if (!strcmp(what, "masked")) {
        glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
        glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
        glClear(GL_COLOR_BUFFER_BIT);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    } else if (!strcmp(what, "read")) {
        static unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf(APP ": read %08x\n", sample_pixels_hash(px, sizeof px));
    } else if (!strcmp(what, "fbo")) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, W, H / 2, 0, 0, W, H / 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    } else {
        glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glUseProgram(prog);
    static const GLfloat tri[] = {-0.5f, -0.5f, 0.5f, -0.5f, 0.0f, 0.5f};
    GLuint vbo, tex, fbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    static const char *cases[] = {"draw", "scissor", "masked", "read", "fbo", "clear"};
    static const float colours[][3] = {{1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 0.5f, 0}, {0.5f, 0, 1}};
    EGLSurface s = e.surf;
    for (size_t i = 0; i < sizeof cases / sizeof *cases && s != EGL_NO_SURFACE; i++) {
        s = replace(&e, s, colours[i]);
        if (s == EGL_NO_SURFACE)
            return 1;
        first_touch(cases[i], fbo);
        if (!eglSwapBuffers(e.dpy, s)) {
            fprintf(stderr, APP ": eglSwapBuffers: EGL error 0x%x\n", eglGetError());
            return 1;
        }
        unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf(APP ": %s %08x\n", cases[i], sample_pixels_hash(px, sizeof px));
    }
    GLenum err = glGetError();
    e.surf = s;
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x\n", err);
        return 1;
    }
    return 0;
}
