/* depth_stencil: known depth and stencil values, on the window surface and
 * in a framebuffer object, for `gltrace record --fb-depth` (OpenGL ES 3.0
 * with GL_NV_read_depth and GL_NV_read_stencil, which Mesa has).
 *
 * The pbuffer is made here, not by sample_egl_open, because it needs a
 * 24-bit depth and 8-bit stencil config (the same EGL calls, in the same
 * order). The framebuffer object is 40x32: an RGBA8 renderbuffer and a
 * GL_DEPTH24_STENCIL8 one (GL_DEPTH_STENCIL_ATTACHMENT).
 *
 * Each target (the 64x48 pbuffer, then the framebuffer object) is cleared
 * (depth 1.0, stencil 0) and gets three quads, depth test GL_LESS, stencil
 * test on, edges on pixel edges (w and h being the target's size):
 *   A  x [0, w/2)        y [0, h)          z 0    (depth 0.5)
 *      stencil ALWAYS ref 1, ops KEEP KEEP REPLACE
 *   B  x [0, w)          y [h/2, h)        z 0.5  (depth 0.75)
 *      stencil ALWAYS ref 0x10, ops KEEP INCR REPLACE
 *   C  x [w/4, 3w/4)     y [h/4, 3h/4)     z -0.5 (depth 0.25)
 *      stencil EQUAL ref 1, ops KEEP KEEP INVERT
 * In the framebuffer object x is mirrored (x -> w - x). So in the pbuffer:
 * bottom left depth 0.5 stencil 1, but 0.25 and 0xfe where C covers it;
 * top left 0.5 and 2 (B failed the depth test there: INCR); top right 0.75
 * and 0x10; bottom right 1.0 and 0 (C failed the stencil test).
 *
 * After every draw the app reads the target's colour (RGBA, UNSIGNED_BYTE),
 * depth (DEPTH_COMPONENT, UNSIGNED_INT) and stencil (STENCIL_INDEX,
 * UNSIGNED_BYTE) back itself, as a --fb-depth snapshot reads them. Then it
 * goes back to the pbuffer and swaps.
 *
 * Prints the FNV-1a of all its readbacks (readbacks=) and of its last
 * colour, depth and stencil reads of each target; exits 1 unless GL
 * reported no error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_depth_stencil.py: change one, change the other. */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "depth_stencil"
#define W 64
#define H 48
#define FBO_W 40
#define FBO_H 32
#define STEPS 3

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "uniform vec4 u_rect;\n" /* x0, y0, x1, y1 in pixels */
                             "uniform vec2 u_size;\n" /* the target's size in pixels */
                             "uniform float u_z;\n"
                             "void main() {\n"
                             "  vec2 p = mix(u_rect.xy, u_rect.zw, a_pos);\n"
                             "  gl_Position = vec4(p / u_size * 2.0 - 1.0, u_z, 1.0);\n"
                             "}\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = u_color; }\n";

/* One quad: its rectangle in quarters of the target's width and height,
 * its z, its stencil test and operations, its colour. */
typedef struct step {
    int qx0, qy0, qx1, qy1;
    GLfloat z;
    GLenum func;
    GLint ref;
    GLenum sfail, dpfail, dppass;
    GLfloat color[4];
} step;

static const step steps[STEPS] = {
    {0, 0, 2, 4, 0.0f, GL_ALWAYS, 1, GL_KEEP, GL_KEEP, GL_REPLACE, {1.0f, 0.0f, 0.0f, 1.0f}},
    {0, 2, 4, 4, 0.5f, GL_ALWAYS, 0x10, GL_KEEP, GL_INCR, GL_REPLACE, {0.0f, 1.0f, 0.0f, 1.0f}},
    {1, 1, 3, 3, -0.5f, GL_EQUAL, 1, GL_KEEP, GL_KEEP, GL_INVERT, {0.0f, 0.0f, 1.0f, 1.0f}},
};

static void die_egl(const char *call)
{
    fprintf(stderr, APP ": %s failed (EGL error 0x%04x)\n", call, (unsigned)eglGetError());
    exit(1);
}

/* sample_egl_open with a depth 24 + stencil 8 config. */
static void open_egl(sample_egl *e, EGLDisplay dpy)
{
    e->app = APP;
    e->dpy = dpy;
    e->width = W;
    e->height = H;
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die_egl("eglBindAPI(EGL_OPENGL_ES_API)");
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                               EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                               EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &e->cfg, 1, &n) || n < 1)
        die_egl("eglChooseConfig (RGBA8, depth 24, stencil 8, pbuffer)");
    const EGLint surf_attr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    e->surf = eglCreatePbufferSurface(dpy, e->cfg, surf_attr);
    if (e->surf == EGL_NO_SURFACE)
        die_egl("eglCreatePbufferSurface");
    const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
    e->ctx = eglCreateContext(dpy, e->cfg, EGL_NO_CONTEXT, ctx_attr);
    if (e->ctx == EGL_NO_CONTEXT)
        die_egl("eglCreateContext");
    if (!eglMakeCurrent(dpy, e->surf, e->surf, e->ctx))
        die_egl("eglMakeCurrent");
}

static uint32_t fnv1a_more(uint32_t h, const unsigned char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

/* What the app last read of one target. */
typedef struct readback {
    unsigned char color[W * H * 4];
    unsigned char depth[W * H * 4];
    unsigned char stencil[W * H];
} readback;

/* Clears the bound framebuffer (w x h) and draws the three quads, reading
 * colour, depth and stencil back after each; `all` takes in every byte. */
static void draw_target(int w, int h, int mirror, GLint u_rect, GLint u_size, GLint u_z, GLint u_color,
                        readback *rb, uint32_t *all)
{
    glViewport(0, 0, w, h);
    glUniform2f(u_size, (GLfloat)w, (GLfloat)h);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClearDepthf(1.0f);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    for (int i = 0; i < STEPS; i++) {
        const step *s = &steps[i];
        int x0 = s->qx0 * w / 4, x1 = s->qx1 * w / 4;
        if (mirror) {
            int m0 = w - x1, m1 = w - x0;
            x0 = m0, x1 = m1;
        }
        glUniform4f(u_rect, (GLfloat)x0, (GLfloat)(s->qy0 * h / 4), (GLfloat)x1, (GLfloat)(s->qy1 * h / 4));
        glUniform1f(u_z, s->z);
        glUniform4fv(u_color, 1, s->color);
        glStencilFunc(s->func, s->ref, 0xff);
        glStencilOp(s->sfail, s->dpfail, s->dppass);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rb->color);
        glReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, rb->depth);
        glReadPixels(0, 0, w, h, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, rb->stencil);
        *all = fnv1a_more(*all, rb->color, (size_t)w * h * 4);
        *all = fnv1a_more(*all, rb->depth, (size_t)w * h * 4);
        *all = fnv1a_more(*all, rb->stencil, (size_t)w * h);
        /* GT_SAMPLE_PRINT_STATE set: what it read, for check_inspect.py
         * (prints only: the calls stay those listed above). */
        if (getenv("GT_SAMPLE_PRINT_STATE"))
            printf("GT_STATE {\"width\": %d, \"height\": %d, \"depth_fnv1a\": %u, \"stencil_fnv1a\": %u}\n", w,
                   h, (unsigned)fnv1a_more(2166136261u, rb->depth, (size_t)w * h * 4),
                   (unsigned)fnv1a_more(2166136261u, rb->stencil, (size_t)w * h));
    }
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    open_egl(&e, sample_egl_display(APP));

    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_NV_read_depth") || !strstr(ext, "GL_NV_read_stencil")) {
        fprintf(stderr, APP ": needs GL_NV_read_depth and GL_NV_read_stencil\n");
        return 1;
    }
    GLint depth_bits = 0, stencil_bits = 0;
    glGetIntegerv(GL_DEPTH_BITS, &depth_bits);
    glGetIntegerv(GL_STENCIL_BITS, &stencil_bits);
    if (depth_bits != 24 || stencil_bits != 8) {
        fprintf(stderr, APP ": the pbuffer has depth %d, stencil %d; 24 and 8 wanted\n", depth_bits, stencil_bits);
        return 1;
    }

    GLuint vs, fs;
    GLuint prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    GLint u_rect = glGetUniformLocation(prog, "u_rect");
    GLint u_size = glGetUniformLocation(prog, "u_size");
    GLint u_z = glGetUniformLocation(prog, "u_z");
    GLint u_color = glGetUniformLocation(prog, "u_color");
    glUseProgram(prog);

    static const GLfloat quad[] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    GLuint rb[2], fbo;
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, FBO_W, FBO_H);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, FBO_W, FBO_H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": the depth-stencil framebuffer is not complete\n");
        return 1;
    }

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_STENCIL_TEST);

    static readback surf_rb, fbo_rb;
    uint32_t all = 2166136261u;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    draw_target(W, H, 0, u_rect, u_size, u_z, u_color, &surf_rb, &all);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    draw_target(FBO_W, FBO_H, 1, u_rect, u_size, u_z, u_color, &fbo_rb, &all);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    sample_egl_swap(&e);
    GLenum err = glGetError();

    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(2, rb);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    sample_egl_close(&e);
    eglTerminate(e.dpy);

    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x\n", err);
        return 1;
    }
    /* FNV-1a, but not as "fnv1a=": apptrace takes that for the colour of
     * the surface's last snapshot, and here the last one is its stencil. */
    printf(APP ": surface %dx%d color=%08x depth=%08x stencil=%08x fbo %dx%d color=%08x depth=%08x stencil=%08x"
           " readbacks=%08x\n",
           W, H, (unsigned)sample_pixels_hash(surf_rb.color, (size_t)W * H * 4),
           (unsigned)sample_pixels_hash(surf_rb.depth, (size_t)W * H * 4),
           (unsigned)sample_pixels_hash(surf_rb.stencil, (size_t)W * H), FBO_W, FBO_H,
           (unsigned)sample_pixels_hash(fbo_rb.color, (size_t)FBO_W * FBO_H * 4),
           (unsigned)sample_pixels_hash(fbo_rb.depth, (size_t)FBO_W * FBO_H * 4),
           (unsigned)sample_pixels_hash(fbo_rb.stencil, (size_t)FBO_W * FBO_H), (unsigned)all);
    return 0;
}
