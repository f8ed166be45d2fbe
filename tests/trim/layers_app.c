/* layers_app: what capture reads back at a mid-run start beyond 2D
 * colour textures (capture/cap_texhold.c): the layers of a 2D array
 * texture and the slices of a 3D one, a colour renderbuffer (GLES 3.2),
 * depth textures (NV_read_depth) and a depth and stencil renderbuffer
 * (NV_read_depth_stencil). Twelve frames on a
 * 64x64 pbuffer; each frame:
 *   - uploads noise into one layer of the array texture (16x16x3, defined
 *     by glTexImage3D) and one slice of the 3D texture (8x8x4, made by
 *     glTexStorage3D), glTexSubImage3D each;
 *   - draws, blended, into another layer of the array (a framebuffer with
 *     that layer attached, glFramebufferTextureLayer), sampling the 3D
 *     texture; it is never cleared after the setup;
 *   - draws, blended, into a colour renderbuffer (RGBA8, 32x32), never
 *     cleared after the setup, sampling the array, depth- and
 *     stencil-tested against a packed depth and stencil renderbuffer
 *     (GL_DEPTH24_STENCIL8: a pixel takes four draws at most);
 *   - draws, depth-tested, into a framebuffer of a colour texture and a
 *     depth texture (GL_DEPTH_COMPONENT with GL_UNSIGNED_INT, as
 *     glmark2's shadow and refract scenes make theirs), never cleared
 *     after the setup, at a depth that changes each frame;
 *   - every fourth frame blits the renderbuffer into the window's corner
 *     (the window then shows it, and it is read by a written command);
 *   - shows each layer of the array, two slices of the 3D texture, and
 *     the depth pass's colour and depth in the window.
 * `layers_app float` makes the depth texture GL_DEPTH_COMPONENT32F
 * (glTexImage2D with GL_FLOAT) and the packed renderbuffer
 * GL_DEPTH32F_STENCIL8, as engines with reversed depth do.
 * `layers_app finish` ends each frame with one more draw into the depth
 * pass's framebuffer and glFinish with it bound instead of a swap, as a
 * context that never swaps (a browser's GPU process) does.
 * Exits 0 only if GL reported no error. */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "layers_app"
#define W 64
#define H 64
#define FRAMES 12
#define AW 16 /* the array's layers' size */
#define LAYERS 3
#define VW 8 /* the 3D texture's size */
#define SLICES 4
#define RB 32

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "uniform vec3 u_place;\n" /* offset x, y and scale */
                             "uniform float u_z;\n"
                             "out vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5;\n"
                             "  gl_Position = vec4(a_pos * u_place.z + u_place.xy, u_z + a_pos.x * 0.2, 1.0); }\n";
static const char fs_array[] = "#version 300 es\n"
                               "precision mediump float;\n"
                               "uniform mediump sampler2DArray u_tex;\n"
                               "uniform float u_at;\n"
                               "in vec2 v_uv;\n"
                               "out vec4 o;\n"
                               "void main() { o = vec4(texture(u_tex, vec3(v_uv, u_at)).rgb, 0.6); }\n";
static const char fs_3d[] = "#version 300 es\n"
                            "precision mediump float;\n"
                            "uniform mediump sampler3D u_tex;\n"
                            "uniform float u_at;\n"
                            "in vec2 v_uv;\n"
                            "out vec4 o;\n"
                            "void main() { o = vec4(texture(u_tex, vec3(v_uv, u_at)).rgb, 0.5); }\n";
static const char fs_2d[] = "#version 300 es\n"
                            "precision mediump float;\n"
                            "uniform mediump sampler2D u_tex;\n"
                            "uniform float u_at;\n"
                            "in vec2 v_uv;\n"
                            "out vec4 o;\n"
                            "void main() { o = vec4(texture(u_tex, v_uv).rgb, 1.0); }\n";
static const GLfloat quad[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};

typedef struct prog {
    GLuint id;
    GLint place, at, z;
} prog;

typedef struct app {
    prog array, volume, flat;
    GLuint vbo, arr, vol, rb, rb_depth, layer_fbo, rb_fbo;
    GLuint depth_fbo, depth_colour, depth_tex;
    GLubyte px[AW * AW * 4];
} app;

static prog program(const char *fs)
{
    GLuint vs_id, fs_id;
    prog p = {.id = sample_shader_program(APP, vs_src, fs, &vs_id, &fs_id)};
    p.place = glGetUniformLocation(p.id, "u_place");
    p.at = glGetUniformLocation(p.id, "u_at");
    p.z = glGetUniformLocation(p.id, "u_z");
    return p;
}

static GLuint texture(GLenum target)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(target, t);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static void setup(app *a, int float_depth)
{
    a->array = program(fs_array);
    a->volume = program(fs_3d);
    a->flat = program(fs_2d);
    glGenBuffers(1, &a->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);

    a->arr = texture(GL_TEXTURE_2D_ARRAY);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, AW, AW, LAYERS, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    a->vol = texture(GL_TEXTURE_3D);
    glTexStorage3D(GL_TEXTURE_3D, 1, GL_RGBA8, VW, VW, SLICES);
    static GLubyte slab[VW * VW * SLICES * 4];
    sample_noise(slab, sizeof slab, 3u);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, VW, VW, SLICES, GL_RGBA, GL_UNSIGNED_BYTE, slab);

    glGenRenderbuffers(1, &a->rb);
    glBindRenderbuffer(GL_RENDERBUFFER, a->rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, RB, RB);
    glGenFramebuffers(1, &a->rb_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->rb_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, a->rb);
    glGenRenderbuffers(1, &a->rb_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, a->rb_depth);
    glRenderbufferStorage(GL_RENDERBUFFER, float_depth ? GL_DEPTH32F_STENCIL8 : GL_DEPTH24_STENCIL8, RB, RB);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, a->rb_depth);
    glClearColor(0.1f, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glStencilFunc(GL_GREATER, 4, 0xff); /* passes where fewer than four draws were */
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);

    a->depth_colour = texture(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, RB, RB, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    a->depth_tex = texture(GL_TEXTURE_2D);
    if (float_depth)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, RB, RB, 0, GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, RB, RB, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, NULL);
    glGenFramebuffers(1, &a->depth_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->depth_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->depth_colour, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, a->depth_tex, 0);
    glClearColor(0.0f, 0.0f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glGenFramebuffers(1, &a->layer_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->layer_fbo);
    for (int l = 0; l < LAYERS; l++) {
        glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, a->arr, 0, l);
        glClearColor(0.0f, 0.1f * (float)l, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

static void draw_at(const prog *p, GLenum target, GLuint tex, float at, float x, float y, float scale, float z)
{
    glUseProgram(p->id);
    glBindTexture(target, tex);
    glUniform3f(p->place, x, y, scale);
    if (p->at >= 0)
        glUniform1f(p->at, at);
    glUniform1f(p->z, z);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static void draw(const prog *p, GLenum target, GLuint tex, float at, float x, float y, float scale)
{
    draw_at(p, target, tex, at, x, y, scale, 0.0f);
}

static void frame(app *a, int f)
{
    sample_noise(a->px, sizeof a->px, 100u + (unsigned)f);
    glBindTexture(GL_TEXTURE_2D_ARRAY, a->arr);
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 4, 0, f % LAYERS, 8, AW, 1, GL_RGBA, GL_UNSIGNED_BYTE, a->px);
    glBindTexture(GL_TEXTURE_3D, a->vol);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, f % SLICES, VW, VW, 1, GL_RGBA, GL_UNSIGNED_BYTE, a->px + 64);

    float s = (float)(f % 5) * 0.1f;
    glBindFramebuffer(GL_FRAMEBUFFER, a->layer_fbo);
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, a->arr, 0, (f + 1) % LAYERS);
    glViewport(0, 0, AW, AW);
    draw(&a->volume, GL_TEXTURE_3D, a->vol, ((float)(f % SLICES) + 0.5f) / SLICES, s - 0.2f, 0.1f, 0.5f);

    float z = 0.4f - 0.15f * (float)(f % 6);
    glEnable(GL_DEPTH_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, a->rb_fbo);
    glViewport(0, 0, RB, RB);
    glEnable(GL_STENCIL_TEST);
    draw_at(&a->array, GL_TEXTURE_2D_ARRAY, a->arr, (float)(f % LAYERS), 0.3f - s, s, 0.6f, z);
    glDisable(GL_STENCIL_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, a->depth_fbo);
    draw_at(&a->volume, GL_TEXTURE_3D, a->vol, 0.375f, s - 0.3f, 0.2f - s, 0.6f, -z);
    glDisable(GL_DEPTH_TEST);

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, W, H);
    glClearColor(0.2f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int l = 0; l < LAYERS; l++)
        draw(&a->array, GL_TEXTURE_2D_ARRAY, a->arr, (float)l, -0.66f + 0.66f * (float)l, 0.5f, 0.3f);
    draw(&a->volume, GL_TEXTURE_3D, a->vol, 0.125f, -0.5f, -0.5f, 0.3f);
    draw(&a->volume, GL_TEXTURE_3D, a->vol, 0.625f, 0.0f, -0.5f, 0.3f);
    draw(&a->flat, GL_TEXTURE_2D, a->depth_colour, 0.0f, 0.5f, -0.5f, 0.2f);
    draw(&a->flat, GL_TEXTURE_2D, a->depth_tex, 0.0f, 0.75f, -0.75f, 0.2f);
    if (f % 4 == 3) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, a->rb_fbo);
        glBlitFramebuffer(0, 0, RB, RB, W - RB / 2, 0, W, RB / 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    }
}

int main(int argc, char **argv)
{
    int finish = argc == 2 && !strcmp(argv[1], "finish"), float_depth = argc == 2 && !strcmp(argv[1], "float");
    if (argc > 1 && !finish && !float_depth) {
        fprintf(stderr, "usage: " APP " [finish|float]   (finish: each frame ends in glFinish with the depth pass's "
                        "framebuffer bound, never a swap; float: 32-bit float depth)\n");
        return 2;
    }
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    app a = {0};
    setup(&a, float_depth);
    for (int f = 0; f < FRAMES; f++) {
        frame(&a, f);
        if (finish) { /* a context that never swaps: its snapshots are taken at glFinish, of this framebuffer */
            glBindFramebuffer(GL_FRAMEBUFFER, a.depth_fbo);
            glViewport(0, 0, RB, RB);
            draw(&a.volume, GL_TEXTURE_3D, a.vol, 0.875f, 0.1f * (float)(f % 4), -0.2f, 0.3f); /* read by nothing else */
            glFinish();
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
        } else {
            sample_egl_swap(&e);
        }
    }
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    printf(APP ": %d frames\n", FRAMES);
    return 0;
}
