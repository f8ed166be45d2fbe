/* offscreen_readback: a program that never swaps (OpenGL ES 2.0), the way
 * off-screen benchmarks, media pipelines and test programs draw. It renders
 * into a framebuffer object (an RGBA8 renderbuffer), reads every frame back
 * with glReadPixels and waits for it with glFinish; its pbuffer is never
 * drawn into or swapped. Two frames, each a clear to the frame's colour and
 * a triangle. Prints the FNV-1a of its reads; exits 0 only if GL reported
 * no error.
 *
 * Recorded with the default --fb=swap, its trace has a snapshot of the
 * framebuffer at each glFinish and the bytes of each read, which replay
 * compares (check_offscreen_readback.py). */
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "offscreen_readback"
#define W 64
#define H 48
#define FRAMES 2

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "void main() { gl_FragColor = u_color; }\n";

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, 16, 16);

    GLuint vs = 0, fs = 0, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    GLint u_color = glGetUniformLocation(prog, "u_color");
    glUseProgram(prog);
    static const GLfloat tri[] = {-0.75f, -0.75f, 0.75f, -0.75f, 0.0f, 0.75f};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(GLfloat), NULL);
    glEnableVertexAttribArray(0);

    GLuint rb, fbo;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, W, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": the framebuffer is not complete\n");
        return 1;
    }
    glViewport(0, 0, W, H);

    static unsigned char px[FRAMES][W * H * 4];
    for (int f = 0; f < FRAMES; f++) {
        /* Exact binary fractions, so a test can change them exactly. */
        glClearColor(0.25f + 0.5f * (float)f, 0.5f, 0.25f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform4f(u_color, 1.0f, 0.75f * (float)f, 0.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px[f]);
        glFinish();
    }
    GLenum err = glGetError();

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
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
    printf(APP ": %d frames %dx%d fnv1a=%08x\n", FRAMES, W, H, (unsigned)sample_pixels_hash(px[0], sizeof px));
    return 0;
}
