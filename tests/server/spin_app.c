/* spin_app: a GLES 2 app that draws until told to stop, for the trace
 * server tests: frame after frame on a 64x64 pbuffer (a clear whose colour
 * steps with the frame number, a triangle), about 200 per second. On
 * SIGUSR1 a second thread starts with a context of its own and draws
 * frames on its own pbuffer; on SIGTERM or after SECONDS (default 30) both
 * stop. Prints "frames N" on exit and exits 0 only if GL reported no
 * error: a trace server must never disturb it.
 *
 * `spin_app SECONDS es3`: a GLES 3 context instead, whose objects are all
 * made before the first frame and used in every one: a vertex array object
 * over a buffer, a texture filled once (glTexStorage2D, glTexSubImage2D), a
 * framebuffer object over a second texture that each frame renders into and
 * then draws on the screen, a uniform buffer that each frame rewrites. A
 * trace started mid-run replays only if all of them are in it.
 *
 * `spin_app SECONDS finish`: GLES 2, each frame ending in glFinish instead
 * of a swap, as programs that draw off screen do: its frames end at the
 * snapshots capture takes there. */
#include <GLES3/gl3.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static int es3, finish;

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

static const char vs3_src[] = "#version 300 es\nlayout(location = 0) in vec2 a_pos;\nout vec2 v_uv;\n"
                              "void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs3_src[] = "#version 300 es\nprecision mediump float;\nin vec2 v_uv;\nout vec4 o;\n"
                              "uniform sampler2D u_tex;\nlayout(std140) uniform Tint { vec4 tint; };\n"
                              "void main() { o = texture(u_tex, v_uv) * tint; }\n";

/* The GLES 3 scene's objects, all made before the first frame. */
typedef struct scene3 {
    GLuint prog, vao, vbo, ubo, tex, target, fbo;
} scene3;

static void scene3_make(scene3 *s)
{
    GLuint vs, fs;
    s->prog = sample_shader_program(APP, vs3_src, fs3_src, &vs, &fs);
    glUseProgram(s->prog);
    glUniformBlockBinding(s->prog, glGetUniformBlockIndex(s->prog, "Tint"), 0);
    static const GLfloat quad[] = {-0.8f, -0.8f, 0.8f, -0.8f, -0.8f, 0.8f, 0.8f, 0.8f};
    glGenVertexArrays(1, &s->vao);
    glBindVertexArray(s->vao);
    glGenBuffers(1, &s->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glGenBuffers(1, &s->ubo);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, s->ubo);
    glBufferData(GL_UNIFORM_BUFFER, 4 * sizeof(GLfloat), NULL, GL_DYNAMIC_DRAW);
    unsigned char texels[8 * 8 * 4];
    for (int i = 0; i < 8 * 8; i++) {
        texels[4 * i] = (unsigned char)(i * 4), texels[4 * i + 1] = (unsigned char)(255 - i * 3);
        texels[4 * i + 2] = (unsigned char)((i % 8) * 30), texels[4 * i + 3] = 255;
    }
    GLuint *texs[2] = {&s->tex, &s->target};
    for (int i = 0; i < 2; i++) {
        glGenTextures(1, texs[i]);
        glBindTexture(GL_TEXTURE_2D, *texs[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, i ? 32 : 8, i ? 32 : 8);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glBindTexture(GL_TEXTURE_2D, s->tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glGenFramebuffers(1, &s->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->target, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

/* One frame: the texture through the tint into the target, the target on the screen. */
static void scene3_frame(const scene3 *s, const sample_egl *e, unsigned long f)
{
    GLfloat tint[4] = {1.0f, (float)(f % 7) / 7.0f, 0.5f, 1.0f};
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof tint, tint);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glViewport(0, 0, 32, 32);
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindTexture(GL_TEXTURE_2D, s->tex);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, e->width, e->height);
    glClearColor((float)(f % 10) / 10.0f, 0.5f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindTexture(GL_TEXTURE_2D, s->target);
    tint[1] = 1.0f;
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof tint, tint);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* Frames until told to stop; the main thread also starts the second one
 * when SIGUSR1 asked for it. */
static void draw_frames(sample_egl *e, int is_main)
{
    static const GLfloat tri[] = {-0.7f, -0.7f, 0.7f, -0.7f, 0.0f, 0.7f};
    scene3 s3;
    if (es3) {
        scene3_make(&s3);
    } else {
        GLuint vs, fs, prog = sample_shader_program(APP, vs_src, fs_src, &vs, &fs);
        glUseProgram(prog);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
        glEnableVertexAttribArray(0);
    }
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
        if (es3) {
            scene3_frame(&s3, e, f);
        } else {
            glClearColor((float)(f % 10) / 10.0f, is_main ? 0.5f : 0.3f, is_main ? 0.2f : 0.6f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        if (finish)
            glFinish();
        else
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
    sample_egl_open(&e, APP, dpy, es3 ? 3 : 2, 32, 32);
    draw_frames(&e, 0);
    sample_egl_close(&e);
    return NULL;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 30;
    es3 = argc > 2 && !strcmp(argv[2], "es3");
    finish = argc > 2 && !strcmp(argv[2], "finish");
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    alarm((unsigned)(seconds > 0 ? seconds : 30));
    sigaction(SIGALRM, &sa, NULL);
    sample_egl e;
    dpy = sample_egl_display(APP);
    sample_egl_open(&e, APP, dpy, es3 ? 3 : 2, 64, 64);
    draw_frames(&e, 1);
    sample_egl_close(&e);
    printf("%s: frames %lu, %d GL errors\n", APP, (unsigned long)frames, gl_errors);
    return gl_errors ? 1 : 0;
}
