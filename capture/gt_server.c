/* gt_server.c: the trace server (GLTRACE_LISTEN). A thread of its own
 * serves one host at a time; the host (`gltrace connect`) receives the
 * trace as a stream and sends commands: start, stop, the snapshot settings
 * (Android's bitmask), finish. The wire is in proto/FORMAT.md.
 *
 * GLTRACE_LISTEN is one of
 *   unix:PATH      a Unix socket at PATH (only this process's user or root
 *                  may connect: checked with SO_PEERCRED)
 *   abstract:NAME  (or @NAME) an abstract Unix socket, the same check
 *   tcp:PORT       127.0.0.1 only (0: any free port); the host must send
 *                  the token printed at start
 * with `,wait` appended, the app's first GL or EGL call waits until a host
 * has sent start; otherwise the app never waits for a host.
 *
 * Tracing is off until a host sends start (the idle table: one indirect
 * call per GL call, gt_switch.c); a host that disconnects switches it off
 * and the app runs on; the next host starts a new trace. */
#define _GNU_SOURCE
#include "gt_capture.h"
#include "gt_trace.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum { L_UNIX, L_ABSTRACT, L_TCP };

static int kind;
static int lfd = -1;
static char where[160];     /* for messages: unix:/path, abstract:name, 127.0.0.1:port */
static char token[33];      /* TCP: 32 hex digits */
static pthread_t thread;
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_cv = PTHREAD_COND_INITIALIZER;
static int started_once;    /* a host has sent start (for ,wait) */
static int waiting;         /* the app's first call waits for that start */
static int level = 3;
static int initial_fb, initial_textures; /* each host starts from the app's own settings */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void say(int fd, const char *line)
{
    ssize_t r = send(fd, line, strlen(line), MSG_NOSIGNAL);
    (void)r;
}

/* NULL when the peer may drive this process, else why not. */
static const char *authenticate(int fd, char *why, size_t len)
{
    if (kind != L_TCP) {
        struct ucred cr;
        socklen_t n = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) != 0) {
            snprintf(why, len, "cannot tell who connected (%s)", strerror(errno));
            return why;
        }
        if (cr.uid != 0 && cr.uid != geteuid()) {
            snprintf(why, len, "user %u may not trace a process of user %u", (unsigned)cr.uid, (unsigned)geteuid());
            return why;
        }
        return NULL;
    }
    /* TCP: the first command, within 5 s, is "token T". */
    struct pollfd p = {fd, POLLIN, 0};
    uint8_t b[4 + 64];
    size_t got = 0;
    double end = now_s() + 5;
    while (got < 4 || got < 4 + (size_t)(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3])) {
        int left = (int)((end - now_s()) * 1000);
        if (left <= 0 || poll(&p, 1, left) <= 0)
            break;
        ssize_t r = recv(fd, b + got, sizeof b - got, 0);
        if (r <= 0)
            break;
        got += (size_t)r;
        if (got >= 4 && (b[0] || b[1] || b[2] > 0 || b[3] > 64))
            break;
    }
    size_t n = got >= 4 ? (size_t)(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) : 0;
    if (got < 4 + n || n != 6 + 32 || memcmp(b + 4, "token ", 6) != 0 || memcmp(b + 10, token, 32) != 0) {
        snprintf(why, len, "a TCP host must first send the token printed when the app started");
        return why;
    }
    return NULL;
}

/* Reads one command: length (big-endian 32 bits), then up to 255 bytes.
 * Returns its length, 0 when the host is gone or broke the framing. */
static size_t read_command(int fd, uint8_t *out, size_t cap)
{
    uint8_t h[4];
    size_t got = 0;
    while (got < 4) {
        ssize_t r = recv(fd, h + got, 4 - got, 0);
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    size_t n = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
    if (n == 0 || n > cap)
        return 0;
    for (got = 0; got < n;) {
        ssize_t r = recv(fd, out + got, n - got, 0);
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    return n;
}

/* Android's bitmask: bit 0 framebuffer at each swap, bit 1 after each
 * draw, bit 2 texture data. */
static void snapshot_settings(uint32_t mask)
{
    atomic_store(&gt_opt_fb, mask & 2 ? GT_FB_DRAW : mask & 1 ? GT_FB_SWAP : GT_FB_NONE);
    atomic_store(&gt_opt_textures, (mask & 4) != 0);
}

/* One host, until it finishes or goes. */
static void serve(int fd)
{
    atomic_store(&gt_opt_fb, initial_fb); /* what an earlier host set is not this one's */
    atomic_store(&gt_opt_textures, initial_textures);
    struct timeval tv = {5, 0}; /* a host that stops reading fails the write, not the app */
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int attached = 0, on = 0, stopping = 0, gone = 0;
    double stop_by = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r > 0) {
            uint8_t c[256];
            size_t n = read_command(fd, c, sizeof c - 1);
            if (n == 0) {
                gone = 1;
                break;
            }
            c[n] = 0;
            if (n == 4 && c[0] == 0) { /* Android's bitmask (its high byte is 0; words start with a letter) */
                snapshot_settings((uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3]);
            } else if (!strcmp((char *)c, "start") && !on) {
                if (!attached) {
                    char err[GT_ERRLEN];
                    int dfd = dup(fd);
                    gt_writer *w = dfd >= 0 ? gt_writer_open_fd(dfd, "the host's connection", level, err, sizeof err)
                                            : NULL;
                    if (!w) {
                        gt_log("cannot stream to the host: %s", dfd >= 0 ? err : strerror(errno));
                        break;
                    }
                    gt_flusher_attach(w);
                    attached = 1;
                }
                pthread_mutex_lock(&start_mu);
                int at_once = waiting && !started_once; /* nothing ran yet: trace it all */
                pthread_mutex_unlock(&start_mu);
                gt_switch_begin(attached == 1, at_once);
                attached = 2; /* a later start continues this trace */
                on = 1, stopping = 0;
                pthread_mutex_lock(&start_mu);
                started_once = 1;
                pthread_cond_broadcast(&start_cv);
                pthread_mutex_unlock(&start_mu);
            } else if (!strcmp((char *)c, "stop") && on) {
                gt_switch_stop();
                stopping = 1;
                stop_by = now_s() + 3; /* threads that never swap again stop anyway */
            } else if (!strcmp((char *)c, "finish")) {
                break;
            }
        } else if (r < 0 && errno != EINTR) {
            gone = 1;
            break;
        }
        if (stopping && (gt_switch_active_threads() <= 0 || now_s() > stop_by)) {
            gt_switch_end();
            on = stopping = 0;
        }
        if (attached && gt_flusher_serving_broken()) {
            gone = 1;
            break;
        }
    }
    if (on)
        gt_switch_end();
    if (attached)
        gt_flusher_detach(gone); /* the seek index ends the stream, unless the host is gone */
}

static void *server_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the app's signals are the app's */
    for (;;) {
        int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            gt_log("the trace server stops: accept on %s: %s", where, strerror(errno));
            return NULL;
        }
        char why[160];
        if (authenticate(c, why, sizeof why)) {
            char line[200];
            snprintf(line, sizeof line, "refused: %s\n", why);
            say(c, line);
            gt_log("a host was refused on %s: %s", where, why);
        } else {
            say(c, "ok\n");
            serve(c);
        }
        close(c);
    }
}

/* Parses GLTRACE_LISTEN and listens. -1 (logged): the server is off. */
static int listen_on(const char *spec, int *wait)
{
    char s[200];
    snprintf(s, sizeof s, "%s", spec);
    char *comma = strrchr(s, ',');
    *wait = 0;
    if (comma && !strcmp(comma, ",wait"))
        *comma = 0, *wait = 1;
    const char *rest;
    if (!strncmp(s, "unix:", 5) && s[5])
        kind = L_UNIX, rest = s + 5;
    else if (!strncmp(s, "abstract:", 9) && s[9])
        kind = L_ABSTRACT, rest = s + 9;
    else if (s[0] == '@' && s[1])
        kind = L_ABSTRACT, rest = s + 1;
    else if (!strncmp(s, "tcp:", 4) && s[4])
        kind = L_TCP, rest = s + 4;
    else {
        gt_log("GLTRACE_LISTEN=%s is not unix:PATH, abstract:NAME (@NAME) or tcp:PORT (with ,wait after it or "
               "not); no trace server", spec);
        return -1;
    }
    if (kind == L_TCP) {
        char *end;
        long port = strtol(rest, &end, 10);
        if (*end || port < 0 || port > 65535) {
            gt_log("GLTRACE_LISTEN=%s: %s is not a port number; no trace server", spec, rest);
            return -1;
        }
        uint8_t raw[16];
        if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
            gt_log("no random bytes for the TCP token (%s); no trace server", strerror(errno));
            return -1;
        }
        for (int i = 0; i < 16; i++)
            snprintf(token + 2 * i, 3, "%02x", raw[i]);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never reachable from another machine */
        lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int one = 1;
        if (lfd >= 0)
            setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(lfd, 1) != 0) {
            gt_log("cannot listen on 127.0.0.1:%ld: %s; no trace server", port, strerror(errno));
            goto fail;
        }
        socklen_t n = sizeof a;
        getsockname(lfd, (struct sockaddr *)&a, &n);
        snprintf(where, sizeof where, "tcp:%u", (unsigned)ntohs(a.sin_port));
        return 0;
    }
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    size_t len = strlen(rest);
    if (len + (kind == L_ABSTRACT) >= sizeof a.sun_path) {
        gt_log("GLTRACE_LISTEN=%s: the name is longer than a socket address takes; no trace server", spec);
        return -1;
    }
    memcpy(a.sun_path + (kind == L_ABSTRACT), rest, len);
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (kind == L_ABSTRACT));
    lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (kind == L_UNIX) {
        struct stat st; /* a socket left by an earlier run: replaced; any other file: kept */
        if (lstat(rest, &st) == 0 && S_ISSOCK(st.st_mode))
            unlink(rest);
    }
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, alen) != 0 || listen(lfd, 1) != 0) {
        gt_log("cannot listen on %s: %s; no trace server", spec, strerror(errno));
        goto fail;
    }
    snprintf(where, sizeof where, "%s:%s", kind == L_UNIX ? "unix" : "abstract", rest);
    return 0;
fail:
    if (lfd >= 0)
        close(lfd);
    lfd = -1;
    return -1;
}

int gt_server_start(const char *spec)
{
    int wait;
    const char *lv = getenv("GLTRACE_ZSTD_LEVEL");
    level = lv ? atoi(lv) : 3;
    if (listen_on(spec, &wait) != 0)
        return -1;
    initial_fb = atomic_load(&gt_opt_fb);
    initial_textures = atomic_load(&gt_opt_textures);
    waiting = wait; /* before any host can send start */
    if (gt_flusher_start_serving() != 0 || pthread_create(&thread, NULL, server_main, NULL) != 0) {
        gt_log("cannot start the trace server thread; no trace server");
        close(lfd);
        lfd = -1;
        return -1;
    }
    if (kind == L_TCP)
        gt_log("trace server on %s (127.0.0.1), pid %d: gltrace connect %s --token %s", where, (int)getpid(), where,
               token);
    else
        gt_log("trace server on %s, pid %d: gltrace connect %s", where, (int)getpid(), where);
    if (wait) {
        gt_log("waiting for a host to connect and start tracing (,wait)");
        pthread_mutex_lock(&start_mu);
        while (!started_once)
            pthread_cond_wait(&start_cv, &start_mu);
        pthread_mutex_unlock(&start_mu);
    }
    return 0;
}
