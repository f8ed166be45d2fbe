/* outlives_app: the shape of a browser's GPU process. The started process
 * forks a child that does the GL work and exits at once, once the child has
 * begun (so its trace is already announced); the child then goes on drawing
 * for a while (argv[1] milliseconds) after its parent is gone, and swaps 3
 * frames in all. `gltrace record` waits for the started process only, so
 * the child's trace is still being written when it finishes. */
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sample_egl.h"

#define APP "outlives_app"

static void frame(const sample_egl *e, float red)
{
    glClearColor(red, 0.5f, 0.25f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    sample_egl_swap(e);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: " APP " MILLISECONDS\n");
        return 2;
    }
    long ms = atol(argv[1]);
    int ready[2];
    if (pipe(ready) != 0)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid > 0) { /* the started process: gone once the child has begun */
        char c;
        close(ready[1]);
        return read(ready[0], &c, 1) == 1 ? 0 : 1;
    }
    close(ready[0]);
    sample_egl e;
    sample_egl_open(&e, APP, sample_egl_display(APP), 2, 64, 64);
    frame(&e, 0.0f);
    if (write(ready[1], "x", 1) != 1)
        return 1;
    close(ready[1]);
    struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&wait, NULL);
    frame(&e, 0.5f);
    frame(&e, 1.0f);
    sample_egl_close(&e);
    eglTerminate(e.dpy);
    return 0;
}
