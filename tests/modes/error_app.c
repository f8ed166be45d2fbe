/* error_app: makes GL errors on purpose, for the error mode's test
 * (check_error_mode.py). Built with -rdynamic so that its own functions
 * are in the dynamic symbol table, where the error mode's backtrace
 * (dladdr) finds their names.
 *
 *   make_enum_error    glTexImage2D with a target that is no texture
 *                      target: GL_INVALID_ENUM, not checked by the app
 *   make_value_error   glDrawArrays with count -1: GL_INVALID_VALUE, then
 *                      the app's own glGetError, twice; prints both
 *   make_many_errors   glEnable(0x1234) 12 times: GL_INVALID_ENUM each
 *
 * Prints "app saw 0x0501 then 0x0000" (the first glGetError must see the
 * error the error mode took, the second nothing) and exits 0. */
#include <GLES2/gl2.h>
#include <stdio.h>

#include "sample_egl.h"

#define APP "error_app"

__attribute__((noinline)) void make_enum_error(void)
{
    glTexImage2D(0x1234, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
}

__attribute__((noinline)) void make_value_error(void)
{
    glDrawArrays(GL_TRIANGLES, 0, -1);
    GLenum first = glGetError();
    GLenum second = glGetError();
    printf(APP ": app saw 0x%04x then 0x%04x\n", first, second);
}

__attribute__((noinline)) void make_many_errors(void)
{
    for (int i = 0; i < 12; i++)
        glEnable(0x1234);
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, 16, 16);
    make_enum_error();
    glClear(GL_COLOR_BUFFER_BIT); /* no error: the pending one stays the first */
    /* The enum error is still pending for this thread: the app reads it
     * here, so make_value_error's glGetError sees its own error. */
    GLenum stale = glGetError();
    printf(APP ": pending 0x%04x\n", stale);
    make_value_error();
    make_many_errors();
    glGetError();
    sample_egl_swap(&e);
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    return 0;
}
