/* sample_shader.c: shader compilation for the samples (see sample_shader.h). */
#include "sample_shader.h"

#include <stdio.h>
#include <stdlib.h>

GLuint sample_shader_compile(const char *app, GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "%s: %s shader does not compile: %s\n", app,
                type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        exit(1);
    }
    return s;
}

GLuint sample_shader_program(const char *app, const char *vs_src, const char *fs_src, GLuint *vs, GLuint *fs)
{
    *vs = sample_shader_compile(app, GL_VERTEX_SHADER, vs_src);
    *fs = sample_shader_compile(app, GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, *vs);
    glAttachShader(prog, *fs);
    glLinkProgram(prog);
    GLint linked = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked) {
        fprintf(stderr, "%s: program does not link\n", app);
        exit(1);
    }
    return prog;
}
