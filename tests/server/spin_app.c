/* spin_app: a GLES 2 app that draws until told to stop, for the trace
 * server tests: frame after frame on a 64x64 pbuffer (a clear whose colour
 * steps with the frame number, a triangle), about 200 per second. On
 * SIGUSR1 a second thread starts with a context of its own (sharing with
 * the first) and draws frames on its own pbuffer; on SIGTERM or after
 * SECONDS (default 30) both stop. Prints "frames N" on exit and exits 0 only
 * if GL reported no error: a trace server must never disturb it. */
#include <GLES2/gl2.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "spin_app"

/* Atomic, not volatile sig_atomic_t: the second thread reads them too. */
static _Atomic int stop, spawn;
static EGLDisplay dpy;
static _Atomic unsigned long frames;
static _Atomic int gl_errors;

static const char vs_src[] = "attribute vec2 a_pos;\nvoid main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 0.9, 0.2, 1.0); }\n";

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        spawn = 1;
    else
        stop = 1;
}

static void *second(void *arg);

/* Frames until told to stop; the main thread also starts the second one
 * when SIGUSR1 asked for it. */
static void draw_frames(sample_egl *e, int is_main)
{
    GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
    static const GLfloat tri[] = {-0.7f, -0.7f, 0.7f, -0.7f, 0.0f, 0.7f};
    glUseProgram(prog);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
    glEnableVertexAttribArray(0);
    struct timespec pause = {0, 5000000};
    pthread_t t;
    int spawned = 0;
    if (is_main) {
        printf("%s: drawing\n", APP);
        fflush(stdout);
    }
    for (unsigned long f = 0; !stop; f++) {
        if (is_main && spawn && !spawned)
            spawned = pthread_create(&t, NULL, second, NULL) == 0;
        glClearColor((float)(f % 10) / 10.0f, is_main ? 0.5f : 0.3f, is_main ? 0.2f : 0.6f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        sample_egl_swap(e);
        frames++;
        if (glGetError() != GL_NO_ERROR)
            gl_errors++;
        nanosleep(&pause, NULL);
    }
    if (spawned)
        pthread_join(t, NULL);
}

static void *second(void *arg)
{
    (void)arg;
    sample_egl e;
    sample_egl_open(&e, APP, dpy, 2, 32, 32);
    draw_frames(&e, 0);
    sample_egl_close(&e);
    return NULL;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 30;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    alarm((unsigned)(seconds > 0 ? seconds : 30));
    sigaction(SIGALRM, &sa, NULL);
    sample_egl e;
    dpy = sample_egl_display(APP);
    sample_egl_open(&e, APP, dpy, 2, 64, 64);
    draw_frames(&e, 1);
    sample_egl_close(&e);
    printf("%s: frames %lu, %d GL errors\n", APP, (unsigned long)frames, gl_errors);
    return gl_errors ? 1 : 0;
}
