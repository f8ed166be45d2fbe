/* callloop: a call-heavy GLES loop for measuring per-call capture cost.
 * Headless (EGL surfaceless, llvmpipe). Prints one line:
 *   calls=N loop_ns=T
 * usage: callloop [ITERATIONS]   (4 cheap GL calls per iteration) */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "callloop: %s failed (EGL error 0x%x)\n", what, eglGetError());
    exit(1);
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 1000000;
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        die("eglInitialize");
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint n;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        die("eglChooseConfig");
    static const EGLint pb_attr[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
    eglBindAPI(EGL_OPENGL_ES_API);
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (!ctx || !eglMakeCurrent(dpy, surf, surf, ctx))
        die("eglMakeCurrent");
    const char *vs = "uniform float u; attribute vec4 p; void main() { gl_Position = p * u; }";
    const char *fs = "precision mediump float; void main() { gl_FragColor = vec4(1.0); }";
    GLuint prog = glCreateProgram();
    GLuint s1 = glCreateShader(GL_VERTEX_SHADER), s2 = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(s1, 1, &vs, NULL);
    glShaderSource(s2, 1, &fs, NULL);
    glCompileShader(s1);
    glCompileShader(s2);
    glAttachShader(prog, s1);
    glAttachShader(prog, s2);
    glLinkProgram(prog);
    glUseProgram(prog);
    GLint loc = glGetUniformLocation(prog, "u");

    double t0 = now_ns();
    for (long i = 0; i < iters; i++) {
        glUniform1f(loc, (float)(i & 1023) * 0.001f);
        glEnable(GL_BLEND);
        glDisable(GL_BLEND);
        glUniform1f(loc, 0.5f);
    }
    double t1 = now_ns();
    glFinish();
    eglSwapBuffers(dpy, surf);
    printf("calls=%ld loop_ns=%.0f\n", iters * 4, t1 - t0);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
