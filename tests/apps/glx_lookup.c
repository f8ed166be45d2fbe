/* glx_lookup: an EGL program (OpenGL ES 3.2, pbuffer) that finds its GLES
 * extension commands with glXGetProcAddressARB of libGL, as piglit does for
 * every command libGLESv2 does not export. With libglvnd that lookup hands
 * out a stub calling into whichever context is current, EGL's included.
 *
 * One frame: a 2-level RGBA8 texture (level 0 red, level 1 green) seen
 * through a texture view of level 1 alone (glTextureViewOES), drawn as a
 * full quad with the left half of the surface as viewport 0
 * (glViewportIndexedfOES) and a polygon offset clamp set
 * (glPolygonOffsetClampEXT). The pixels are read back, their FNV-1a printed,
 * and swapped. Without the view the quad would be red, without the indexed
 * viewport it would cover the whole surface. Exits 0 only if GL reported
 * no error. */
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <GL/glx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "glx_lookup"
#define W 32
#define H 32

static const char vs_src[] = "#version 300 es\n"
                             "in vec2 a_pos;\n"
                             "out vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "uniform sampler2D u_tex;\n"
                             "in vec2 v_uv;\n"
                             "out vec4 color;\n"
                             "void main() { color = texture(u_tex, v_uv); }\n";

static void (*lookup(const char *name))(void)
{
    void (*f)(void) = glXGetProcAddressARB((const GLubyte *)name);
    if (!f) {
        fprintf(stderr, APP ": glXGetProcAddressARB(%s) gave nothing\n", name);
        exit(1);
    }
    return f;
}

static void fill(GLint level, int size, unsigned char r, unsigned char g)
{
    unsigned char px[8 * 8 * 4];
    for (int i = 0; i < size * size; i++)
        px[4 * i] = r, px[4 * i + 1] = g, px[4 * i + 2] = 0, px[4 * i + 3] = 255;
    glTexSubImage2D(GL_TEXTURE_2D, level, 0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);
    PFNGLTEXTUREVIEWOESPROC texture_view = (PFNGLTEXTUREVIEWOESPROC)lookup("glTextureViewOES");
    PFNGLVIEWPORTINDEXEDFOESPROC viewport_indexed = (PFNGLVIEWPORTINDEXEDFOESPROC)lookup("glViewportIndexedfOES");
    PFNGLPOLYGONOFFSETCLAMPEXTPROC offset_clamp = (PFNGLPOLYGONOFFSETCLAMPEXTPROC)lookup("glPolygonOffsetClampEXT");

    GLuint tex[2];
    glGenTextures(2, tex);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 8, 8);
    fill(0, 8, 255, 0);
    fill(1, 4, 0, 255);
    texture_view(tex[1], GL_TEXTURE_2D, tex[0], GL_RGBA8, 1, 1, 0, 1);
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    GLuint vs = 0, fs = 0, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    glUseProgram(prog);
    static const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    viewport_indexed(0, 0, 0, W / 2, H);
    offset_clamp(1.0f, 1.0f, 0.5f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("frame 0 fnv1a %08x\n", sample_pixels_hash(px, sizeof px));
    int left_green = px[1] == 255 && px[0] == 0, right_blue = px[4 * (W - 1) + 2] == 255;
    sample_egl_swap(&e);
    GLenum err = glGetError();
    sample_egl_close(&e);
    if (err != GL_NO_ERROR || !left_green || !right_blue) {
        fprintf(stderr, APP ": GL error 0x%x, left half green %d, right half blue %d\n", err, left_green,
                right_blue);
        return 1;
    }
    return 0;
}
