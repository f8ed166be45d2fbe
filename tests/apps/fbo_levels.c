/* fbo_levels: draws (OpenGL ES 3.2, pbuffer) into framebuffer attachments
 * whose size is not the viewport's and whose format is not RGBA8, as
 * conformance tests do; the viewport stays 32x32 throughout:
 *   1. level 1 (16x16) of layer 1 of a 32x32 2D array texture,
 *   2. a texture view (glTextureViewOES) of level 1 (16x16) of a 32x32 2D
 *      texture, attached without ever being bound,
 *   3. a 32x32 RGBA8_SNORM texture (EXT_render_snorm).
 * Each is cleared, a triangle drawn, the attachment read back (RGBA8 for
 * 1 and 2, the driver's own read format for 3) and the FNV-1a of all reads
 * printed. Exits 0 only if GL reported no error. */
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <EGL/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "fbo_levels"
#define W 32
#define H 32

static const char vs_src[] = "#version 300 es\n"
                             "in vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "out vec4 color;\n"
                             "void main() { color = vec4(1.0, -0.5, 0.25, 1.0); }\n";

static unsigned char reads[3][W * H * 8];

static void draw_into(GLuint fbo, int which, int size)
{
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": framebuffer %d is not complete\n", which);
        exit(1);
    }
    glClearColor(0.0f, 0.5f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    GLint format = GL_RGBA, type = GL_UNSIGNED_BYTE;
    if (which == 2) {
        glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
        glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
    }
    glReadPixels(0, 0, size, size, (GLenum)format, (GLenum)type, reads[which]);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    PFNGLTEXTUREVIEWOESPROC texture_view = (PFNGLTEXTUREVIEWOESPROC)eglGetProcAddress("glTextureViewOES");
    if (!texture_view) {
        fprintf(stderr, APP ": no glTextureViewOES\n");
        return 1;
    }
    GLuint vs = 0, fs = 0, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glUseProgram(prog);
    static const GLfloat tri[] = {-1, -1, 1, -1, -1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);

    GLuint tex[4], fbo[3];
    glGenTextures(4, tex);
    glGenFramebuffers(3, fbo);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex[0]);
    glTexStorage3D(GL_TEXTURE_2D_ARRAY, 2, GL_RGBA8, W, H, 2);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex[0], 1, 1);

    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, W, H);
    glBindTexture(GL_TEXTURE_2D, 0);
    texture_view(tex[2], GL_TEXTURE_2D, tex[1], GL_RGBA8, 1, 1, 0, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[1]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[2], 0);

    glBindTexture(GL_TEXTURE_2D, tex[3]);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8_SNORM, W, H);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo[2]);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[3], 0);

    draw_into(fbo[0], 0, W / 2);
    draw_into(fbo[1], 1, W / 2);
    draw_into(fbo[2], 2, W);
    printf("reads fnv1a %08x\n", sample_pixels_hash(reads[0], sizeof reads));
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, APP ": GL error 0x%x\n", err);
        return 1;
    }
    return 0;
}
