/* sample_shader.h: shader compilation for the OpenGL ES 2/3 sample apps.
 *
 * Kept apart from sample_egl.h because it calls GL (libGLESv2), which the
 * GLES 1.1 sample must not link. */
#ifndef SAMPLE_SHADER_H
#define SAMPLE_SHADER_H

#include <GLES2/gl2.h>

/* glCreateShader, glShaderSource (one string), glCompileShader and
 * glGetShaderiv(GL_COMPILE_STATUS), in this order; returns the shader.
 * When it does not compile: prints the info log after the app's name and
 * exits 1 (glGetShaderInfoLog is called only then, so a good run's call
 * sequence is exactly the four calls above). */
GLuint sample_shader_compile(const char *app, GLenum type, const char *src);

/* sample_shader_compile of the vertex and the fragment shader (returned in
 * *vs and *fs), then glCreateProgram, glAttachShader twice, glLinkProgram
 * and glGetProgramiv(GL_LINK_STATUS), in this order; returns the program.
 * When it does not link: prints a line after the app's name and exits 1. */
GLuint sample_shader_program(const char *app, const char *vs_src, const char *fs_src, GLuint *vs, GLuint *fs);

#endif
