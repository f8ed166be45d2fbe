/* marker_app: debug groups and a GL error, for the viewer's call tree and
 * error marks. GLES 3.2 on a 32x32 pbuffer, two frames; each: group
 * "scene" holding group "opaque" (a clear and an empty draw) and a draw,
 * then glEnable(0) and the app's own glGetError (GL_INVALID_ENUM). */
#include <GLES3/gl32.h>
#include <stdio.h>

#include "sample_egl.h"

#define APP "marker_app"

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 3, 32, 32);
    int status = 0;
    for (int frame = 0; frame < 2; frame++) {
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "scene");
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "opaque");
        glClearColor(0.2f, 0.3f, 0.4f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 0);
        glPopDebugGroup();
        glDrawArrays(GL_POINTS, 0, 0);
        glPopDebugGroup();
        glEnable(0);
        if (glGetError() != GL_INVALID_ENUM) {
            fprintf(stderr, APP ": glEnable(0) gave no GL_INVALID_ENUM\n");
            status = 1;
        }
        sample_egl_swap(&e);
    }
    sample_egl_close(&e);
    return status;
}
