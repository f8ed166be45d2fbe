/* threads_app: N threads, each with its own surfaceless context, each
 * issuing M glUniform1i calls whose value encodes (thread, index), so a
 * check can prove no record was lost, duplicated or reordered within a
 * thread. usage: threads_app THREADS CALLS */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static EGLDisplay dpy;
static EGLConfig cfg;
static long calls;

static void *worker(void *arg)
{
    long id = (long)arg;
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "threads_app: thread %ld: no context (0x%x)\n", id, eglGetError());
        return (void *)1;
    }
    for (long i = 0; i < calls; i++)
        glUniform1i(-1, (GLint)(id * 1000000 + i)); /* location -1: ignored by GL, recorded by us */
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    calls = argc > 2 ? atol(argv[2]) : 10000;
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint num = 0;
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API) ||
        !eglChooseConfig(dpy, cfg_attr, &cfg, 1, &num) || num < 1) {
        fprintf(stderr, "threads_app: no EGL surfaceless display (0x%x)\n", eglGetError());
        return 1;
    }
    pthread_t t[64];
    if (n < 1 || n > 64)
        n = 4;
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad |= r != NULL;
    }
    eglTerminate(dpy);
    printf("threads=%d calls=%ld\n", n, calls);
    return bad;
}
