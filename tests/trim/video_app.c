/* video_app: frames of a video filter, for the texture levels capture
 * writes off before a mid-run capture's start and reads back there
 * (capture/cap_texhold.c), and the buffers it writes (cap_bufhold.c).
 * Twelve frames on a 64x64 pbuffer; each frame:
 *   - uploads new noise into two planes (glTexSubImage2D): a one- or
 *     three-component one (R8 on GLES 3, RGB on GLES 2) whole, on GLES 3
 *     from a pixel buffer it maps for writing, an RGBA one (BGRA on GLES 2)
 *     in part; and a
 *     luminance texture, which no framebuffer reads back (its uploads are
 *     written);
 *   - moves a corner of its quad (glBufferSubData of the vertex buffer);
 *   - draws the three, blended, into a framebuffer object's texture that
 *     accumulates (never cleared after frame 0; made by glTexStorage2D on
 *     GLES 3), with a depth renderbuffer
 *     attached and the depth test off, and one quad into a face of a cube
 *     map (+X or -Y in turn) through a second framebuffer;
 *   - every fourth frame reads the accumulated texture back (glReadPixels,
 *     as GStreamer's gldownload) and copies a corner of it into a third
 *     texture and into the luminance one (glCopyTexSubImage2D); every
 *     fifth makes the RGBA plane's
 *     mipmaps (from frame 4: before, it samples as incomplete, black);
 *   - on GLES 3, reads the accumulated texture into a pixel pack buffer
 *     and maps it for reading until the next frame begins (the start of
 *     a capture falls inside that mapping);
 *   - shows the accumulated texture, the copy and the cube's +X face in
 *     the window.
 *   - with 31, a GLES 3.1 draw into the window that stores into an image
 *     (colour writes off), which the next frame shows.
 *   video_app 2|3|31   (the GLES version of the context) */
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "video_app"
#define W 64
#define H 64
#define P 32 /* planes' size */
#define FRAMES 12

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "uniform vec2 u_offset;\n"
                             "uniform float u_scale;\n"
                             "varying vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5;\n"
                             "  gl_Position = vec4(a_pos * u_scale + u_offset, 0.0, 1.0); }\n";
static const char fs_2d[] = "precision mediump float;\n"
                            "uniform sampler2D u_tex;\n"
                            "uniform float u_alpha;\n"
                            "varying vec2 v_uv;\n"
                            "void main() { gl_FragColor = vec4(texture2D(u_tex, v_uv).rgb, u_alpha); }\n";
static const char fs_cube[] = "precision mediump float;\n"
                              "uniform samplerCube u_cube;\n"
                              "varying vec2 v_uv;\n"
                              "void main() { gl_FragColor = textureCube(u_cube, vec3(1.0, v_uv * 2.0 - 1.0)); }\n";
/* GLES 3.1 (video_app 31): a draw that stores into an image each frame. */
static const char vs_310[] = "#version 310 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "out vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos * 0.1, 0.0, 1.0); }\n";
static const char fs_store[] = "#version 310 es\n"
                               "precision highp float;\n"
                               "layout(rgba8, binding = 0) writeonly uniform highp image2D u_img;\n"
                               "uniform float u_alpha;\n"
                               "in vec2 v_uv;\n"
                               "out vec4 o;\n"
                               "void main() { imageStore(u_img, ivec2(v_uv * 16.0), vec4(v_uv, u_alpha, 1.0));\n"
                               "  o = vec4(0.0); }\n";
static const GLfloat quad[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};

typedef struct prog {
    GLuint id;
    GLint offset, scale, alpha;
} prog;

typedef struct app {
    int es, images;
    GLenum rgba; /* the four-component plane's format: BGRA on GLES 2 (EXT_texture_format_BGRA8888) */
    prog flat, cube, store;
    GLuint img;
    GLuint vbo, pbo, pack;
    int pack_mapped;
    GLuint plane[2], lum, acc, copy, cubemap;
    GLuint acc_fbo, cube_fbo, depth;
    GLubyte px[P * P * 4];
} app;

static GLuint texture(GLenum target, int filter)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(target, t);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

static prog program(const char *vs, const char *fs)
{
    GLuint vs_id, fs_id;
    prog p = {.id = sample_shader_program(APP, vs, fs, &vs_id, &fs_id)};
    glBindAttribLocation(p.id, 0, "a_pos");
    glLinkProgram(p.id);
    p.offset = glGetUniformLocation(p.id, "u_offset");
    p.scale = glGetUniformLocation(p.id, "u_scale");
    p.alpha = glGetUniformLocation(p.id, "u_alpha");
    return p;
}

static void setup(app *a)
{
    a->flat = program(vs_src, fs_2d);
    a->cube = program(vs_src, fs_cube);
    if (a->images) {
        a->store = program(vs_310, fs_store);
        a->img = texture(GL_TEXTURE_2D, GL_NEAREST);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 16, 16);
    }
    glGenBuffers(1, &a->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_DYNAMIC_DRAW);
    if (a->es >= 3) {
        glGenBuffers(1, &a->pbo);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, a->pbo);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, P * P, NULL, GL_STREAM_DRAW);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        glGenBuffers(1, &a->pack);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, a->pack);
        glBufferData(GL_PIXEL_PACK_BUFFER, W * H * 4, NULL, GL_STREAM_READ);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);

    a->plane[0] = texture(GL_TEXTURE_2D, GL_NEAREST);
    if (a->es >= 3)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, P, P, 0, GL_RED, GL_UNSIGNED_BYTE, NULL);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, P, P, 0, GL_RGB, GL_UNSIGNED_BYTE, NULL);
    a->plane[1] = texture(GL_TEXTURE_2D, GL_NEAREST_MIPMAP_NEAREST);
    sample_noise(a->px, sizeof a->px, 5u);
    glTexImage2D(GL_TEXTURE_2D, 0, a->rgba, P, P, 0, a->rgba, GL_UNSIGNED_BYTE, a->px); /* mipmaps from frame 4 */
    a->lum = texture(GL_TEXTURE_2D, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 8, 8, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE, NULL);
    a->copy = texture(GL_TEXTURE_2D, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    a->cubemap = texture(GL_TEXTURE_CUBE_MAP, GL_NEAREST);
    for (int f = 0; f < 6; f++) {
        sample_noise(a->px, 16 * 16 * 4, 40u + (unsigned)f);
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     a->px);
    }

    a->acc = texture(GL_TEXTURE_2D, GL_NEAREST);
    if (a->es >= 3)
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenRenderbuffers(1, &a->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, a->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
    glGenFramebuffers(1, &a->acc_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->acc_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->acc, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, a->depth);
    glClearColor(0.0f, 0.0f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glGenFramebuffers(1, &a->cube_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

static void draw(const prog *p, GLuint tex, GLenum target, float x, float y, float scale, float alpha)
{
    glUseProgram(p->id);
    glBindTexture(target, tex);
    glUniform2f(p->offset, x, y);
    glUniform1f(p->scale, scale);
    if (p->alpha >= 0)
        glUniform1f(p->alpha, alpha);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* GLES 3: the accumulated texture read into the pixel pack buffer, which
 * stays mapped for reading until the next frame begins. */
static void download(app *a)
{
    glBindFramebuffer(GL_FRAMEBUFFER, a->acc_fbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, a->pack);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, 0);
    const GLubyte *m = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, W * H * 4, GL_MAP_READ_BIT);
    unsigned sum = 0;
    for (int i = 0; m && i < W * H * 4; i++)
        sum += m[i];
    a->pack_mapped = m != NULL && sum != 1; /* the sum is read, so the mapping is */
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

static void frame(app *a, int f)
{
    if (a->pack_mapped) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, a->pack);
        glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        a->pack_mapped = 0;
    }
    /* The new picture: on GLES 3 its first plane through a pixel buffer
     * mapped for writing. A corner of the quad moves. */
    sample_noise(a->px, sizeof a->px, 100u + (unsigned)f);
    glBindTexture(GL_TEXTURE_2D, a->plane[0]);
    if (a->es >= 3) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, a->pbo);
        GLubyte *m = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, P * P, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
        if (m) {
            for (int i = 0; i < P * P; i++)
                m[i] = a->px[i];
            glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
        }
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, P, P, GL_RED, GL_UNSIGNED_BYTE, 0);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    } else
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, P, P, GL_RGB, GL_UNSIGNED_BYTE, a->px);
    glBindTexture(GL_TEXTURE_2D, a->plane[1]);
    glTexSubImage2D(GL_TEXTURE_2D, 0, f % 16, 4, 16, 16, a->rgba, GL_UNSIGNED_BYTE, a->px + 64);
    if (f % 5 == 4)
        glGenerateMipmap(GL_TEXTURE_2D);
    glBindTexture(GL_TEXTURE_2D, a->lum);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_LUMINANCE, GL_UNSIGNED_BYTE, a->px + 128);

    GLfloat corner[2] = {1.0f - 0.05f * (float)(f % 5), 1.0f};
    glBufferSubData(GL_ARRAY_BUFFER, 6 * sizeof(GLfloat), sizeof corner, corner);

    /* Into the accumulating texture, and a face of the cube map. */
    glBindFramebuffer(GL_FRAMEBUFFER, a->acc_fbo);
    glViewport(0, 0, W, H);
    float s = (float)(f % 7) * 0.1f;
    draw(&a->flat, a->plane[0], GL_TEXTURE_2D, -0.5f + s, -0.5f, 0.4f, 0.5f);
    draw(&a->flat, a->plane[1], GL_TEXTURE_2D, 0.5f - s, 0.3f, 0.3f, 0.7f);
    draw(&a->flat, a->lum, GL_TEXTURE_2D, 0.0f, 0.5f - s, 0.2f, 0.6f);
    glBindFramebuffer(GL_FRAMEBUFFER, a->cube_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                           f % 2 ? GL_TEXTURE_CUBE_MAP_NEGATIVE_Y : GL_TEXTURE_CUBE_MAP_POSITIVE_X, a->cubemap, 0);
    glViewport(0, 0, 16, 16);
    draw(&a->flat, a->plane[1], GL_TEXTURE_2D, s - 0.3f, 0.0f, 0.5f, 0.5f);

    if (f % 4 == 3) {
        static GLubyte back[W * H * 4];
        glBindFramebuffer(GL_FRAMEBUFFER, a->acc_fbo);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, back);
        glBindTexture(GL_TEXTURE_2D, a->copy);
        glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8 * (f % 3), 8, 16, 16);
        glBindTexture(GL_TEXTURE_2D, a->lum);
        glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 16, 16, 8, 8);
    }

    if (a->es >= 3)
        download(a);

    /* The window. */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, W, H);
    glClearColor(0.2f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw(&a->flat, a->acc, GL_TEXTURE_2D, 0.0f, 0.0f, 1.0f, 1.0f);
    draw(&a->flat, a->copy, GL_TEXTURE_2D, -0.75f, -0.75f, 0.25f, 1.0f);
    draw(&a->cube, a->cubemap, GL_TEXTURE_CUBE_MAP, 0.75f, 0.75f, 0.25f, 1.0f);
    if (a->images) {
        /* Stores into the image (colour writes off), which the next frame shows. */
        draw(&a->flat, a->img, GL_TEXTURE_2D, -0.75f, 0.75f, 0.25f, 1.0f);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glUseProgram(a->store.id);
        glUniform1f(a->store.alpha, (float)f / FRAMES);
        glBindImageTexture(0, a->img, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
    }
}

int main(int argc, char **argv)
{
    int es = argc == 2 ? atoi(argv[1]) : 0;
    if (es != 2 && es != 3 && es != 31) {
        fprintf(stderr, "usage: " APP " 2|3|31 (the GLES version; 31: 3.1, and a draw storing into an image)\n");
        return 2;
    }
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), es == 2 ? 2 : 3, W, H);
    app a = {.es = es == 2 ? 2 : 3, .images = es == 31, .rgba = es == 2 ? GL_BGRA_EXT : GL_RGBA};
    setup(&a);
    for (int f = 0; f < FRAMES; f++) {
        frame(&a, f);
        sample_egl_swap(&e);
    }
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    printf(APP ": GLES %d, %d frames\n", es, FRAMES);
    return 0;
}
