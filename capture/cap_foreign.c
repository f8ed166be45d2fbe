/* cap_foreign.c: GL calls made under another API's context. A program
 * that draws with desktop GL through GLX reaches the library's GL entry
 * points with no EGL context current: recorded, such calls would be a
 * trace that replays nothing. Desktop GL is not captured yet, so a thread
 * whose first traced call finds a GLX context current (and no EGL one:
 * eglMakeCurrent is traced, so the thread would have been seen before)
 * is left out of the trace until it makes an EGL context current; the app
 * is told once, and the trace carries one marker (gltraceUncovered,
 * "API GLX") so that replay can say the same.
 *
 * The check costs a dlsym once per process and one call per thread, at
 * the thread's first traced call; an EGL app's calls never come here.
 *
 * Desktop GL through EGL (eglBindAPI(EGL_OPENGL_API)) goes through
 * eglMakeCurrent like GLES, so it is recorded as it is, and replay says it
 * does not replay such a context (replay/rp_egl.c); the app is told here,
 * at the first such context made current. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "gt_api.h" /* gt_class */
#include "cap_real_fns.h"

#include <dlfcn.h>
#include <pthread.h>

static void *(*glx_current)(void);
static pthread_once_t glx_once = PTHREAD_ONCE_INIT;

static void find_glx(void)
{
    /* GLX is not in the API description (not captured); only whether it
     * has a context current is asked, of a libGL already loaded. */
    glx_current = (void *(*)(void))dlsym(RTLD_DEFAULT, /* bootstrap: GLX is not described */
                                         "glXGetCurrentContext");
}

void cap_foreign_check(cap_tls *t)
{
    pthread_once(&glx_once, find_glx);
    if (!glx_current || !glx_current())
        return;
    static _Atomic int told;
    if (!atomic_exchange(&told, 1)) {
        cap_log("the app draws with desktop GL through GLX, which gltrace does not capture yet: "
                "its GL calls are left out of the trace");
        cap_meta_emit_marker(t, "API GLX");
    }
    t->foreign = 1;
    t->session = CAP_SESSION_FOREIGN;
}

/* A context made current through EGL: one made for desktop OpenGL
 * (eglBindAPI(EGL_OPENGL_API), as Qt's xcb_egl does) is recorded like any,
 * but replay does not replay desktop GL: the app is told once. */
void cap_foreign_egl_context(EGLDisplay dpy, EGLContext ctx)
{
    static _Atomic int told;
    EGLint type = 0;
    if (atomic_load(&told) || !cap_real.f.eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_TYPE, &type) ||
        type != EGL_OPENGL_API || atomic_exchange(&told, 1))
        return;
    cap_log("the app draws with desktop OpenGL through EGL (eglBindAPI EGL_OPENGL_API): its calls are recorded, "
            "but gltrace does not replay desktop GL yet");
}

cap_tls *cap_foreign_call(cap_tls *t, int cls)
{
    if (cls != GT_CLASS_CURRENT)
        return NULL;
    t->foreign = 0; /* an EGL context from here on: recorded as any thread */
    t->session = 0;
    return t;
}
