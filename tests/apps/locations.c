/* locations: an OpenGL ES 3.1 sample that draws only with locations it
 * asked the driver for, the way most real programs do (no layout
 * qualifiers, no glBindAttribLocation): glGetAttribLocation,
 * glGetUniformLocation and glGetProgramResourceLocation for both.
 *
 * Two programs declare their attributes in different orders, so the driver
 * gives them different locations. Program A's vertex array object is set
 * up right after its locations are asked, before any glUseProgram (as many
 * programs do); program B's arrays every frame with B in use, one of them
 * a client-side array. Offsets come from constant attributes
 * (glVertexAttrib2f), a scale and a tint from uniforms. A draws the left
 * half, B the right, for two frames.
 *
 * tests/replay/check_locations.py rewrites the recorded locations as
 * another driver might have given them and replays the trace: it matches
 * only if replay maps every location back. Prints the final frame's
 * fingerprint; exits 0 only if GL reported no error. */
#include <GLES3/gl31.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "locations"
#define W 96
#define H 64
#define FRAMES 2

static const char vs_a[] = "#version 310 es\n"
                           "in vec2 a_pos;\n"
                           "in vec3 a_color;\n"
                           "in vec2 a_shift;\n"
                           "uniform float u_scale;\n"
                           "out vec3 v_color;\n"
                           "void main() {\n"
                           "  v_color = a_color;\n"
                           "  gl_Position = vec4(a_pos * u_scale + a_shift, 0.0, 1.0);\n"
                           "}\n";
/* The same inputs, declared and used in another order. */
static const char vs_b[] = "#version 310 es\n"
                           "in vec2 a_shift;\n"
                           "in vec3 a_color;\n"
                           "in vec2 a_pos;\n"
                           "uniform float u_scale;\n"
                           "out vec3 v_color;\n"
                           "void main() {\n"
                           "  gl_Position = vec4(a_shift + a_pos * u_scale, 0.0, 1.0);\n"
                           "  v_color = a_color.bgr;\n"
                           "}\n";
static const char fs_src[] = "#version 310 es\n"
                             "precision mediump float;\n"
                             "uniform vec4 u_tint;\n"
                             "in vec3 v_color;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = vec4(v_color, 1.0) * u_tint; }\n";

typedef struct where {
    GLuint prog;
    GLint pos, color, shift; /* attribute locations */
    GLint scale, tint;       /* uniform locations */
} where;

static where ask(GLuint prog)
{
    where w = {prog, 0, 0, 0, 0, 0};
    w.pos = glGetAttribLocation(prog, "a_pos");
    w.color = glGetAttribLocation(prog, "a_color");
    w.shift = glGetProgramResourceLocation(prog, GL_PROGRAM_INPUT, "a_shift");
    w.scale = glGetUniformLocation(prog, "u_scale");
    w.tint = glGetProgramResourceLocation(prog, GL_UNIFORM, "u_tint");
    if (w.pos < 0 || w.color < 0 || w.shift < 0 || w.scale < 0 || w.tint < 0) {
        fprintf(stderr, "%s: a location is missing (%d %d %d %d %d)\n", APP, w.pos, w.color, w.shift, w.scale,
                w.tint);
        exit(1);
    }
    return w;
}

/* Program A's vertex array object: both arrays from buffers. Made while
 * no program is in use, right after A's locations were asked. */
static GLuint vao_a(const where *w, GLuint pos_vbo, GLuint color_vbo)
{
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, pos_vbo);
    glVertexAttribPointer((GLuint)w->pos, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray((GLuint)w->pos);
    glBindBuffer(GL_ARRAY_BUFFER, color_vbo);
    glVertexAttribPointer((GLuint)w->color, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray((GLuint)w->color);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(0);
    return vao;
}

static const GLfloat quad[] = {0.0f, -1.0f, 1.0f, -1.0f, 0.0f, 1.0f, 1.0f, 1.0f};
static const GLfloat colors[] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f};

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);

    GLuint vbo[2];
    glGenBuffers(2, vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof colors, colors, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    GLuint vs, fs;
    where a = ask(sample_shader_program(APP, vs_a, fs_src, &vs, &fs));
    GLuint va = vao_a(&a, vbo[0], vbo[1]);
    where b = ask(sample_shader_program(APP, vs_b, fs_src, &vs, &fs));
    printf("%s: A at %d %d %d, B at %d %d %d\n", APP, a.pos, a.color, a.shift, b.pos, b.color, b.shift);

    static unsigned char pixels[W * H * 4];
    for (int f = 0; f < FRAMES; f++) {
        glViewport(0, 0, W, H);
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        /* A: its vertex array object, a constant offset, its uniforms. */
        glUseProgram(a.prog);
        glBindVertexArray(va);
        glVertexAttrib2f((GLuint)a.shift, -1.0f, 0.0f);
        glUniform1f(a.scale, 0.9f - 0.2f * (GLfloat)f);
        glUniform4f(a.tint, 1.0f, 0.8f, 0.6f, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glBindVertexArray(0);
        /* B: the default vertex array, a buffer and a client-side array. */
        glUseProgram(b.prog);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[0]);
        glVertexAttribPointer((GLuint)b.pos, 2, GL_FLOAT, GL_FALSE, 0, NULL);
        glEnableVertexAttribArray((GLuint)b.pos);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glVertexAttribPointer((GLuint)b.color, 3, GL_FLOAT, GL_FALSE, 0, colors);
        glEnableVertexAttribArray((GLuint)b.color);
        glVertexAttrib2f((GLuint)b.shift, 0.0f, 0.0f);
        glUniform1f(b.scale, 0.7f + 0.2f * (GLfloat)f);
        glUniform4f(b.tint, 0.6f, 1.0f, 0.8f, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glDisableVertexAttribArray((GLuint)b.pos);
        glDisableVertexAttribArray((GLuint)b.color);
        glUseProgram(0);
        if (f == FRAMES - 1)
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        sample_egl_swap(&e);
    }
    printf("%s: frame %08x\n", APP, sample_pixels_hash(pixels, sizeof pixels));
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error 0x%x\n", APP, err);
        return 1;
    }
    sample_egl_close(&e);
    return 0;
}
