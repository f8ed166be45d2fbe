/* lights_app: OpenGL ES 1.1 fixed function whose state every frame
 * changes, as GLES 1 programs do. Each frame loads a view matrix
 * (glLoadIdentity, glTranslatef, glRotatef), then sets a point light's
 * position and a spot light's position and direction through it (GL keeps
 * them in eye coordinates), changes the material's diffuse colour and
 * shininess and the texture environment (its mode, and the combine
 * function on odd frames), and draws a textured, lit quad of its own
 * normals. A trim of these frames must write the lights at its start with
 * the matrix they went through (tests/trim/check_trim.py,
 * tests/apps/check_loop.py). 64x64 pbuffer, FRAMES frames; exits 0 only if
 * GL reported no error. */
#include <GLES/gl.h>
#include <stdio.h>

#include "sample_egl.h"

#define APP "lights_app"
#define W 64
#define H 64
#define FRAMES 8

static const GLfloat quad[] = {-1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0};
static const GLfloat normals[] = {-0.3f, -0.3f, 0.9f, 0.3f, -0.3f, 0.9f, -0.3f, 0.3f, 0.9f, 0.3f, 0.3f, 0.9f};
static const GLfloat uv[] = {0, 0, 1, 0, 0, 1, 1, 1};

static void texture(void)
{
    static GLubyte px[8 * 8 * 4];
    for (int i = 0; i < 8 * 8; i++) {
        int on = ((i % 8) + (i / 8)) % 2;
        px[i * 4 + 0] = on ? 255 : 40;
        px[i * 4 + 1] = on ? 200 : 90;
        px[i * 4 + 2] = (GLubyte)(i * 4);
        px[i * 4 + 3] = 255;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glEnable(GL_TEXTURE_2D);
}

static void frame(int f)
{
    float t = (float)f;
    glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glTranslatef(0.0f, 0.0f, -3.0f);
    glRotatef(17.0f * t, 0.3f, 1.0f, 0.0f);
    const GLfloat point[] = {1.5f - 0.4f * t, 1.0f, 2.0f, 1.0f};
    const GLfloat spot_at[] = {0.0f, 0.5f * t - 1.0f, 2.5f, 1.0f};
    const GLfloat spot_dir[] = {0.0f, 0.2f - 0.1f * t, -1.0f};
    glLightfv(GL_LIGHT0, GL_POSITION, point);
    glLightfv(GL_LIGHT1, GL_POSITION, spot_at);
    glLightfv(GL_LIGHT1, GL_SPOT_DIRECTION, spot_dir);
    const GLfloat diffuse[] = {0.5f + 0.05f * t, 0.8f, 1.0f - 0.1f * t, 1.0f};
    glMaterialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, diffuse);
    glMaterialf(GL_FRONT_AND_BACK, GL_SHININESS, 4.0f + 8.0f * t);
    if (f % 2) {
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
        glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, f % 4 == 1 ? GL_ADD : GL_MODULATE);
    } else {
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, f % 4 ? GL_DECAL : GL_MODULATE);
    }
    /* The quad turns the other way: its matrix is the view's times its own. */
    glPushMatrix();
    glRotatef(-9.0f * t, 0.0f, 0.0f, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glPopMatrix();
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
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_LIGHT1);
    const GLfloat white[] = {1.0f, 1.0f, 1.0f, 1.0f}, warm[] = {1.0f, 0.6f, 0.2f, 1.0f};
    glLightfv(GL_LIGHT0, GL_DIFFUSE, white);
    glLightfv(GL_LIGHT0, GL_SPECULAR, white);
    glLightfv(GL_LIGHT1, GL_DIFFUSE, warm);
    glLightf(GL_LIGHT1, GL_SPOT_CUTOFF, 35.0f);
    glLightf(GL_LIGHT1, GL_SPOT_EXPONENT, 6.0f);
    glLightf(GL_LIGHT1, GL_LINEAR_ATTENUATION, 0.2f);
    glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, white);
    texture();

    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, quad);
    glNormalPointer(GL_FLOAT, 0, normals);
    glTexCoordPointer(2, GL_FLOAT, 0, uv);

    for (int f = 0; f < FRAMES; f++) {
        frame(f);
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
    printf(APP ": %d frames %dx%d fnv1a=%08x\n", FRAMES, W, H, (unsigned)sample_pixels_hash(px, sizeof px));
    return 0;
}
