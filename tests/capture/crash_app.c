/* crash_app: a small ES2 app that ends in every way an app can end, for
 * tests/capture/check_crash.py. Headless: EGL surfaceless, one pbuffer.
 *
 * Every frame k is: glViewport, glClearColor, glClearStencil(tag), glClear,
 * eglSwapBuffers, where tag = k + 1000000 * role (role 0 the main thread or
 * the parent, 1 a forked child, 2 the exiting thread), so a check can tell
 * from the trace whose frame a call belongs to. With KB > 0 a frame also
 * uploads KB KiB of pseudo-random (incompressible, but always the same)
 * bytes with glBufferData (UPLOADS times, default once), to fill a disk
 * quickly.
 *
 * A "mid-frame" is the calls of frame N+1 up to, not including, the swap.
 *
 * usage: crash_app MODE ARGS
 *   exit N [KB [UPLOADS [LAST_KB]]]  N frames, then with LAST_KB one more
 *                   upload of LAST_KB KiB; tear down, return 0 from main; prints one
 *                   line with the frame count and the last frame's pixel.
 *                   An atexit handler registered before the first GL call
 *                   (so it runs after the library's own) then calls glFlush
 *                   and prints "late calls done"
 *   thread-exit N [busy]  N frames; a second thread calls eglGetError and
 *                   then exit(3) while the main thread waits for it (with
 *                   busy: keeps calling glClearStencil instead)
 *   _exit N         N frames, prints "waiting", reads one line on stdin,
 *                   makes a mid-frame and calls _exit(4) (the wait lets a
 *                   test first see the N frames on disk)
 *   signal N SIG    N frames and a mid-frame, then SIG (TERM, SEGV, ABRT):
 *                   raise(SIGTERM), raise(SIGSEGV) or abort()
 *   segfault N      N frames and a mid-frame, then a write through NULL
 *   fork N M        N frames, fork; the child opens its own context, draws
 *                   M frames with role 1 and exits 0; the parent waits for
 *                   it, prints its pid and status, draws N more frames and
 *                   exits 0. N = 0: fork before any EGL or GL call; both
 *                   processes then set up EGL, wait for each other (a pipe)
 *                   and draw M frames at the same time
 *   fork-exec N M   N frames; the child execs "crash_app exit M" (the
 *                   program a launcher starts); then as fork
 *   loop [N]        prints "pid P", then frames forever, printing
 *                   "frame K" (K = frames swapped) after each swap; with N,
 *                   after N frames a mid-frame, "holding", and waits to be
 *                   killed
 * Every line is flushed at once: a test reads them while the app runs. */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define W 64
#define H 64

static EGLDisplay dpy = EGL_NO_DISPLAY;
static EGLSurface surf;
static EGLContext ctx;

static void die(const char *what)
{
    fprintf(stderr, "crash_app: %s failed (EGL error 0x%04x)\n", what, (unsigned)eglGetError());
    exit(1);
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Display, pbuffer and context, current on the calling thread. */
static void open_egl(void)
{
    if (dpy == EGL_NO_DISPLAY) {
        dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
            die("eglGetPlatformDisplay/eglInitialize (surfaceless)");
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die("eglBindAPI");
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                      EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        die("eglChooseConfig");
    static const EGLint surf_attr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    surf = eglCreatePbufferSurface(dpy, cfg, surf_attr);
    if (surf == EGL_NO_SURFACE)
        die("eglCreatePbufferSurface");
    static const EGLint ctx_attr[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT)
        die("eglCreateContext");
    if (!eglMakeCurrent(dpy, surf, surf, ctx))
        die("eglMakeCurrent");
}

static void close_egl(void)
{
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
}

static int kb_per_frame, uploads_per_frame = 1;
static GLuint buf;

/* Same bytes in every run (xorshift from a fixed seed). */
static void upload(int k)
{
    static uint8_t *data;
    static size_t have;
    size_t n = (size_t)kb_per_frame * 1024;
    if (n > have) {
        free(data);
        if (!(data = malloc(n)))
            exit(1);
        have = n;
    }
    uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)k;
    for (size_t i = 0; i < n; i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memcpy(data + i, &x, n - i < 8 ? n - i : 8);
    }
    if (!buf) {
        glGenBuffers(1, &buf);
        glBindBuffer(GL_ARRAY_BUFFER, buf);
    }
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)n, data, GL_STATIC_DRAW);
}

static void frame_start(int k, int role)
{
    glViewport(0, 0, W, H);
    glClearColor((float)(k % 8) / 8.0f, role * 0.5f, 0.25f, 1.0f);
    glClearStencil(k + 1000000 * role);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; kb_per_frame > 0 && i < uploads_per_frame; i++)
        upload(k * uploads_per_frame + i);
}

static void frame(int k, int role)
{
    frame_start(k, role);
    if (!eglSwapBuffers(dpy, surf))
        die("eglSwapBuffers");
}

static void frames(int from, int n, int role)
{
    for (int k = from; k < from + n; k++)
        frame(k, role);
}

static void late_calls(void)
{
    glFlush(); /* a void GL call after the library's exit handler ran */
    say("late calls done");
}

static void *exiting_thread(void *arg)
{
    (void)arg;
    eglGetError(); /* one call of this thread's own in the trace */
    exit(3);
}

static int usage(void)
{
    fprintf(stderr, "usage: crash_app exit N [KB [UPLOADS [LAST_KB]]] | thread-exit N [busy] | _exit N | signal N TERM|SEGV|ABRT |\n"
                    "       segfault N | fork N M | fork-exec N M | loop [N]\n");
    return 2;
}

/* Both processes have made their first EGL call, so both have decided
 * whether they trace, before either draws. */
static void handshake(int out_fd, int in_fd)
{
    char c = 'x';
    if (write(out_fd, &c, 1) != 1 || read(in_fd, &c, 1) != 1) {
        perror("crash_app: handshake");
        exit(1);
    }
}

static int do_fork(const char *self, int n, int m, int exec_it)
{
    int to_child[2], to_parent[2];
    if (n == 0 && (pipe(to_child) != 0 || pipe(to_parent) != 0)) {
        perror("crash_app: pipe");
        return 1;
    }
    if (n > 0) {
        open_egl();
        frames(0, n, 0);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("crash_app: fork");
        return 1;
    }
    if (pid == 0) {
        if (exec_it) {
            char arg[16];
            snprintf(arg, sizeof arg, "%d", m);
            execl(self, self, "exit", arg, (char *)NULL);
            _exit(126);
        }
        /* A fresh surface and context: the parent's belong to its threads. */
        open_egl();
        if (n == 0)
            handshake(to_parent[1], to_child[0]);
        frames(0, m, 1);
        /* No tear-down: Mesa cannot destroy a context in a forked child
         * (eglDestroyContext waits for the parent's threads). */
        say("child drew %d frames", m);
        exit(0);
    }
    if (n == 0) {
        open_egl();
        handshake(to_child[1], to_parent[0]);
        frames(0, m, 0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) {
        perror("crash_app: waitpid");
        return 1;
    }
    say("child %d status %d", (int)pid, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    if (n > 0)
        frames(n, n, 0);
    close_egl();
    say("parent drew %d frames", n > 0 ? 2 * n : m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *mode = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : -1;

    if (strcmp(mode, "exit") == 0 && n >= 0) {
        kb_per_frame = argc > 3 ? atoi(argv[3]) : 0;
        uploads_per_frame = argc > 4 ? atoi(argv[4]) : 1;
        int last_kb = argc > 5 ? atoi(argv[5]) : 0;
        atexit(late_calls);
        open_egl();
        frames(0, n, 0);
        if (last_kb > 0) {
            kb_per_frame = last_kb;
            upload(n * uploads_per_frame);
        }
        uint8_t px[4] = {0};
        glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        close_egl();
        say("frames %d, last pixel %02x%02x%02x%02x", n, px[0], px[1], px[2], px[3]);
        return 0;
    }
    if (strcmp(mode, "thread-exit") == 0 && n >= 0) {
        open_egl();
        frames(0, n, 0);
        pthread_t t;
        if (pthread_create(&t, NULL, exiting_thread, NULL) != 0)
            return 1;
        for (int i = 0; argc > 3 && strcmp(argv[3], "busy") == 0; i++)
            glClearStencil(i % 1000);
        pthread_join(t, NULL); /* never returns: the thread exits the process */
        return 1;
    }
    if (strcmp(mode, "_exit") == 0 && n >= 0) {
        open_egl();
        frames(0, n, 0);
        say("waiting");
        char line[64];
        if (!fgets(line, sizeof line, stdin))
            return 1;
        frame_start(n, 0);
        _exit(4);
    }
    if (strcmp(mode, "signal") == 0 && n >= 0 && argc > 3) {
        const char *s = argv[3];
        if (strcmp(s, "TERM") && strcmp(s, "SEGV") && strcmp(s, "ABRT"))
            return usage();
        open_egl();
        frames(0, n, 0);
        frame_start(n, 0);
        if (strcmp(s, "ABRT") == 0)
            abort();
        raise(strcmp(s, "TERM") == 0 ? SIGTERM : SIGSEGV);
        return 1; /* not reached: the signal's default action ends us */
    }
    if (strcmp(mode, "segfault") == 0 && n >= 0) {
        open_egl();
        frames(0, n, 0);
        frame_start(n, 0);
        *(volatile int *)(uintptr_t)(argc - 3) = 1; /* argc is 3: a write to address 0 */
        return 1;
    }
    if ((strcmp(mode, "fork") == 0 || strcmp(mode, "fork-exec") == 0) && n >= 0 && argc > 3)
        return do_fork(argv[0], n, atoi(argv[3]), mode[4] == '-');
    if (strcmp(mode, "loop") == 0) {
        say("pid %d", (int)getpid());
        open_egl();
        for (int k = 0;; k++) {
            if (k == n) {
                frame_start(k, 0);
                say("holding");
                for (;;)
                    pause();
            }
            frame(k, 0);
            say("frame %d", k + 1);
        }
    }
    return usage();
}
