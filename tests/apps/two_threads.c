/* two_threads: two threads on one EGL display, each with its own OpenGL ES
 * 2.0 context and 64x64 pbuffer, each drawing FRAMES frames of a triangle
 * over its own clear colour (thread 0 red, thread 1 blue) at the same time
 * as the other. The main thread initializes the display, joins both and
 * terminates the display. Prints each thread's final-frame fingerprint in
 * thread order; exits 0 only if both threads saw no GL error.
 *
 * Every GL and EGL call made here is listed, in order per thread, by
 * check_two_threads.py: change one, change the other. */
#include <GLES2/gl2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "sample_egl.h"
#include "sample_shader.h"

#define APP "two_threads"
#define W 64
#define H 64
#define FRAMES 4
#define THREADS 2

static const char vs_src[] = "attribute vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_src[] = "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "void main() { gl_FragColor = u_color; }\n";

typedef struct worker {
    int index;
    EGLDisplay dpy;
    pthread_barrier_t *both_current; /* so the two contexts draw at the same time */
    GLenum err;
    uint32_t hash;
} worker;

static void *draw(void *arg)
{
    worker *w = arg;
    sample_egl e;
    sample_egl_open(&e, APP, w->dpy, 2, W, H);
    GLuint vs = sample_shader_compile(APP, GL_VERTEX_SHADER, vs_src);
    GLuint fs = sample_shader_compile(APP, GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "a_pos");
    glLinkProgram(prog);
    GLint u_color = glGetUniformLocation(prog, "u_color");
    glUseProgram(prog);
    /* A client-side array: no buffer object, so nothing else is shared. */
    static const GLfloat tri[] = {-0.75f, -0.75f, 0.75f, -0.75f, 0.0f, 0.75f};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);

    pthread_barrier_wait(w->both_current);
    float red = w->index == 0 ? 1.0f : 0.0f, blue = w->index == 0 ? 0.0f : 1.0f;
    for (int f = 0; f < FRAMES; f++) {
        glClearColor(red, 0.0f, blue, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform4f(u_color, 0.0f, 0.25f * (float)(f + 1), 0.0f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        sample_egl_swap(&e);
    }

    static unsigned char px[THREADS][W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px[w->index]);
    w->err = glGetError();
    w->hash = sample_pixels_hash(px[w->index], sizeof px[w->index]);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    sample_egl_close(&e);
    eglReleaseThread();
    return NULL;
}

int main(int argc, char **argv)
{
    sample_egl_no_args(APP, argc, argv);
    EGLDisplay dpy = sample_egl_display(APP);
    pthread_barrier_t both_current;
    pthread_barrier_init(&both_current, NULL, THREADS);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.index = i, .dpy = dpy, .both_current = &both_current};
        int rc = pthread_create(&t[i], NULL, draw, &w[i]);
        if (rc != 0) {
            fprintf(stderr, APP ": cannot start thread %d: %s\n", i, strerror(rc));
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&both_current);
    eglTerminate(dpy);

    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        if (w[i].err != GL_NO_ERROR) {
            fprintf(stderr, APP ": thread %d: GL error 0x%04x\n", i, w[i].err);
            bad = 1;
        }
        printf(APP ": thread %d: %d frames %dx%d fnv1a=%08x\n", i, FRAMES, W, H, (unsigned)w[i].hash);
    }
    return bad;
}
