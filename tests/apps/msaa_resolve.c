/* msaa_resolve: draws (OpenGL ES 3.0, pbuffer) into a 4-sample RGBA8
 * renderbuffer framebuffer, with the scissor test on over the left half,
 * resolves it with glBlitFramebuffer into a single-sampled texture
 * framebuffer and reads that back; prints the FNV-1a of the read. Exits 0
 * only if GL reported no error. Recorded with --fb=draw, the draw into the
 * multisampled framebuffer and the blit are both snapshotted. */
#include <GLES3/gl3.h>
#include <stdio.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "msaa_resolve"
#define W 32
#define H 32

static const char vs_src[] = "#version 300 es\n"
                             "in vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "out vec4 color;\n"
                             "void main() { color = vec4(1.0, 0.5, 0.0, 1.0); }\n";

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    GLuint vs = 0, fs = 0, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glUseProgram(prog);
    static const GLfloat tri[] = {-1, -1, 1, -1, 0, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    GLuint rb, tex, fbo[2];
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, W, H);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    glGenFramebuffers(2, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[1]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": the multisampled framebuffer is not complete\n");
        return 1;
    }
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, W / 2, H);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);

    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo[0]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo[1]);
    glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo[1]);
    unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("resolved fnv1a %08x\n", sample_pixels_hash(px, sizeof px));
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    return 0;
}
