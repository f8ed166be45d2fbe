/* egl_desktop_app: desktop OpenGL through EGL, as Qt's xcb_egl draws: the
 * surfaceless platform, eglBindAPI(EGL_OPENGL_API), a pbuffer, then (with
 * an argument "mixed") a GLES context on another pbuffer after it. Each
 * context clears its surface to a colour and swaps, three frames.
 * gltrace replays GLES only: check_egl_desktop.py asks that record and
 * replay say so. Exits 0 only if EGL and GL reported no error. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "egl_desktop_app: %s failed (EGL error 0x%x)\n", what, eglGetError());
    return 1;
}

static int frames(EGLDisplay dpy, EGLenum api, EGLint renderable, float red)
{
    if (!eglBindAPI(api))
        return fail("eglBindAPI");
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable, EGL_RED_SIZE, 8,
                               EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        return fail("eglChooseConfig");
    const EGLint surf_attr[] = {EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE};
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, surf_attr);
    const EGLint es_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, api == EGL_OPENGL_ES_API ? es_attr : NULL);
    if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx))
        return fail("a pbuffer and a context");
    for (int f = 0; f < 3; f++) {
        glClearColor(red, 0.1f * (float)f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(dpy, surf);
    }
    GLenum err = glGetError();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    return err != GL_NO_ERROR ? fail("GL") : 0;
}

int main(int argc, char **argv)
{
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        return fail("the surfaceless display");
    int rc = frames(dpy, EGL_OPENGL_API, EGL_OPENGL_BIT, 0.8f);
    if (!rc && argc > 1 && !strcmp(argv[1], "mixed"))
        rc = frames(dpy, EGL_OPENGL_ES_API, EGL_OPENGL_ES2_BIT, 0.2f);
    eglTerminate(dpy);
    if (!rc)
        printf("egl_desktop_app: %s\n", argc > 1 ? argv[1] : "desktop");
    return rc;
}
