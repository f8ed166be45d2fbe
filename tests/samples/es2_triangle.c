/* es2_triangle: the ES 2.0 sample. A shader program, a vertex buffer, a
 * uniform, three frames of a triangle on a cleared 64x64 pbuffer. */
#include <GLES2/gl2.h>
#include <stdio.h>

#include "sample_egl.h"

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        fprintf(stderr, "es2_triangle: shader does not compile\n");
    return s;
}

int main(void)
{
    sample_egl e;
    sample_egl_init(&e, 2, 64, 64);
    GLuint vs = shader(GL_VERTEX_SHADER,
                       "attribute vec2 pos; uniform float scale;\n"
                       "void main() { gl_Position = vec4(pos * scale, 0.0, 1.0); }\n");
    GLuint fs = shader(GL_FRAGMENT_SHADER,
                       "precision mediump float; uniform vec4 color;\n"
                       "void main() { gl_FragColor = color; }\n");
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "pos");
    glLinkProgram(prog);
    glUseProgram(prog);
    GLint scale = glGetUniformLocation(prog, "scale");
    GLint color = glGetUniformLocation(prog, "color");
    static const GLfloat verts[] = {-0.8f, -0.8f, 0.8f, -0.8f, 0.0f, 0.8f};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, 64, 64);
    for (int frame = 0; frame < 3; frame++) {
        glClearColor(0.1f * (float)frame, 0.2f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform1f(scale, 1.0f - 0.25f * (float)frame);
        glUniform4f(color, 1.0f, 0.5f, 0.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        eglSwapBuffers(e.dpy, e.surf);
    }
    unsigned char px[64 * 64 * 4];
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    printf("es2_triangle: pixels %08x, error 0x%x\n", sample_pixels_hash(px, sizeof px), err);
    sample_egl_finish(&e);
    return err == GL_NO_ERROR ? 0 : 1;
}
