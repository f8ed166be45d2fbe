/* callmix: call-heavy GLES loops with call mixes other than bench/callloop's,
 * for replay's per-call cost. Headless (EGL surfaceless, llvmpipe); draws
 * nothing, so the time is the calls'. Prints one line:
 *   mix=NAME calls=N loop_ns=T
 * usage: callmix MIX [ITERATIONS]
 *   blend   glUniform1f(loc, i); glEnable(GL_BLEND); glDisable(GL_BLEND)
 *           (3 calls; loc from glGetUniformLocation, so replay maps it)
 *   attrib  glBindBuffer, glVertexAttrib4f, glUniform4fv, glBindTexture,
 *           glVertexAttrib1f, glUniform1i, glVertexAttrib3fv, glBlendFunc
 *           (8 calls: mapped attribute indices and uniform locations,
 *           buffer and texture names, values behind pointers)
 *   state   glViewport, glScissor, glColorMask, glDepthFunc, glClearColor,
 *           glActiveTexture (6 calls of plain state with several arguments)
 *   matrix  glActiveTexture, glBindTexture, glUniformMatrix4fv, glUniform4fv,
 *           glVertexAttrib4f, glBindBuffer, glUniform1f (7 calls, written
 *           after replay's per-call work was tuned: a 64-byte matrix behind
 *           a pointer, mapped uniform locations and attribute index,
 *           texture units and names)
 * ITERATIONS 0 gives the same program with an empty loop: the start-up. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "callmix: %s failed (EGL error 0x%x)\n", what, eglGetError());
    exit(1);
}

static GLuint program(void)
{
    /* Two attributes and the uniforms the mixes set; the unused "pad"
     * attribute comes first so the driver's locations are not 0 and 1 by
     * chance of declaration order alone. */
    const char *vs = "uniform float u; uniform vec4 u4; uniform sampler2D s; uniform mat4 m;\n"
                     "attribute vec4 pad; attribute vec4 p; attribute float w; attribute vec3 n;\n"
                     "void main() { gl_Position = m * (p * u + u4 + pad) * w + vec4(n, 0.0)"
                     " + texture2DLod(s, vec2(0.0), 0.0); }";
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
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "callmix: the program does not link\n");
        exit(1);
    }
    glUseProgram(prog);
    return prog;
}

static void mix_blend(long iters, GLuint prog)
{
    GLint loc = glGetUniformLocation(prog, "u");
    for (long i = 0; i < iters; i++) {
        glUniform1f(loc, (float)i);
        glEnable(GL_BLEND);
        glDisable(GL_BLEND);
    }
}

static void mix_attrib(long iters, GLuint prog)
{
    GLint u4 = glGetUniformLocation(prog, "u4"), s = glGetUniformLocation(prog, "s");
    GLint p = glGetAttribLocation(prog, "p"), w = glGetAttribLocation(prog, "w"), n = glGetAttribLocation(prog, "n");
    GLuint buf[2], tex[2];
    glGenBuffers(2, buf);
    glGenTextures(2, tex);
    for (int k = 0; k < 2; k++) {
        glBindBuffer(GL_ARRAY_BUFFER, buf[k]);
        glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
        glBindTexture(GL_TEXTURE_2D, tex[k]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    }
    for (long i = 0; i < iters; i++) {
        float f = (float)(i & 4095);
        GLfloat v4[4] = {f, 1.0f, 2.0f, 3.0f}, v3[3] = {0.5f, f, 0.25f};
        glBindBuffer(GL_ARRAY_BUFFER, buf[i & 1]);
        glVertexAttrib4f((GLuint)p, f, 0.0f, 1.0f, 1.0f);
        glUniform4fv(u4, 1, v4);
        glBindTexture(GL_TEXTURE_2D, tex[(i >> 1) & 1]);
        glVertexAttrib1f((GLuint)w, f * 0.5f);
        glUniform1i(s, 0);
        glVertexAttrib3fv((GLuint)n, v3);
        glBlendFunc(i & 1 ? GL_ONE : GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    }
}

static void mix_matrix(long iters, GLuint prog)
{
    GLint m = glGetUniformLocation(prog, "m"), u4 = glGetUniformLocation(prog, "u4");
    GLint u = glGetUniformLocation(prog, "u"), p = glGetAttribLocation(prog, "p");
    GLuint buf[2], tex[2];
    glGenBuffers(2, buf);
    glGenTextures(2, tex);
    for (int k = 0; k < 2; k++) {
        glBindBuffer(GL_ARRAY_BUFFER, buf[k]);
        glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
        glBindTexture(GL_TEXTURE_2D, tex[k]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    }
    GLfloat mat[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (long i = 0; i < iters; i++) {
        float f = (float)(i & 1023);
        mat[12] = f;
        mat[13] = f * 0.5f;
        GLfloat v4[4] = {0.25f, f, 0.5f, 1.0f};
        glActiveTexture(GL_TEXTURE0 + (GLenum)(i & 1));
        glBindTexture(GL_TEXTURE_2D, tex[(i >> 1) & 1]);
        glUniformMatrix4fv(m, 1, GL_FALSE, mat);
        glUniform4fv(u4, 1, v4);
        glVertexAttrib4f((GLuint)p, f, 0.0f, 0.5f, 1.0f);
        glBindBuffer(GL_ARRAY_BUFFER, buf[i & 1]);
        glUniform1f(u, f * 0.25f);
    }
    glActiveTexture(GL_TEXTURE0);
}

static void mix_state(long iters)
{
    for (long i = 0; i < iters; i++) {
        GLint k = (GLint)(i & 63);
        glViewport(k, 0, 64 - k, 64);
        glScissor(0, k, 32, 32 + k);
        glColorMask(GL_TRUE, (GLboolean)(i & 1), GL_TRUE, GL_TRUE);
        glDepthFunc(i & 2 ? GL_LEQUAL : GL_LESS);
        glClearColor((float)k / 64.0f, 0.0f, 0.5f, 1.0f);
        glActiveTexture(GL_TEXTURE0 + (GLenum)(i & 3));
    }
}

int main(int argc, char **argv)
{
    const char *mix = argc > 1 ? argv[1] : "";
    long iters = argc > 2 ? atol(argv[2]) : 1000000;
    int per = !strcmp(mix, "blend")    ? 3
              : !strcmp(mix, "attrib") ? 8
              : !strcmp(mix, "state")  ? 6
              : !strcmp(mix, "matrix") ? 7
                                       : 0;
    if (!per || iters < 0) {
        fprintf(stderr, "usage: callmix blend|attrib|state|matrix [ITERATIONS]\n");
        return 2;
    }
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
    GLuint prog = program();
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT); /* the picture taken at the swap is defined, not left over */
    double t0 = now_ns();
    if (per == 3)
        mix_blend(iters, prog);
    else if (per == 8)
        mix_attrib(iters, prog);
    else if (per == 7)
        mix_matrix(iters, prog);
    else
        mix_state(iters);
    double t1 = now_ns();
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    eglSwapBuffers(dpy, surf);
    printf("mix=%s calls=%ld loop_ns=%.0f\n", mix, iters * per, t1 - t0);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
