/* fbo_snapshots: multiple render targets of every kind a snapshot must read
 * losslessly, and the state a snapshot must leave alone (OpenGL ES 3.2).
 *
 * One framebuffer, four colour attachments, all drawn by one fragment
 * shader (glDrawBuffers):
 *   0  a GL_RGBA8 2D texture
 *   1  a GL_RGBA32F 2D texture (EXT_color_buffer_float): 0.3, 1e-3 and
 *      negative values, which RGBA8 would lose
 *   2  a GL_RGBA32I renderbuffer: negative integers
 *   3  layer 1 of a GL_RGBA8 2D array texture (glFramebufferTextureLayer)
 * Two frames of two draws each (a full quad with glDrawArrays, then a
 * smaller one with glDrawElements, different uniforms). After every draw
 * the app reads each attachment back itself (glReadBuffer + glReadPixels,
 * in the format that loses nothing); then it blits attachment 0 to the
 * pbuffer, reads the pbuffer back and swaps.
 *
 * Before the first draw it sets state that `gltrace record --fb=draw
 * --textures` must not disturb while it reads its snapshots: pack
 * alignment 2, a pixel-pack buffer bound (unbound only around its own
 * readbacks into client memory), the framebuffer's read buffer
 * GL_COLOR_ATTACHMENT2, a spare renderbuffer bound, texture unit 1 active
 * with the array texture bound. After every draw, before its readbacks, and
 * once after the last swap it queries that state and exits 1 if any of it
 * changed.
 *
 * Prints the FNV-1a of all its readbacks (readbacks=) and of the last
 * pbuffer readback (fnv1a=); exits 0 only if GL reported no error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_fbo_snapshots.py: change one, change the other. */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "fbo_snapshots"
#define W 64
#define H 48
#define FRAMES 2
#define DRAWS 2
#define ATTACHMENTS 4

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "uniform vec4 u_xform;\n" /* scale xy, offset zw */
                             "out vec2 v_uv;\n"
                             "void main() {\n"
                             "  v_uv = a_pos * 0.5 + 0.5;\n"
                             "  gl_Position = vec4(a_pos * u_xform.xy + u_xform.zw, 0.0, 1.0);\n"
                             "}\n";
/* Attachment 2 gets integers only from gl_FragCoord and a whole-number
 * uniform, so the check can compute every one of its pixels. */
static const char fs_src[] = "#version 300 es\n"
                             "precision highp float;\n"
                             "precision highp int;\n"
                             "uniform vec4 u_k;\n"
                             "in vec2 v_uv;\n"
                             "layout(location = 0) out vec4 o_rgba8;\n"
                             "layout(location = 1) out vec4 o_float;\n"
                             "layout(location = 2) out ivec4 o_int;\n"
                             "layout(location = 3) out vec4 o_layer;\n"
                             "void main() {\n"
                             "  o_rgba8 = vec4(v_uv, u_k.x, 1.0);\n"
                             "  o_float = vec4(0.3, -2.5 * v_uv.y - 0.125, 1e-3, -u_k.y);\n"
                             "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
                             "  o_int = ivec4(p.x - 40, -1000 * p.y, -7 * int(u_k.w), 123456789);\n"
                             "  o_layer = vec4(1.0 - v_uv.x, u_k.z, v_uv.y * v_uv.x, 0.5);\n"
                             "}\n";

static const GLenum read_format[ATTACHMENTS] = {GL_RGBA, GL_RGBA, GL_RGBA_INTEGER, GL_RGBA};
static const GLenum read_type[ATTACHMENTS] = {GL_UNSIGNED_BYTE, GL_FLOAT, GL_INT, GL_UNSIGNED_BYTE};
static const size_t texel_size[ATTACHMENTS] = {4, 16, 16, 4};

/* The state set before the first draw, as glGetIntegerv reports it. */
typedef struct kept {
    GLenum pname;
    const char *name;
    GLint value;
} kept;
enum { KEPT = 9 };

static void check_state(const kept *k, const char *when)
{
    for (int i = 0; i < KEPT; i++) {
        GLint v = -1;
        glGetIntegerv(k[i].pname, &v);
        if (v != k[i].value) {
            fprintf(stderr, APP ": %s: %s is %d (0x%x), the app set %d (0x%x)\n", when, k[i].name, v,
                    (unsigned)v, k[i].value, (unsigned)k[i].value);
            exit(1);
        }
    }
}

static uint32_t fnv1a_more(uint32_t h, const unsigned char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);

    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (major * 10 + minor < 32 || !ext || !strstr(ext, "GL_EXT_color_buffer_float")) {
        fprintf(stderr, APP ": needs OpenGL ES 3.2 with GL_EXT_color_buffer_float (got %d.%d)\n", major, minor);
        return 1;
    }

    GLuint vs, fs;
    GLuint prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    GLint u_xform = glGetUniformLocation(prog, "u_xform");
    GLint u_k = glGetUniformLocation(prog, "u_k");
    glUseProgram(prog);

    /* Buffers: the quad (-1..1), its two triangles' indices, the pixel-pack
     * buffer. */
    static const GLfloat quad[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
    static const GLubyte indices[] = {0, 1, 2, 2, 1, 3};
    GLuint vao, buf[3];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(3, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, buf[2]);
    glBufferData(GL_PIXEL_PACK_BUFFER, 256, NULL, GL_STREAM_READ);

    /* Render targets: two 2D textures on unit 0, the array on unit 1; the
     * integer renderbuffer and a spare one, which stays bound. */
    GLuint tex[3], rb[2], fbo;
    glGenTextures(3, tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, W, H);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex[2]);
    glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, W, H, 2);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32I, W, H);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);

    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[0], 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, tex[1], 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT2, GL_RENDERBUFFER, rb[0]);
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT3, tex[2], 0, 1);
    static const GLenum draw_bufs[ATTACHMENTS] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2,
                                                  GL_COLOR_ATTACHMENT3};
    glDrawBuffers(ATTACHMENTS, draw_bufs);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": the four-attachment framebuffer is not complete\n");
        return 1;
    }
    glViewport(0, 0, W, H);

    /* The state a snapshot must not disturb. */
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glReadBuffer(GL_COLOR_ATTACHMENT2);
    const kept k[KEPT] = {
        {GL_PACK_ALIGNMENT, "GL_PACK_ALIGNMENT", 2},
        {GL_PIXEL_PACK_BUFFER_BINDING, "GL_PIXEL_PACK_BUFFER_BINDING", (GLint)buf[2]},
        {GL_READ_BUFFER, "GL_READ_BUFFER", GL_COLOR_ATTACHMENT2},
        {GL_RENDERBUFFER_BINDING, "GL_RENDERBUFFER_BINDING", (GLint)rb[1]},
        {GL_ACTIVE_TEXTURE, "GL_ACTIVE_TEXTURE", GL_TEXTURE1},
        {GL_TEXTURE_BINDING_2D_ARRAY, "GL_TEXTURE_BINDING_2D_ARRAY", (GLint)tex[2]},
        {GL_TEXTURE_BINDING_2D, "GL_TEXTURE_BINDING_2D (unit 1)", 0},
        {GL_READ_FRAMEBUFFER_BINDING, "GL_READ_FRAMEBUFFER_BINDING", (GLint)fbo},
        {GL_DRAW_FRAMEBUFFER_BINDING, "GL_DRAW_FRAMEBUFFER_BINDING", (GLint)fbo},
    };

    static unsigned char att_px[ATTACHMENTS][W * H * 16];
    static unsigned char win_px[W * H * 4];
    uint32_t all = 2166136261u, window = 0;
    for (int f = 0; f < FRAMES; f++) {
        static const GLfloat clear_f[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        static const GLint clear_i[4] = {-1, -2, -3, -4};
        glClearBufferfv(GL_COLOR, 0, clear_f);
        glClearBufferfv(GL_COLOR, 1, clear_f);
        glClearBufferiv(GL_COLOR, 2, clear_i);
        glClearBufferfv(GL_COLOR, 3, clear_f);
        for (int d = 0; d < DRAWS; d++) {
            /* Draw 0 covers the viewport; draw 1 a half-size quad whose
             * edges fall on pixel edges (x 24..56 then 8..40, y 6..30 then
             * 18..42), so which pixels it covers is exact. */
            if (d == 0)
                glUniform4f(u_xform, 1.0f, 1.0f, 0.0f, 0.0f);
            else
                glUniform4f(u_xform, 0.5f, 0.5f, f ? -0.25f : 0.25f, f ? 0.25f : -0.25f);
            glUniform4f(u_k, 0.25f + 0.5f * (float)d, 1.75f + (float)f, 0.125f * (float)(1 + d + 2 * f),
                        (float)(1 + d + 2 * f));
            if (d == 0)
                glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
            else
                glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, NULL);
            char when[64];
            snprintf(when, sizeof when, "after draw %d of frame %d", d, f);
            check_state(k, when);
            glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
            for (int i = 0; i < ATTACHMENTS; i++) {
                glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)i);
                glReadPixels(0, 0, W, H, read_format[i], read_type[i], att_px[i]);
                all = fnv1a_more(all, att_px[i], (size_t)W * H * texel_size[i]);
            }
            glReadBuffer(GL_COLOR_ATTACHMENT2);
            glBindBuffer(GL_PIXEL_PACK_BUFFER, buf[2]);
        }
        /* Attachment 0 to the pbuffer, read back as a swap snapshot sees it;
         * then every binding as it was. */
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, win_px);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, buf[2]);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glReadBuffer(GL_COLOR_ATTACHMENT2);
        all = fnv1a_more(all, win_px, sizeof win_px);
        window = sample_pixels_hash(win_px, sizeof win_px);
        sample_egl_swap(&e);
    }
    check_state(k, "after the last swap");
    GLenum err = glGetError();

    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(2, rb);
    glDeleteTextures(3, tex);
    glDeleteBuffers(3, buf);
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
    printf(APP ": %d frames, %d draws, %d attachments %dx%d readbacks=%08x fnv1a=%08x\n", FRAMES,
           FRAMES * DRAWS, ATTACHMENTS, W, H, (unsigned)all, (unsigned)window);
    return 0;
}
