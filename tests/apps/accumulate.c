/* accumulate: frames that read what the frame before them left (OpenGL
 * ES 2.0, 32x32 pbuffer): the first frame clears, then every frame adds a
 * little red over the whole surface with additive blending and never
 * clears again, so each frame's picture depends on the last. Replayed
 * once, every frame is what was recorded; its last frame replayed again
 * (`gltrace replay --loop`) adds once more and is not. Prints the final
 * frame's fingerprint; exits 0 only if GL reported no error. */
#include <GLES2/gl2.h>
#include <stdio.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "accumulate"
#define FRAMES 4

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "void main() { gl_FragColor = vec4(0.125, 0.0, 0.0, 1.0); }\n";

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, 32, 32);
    GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    static const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glUseProgram(prog);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4 * 32 * 32];
    for (int f = 0; f < FRAMES; f++) {
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        sample_egl_swap(&e);
    }
    glReadPixels(0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    printf("accumulate: red %u after %d frames, fingerprint %08x\n", px[0], FRAMES, sample_pixels_hash(px, sizeof px));
    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    sample_egl_close(&e);
    return err == GL_NO_ERROR ? 0 : 1;
}
