/* es2_render_texture: a program that asks EGL for a GLES 2 context and
 * renders into a texture through a framebuffer object, then draws that
 * texture onto its surface, for two frames. Mesa gives such a context all
 * of GLES 3.2 (mpv asks for version 2 this way); `gltrace record
 * --textures` reads the texture back each frame, and replay must read it
 * the same way: by what the context is, not by the version asked for.
 * Prints the final frame's fingerprint; exits 0 only if GL reported no
 * error. */
#include <GLES2/gl2.h>
#include <stdio.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "es2_render_texture"
#define W 64
#define H 48
#define TEX 32

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "varying vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_tri[] = "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "void main() { gl_FragColor = u_color; }\n";
static const char fs_tex[] = "precision mediump float;\n"
                             "uniform sampler2D u_tex;\n"
                             "varying vec2 v_uv;\n"
                             "void main() { gl_FragColor = texture2D(u_tex, v_uv).bgra; }\n";

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, W, H);

    GLuint vs, fs;
    GLuint tri = sample_shader_program(APP, vs_src, fs_tri, &vs, &fs);
    GLuint quad = sample_shader_program(APP, vs_src, fs_tex, &vs, &fs);
    GLint u_color = glGetUniformLocation(tri, "u_color");

    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TEX, TEX, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "%s: the texture framebuffer is incomplete\n", APP);
        return 1;
    }

    static const GLfloat tri_v[] = {-0.8f, -0.8f, 0.8f, -0.6f, -0.2f, 0.9f};
    static const GLfloat quad_v[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glEnableVertexAttribArray(0);
    static unsigned char px[W * H * 4];
    for (int f = 0; f < 2; f++) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, TEX, TEX);
        glClearColor(0.2f, 0.1f * (GLfloat)f, 0.4f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(tri);
        glUniform4f(u_color, 1.0f, 0.5f + 0.5f * (GLfloat)f, 0.0f, 1.0f);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri_v);
        glDrawArrays(GL_TRIANGLES, 0, 3);

        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, W, H);
        glUseProgram(quad);
        glBindTexture(GL_TEXTURE_2D, tex);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad_v);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        if (f == 1)
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        sample_egl_swap(&e);
    }
    printf("%s: frame %08x\n", APP, sample_pixels_hash(px, sizeof px));
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error 0x%x\n", APP, err);
        return 1;
    }
    sample_egl_close(&e);
    return 0;
}
