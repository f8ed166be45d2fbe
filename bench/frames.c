/* frames: a frame loop for measuring capture per frame (bench/capture_frames.sh).
 *
 * usage: frames W H FRAMES MODE
 *   draw      clear, 20 textured quads, swap: a light scene
 *   readback  the same, plus the app's own glReadPixels of the whole surface
 *             before each swap: what a bare read costs in this app
 *   upload    the same scene, plus a 256x256 RGBA texture upload of new
 *             contents each frame: a texture-upload-heavy app
 * Prints `frames=N seconds=S fps=F`, timed inside the loop (start-up and
 * tear-down excluded). EGL surfaceless pbuffer, GLES 2. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *what)
{
    fprintf(stderr, "frames: %s failed\n", what);
    exit(1);
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        die("shader compile");
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: frames W H FRAMES draw|readback|upload\n");
        return 2;
    }
    int w = atoi(argv[1]), h = atoi(argv[2]), n = atoi(argv[3]);
    const char *mode = argv[4];
    int readback = strcmp(mode, "readback") == 0, upload = strcmp(mode, "upload") == 0;
    if (w <= 0 || h <= 0 || n <= 0 || (!readback && !upload && strcmp(mode, "draw") != 0)) {
        fprintf(stderr, "frames: bad arguments\n");
        return 2;
    }
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(dpy, NULL, NULL))
        die("eglInitialize");
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                               EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint nc = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &nc) || nc < 1)
        die("eglChooseConfig");
    const EGLint pb_attr[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
    const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (!surf || !ctx || !eglMakeCurrent(dpy, surf, surf, ctx))
        die("surface and context");

    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, "attribute vec2 p; uniform vec2 o; varying vec2 t;\n"
                                                  "void main() { t = p; gl_Position = vec4(p * 0.3 + o, 0.0, 1.0); }\n"));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, "precision mediump float; varying vec2 t; uniform sampler2D s;\n"
                                                    "void main() { gl_FragColor = texture2D(s, t); }\n"));
    glBindAttribLocation(prog, 0, "p");
    glLinkProgram(prog);
    glUseProgram(prog);
    GLint o = glGetUniformLocation(prog, "o");
    static const GLfloat quad[] = {0, 0, 1, 0, 0, 1, 1, 1};
    GLuint vbo, tex;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    enum { TS = 256 };
    unsigned char *texels = malloc(TS * TS * 4);
    unsigned char *px = malloc((size_t)w * h * 4);
    if (!texels || !px)
        die("malloc");
    for (int i = 0; i < TS * TS * 4; i++)
        texels[i] = (unsigned char)(i * 7);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TS, TS, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glViewport(0, 0, w, h);

    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int f = 0; f < n; f++) {
        if (upload) {
            /* New contents each frame, like a video or a streamed atlas. */
            for (int i = 0; i < TS * TS * 4; i += 64)
                texels[i] = (unsigned char)(texels[i] + f * 13 + i);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, TS, TS, GL_RGBA, GL_UNSIGNED_BYTE, texels);
        }
        glClearColor((float)(f % 10) / 10.0f, 0.2f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        for (int q = 0; q < 20; q++) {
            glUniform2f(o, (float)(q % 5) * 0.4f - 1.0f, (float)(q / 5) * 0.4f - 0.8f + (float)(f % 7) * 0.01f);
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        }
        if (readback)
            glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
        eglSwapBuffers(dpy, surf);
    }
    glFinish();
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("frames=%d seconds=%.4f fps=%.1f\n", n, s, n / s);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    free(texels);
    free(px);
    return 0;
}
