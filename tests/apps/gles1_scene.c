/* gles1_scene: the OpenGL ES 1.1 fixed-function sample. A perspective
 * projection, one light, a lit quad from client-side vertex and normal
 * arrays with glDrawArrays and a per-vertex-coloured pair of triangles from
 * client-side indices with glDrawElements; three frames of a rotation on a
 * 64x64 pbuffer. Prints the final frame's fingerprint; exits 0 only if GL
 * reported no error.
 *
 * Every GL and EGL call made here is listed, in order, by
 * check_gles1_scene.py: change one, change the other. */
#include <GLES/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample_egl.h"

#define APP "gles1_scene"
#define W 64
#define H 64
#define FRAMES 3

static const GLfloat quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
static const GLfloat normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const GLfloat colours[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1};
static const GLubyte quad_indices[] = {0, 1, 2, 0, 2, 3};

/* GT_SAMPLE_PRINT_STATE set: after each glDrawArrays, some of the GL
 * state as one line "GT_STATE {json}" on standard output, keyed as
 * `gltrace inspect`'s state.json (tests/replay/check_inspect.py). Unset,
 * no call is added to those listed above. */
static void print_state(int frame)
{
    GLfloat mv[16], cur[4], amb[4];
    glGetFloatv(GL_MODELVIEW_MATRIX, mv);
    glGetFloatv(GL_CURRENT_COLOR, cur);
    glGetLightfv(GL_LIGHT0, GL_AMBIENT, amb);
    printf("GT_STATE {\"frame\": %d, \"get\": {\"GL_MODELVIEW_MATRIX\": [", frame);
    for (int i = 0; i < 16; i++)
        printf("%s%.9g", i ? ", " : "", (double)mv[i]);
    printf("], \"GL_CURRENT_COLOR\": [%g, %g, %g, %g]}, \"enabled\": {\"GL_LIGHTING\": %s, "
           "\"GL_LIGHT0\": %s, \"GL_COLOR_MATERIAL\": %s, \"GL_VERTEX_ARRAY\": %s, \"GL_COLOR_ARRAY\": %s}, "
           "\"lights\": {\"0\": {\"GL_AMBIENT\": [%g, %g, %g, %g]}}}\n",
           (double)cur[0], (double)cur[1], (double)cur[2], (double)cur[3], glIsEnabled(GL_LIGHTING) ? "true" : "false",
           glIsEnabled(GL_LIGHT0) ? "true" : "false", glIsEnabled(GL_COLOR_MATERIAL) ? "true" : "false",
           glIsEnabled(GL_VERTEX_ARRAY) ? "true" : "false", glIsEnabled(GL_COLOR_ARRAY) ? "true" : "false",
           (double)amb[0], (double)amb[1], (double)amb[2], (double)amb[3]);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 1, W, H);

    glViewport(0, 0, W, H);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glFrustumf(-1.0f, 1.0f, -1.0f, 1.0f, 1.0f, 10.0f);
    glMatrixMode(GL_MODELVIEW);

    static const GLfloat light_pos[] = {0.0f, 0.0f, 1.0f, 0.0f};
    static const GLfloat light_diffuse[] = {1.0f, 1.0f, 1.0f, 1.0f};
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glLightfv(GL_LIGHT0, GL_POSITION, light_pos);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, light_diffuse);
    glEnable(GL_COLOR_MATERIAL);

    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, quad);
    glNormalPointer(GL_FLOAT, 0, normals);

    for (int f = 0; f < FRAMES; f++) {
        glClearColor(0.0f, 0.0f, 0.25f * (float)f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glLoadIdentity();
        glTranslatef(-0.5f, 0.0f, -4.0f);
        glRotatef(30.0f * (float)f, 0.0f, 0.0f, 1.0f);
        /* With GL_COLOR_MATERIAL, the current colour is the material. */
        glColor4f(1.0f, 1.0f, 1.0f, 1.0f);
        glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
        if (getenv("GT_SAMPLE_PRINT_STATE"))
            print_state(f);

        glLoadIdentity();
        glTranslatef(1.0f, 0.0f, -5.0f);
        glEnableClientState(GL_COLOR_ARRAY);
        glColorPointer(4, GL_FLOAT, 0, colours);
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, quad_indices);
        glDisableClientState(GL_COLOR_ARRAY);
        sample_egl_swap(&e);
    }

    static unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
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
