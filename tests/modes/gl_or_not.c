/* gl_or_not: a stand-in for the programs of a test run. With "gl" it
 * draws one cleared frame on a pbuffer; without, it makes no GL or EGL
 * call at all (the libraries are linked and loaded, never called). */
#include <GLES2/gl2.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"

int main(int argc, char **argv)
{
    const char *app = argc > 0 ? argv[0] : "gl_or_not";
    if (argc > 1 && strcmp(argv[1], "gl") == 0) {
        sample_egl e;
        sample_egl_open(&e, app, sample_egl_display(app), 2, 16, 16);
        glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        sample_egl_swap(&e);
        sample_egl_close(&e);
        eglTerminate(e.dpy);
        printf("%s: drew\n", app);
    } else {
        printf("%s: no GL\n", app);
    }
    return 0;
}
