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
