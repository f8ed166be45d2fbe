/* resize_x11: an X11 window that changes size while the app draws, as a
 * user dragging a window's corner does. Needs an X server (the test runs it
 * under Xvfb); replay then has no window at all and must give each frame a
 * surface of the size the app drew at.
 *
 * The window is made at 64x40 and the context made current on it; then,
 * before the first draw, the window is resized to 96x64, as mpv does: the
 * driver sized the buffers at eglMakeCurrent, and Mesa's X11 software path
 * draws frame 0 at 64x40 and takes the new size after the swap. Frames 0-1
 * are asked at 96x64, then the window is resized to 160x120 (frames 2-3),
 * then to 64x48 (frames 4-5). Each frame clears to a colour of its own and
 * draws a triangle whose corners touch the window's edges, so a frame drawn
 * at the wrong size cannot match. After each frame's draw the app reads the
 * whole window back and prints its size and fingerprint; exits 0 only if GL
 * and EGL reported no error and every frame had the size asked for.
 *   resize_x11 [fbo]
 * fbo: a GLES 3 context, and each frame first clears a framebuffer object's
 * texture, as mpv starts its frames with a pass: the new size is recorded,
 * and replay binds the new surface, while that framebuffer is bound. */
#include <EGL/egl.h>
#include <GLES3/gl3.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "resize_x11"
#define FRAMES 6

static const int sizes[3][2] = {{96, 64}, {160, 120}, {64, 48}};
static const int made[2] = {64, 40}; /* the window's size at eglMakeCurrent */

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "void main() { gl_FragColor = vec4(1.0, 0.8, 0.1, 1.0); }\n";

static void fail(const char *what)
{
    fprintf(stderr, "%s: %s failed (EGL error 0x%x)\n", APP, what, eglGetError());
    exit(1);
}

/* Resizes and waits until the server says the window has that size. */
static void resize(Display *x, Window win, int w, int h)
{
    XResizeWindow(x, win, (unsigned)w, (unsigned)h);
    XEvent ev;
    do
        XWindowEvent(x, win, StructureNotifyMask, &ev);
    while (ev.type != ConfigureNotify || ev.xconfigure.width != w || ev.xconfigure.height != h);
}

int main(int argc, char **argv)
{
    int fbo_first = argc == 2 && !strcmp(argv[1], "fbo");
    if (argc > 2 || (argc == 2 && !fbo_first)) {
        fprintf(stderr, "usage: %s [fbo]\n", APP);
        return 2;
    }
    Display *x = XOpenDisplay(NULL);
    if (!x) {
        fprintf(stderr, "%s: cannot open the X display (run it under xvfb-run)\n", APP);
        return 1;
    }
    Window win = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, (unsigned)made[0], (unsigned)made[1], 0, 0, 0);
    XSelectInput(x, win, StructureNotifyMask);
    XMapWindow(x, win);
    XEvent ev;
    do
        XWindowEvent(x, win, StructureNotifyMask, &ev);
    while (ev.type != MapNotify);

    EGLDisplay dpy = eglGetDisplay((EGLNativeDisplayType)x);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        fail("eglInitialize");
    eglBindAPI(EGL_OPENGL_ES_API);
    static const EGLint want[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_SURFACE_TYPE,
                                  EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, want, &cfg, 1, &n) || n < 1)
        fail("eglChooseConfig");
    EGLSurface surf = eglCreateWindowSurface(dpy, cfg, (EGLNativeWindowType)win, NULL);
    const EGLint cattr[] = {EGL_CONTEXT_CLIENT_VERSION, fbo_first ? 3 : 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, cattr);
    if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx))
        fail("eglCreateWindowSurface, eglCreateContext or eglMakeCurrent");

    resize(x, win, sizes[0][0], sizes[0][1]);

    GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    static const GLfloat tri[] = {-1, -1, 1, -1, 0, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
    glEnableVertexAttribArray(0);
    glBindAttribLocation(prog, 0, "a_pos");
    glLinkProgram(prog);
    glUseProgram(prog);

    GLuint tex = 0, fbo = 0;
    if (fbo_first) {
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    static unsigned char px[160 * 120 * 4];
    int bad = 0;
    for (int f = 0; f < FRAMES; f++) {
        const int *s = sizes[f / 2];
        if (f > 0 && f % 2 == 0)
            resize(x, win, s[0], s[1]);
        if (fbo_first) {
            glBindFramebuffer(GL_FRAMEBUFFER, fbo);
            glViewport(0, 0, 16, 16);
            glClearColor(0.2f, 0.1f * (float)f, 0.4f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
        }
        glViewport(0, 0, s[0], s[1]);
        glClearColor(0.1f * (float)f, 0.3f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glReadPixels(0, 0, s[0], s[1], GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf("%s: frame %d %dx%d fnv1a=%08x\n", APP, f, s[0], s[1],
               sample_pixels_hash(px, (size_t)s[0] * (size_t)s[1] * 4));
        if (!eglSwapBuffers(dpy, surf))
            fail("eglSwapBuffers");
        EGLint w = 0, h = 0;
        eglQuerySurface(dpy, surf, EGL_WIDTH, &w);
        eglQuerySurface(dpy, surf, EGL_HEIGHT, &h);
        if (w != s[0] || h != s[1]) {
            fprintf(stderr, "%s: frame %d: the surface is %dx%d, the window %dx%d\n", APP, f, w, h, s[0], s[1]);
            bad = 1;
        }
    }
    GLenum err = glGetError();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    XDestroyWindow(x, win);
    XCloseDisplay(x);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error 0x%x\n", APP, err);
        return 1;
    }
    return bad;
}
