/* es3_scene: the OpenGL ES 3.0 sample. A vertex array object over a vertex
 * buffer, a per-instance buffer (glVertexAttribDivisor) and an element
 * buffer; a uniform buffer; an immutable texture (glTexStorage2D) filled by
 * glTexSubImage2D; three instanced quads drawn with glDrawElementsInstanced
 * into an off-screen framebuffer backed by a renderbuffer, blitted scaled up
 * to the 128x96 pbuffer; a fence waited on at the end of every frame.
 * Prints the final frame's fingerprint; exits 0 only if GL reported no
 * error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_es3_scene.py: change one, change the other. */
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "es3_scene"
#define W 128
#define H 96
#define FBO_W 64
#define FBO_H 48
#define FRAMES 3
#define INSTANCES 3

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "layout(location = 1) in vec2 a_offset;\n"
                             "layout(std140) uniform Scene { vec4 tint; vec2 scale; };\n"
                             "out vec2 v_uv;\n"
                             "void main() {\n"
                             "  v_uv = a_pos + 0.5;\n"
                             "  gl_Position = vec4(a_pos * scale + a_offset, 0.0, 1.0);\n"
                             "}\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "layout(std140) uniform Scene { vec4 tint; vec2 scale; };\n"
                             "uniform sampler2D u_tex;\n"
                             "in vec2 v_uv;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = texture(u_tex, v_uv) * tint; }\n";

/* std140 layout of the Scene block: vec4 at 0, vec2 at 16. */
typedef struct scene_block {
    GLfloat tint[4];
    GLfloat scale[2];
    GLfloat pad[2];
} scene_block;

/* GT_SAMPLE_PRINT_STATE set: after each draw, some of the GL state as one
 * line "GT_STATE {json}" on standard output, keyed as `gltrace inspect`'s
 * state.json, for tests/replay/check_inspect.py. Unset, no call is added. */
static void print_state(int frame)
{
    GLint vp[4], prog, ab, eab, tex, fbo, front, ubo2;
    GLfloat cc[4];
    glGetIntegerv(GL_VIEWPORT, vp);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, cc);
    glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &ab);
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &eab);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &tex);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    glGetIntegerv(GL_FRONT_FACE, &front);
    glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 2, &ubo2);
    printf("GT_STATE {\"frame\": %d, \"get\": {\"GL_VIEWPORT\": [%d, %d, %d, %d], "
           "\"GL_COLOR_CLEAR_VALUE\": [%g, %g, %g, %g], \"GL_CURRENT_PROGRAM\": %d, "
           "\"GL_ARRAY_BUFFER_BINDING\": %d, \"GL_ELEMENT_ARRAY_BUFFER_BINDING\": %d, "
           "\"GL_DRAW_FRAMEBUFFER_BINDING\": %d, \"GL_FRONT_FACE\": %d}, "
           "\"enabled\": {\"GL_BLEND\": %s, \"GL_DEPTH_TEST\": %s}, "
           "\"units\": {\"0\": {\"GL_TEXTURE_BINDING_2D\": %d}}, "
           "\"indexed\": {\"GL_UNIFORM_BUFFER_BINDING\": {\"2\": %d}}}\n",
           frame, vp[0], vp[1], vp[2], vp[3], (double)cc[0], (double)cc[1], (double)cc[2], (double)cc[3], prog,
           ab, eab, fbo, front, glIsEnabled(GL_BLEND) ? "true" : "false",
           glIsEnabled(GL_DEPTH_TEST) ? "true" : "false", tex, ubo2);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, W, H);

    GLint n_ext = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n_ext);
    const GLubyte *ext0 = n_ext > 0 ? glGetStringi(GL_EXTENSIONS, 0) : NULL;
    if (!ext0) {
        fprintf(stderr, APP ": no GL extension strings (GL_NUM_EXTENSIONS = %d)\n", n_ext);
        return 1;
    }

    GLuint vs, fs;
    GLuint prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    GLuint block = glGetUniformBlockIndex(prog, "Scene");
    glUniformBlockBinding(prog, block, 2);
    GLint u_tex = glGetUniformLocation(prog, "u_tex");
    glUseProgram(prog);
    glUniform1i(u_tex, 0);

    /* Buffers 0..3: quad vertices, instance offsets, indices, uniforms. */
    static const GLfloat quad[] = {-0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f};
    static const GLfloat offsets[INSTANCES * 2] = {-0.5f, 0.0f, 0.0f, 0.25f, 0.5f, -0.25f};
    static const GLushort indices[] = {0, 1, 2, 0, 2, 3};
    GLuint vao, buf[4];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(4, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof offsets, offsets, GL_STATIC_DRAW);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(1);
    glVertexAttribDivisor(1, 1);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[2]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, buf[3]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(scene_block), NULL, GL_DYNAMIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 2, buf[3]);

    /* A 4x4 checkerboard, white and grey. */
    unsigned char texels[4 * 4 * 4];
    for (int i = 0; i < 16; i++)
        memset(texels + 4 * i, ((i + i / 4) & 1) ? 0x80 : 0xff, 4);
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    GLuint rb, fbo;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, FBO_W, FBO_H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, APP ": the renderbuffer framebuffer is not complete\n");
        return 1;
    }

    for (int f = 0; f < FRAMES; f++) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, FBO_W, FBO_H);
        glClearColor(0.125f * (float)f, 0.0f, 0.25f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        scene_block sb = {{1.0f, 1.0f - 0.25f * (float)f, 0.5f, 1.0f}, {0.5f, 0.5f}, {0.0f, 0.0f}};
        glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof sb, &sb);
        glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL, INSTANCES);
        if (getenv("GT_SAMPLE_PRINT_STATE"))
            print_state(f);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, FBO_W, FBO_H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        GLenum waited = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u);
        glDeleteSync(sync);
        if (waited != GL_ALREADY_SIGNALED && waited != GL_CONDITION_SATISFIED) {
            fprintf(stderr, APP ": glClientWaitSync gave 0x%04x\n", waited);
            return 1;
        }
        sample_egl_swap(&e);
    }

    static unsigned char px[W * H * 4];
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();

    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteTextures(1, &tex);
    glDeleteBuffers(4, buf);
    glDeleteVertexArrays(1, &vao);
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
