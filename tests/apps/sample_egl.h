/* sample_egl.h: the headless EGL set-up the sample apps share.
 *
 * The apps stand in for the programs a user records, so they use EGL the
 * plain way a program does: the Mesa surfaceless platform (no window system,
 * runs on llvmpipe anywhere), a pbuffer surface and a context of the client
 * version the app is written for. Any failure prints one line naming the app
 * and the EGL call and exits 1: a sample that cannot set up is a broken
 * machine, not something the tests should try to carry on from.
 *
 * Only EGL is called here (never GL), so the helper links with GLES 1.1 and
 * GLES 2/3 apps alike, and every GL call an app makes is in its own source,
 * where its test lists it. */
#ifndef SAMPLE_EGL_H
#define SAMPLE_EGL_H

#include <EGL/egl.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sample_egl {
    const char *app; /* the app's name, for messages */
    EGLDisplay dpy;
    EGLConfig cfg;
    EGLSurface surf;
    EGLContext ctx;
    int width, height;
} sample_egl;

/* Exits 2 with a usage line when the app got any argument: the samples are
 * fixed scenes, so an argument is a mistake worth saying out loud. */
void sample_egl_no_args(const char *app, int argc, char **argv);

/* eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) and eglInitialize.
 * Exits 1 on failure. */
EGLDisplay sample_egl_display(const char *app);

/* On an initialized display: eglBindAPI(EGL_OPENGL_ES_API), eglChooseConfig
 * (RGBA8 + 16-bit depth, pbuffer-capable, renderable by client_version 1, 2
 * or 3), eglCreatePbufferSurface of width x height, eglCreateContext of that
 * client version and eglMakeCurrent, in this order, on the calling thread.
 * Exits 1 on failure. */
void sample_egl_open(sample_egl *e, const char *app, EGLDisplay dpy, int client_version, int width,
                     int height);

/* eglMakeCurrent(no context), eglDestroyContext, eglDestroySurface: the
 * reverse of sample_egl_open. The display stays initialized. */
void sample_egl_close(sample_egl *e);

/* eglSwapBuffers on e's surface; exits 1 if it fails. */
void sample_egl_swap(const sample_egl *e);

/* FNV-1a over the bytes read back: the printed fingerprint of a frame, so a
 * run under `gltrace record` can be compared with a plain run. */
uint32_t sample_pixels_hash(const unsigned char *bytes, size_t n);

/* n bytes of a linear congruential generator seeded with `seed` (its top
 * byte each step): texels that do not compress, the same on every run. */
void sample_noise(unsigned char *bytes, size_t n, unsigned seed);

#endif
