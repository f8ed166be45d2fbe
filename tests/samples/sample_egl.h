/* sample_egl.h: headless EGL set-up shared by the sample apps: a
 * surfaceless Mesa display, a pbuffer surface and a context of the asked
 * client version, current on the calling thread. Exits 1 with a message on
 * failure. */
#ifndef SAMPLE_EGL_H
#define SAMPLE_EGL_H

#include <EGL/egl.h>

typedef struct sample_egl {
    EGLDisplay dpy;
    EGLSurface surf;
    EGLContext ctx;
} sample_egl;

void sample_egl_init(sample_egl *s, int client_version, int width, int height);
void sample_egl_finish(sample_egl *s);
/* A checksum of the pixels read back, printed by each sample. */
unsigned sample_pixels_hash(const unsigned char *rgba, int n);

#endif
