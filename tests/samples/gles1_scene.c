/* gles1_scene: the GLES 1.1 fixed-function sample: matrices, lighting,
 * client-side vertex and colour arrays, glDrawArrays and glDrawElements
 * with client-side indices, three frames. */
#include <GLES/gl.h>
#include <stdio.h>

#include "sample_egl.h"

int main(void)
{
    sample_egl e;
    sample_egl_init(&e, 1, 64, 64);
    static const GLfloat quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const GLfloat colors[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1};
    static const GLubyte idx[] = {0, 1, 2, 0, 2, 3};
    static const GLfloat light_pos[] = {0, 0, 2, 1};
    glViewport(0, 0, 64, 64);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glFrustumf(-1, 1, -1, 1, 1, 10);
    glMatrixMode(GL_MODELVIEW);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glLightfv(GL_LIGHT0, GL_POSITION, light_pos);
    glEnable(GL_COLOR_MATERIAL);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, quad);
    glColorPointer(4, GL_FLOAT, 0, colors);
    for (int frame = 0; frame < 3; frame++) {
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glLoadIdentity();
        glTranslatef(0, 0, -3);
        glRotatef(30.0f * (float)frame, 0, 0, 1);
        glColor4f(1, 1, 1, 1);
        glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
        glTranslatef(0.5f, 0, -1);
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, idx);
        eglSwapBuffers(e.dpy, e.surf);
    }
    unsigned char px[64 * 64 * 4];
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    printf("gles1_scene: pixels %08x, error 0x%x\n", sample_pixels_hash(px, sizeof px), err);
    sample_egl_finish(&e);
    return err == GL_NO_ERROR ? 0 : 1;
}
