/* es3_scene: the ES 3.x sample: a vertex array object, a uniform buffer,
 * an immutable texture filled with glTexSubImage2D, instanced drawing from
 * an element buffer with a per-instance attribute, an FBO with a
 * renderbuffer blitted to the surface, glGetStringi and a fence sync. */
#include <GLES3/gl3.h>
#include <stdio.h>

#include "sample_egl.h"

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

int main(void)
{
    sample_egl e;
    sample_egl_init(&e, 3, 64, 64);
    const GLubyte *ext0 = glGetStringi(GL_EXTENSIONS, 0);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER,
                                "#version 300 es\n"
                                "layout(location = 0) in vec2 pos; layout(location = 1) in vec2 offs;\n"
                                "layout(std140) uniform Params { vec4 tint; float scale; };\n"
                                "out vec2 uv;\n"
                                "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos * scale + offs, 0.0, 1.0); }\n"));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER,
                                "#version 300 es\nprecision mediump float;\n"
                                "layout(std140) uniform Params { vec4 tint; float scale; };\n"
                                "uniform sampler2D tex; in vec2 uv; out vec4 color;\n"
                                "void main() { color = texture(tex, uv) * tint; }\n"));
    glLinkProgram(prog);
    glUseProgram(prog);
    GLuint block = glGetUniformBlockIndex(prog, "Params");
    glUniformBlockBinding(prog, block, 0);

    static const GLfloat quad[] = {-1, -1, 1, -1, 1, 1, -1, 1};
    static const GLfloat offsets[] = {-0.5f, -0.5f, 0.5f, 0.5f};
    static const GLushort idx[] = {0, 1, 2, 0, 2, 3};
    GLuint vao, bufs[4];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(4, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof offsets, offsets, GL_STATIC_DRAW);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(1);
    glVertexAttribDivisor(1, 1);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[2]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    static const GLfloat params[8] = {1, 0.8f, 0.6f, 1, 0.4f, 0, 0, 0};
    glBindBuffer(GL_UNIFORM_BUFFER, bufs[3]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof params, params, GL_DYNAMIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, bufs[3]);

    unsigned char texels[8 * 8 * 4];
    for (int i = 0; i < 8 * 8; i++) {
        texels[4 * i] = (unsigned char)(i * 4);
        texels[4 * i + 1] = (unsigned char)(255 - i * 4);
        texels[4 * i + 2] = (unsigned char)((i % 8) * 32);
        texels[4 * i + 3] = 255;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 8);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    GLuint fbo, rb;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);

    for (int frame = 0; frame < 3; frame++) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, 64, 64);
        glClearColor(0.0f, 0.0f, 0.1f * (float)frame, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, 0, 2);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, 64, 64, 0, 0, 64, 64, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u);
        glDeleteSync(sync);
        eglSwapBuffers(e.dpy, e.surf);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    unsigned char px[64 * 64 * 4];
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    printf("es3_scene: %s, fbo 0x%x, pixels %08x, error 0x%x\n", ext0 ? (const char *)ext0 : "?", status,
           sample_pixels_hash(px, sizeof px), err);
    sample_egl_finish(&e);
    return err == GL_NO_ERROR && status == GL_FRAMEBUFFER_COMPLETE ? 0 : 1;
}
