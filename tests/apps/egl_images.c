/* egl_images: GL objects shared between two contexts that share nothing,
 * through EGL images, with EGL fences ordering the work; the way video and
 * compositor code hands frames from a producer context to a consumer one.
 *
 * Context P (the producer) makes a 16x16 texture with a pattern and a 32x32
 * renderbuffer, and turns each into an EGL image: the texture through
 * EGL_KHR_gl_texture_2D_image (eglCreateImageKHR, from eglGetProcAddress),
 * the renderbuffer through EGL 1.5's eglCreateImage. Context C (the
 * consumer, no share group with P) binds the texture image to a texture of
 * its own (glEGLImageTargetTexture2DOES) and the renderbuffer image to a
 * renderbuffer of its own (glEGLImageTargetRenderbufferStorageOES) and, each
 * frame, clears that renderbuffer to the frame's colour and creates an EGL
 * fence (eglCreateSyncKHR) after it. P waits on the fence (eglWaitSyncKHR on
 * the GPU, eglClientWaitSync with EGL 1.5's names on the CPU), blits the
 * renderbuffer's contents into its window's top half and draws the texture
 * into the bottom half, and swaps. Three frames; prints the last frame's
 * fingerprint. Exits 0 only if neither GL nor EGL reported an error.
 *
 * Replay can only draw the same frames if it re-creates the images from the
 * replayed objects and keeps the order the fences enforced. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h> /* after gl3.h, which defines what it needs */
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "egl_images"
#define W 64
#define H 64
#define TEX 16
#define RB 32
#define FRAMES 3

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "out vec2 v_uv;\n"
                             "void main() { v_uv = vec2(a_pos.x * 0.5 + 0.5, a_pos.y + 1.0); gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "uniform sampler2D u_tex;\n"
                             "in vec2 v_uv;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = texture(u_tex, v_uv); }\n";

static void *proc(const char *name)
{
    void *p = (void *)eglGetProcAddress(name);
    if (!p) {
        fprintf(stderr, "%s: the driver has no %s\n", APP, name);
        exit(1);
    }
    return p;
}

static void egl_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "%s: %s failed (EGL error 0x%x)\n", APP, what, eglGetError());
        exit(1);
    }
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    PFNEGLCREATEIMAGEKHRPROC create_image_khr = proc("eglCreateImageKHR");
    PFNEGLDESTROYIMAGEKHRPROC destroy_image_khr = proc("eglDestroyImageKHR");
    PFNEGLCREATESYNCKHRPROC create_sync_khr = proc("eglCreateSyncKHR");
    PFNEGLWAITSYNCKHRPROC wait_sync_khr = proc("eglWaitSyncKHR");
    PFNEGLDESTROYSYNCKHRPROC destroy_sync_khr = proc("eglDestroySyncKHR");
    PFNGLEGLIMAGETARGETTEXTURE2DOESPROC image_texture = proc("glEGLImageTargetTexture2DOES");
    PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC image_renderbuffer = proc("glEGLImageTargetRenderbufferStorageOES");

    sample_egl p;
    sample_egl_open(&p, APP, sample_egl_display(APP), 3, W, H);
    const EGLint cattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext cctx = eglCreateContext(p.dpy, p.cfg, EGL_NO_CONTEXT, cattr);
    egl_check(cctx != EGL_NO_CONTEXT, "eglCreateContext (consumer)");

    /* Producer: the texture (a 4x4 checker of two colours) and the renderbuffer. */
    unsigned char pix[TEX * TEX * 4];
    for (int y = 0; y < TEX; y++)
        for (int x = 0; x < TEX; x++) {
            unsigned char *q = pix + 4 * (y * TEX + x);
            int on = ((x / 4) ^ (y / 4)) & 1;
            q[0] = on ? 240 : 20, q[1] = (unsigned char)(x * 16), q[2] = (unsigned char)(y * 16), q[3] = 255;
        }
    GLuint tex, rb, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TEX, TEX, 0, GL_RGBA, GL_UNSIGNED_BYTE, pix);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, RB, RB);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glFinish();

    const EGLint tex_attr[] = {EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_IMAGE_PRESERVED_KHR, EGL_TRUE, EGL_NONE};
    EGLImageKHR tex_img = create_image_khr(p.dpy, p.ctx, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex,
                                           tex_attr);
    egl_check(tex_img != EGL_NO_IMAGE_KHR, "eglCreateImageKHR (texture)");
    const EGLAttrib rb_attr[] = {EGL_IMAGE_PRESERVED, EGL_TRUE, EGL_NONE};
    EGLImage rb_img = eglCreateImage(p.dpy, p.ctx, EGL_GL_RENDERBUFFER, (EGLClientBuffer)(uintptr_t)rb, rb_attr);
    egl_check(rb_img != EGL_NO_IMAGE, "eglCreateImage (renderbuffer)");

    GLuint vs, fs;
    GLuint prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    /* The bottom half, the whole texture on it. */
    static const GLfloat quad[] = {-1, -1, 1, -1, -1, 0, 1, 0};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);

    /* Consumer: its own objects, backed by the producer's images. */
    egl_check(eglMakeCurrent(p.dpy, p.surf, p.surf, cctx), "eglMakeCurrent (consumer)");
    GLuint ctex, crb, cfbo;
    glGenTextures(1, &ctex);
    glBindTexture(GL_TEXTURE_2D, ctex);
    image_texture(GL_TEXTURE_2D, (GLeglImageOES)tex_img);
    glGenRenderbuffers(1, &crb);
    glBindRenderbuffer(GL_RENDERBUFFER, crb);
    image_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)rb_img);
    glGenFramebuffers(1, &cfbo);
    glBindFramebuffer(GL_FRAMEBUFFER, cfbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, crb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "%s: the image-backed renderbuffer is not a complete framebuffer\n", APP);
        return 1;
    }
    /* The consumer also draws over the texture image: a bar the producer sees. */
    static const unsigned char bar[TEX * 2 * 4] = {0};
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 7, TEX, 2, GL_RGBA, GL_UNSIGNED_BYTE, bar);
    GLenum cerr = glGetError();

    unsigned char frame[W * H * 4];
    GLenum perr = GL_NO_ERROR;
    for (int f = 0; f < FRAMES; f++) {
        egl_check(eglMakeCurrent(p.dpy, p.surf, p.surf, cctx), "eglMakeCurrent (consumer)");
        glClearColor(0.25f * (float)(f + 1), 0.5f, 1.0f - 0.25f * (float)f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        EGLSyncKHR done = create_sync_khr(p.dpy, EGL_SYNC_FENCE_KHR, NULL);
        egl_check(done != EGL_NO_SYNC_KHR, "eglCreateSyncKHR");
        glFlush();
        if (cerr == GL_NO_ERROR)
            cerr = glGetError();

        egl_check(eglMakeCurrent(p.dpy, p.surf, p.surf, p.ctx), "eglMakeCurrent (producer)");
        egl_check(wait_sync_khr(p.dpy, done, 0) == EGL_TRUE, "eglWaitSyncKHR");
        egl_check(destroy_sync_khr(p.dpy, done), "eglDestroySyncKHR");
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glBlitFramebuffer(0, 0, RB, RB, 0, H / 2, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glUseProgram(prog);
        glBindTexture(GL_TEXTURE_2D, tex);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        EGLSync fence = eglCreateSync(p.dpy, EGL_SYNC_FENCE, NULL);
        egl_check(fence != EGL_NO_SYNC, "eglCreateSync");
        egl_check(eglClientWaitSync(p.dpy, fence, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER) ==
                      EGL_CONDITION_SATISFIED, "eglClientWaitSync");
        egl_check(eglDestroySync(p.dpy, fence), "eglDestroySync");
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, frame);
        if (perr == GL_NO_ERROR)
            perr = glGetError();
        sample_egl_swap(&p);
    }
    egl_check(destroy_image_khr(p.dpy, tex_img), "eglDestroyImageKHR");
    egl_check(eglDestroyImage(p.dpy, rb_img), "eglDestroyImage");
    egl_check(eglDestroyContext(p.dpy, cctx), "eglDestroyContext (consumer)");
    sample_egl_close(&p);
    /* Pixels the producer never drew itself: the consumer's clear colour of
     * the last frame at the top, the consumer's bar across the texture. */
    const unsigned char *top = frame + 4 * ((H - 2) * W + 2), *mid = frame + 4 * ((H / 4) * W + W / 2);
    printf("%s: fnv1a=%08x top %u,%u,%u bar %u,%u,%u\n", APP, sample_pixels_hash(frame, sizeof frame), top[0], top[1],
           top[2], mid[0], mid[1], mid[2]);
    if (perr != GL_NO_ERROR || cerr != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error 0x%x (producer) 0x%x (consumer)\n", APP, perr, cerr);
        return 1;
    }
    return 0;
}
