/* debug_labels: KHR_debug text given with a negative length, which the
 * driver reads up to its NUL (OpenGL ES 3.2, pbuffer): 64 buffers and a
 * texture labelled (labels of 1 to 64 characters, so that their bytes lie
 * at every alignment in the trace: replay's decoder leaves 8-byte aligned
 * data in place, followed by the record's next field), each read back
 * with glGetObjectLabel; a debug group pushed and popped and a message
 * inserted; glGetError after each step. Prints the labels read back;
 * exits 0 when every call succeeded and each label read back is the one
 * given. */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"

#define APP "debug_labels"
#define NBUF 64

static int label_back(GLenum identifier, GLuint name, const char *want)
{
    char got[80] = {0};
    GLsizei n = -1;
    glGetObjectLabel(identifier, name, (GLsizei)sizeof got, &n, got);
    printf("label of %u: \"%s\" (%d)\n", name, got, (int)n);
    return strcmp(got, want) == 0 && n == (GLsizei)strlen(want);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, 8, 8);
    GLuint buf[NBUF], tex;
    char labels[NBUF][NBUF + 1];
    glGenBuffers(NBUF, buf);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    for (int i = 0; i < NBUF; i++) {
        glBindBuffer(GL_ARRAY_BUFFER, buf[i]);
        snprintf(labels[i], sizeof labels[i], "%.*s", i + 1, "vertices of the scene, the floor and the sky, buffer number 64..");
        glObjectLabel(GL_BUFFER, buf[i], -1, labels[i]);
    }
    glObjectLabel(GL_TEXTURE, tex, -1, "albedo");
    GLenum e1 = glGetError();
    int ok = label_back(GL_TEXTURE, tex, "albedo");
    for (int i = 0; i < NBUF; i++)
        ok &= label_back(GL_BUFFER, buf[i], labels[i]);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "frame 0");
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                         "drawing nothing");
    glPopDebugGroup();
    GLenum e2 = glGetError();
    printf("errors 0x%x 0x%x\n", e1, e2);
    sample_egl_close(&e);
    return ok && e1 == GL_NO_ERROR && e2 == GL_NO_ERROR ? 0 : 1;
}
