/* sample_egl.c: headless EGL set-up for the sample apps (see sample_egl.h). */
#include "sample_egl.h"

#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *app, const char *call)
{
    fprintf(stderr, "%s: %s failed (EGL error 0x%04x)\n", app, call, (unsigned)eglGetError());
    exit(1);
}

void sample_egl_no_args(const char *app, int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s'\nusage: %s (draws a fixed scene, takes no arguments)\n",
                app, argv[1], app);
        exit(2);
    }
}

EGLDisplay sample_egl_display(const char *app)
{
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY)
        die(app, "eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA)");
    if (!eglInitialize(dpy, NULL, NULL))
        die(app, "eglInitialize");
    return dpy;
}

void sample_egl_open(sample_egl *e, const char *app, EGLDisplay dpy, int client_version, int width,
                     int height)
{
    e->app = app;
    e->dpy = dpy;
    e->width = width;
    e->height = height;
    /* The API binding is per thread: every thread that opens a context binds. */
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die(app, "eglBindAPI(EGL_OPENGL_ES_API)");
    EGLint renderable = client_version == 1   ? EGL_OPENGL_ES_BIT
                        : client_version == 2 ? EGL_OPENGL_ES2_BIT
                                              : EGL_OPENGL_ES3_BIT;
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable,
                               EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                               EGL_DEPTH_SIZE, 16, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &e->cfg, 1, &n) || n < 1)
        die(app, "eglChooseConfig (RGBA8, depth 16, pbuffer)");
    const EGLint surf_attr[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
    e->surf = eglCreatePbufferSurface(dpy, e->cfg, surf_attr);
    if (e->surf == EGL_NO_SURFACE)
        die(app, "eglCreatePbufferSurface");
    const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, client_version, EGL_NONE};
    e->ctx = eglCreateContext(dpy, e->cfg, EGL_NO_CONTEXT, ctx_attr);
    if (e->ctx == EGL_NO_CONTEXT)
        die(app, "eglCreateContext");
    if (!eglMakeCurrent(dpy, e->surf, e->surf, e->ctx))
        die(app, "eglMakeCurrent");
}

void sample_egl_close(sample_egl *e)
{
    if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        die(e->app, "eglMakeCurrent(EGL_NO_CONTEXT)");
    if (!eglDestroyContext(e->dpy, e->ctx))
        die(e->app, "eglDestroyContext");
    if (!eglDestroySurface(e->dpy, e->surf))
        die(e->app, "eglDestroySurface");
}

void sample_egl_swap(const sample_egl *e)
{
    if (!eglSwapBuffers(e->dpy, e->surf))
        die(e->app, "eglSwapBuffers");
}

uint32_t sample_pixels_hash(const unsigned char *bytes, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

void sample_noise(unsigned char *bytes, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        bytes[i] = (unsigned char)(seed >> 24);
    }
}
