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

#endif
