/* failed_query: queries that raise a GL error (OpenGL ES 3.0, pbuffer), as
 * API conformance tests make them: glGetIntegeri_v of an index past the
 * last uniform buffer binding and glGetFramebufferAttachmentParameteriv of
 * an attachment that is no attachment, each into memory the app filled
 * with 7s, each followed by glGetError; then a query that succeeds. Prints
 * the errors and values; exits 0 when both queries failed with the errors
 * the specification names and wrote nothing. */
#include <GLES3/gl3.h>
#include <stdio.h>

#include "sample_egl.h"

#define APP "failed_query"

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, 8, 8);
    GLint v[4] = {7, 7, 7, 7}, w = 7, max = 0;
    glGetIntegerv(GL_MAX_UNIFORM_BUFFER_BINDINGS, &max);
    glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, (GLuint)max + 5, v);
    GLenum e1 = glGetError();
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_TEXTURE_2D, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &w);
    GLenum e2 = glGetError();
    printf("errors 0x%x 0x%x, values %d %d, max %d\n", e1, e2, v[0], w, max);
    sample_egl_close(&e);
    return e1 == GL_INVALID_VALUE && e2 == GL_INVALID_ENUM && v[0] == 7 && w == 7 ? 0 : 1;
}
