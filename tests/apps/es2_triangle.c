/* es2_triangle: the OpenGL ES 2.0 sample. One shader program, one vertex
 * buffer, two uniforms, three frames of a triangle moving right over a
 * changing clear colour on a 64x64 pbuffer. Prints the final frame's
 * fingerprint; exits 0 only if GL reported no error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_es2_triangle.py: change one, change the other. */
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "es2_triangle"
#define W 64
#define H 64
#define FRAMES 3

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "uniform vec2 u_offset;\n"
                             "void main() { gl_Position = vec4(a_pos + u_offset, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "void main() { gl_FragColor = u_color; }\n";

/* GT_SAMPLE_PRINT_STATE set: after each glDrawArrays, some of the GL
 * state as one line "GT_STATE {json}" on standard output, keyed as
 * `gltrace inspect`'s state.json (tests/replay/check_inspect.py). Unset,
 * no call is added. */
static void print_state(int frame, GLuint prog, GLint u_offset, GLint u_color)
{
    GLint vp[4], cur, ab, en, size, buf;
    GLfloat cc[4], off[2], col[4];
    glGetIntegerv(GL_VIEWPORT, vp);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, cc);
    glGetIntegerv(GL_CURRENT_PROGRAM, &cur);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &ab);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
    glGetUniformfv(prog, u_offset, off);
    glGetUniformfv(prog, u_color, col);
    printf("GT_STATE {\"frame\": %d, \"get\": {\"GL_VIEWPORT\": [%d, %d, %d, %d], "
           "\"GL_COLOR_CLEAR_VALUE\": [%g, %g, %g, %g], \"GL_CURRENT_PROGRAM\": %d, "
           "\"GL_ARRAY_BUFFER_BINDING\": %d}, \"enabled\": {\"GL_BLEND\": %s, \"GL_CULL_FACE\": %s}, "
           "\"attribs\": {\"0\": {\"GL_VERTEX_ATTRIB_ARRAY_ENABLED\": %s, \"GL_VERTEX_ATTRIB_ARRAY_SIZE\": %d, "
           "\"GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING\": %d}}, "
           "\"uniforms\": {\"u_offset\": [%g, %g], \"u_color\": [%g, %g, %g, %g]}}\n",
           frame, vp[0], vp[1], vp[2], vp[3], (double)cc[0], (double)cc[1], (double)cc[2], (double)cc[3], cur, ab,
           glIsEnabled(GL_BLEND) ? "true" : "false", glIsEnabled(GL_CULL_FACE) ? "true" : "false",
           en ? "true" : "false", size, buf, (double)off[0], (double)off[1], (double)col[0], (double)col[1],
           (double)col[2], (double)col[3]);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, W, H);

    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER, vs_src);
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "a_pos");
    glLinkProgram(prog);
    GLint linked = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked) {
        fprintf(stderr, APP ": program does not link\n");
        return 1;
    }
    GLint u_offset = glGetUniformLocation(prog, "u_offset");
    GLint u_color = glGetUniformLocation(prog, "u_color");
    glUseProgram(prog);

    static const GLfloat tri[] = {-0.5f, -0.5f, 0.5f, -0.5f, 0.0f, 0.5f};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(GLfloat), NULL);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);

    for (int f = 0; f < FRAMES; f++) {
        /* Exact binary fractions, so the test compares floats with ==. */
        glClearColor(0.25f * (float)f, 0.5f, 0.75f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform2f(u_offset, 0.0625f * (float)f, 0.0f);
        glUniform4f(u_color, 1.0f, 0.5f, 0.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        if (getenv("GT_SAMPLE_PRINT_STATE"))
            print_state(f, prog, u_offset, u_color);
        sample_egl_swap(&e);
    }

    /* A pbuffer keeps its content across eglSwapBuffers: this is the last frame. */
    static unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();

    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    sample_egl_close(&e);
    eglTerminate(e.dpy);

    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%04x\n", err);
        return 1;
    }
    const unsigned char *c = px + ((H / 2) * W + W / 2) * 4;
    printf(APP ": %d frames %dx%d fnv1a=%08x centre=%02x%02x%02x%02x\n", FRAMES, W, H,
           (unsigned)sample_pixels_hash(px, sizeof px), c[0], c[1], c[2], c[3]);
    return 0;
}
