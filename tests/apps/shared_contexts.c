/* shared_contexts: two contexts in one share group on two threads, and a
 * context that moves from one thread to another.
 *
 * The main thread makes context A (GLES 2) current on a 64x64 pbuffer. A
 * loader thread makes context B, created with A as share_context, current
 * with no surface (EGL_KHR_surfaceless_context), uploads a 2x2 texture and
 * glFinish()es. The main thread then draws a quad with that texture in A,
 * swaps, releases A; a third thread makes A current, clears a corner,
 * draws again, swaps, reads the frame back and releases A. Threads run one
 * after another (joined), so the output is deterministic. */
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "shared_contexts"
#define W 64
#define H 64

static sample_egl e;
static EGLContext loader_ctx;
static GLuint tex;
static GLuint prog;
static unsigned char px[W * H * 4];

static void *loader(void *arg)
{
    (void)arg;
    static const EGLint attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    loader_ctx = eglCreateContext(e.dpy, e.cfg, e.ctx, attr);
    if (!loader_ctx || !eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, loader_ctx)) {
        fprintf(stderr, APP ": loader context\n");
        exit(1);
    }
    static const GLubyte texels[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255};
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glFinish();
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void draw(void)
{
    glUseProgram(prog);
    glBindTexture(GL_TEXTURE_2D, tex);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static void *mover(void *arg)
{
    (void)arg;
    if (!eglMakeCurrent(e.dpy, e.surf, e.surf, e.ctx)) {
        fprintf(stderr, APP ": context A on the second thread\n");
        exit(1);
    }
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, W / 4, H / 4);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    draw();
    sample_egl_swap(&e);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (glGetError() != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error on the second thread\n");
        exit(1);
    }
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, W, H);
    pthread_t t;
    if (pthread_create(&t, NULL, loader, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;

    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER,
                                      "attribute vec2 p; varying vec2 c;\n"
                                      "void main() { c = p * 0.5 + 0.5; gl_Position = vec4(p * 0.75, 0.0, 1.0); }\n");
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER,
                                      "precision mediump float; varying vec2 c; uniform sampler2D s;\n"
                                      "void main() { gl_FragColor = texture2D(s, c); }\n");
    prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "p");
    glLinkProgram(prog);
    static const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);
    glClearColor(0.25f, 0.25f, 0.25f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw();
    sample_egl_swap(&e);
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);

    if (pthread_create(&t, NULL, mover, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;

    eglMakeCurrent(e.dpy, e.surf, e.surf, e.ctx);
    glDeleteBuffers(1, &vbo);
    glDeleteTextures(1, &tex);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    eglDestroyContext(e.dpy, loader_ctx);
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    printf(APP ": 2 frames %dx%d fnv1a=%08x\n", W, H, (unsigned)sample_pixels_hash(px, sizeof px));
    return 0;
}
