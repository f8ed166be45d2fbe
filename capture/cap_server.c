/* cap_server.c: the trace server (GLTRACE_LISTEN). A thread of its own
 * serves one host at a time (`gltrace connect`), which sends commands:
 * start, stop, the snapshot settings (Android's bitmask), finish. The wire
 * is in proto/FORMAT.md and proto/gt_host.h, which `gltrace connect`
 * shares.
 *
 * GLTRACE_LISTEN is one of
 *   unix:PATH      a Unix socket at PATH (only this process's user or root
 *                  may connect: checked with SO_PEERCRED)
 *   abstract:NAME  (or @NAME) an abstract Unix socket, the same check
 *   tcp:PORT       127.0.0.1 only (0: any free port); the host must send
 *                  the token printed at start
 * and after it any of `,keep`, `,stream`, `,wait`.
 *
 * By default the app is recorded from its first call into a spool file
 * (cap_spool.c), snapshots off until a host asks for them; a host's start
 * and stop are noted as call numbers (frame ends) and, at finish, the host
 * is told the spool's path and the range, and cuts its trace out of the
 * spool with gltrace trim: a trace that replays on its own, at the cost of
 * recording everything all along.
 *
 * With `,stream` (or `,wait`, or when the spool cannot be made) tracing is
 * off until a host sends start (the idle table: one indirect call per GL
 * call, cap_switch.c), and the trace is streamed to the host from there
 * on; it lacks the objects made before. With `,wait` the app's first GL or
 * EGL call waits until a host has sent start, so that trace is whole. A
 * host that disconnects switches tracing off and the app runs on; the next
 * host starts a new trace. */
#define _GNU_SOURCE
#include "cap_internal.h"
#include "cap_modes.h"
#include "gt_host.h"
#include "gt_trace.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static gt_host_target target;
static int lfd = -1;
static char where[160];     /* for messages: unix:/path, abstract:name, tcp:port */
static char token[GT_HOST_TOKEN_LEN + 1];
static pthread_t thread;
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_cv = PTHREAD_COND_INITIALIZER;
static int started_once;    /* a host has sent start (for ,wait) */
static int waiting;         /* the app's first call waits for that start */
static int level = 3;
static int initial_fb, initial_textures; /* each host starts from the app's own settings */
static int spooling;        /* recording into the spool (the default), not streaming */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* NULL when the peer may drive this process, else why not. */
static const char *authenticate(int fd, char *why, size_t len)
{
    if (target.kind != GT_HOST_TCP) {
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
    uint8_t c[64 + 1];
    size_t n = gt_host_recv(fd, c, sizeof c - 1, GT_HOST_TOKEN_WAIT_MS);
    if (!gt_host_token_ok(c, n, token)) {
        snprintf(why, len, "a TCP host must first send the token printed when the app started");
        return why;
    }
    return NULL;
}

static void snapshot_settings(uint32_t mask)
{
    int fb, textures;
    gt_host_snapshot_settings(mask, &fb, &textures);
    atomic_store(&cap_opt_fb, fb);
    atomic_store(&cap_opt_textures, textures);
}

/* A host's session, while it lasts. */
typedef struct session {
    int fd;
    int attached; /* 0: no writer yet; 1: attached, not started; 2: started once */
    int on, stopping;
    double stop_by;
} session;

/* start: the first attaches a writer on the connection; a later one (after
 * a stop) continues the same trace. -1: no writer, the session ends. */
static int session_start(session *s)
{
    if (!s->attached) {
        char err[GT_ERRLEN];
        int dfd = dup(s->fd);
        gt_writer *w = dfd >= 0 ? gt_writer_open_fd(dfd, "the host's connection", level, err, sizeof err) : NULL;
        if (!w) {
            cap_log("cannot stream to the host: %s", dfd >= 0 ? err : strerror(errno));
            return -1;
        }
        cap_flusher_attach(w);
        s->attached = 1;
    }
    pthread_mutex_lock(&start_mu);
    int at_once = waiting && !started_once; /* nothing ran yet: trace it all */
    pthread_mutex_unlock(&start_mu);
    cap_switch_begin(s->attached == 1, at_once);
    s->attached = 2;
    s->on = 1, s->stopping = 0;
    pthread_mutex_lock(&start_mu);
    started_once = 1;
    pthread_cond_broadcast(&start_cv);
    pthread_mutex_unlock(&start_mu);
    return 0;
}

/* One command. 0: go on; 1: the session ends (finish); -1: it failed. */
static int session_command(session *s, const uint8_t *c, size_t n)
{
    uint32_t mask;
    switch (gt_host_command(c, n, &mask)) {
    case GT_HOST_CMD_SNAPSHOTS:
        snapshot_settings(mask);
        return 0;
    case GT_HOST_CMD_START:
        return s->on ? 0 : session_start(s);
    case GT_HOST_CMD_STOP:
        if (s->on) {
            cap_switch_stop();
            s->stopping = 1;
            s->stop_by = now_s() + 3; /* threads that never swap again stop anyway */
        }
        return 0;
    case GT_HOST_CMD_FINISH:
        return 1;
    default:
        return 0;
    }
}

/* One host, until it finishes or goes. */
static void serve(int fd)
{
    atomic_store(&cap_opt_fb, initial_fb); /* what an earlier host set is not this one's */
    atomic_store(&cap_opt_textures, initial_textures);
    struct timeval tv = {5, 0}; /* a host that stops reading fails the write, not the app */
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    session s = {.fd = fd};
    int gone = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r > 0) {
            uint8_t c[GT_HOST_CMD_MAX + 1];
            size_t n = gt_host_recv(fd, c, GT_HOST_CMD_MAX, -1);
            if (n == 0) {
                gone = 1;
                break;
            }
            if (session_command(&s, c, n) != 0)
                break;
        } else if (r < 0 && errno != EINTR) {
            gone = 1;
            break;
        }
        if (s.stopping && (cap_switch_active_threads() <= 0 || now_s() > s.stop_by)) {
            cap_switch_end();
            s.on = s.stopping = 0;
        }
        if (s.attached && cap_flusher_serving_broken()) {
            gone = 1;
            break;
        }
    }
    if (s.on)
        cap_switch_end();
    if (s.attached)
        cap_flusher_detach(gone); /* the seek index ends the stream, unless the host is gone */
}

/* ------------------------------------------------------------ spooling */

#define POINT_WAIT_S 1.0 /* a start or stop waits this long for a swap */

/* A host's session with the spool: it asks for the calls from a start to
 * a stop; points are asked for one at a time. */
typedef struct spool_session {
    int fd;
    int fb, textures;     /* the host's snapshot settings, applied while traced */
    int goal_on, on;      /* what the host asked for; what the points made so */
    int want;             /* a point asked for: 1 start, -1 stop, 0 none */
    double want_by;
    int finishing;
    int have_first, have_last;
    uint64_t first, last; /* the first start's call, the last stop's */
} spool_session;

static void spool_snapshots(const spool_session *s, int on)
{
    atomic_store(&cap_opt_fb, on ? s->fb : GT_FB_NONE);
    atomic_store(&cap_opt_textures, on ? s->textures : 0);
}

/* The point asked for was reached: the calls from `after` on (start), or
 * up to `after` - 1 (stop). -1: the host is gone. */
static int spool_reached(spool_session *s, uint64_t after)
{
    int start = s->want > 0;
    s->want = 0;
    s->on = start;
    if (start && !s->have_first)
        s->first = after, s->have_first = 1;
    if (!start) {
        spool_snapshots(s, 0);
        s->last = after - 1, s->have_last = 1;
    }
    return gt_host_send_point(s->fd, start, start ? after : after - 1);
}

/* Moves towards what the host asked for. 1: the session is over. */
static int spool_step(spool_session *s)
{
    uint64_t after;
    if (s->want && cap_spool_point(&after, now_s() > s->want_by))
        return spool_reached(s, after) != 0;
    if (!s->want && s->goal_on != s->on) {
        s->want = s->goal_on ? 1 : -1;
        s->want_by = now_s() + POINT_WAIT_S;
        if (s->goal_on) {
            cap_defer_stop();      /* every call written from each thread's next one, before the point */
            spool_snapshots(s, 1); /* those before the point are the setup's, which trim leaves out */
        }
        cap_spool_want_point();
        return 0;
    }
    if (!s->finishing || s->want || s->on)
        return 0;
    if (cap_flusher_sync(5000) != 0)
        cap_log("the spool's writer is late; the host may find the last calls missing");
    int ranged = s->have_first && s->have_last;
    if (gt_host_send_spool(s->fd, ranged ? cap_spool_path() : NULL, s->first, s->last) != 0)
        cap_log("cannot tell the host where its trace is: %s", strerror(errno));
    return 1;
}

static int spool_command(spool_session *s, const uint8_t *c, size_t n)
{
    uint32_t mask;
    switch (gt_host_command(c, n, &mask)) {
    case GT_HOST_CMD_SNAPSHOTS:
        gt_host_snapshot_settings(mask, &s->fb, &s->textures);
        if (s->on || s->want > 0)
            spool_snapshots(s, 1);
        break;
    case GT_HOST_CMD_START:
        s->goal_on = !s->finishing;
        break;
    case GT_HOST_CMD_STOP:
        s->goal_on = 0;
        break;
    case GT_HOST_CMD_FINISH:
        s->goal_on = 0, s->finishing = 1;
        break;
    default:
        break;
    }
    return 0;
}

static void serve_spool(int fd)
{
    spool_session s = {.fd = fd, .fb = initial_fb, .textures = initial_textures};
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 20);
        if (r > 0) {
            uint8_t c[GT_HOST_CMD_MAX + 1];
            size_t n = gt_host_recv(fd, c, GT_HOST_CMD_MAX, -1);
            if (n == 0)
                break;
            spool_command(&s, c, n);
        } else if (r < 0 && errno != EINTR) {
            break;
        }
        if (spool_step(&s))
            break;
    }
    spool_snapshots(&s, 0); /* a host gone mid-trace: the spool goes on without snapshots */
}

/* GLTRACE_LISTEN without ,stream or ,wait: every call from now on goes to
 * the spool. 0: it cannot, the server streams instead (logged). */
static int start_spool(void)
{
    char err[GT_ERRLEN];
    if (cap_spool_open(target.keep, err, sizeof err) != 0) {
        cap_log("%s; the trace server streams instead (a trace started mid-run lacks what was made before)", err);
        return 0;
    }
    atomic_store(&cap_opt_fb, GT_FB_NONE);
    atomic_store(&cap_opt_textures, 0);
    if (cap_opt_coalesce)
        cap_defer_enable(); /* until a host's start: state commands held back (cap_defer.c) */
    atomic_store(&cap_tracing, 1);
    if (cap_flusher_start(cap_spool_path(), level) != 0) {
        cap_defer_stop();
        atomic_store(&cap_tracing, 0);
        atomic_store(&cap_opt_fb, initial_fb);
        atomic_store(&cap_opt_textures, initial_textures);
        cap_spool_discard();
        cap_log("no spool; the trace server streams instead (a trace started mid-run lacks what was made before)");
        return 0;
    }
    cap_dispatch_select(GT_MODE_FULL);
    cap_tls *t = cap_tls_get();
    if (t)
        cap_meta_emit_start(t);
    return 1;
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
            cap_log("the trace server stops: accept on %s: %s", where, strerror(errno));
            return NULL;
        }
        char why[160];
        if (authenticate(c, why, sizeof why)) {
            gt_host_answer(c, why);
            cap_log("a host was refused on %s: %s", where, why);
        } else if (spooling) {
            gt_host_answer_spool(c);
            gt_host_send_spool_path(c, cap_spool_path());
            serve_spool(c);
        } else {
            gt_host_answer(c, NULL);
            serve(c);
        }
        close(c);
    }
}

/* Parses GLTRACE_LISTEN and listens. -1 (logged): the server is off. */
static int listen_on(const char *spec)
{
    int bad = gt_host_parse(spec, 1, &target);
    if (bad == GT_HOST_BAD_FORM) {
        cap_log("GLTRACE_LISTEN=%s is not unix:PATH, abstract:NAME (@NAME) or tcp:PORT (with ,keep ,stream or "
               ",wait after it or not); no trace server", spec);
        return -1;
    }
    if (bad == GT_HOST_BAD_PORT) {
        int n = (int)target.len - 4; /* after "tcp:", before the suffixes */
        cap_log("GLTRACE_LISTEN=%s: %.*s is not a port number; no trace server", spec, n, spec + 4);
        return -1;
    }
    if (bad == GT_HOST_TOO_LONG) {
        cap_log("GLTRACE_LISTEN=%s: the name is longer than a socket address takes; no trace server", spec);
        return -1;
    }
    if (target.kind == GT_HOST_TCP && gt_host_new_token(token) != 0) {
        cap_log("no random bytes for the TCP token (%s); no trace server", strerror(errno));
        return -1;
    }
    long asked = target.port;
    lfd = gt_host_listen(&target);
    if (lfd < 0) {
        if (target.kind == GT_HOST_TCP)
            cap_log("cannot listen on 127.0.0.1:%ld: %s; no trace server", asked, strerror(errno));
        else
            cap_log("cannot listen on %s: %s; no trace server", spec, strerror(errno));
        return -1;
    }
    gt_host_describe(&target, where, sizeof where);
    return 0;
}

int cap_server_spooling(void)
{
    return spooling;
}

int cap_server_start(const char *spec, int zstd_level)
{
    level = zstd_level;
    if (listen_on(spec) != 0)
        return -1;
    initial_fb = atomic_load(&cap_opt_fb);
    initial_textures = atomic_load(&cap_opt_textures);
    waiting = target.wait; /* before any host can send start */
    spooling = !target.wait && !target.stream && start_spool();
    if ((!spooling && cap_flusher_start_serving() != 0) || pthread_create(&thread, NULL, server_main, NULL) != 0) {
        cap_log("cannot start the trace server thread; no trace server");
        close(lfd);
        lfd = -1;
        return -1;
    }
    if (target.kind == GT_HOST_TCP)
        cap_log("trace server on %s (127.0.0.1), pid %d: gltrace connect %s --token %s", where, (int)getpid(), where,
               token);
    else
        cap_log("trace server on %s, pid %d: gltrace connect %s", where, (int)getpid(), where);
    if (spooling)
        cap_log("recording every call into %s%s, for the host to cut its trace from", cap_spool_path(),
               target.keep ? " (kept at exit)" : "");
    if (target.wait) {
        cap_log("waiting for a host to connect and start tracing (,wait)");
        pthread_mutex_lock(&start_mu);
        while (!started_once)
            pthread_cond_wait(&start_cv, &start_mu);
        pthread_mutex_unlock(&start_mu);
    }
    return 0;
}
