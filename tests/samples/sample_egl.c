#include "sample_egl.h"

#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *what)
{
    fprintf(stderr, "sample: %s failed (EGL error 0x%x)\n", what, eglGetError());
    exit(1);
}

void sample_egl_init(sample_egl *s, int client_version, int width, int height)
{
    s->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (s->dpy == EGL_NO_DISPLAY || !eglInitialize(s->dpy, NULL, NULL))
        die("eglInitialize on the surfaceless platform");
    EGLint type = client_version == 1 ? EGL_OPENGL_ES_BIT : client_version == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES3_BIT;
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, type, EGL_RED_SIZE, 8,
                               EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 16, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(s->dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        die("eglChooseConfig");
    const EGLint pb_attr[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
    s->surf = eglCreatePbufferSurface(s->dpy, cfg, pb_attr);
    if (s->surf == EGL_NO_SURFACE)
        die("eglCreatePbufferSurface");
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die("eglBindAPI");
    const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, client_version, EGL_NONE};
    s->ctx = eglCreateContext(s->dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (s->ctx == EGL_NO_CONTEXT)
        die("eglCreateContext");
    if (!eglMakeCurrent(s->dpy, s->surf, s->surf, s->ctx))
        die("eglMakeCurrent");
}

void sample_egl_finish(sample_egl *s)
{
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(s->dpy, s->ctx);
    eglDestroySurface(s->dpy, s->surf);
    eglTerminate(s->dpy);
}

unsigned sample_pixels_hash(const unsigned char *rgba, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ rgba[i]) * 16777619u;
    return h;
}
