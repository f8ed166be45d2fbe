/* gltrace connect: the host of a running app's trace server
 * (GLTRACE_LISTEN, capture/cap_server.c): sends the commands and writes the
 * trace. An app that spools (the default) says where its calls from the
 * start to the stop lie in its spool, and the trace is cut out of it with
 * gltrace trim (cmd_trim.c), which checks it by replaying it; an app that
 * streams (`,stream`, `,wait`) sends the trace's bytes. Scriptable with
 * flags; commands also come from standard input, a line each, so a user at
 * a terminal can drive it:
 *   start | stop | fb none|swap|draw | textures on|off | quit
 * The wire is in proto/FORMAT.md and proto/gt_host.h, which the app's
 * trace server shares. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gt_cli.h"
#include "gt_host.h"
#include "gt_settings.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gltrace connect TARGET [-o OUT] [options]\n"
            "  TARGET           the app's GLTRACE_LISTEN: unix:PATH, abstract:NAME (@NAME), tcp:PORT\n"
            "  -o OUT           the trace file (default: connect.gltrace)\n"
            "  --token T        the token a tcp: server printed at start\n"
            "  --start          start tracing at once (else: a 'start' line on standard input)\n"
            "  --fb MODE        framebuffer snapshots: none, swap (the app's default), draw\n"
            "  --textures       texture snapshots too\n"
            "  --duration S     trace S seconds after starting, then finish\n"
            "  --no-verify      (an app that spools) do not replay the trace written to check it\n"
            "standard input, a command per line: start, stop, fb none|swap|draw, textures on|off, quit\n"
            "At quit, end of input after --duration, or Ctrl-C: the trace is finished and tracing is off\n"
            "again; the app runs on. An app that spools (GLTRACE_LISTEN without ,stream or ,wait) recorded\n"
            "every call: the frames from the start to the stop are cut out of its spool as gltrace trim\n"
            "does, and replay on their own (exit status as gltrace trim's); if the app exits or crashes\n"
            "while traced, up to its last call. An app that streams sends\n"
            "the trace from the start on, which lacks what the app made before.\n");
}

static int connect_to(const char *target)
{
    gt_host_target t;
    int bad = gt_host_parse(target, 0, &t);
    if (bad == GT_HOST_BAD_PORT || (!bad && t.kind == GT_HOST_TCP && t.port == 0)) {
        fprintf(stderr, "gltrace connect: %s: not a port number\n", target);
        return -2;
    }
    if (bad) {
        fprintf(stderr, "gltrace connect: %s is not unix:PATH, abstract:NAME (@NAME) or tcp:PORT\n", target);
        return -2;
    }
    int fd = gt_host_connect(&t);
    if (fd < 0)
        fprintf(stderr, "gltrace connect: cannot connect to %s: %s\n", target, strerror(errno));
    return fd;
}

/* none, swap, draw: GLTRACE_FB's words and values. */
static int parse_fb(const char *v)
{
    long fb;
    return gt_setting_flag_ok(GT_SET_FB, v) && gt_setting_parse(GT_SET_FB, v, &fb) == 0 ? (int)fb : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What the host asked for, from the flags and standard input. */
typedef struct host {
    int fd;
    int fb, textures;
    double duration, started, finishing;
    int stdin_open;
    char cmd[256];
    size_t cmdlen;
} host;

/* One command line from standard input. */
static void host_line(host *h, const char *c)
{
    while (*c == ' ')
        c++;
    if (!strcmp(c, "start")) {
        gt_host_send_word(h->fd, GT_HOST_START);
        if (!h->started)
            h->started = now_s();
    } else if (!strcmp(c, "stop")) {
        gt_host_send_word(h->fd, GT_HOST_STOP);
    } else if (!strncmp(c, "fb ", 3) && parse_fb(c + 3) >= 0) {
        h->fb = parse_fb(c + 3);
        gt_host_send_snapshots(h->fd, h->fb, h->textures);
    } else if (!strcmp(c, "textures on") || !strcmp(c, "textures off")) {
        h->textures = !strcmp(c, "textures on");
        gt_host_send_snapshots(h->fd, h->fb, h->textures);
    } else if (!strcmp(c, "quit")) {
        interrupted = 1;
    } else if (*c) {
        fprintf(stderr, "gltrace connect: unknown command '%s' (start, stop, fb none|swap|draw, "
                        "textures on|off, quit)\n", c);
    }
}

static void host_read_stdin(host *h)
{
    ssize_t got = read(0, h->cmd + h->cmdlen, sizeof h->cmd - 1 - h->cmdlen);
    if (got <= 0) {
        h->stdin_open = 0; /* no more commands: flags and Ctrl-C still work */
        return;
    }
    h->cmdlen += (size_t)got;
    char *nl;
    while ((nl = memchr(h->cmd, '\n', h->cmdlen))) {
        *nl = 0;
        host_line(h, h->cmd);
        size_t used = (size_t)(nl + 1 - h->cmd);
        memmove(h->cmd, nl + 1, h->cmdlen - used);
        h->cmdlen -= used;
    }
    if (h->cmdlen == sizeof h->cmd - 1)
        h->cmdlen = 0; /* a line too long to be a command */
}

/* Sends finish when the host is done (quit, Ctrl-C, --duration). 1: late. */
static int host_tick(host *h)
{
    if (!h->finishing && (interrupted || (h->duration > 0 && h->started && now_s() - h->started >= h->duration))) {
        gt_host_send_word(h->fd, GT_HOST_FINISH);
        h->finishing = now_s();
    }
    if (h->finishing && now_s() - h->finishing > 30) {
        fprintf(stderr, "gltrace connect: the app did not finish the trace within 30 s\n");
        return 1;
    }
    return 0;
}

/* An app that streams: the trace's bytes into out. */
static int stream_session(host *h, const char *target, const char *out)
{
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
        return 2;
    }
    fprintf(stderr, "gltrace connect: connected to %s, writing %s\n", target, out);
    int status = 0;
    unsigned long long bytes = 0;
    for (;;) {
        struct pollfd p[2] = {{h->fd, POLLIN, 0}, {0, POLLIN, 0}};
        int np = h->stdin_open && !h->finishing ? 2 : 1;
        int r = poll(p, (nfds_t)np, 100);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && p[0].revents) {
            char buf[65536];
            ssize_t got = recv(h->fd, buf, sizeof buf, 0);
            if (got <= 0)
                break; /* the app finished the trace (or exited) */
            if (fwrite(buf, 1, (size_t)got, f) != (size_t)got) {
                fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
                status = 2;
                break;
            }
            bytes += (unsigned long long)got;
        }
        if (r > 0 && np == 2 && p[1].revents)
            host_read_stdin(h);
        if (host_tick(h)) {
            status = 2;
            break;
        }
    }
    if (fclose(f) != 0 && !status) {
        fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
        status = 2;
    }
    fprintf(stderr, "gltrace connect: wrote %s (%llu bytes)%s\n", out, bytes,
            h->finishing ? "" : ": the app ended the connection");
    return status;
}

/* What a host knows of the app's spool: the spool held open from the
 * app's first line (the app removes it when it exits, even mid-trace), and
 * the points it reported. */
typedef struct spool_view {
    int fd;                /* the spool, open; -1: not (yet) */
    char path[GT_HOST_LINE_MAX];
    int have_first, on, have_last;
    uint64_t first, last;
} spool_view;

static void spool_open(spool_view *v, const char *path)
{
    snprintf(v->path, sizeof v->path, "%s", path);
    if (v->fd < 0)
        v->fd = open(path, O_RDONLY | O_CLOEXEC); /* failing here is said at the cut, if one comes */
}

/* The trace of calls first..last cut out of the app's spool, as gltrace
 * trim cuts it (the same command, so the same report and exit status).
 * The spool is read through the descriptor held since the app named it:
 * the app removes it when it exits, which it may do before the cut or
 * while trim reads it (trim opens it more than once). */
static int cut_from_spool(spool_view *v, const char *spool, uint64_t first, uint64_t last, const char *out,
                          int verify)
{
    char held[64];
    const char *name = spool;
    int fd = v->fd >= 0 && !strcmp(spool, v->path) ? -1 : open(spool, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && v->fd >= 0 && !strcmp(spool, v->path)) {
        snprintf(held, sizeof held, "/proc/self/fd/%d", v->fd);
        if (access(spool, F_OK) != 0)
            fprintf(stderr, "gltrace connect: the app removed its spool %s (it exited)\n", spool);
        spool = held;
    } else if (fd < 0) { /* readable by this user? say so plainly */
        fprintf(stderr, "gltrace connect: cannot read the app's spool %s: %s%s\n", spool, strerror(errno),
                errno == EACCES ? " (it is the app's user's alone: connect as that user)" : "");
        return 2;
    } else {
        close(fd);
    }
    char range[64]; /* last UINT64_MAX: to the spool's end ("A-") */
    if (last == UINT64_MAX)
        snprintf(range, sizeof range, "%" PRIu64 "-", first);
    else
        snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, first, last);
    fprintf(stderr, "gltrace connect: cutting calls %s out of the app's spool %s%s%s\n", range, name,
            spool != name ? ", read through " : "", spool != name ? spool : "");
    signal(SIGINT, SIG_DFL); /* the app is done with us: Ctrl-C stops the cut, as it would stop gltrace trim */
    signal(SIGTERM, SIG_DFL);
    char *argv[] = {"trim", (char *)spool, "--calls", range, "-o", (char *)out, verify ? NULL : "--no-verify", NULL};
    return gt_cmd_trim(verify ? 6 : 7, argv);
}

/* The app ended the connection without saying where the trace is: it
 * exited (or crashed). Traced calls are cut from the spool held open: from
 * the first start to the last stop, or to the spool's end while traced. */
static int cut_at_exit(spool_view *v, const char *out, int verify)
{
    if (!v->have_first) {
        fprintf(stderr, "gltrace connect: the app ended the connection (it exited?) before tracing started: "
                        "no trace written\n");
        return 2;
    }
    if (v->fd < 0) {
        fprintf(stderr, "gltrace connect: the app ended the connection (it exited?) while traced, and its spool "
                        "%s could not be read: no trace written\n", v->path[0] ? v->path : "(never named)");
        return 2;
    }
    uint64_t last = v->on || !v->have_last ? UINT64_MAX : v->last;
    fprintf(stderr, "gltrace connect: the app ended the connection (it exited?) %s: the trace is cut from its spool\n",
            v->on ? "while traced, up to its last call" : "after the stop");
    return cut_from_spool(v, v->path, v->first, last, out, verify);
}

/* An app that spools: lines saying where the trace lies in its spool. */
static int spool_session(host *h, const char *target, const char *out, int verify)
{
    fprintf(stderr, "gltrace connect: connected to %s (it records into a spool), will write %s\n", target, out);
    spool_view v = {.fd = -1};
    int status = 2;
    for (;;) {
        struct pollfd p[2] = {{h->fd, POLLIN, 0}, {0, POLLIN, 0}};
        int np = h->stdin_open && !h->finishing ? 2 : 1;
        int r = poll(p, (nfds_t)np, 100);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && p[0].revents) {
            gt_host_spool_line l;
            int got = gt_host_read_spool_line(h->fd, &l, 5000);
            if (got < 0) {
                fprintf(stderr, "gltrace connect: the app stopped in the middle of a line\n");
                break;
            }
            if (got == 0) {
                status = cut_at_exit(&v, out, verify);
                break;
            }
            if (l.kind == GT_HOST_LINE_SPOOL) {
                spool_open(&v, l.path);
            } else if (l.kind == GT_HOST_LINE_START || l.kind == GT_HOST_LINE_STOP) {
                int start = l.kind == GT_HOST_LINE_START;
                fprintf(stderr, "gltrace connect: %s %" PRIu64 "\n", start ? "traced from call" : "stopped after call",
                        l.first);
                if (start && !v.have_first)
                    v.first = l.first, v.have_first = 1;
                if (!start)
                    v.last = l.first, v.have_last = 1;
                v.on = start;
            } else if (l.kind == GT_HOST_LINE_TRACE) {
                status = cut_from_spool(&v, l.path, l.first, l.last, out, verify);
                break;
            } else if (l.kind == GT_HOST_LINE_NONE) {
                fprintf(stderr, "gltrace connect: tracing was never started: no trace written\n");
                break;
            } else {
                fprintf(stderr, "gltrace connect: the app said '%s', which this gltrace does not know\n", l.text);
            }
        }
        if (r > 0 && np == 2 && p[1].revents)
            host_read_stdin(h);
        if (host_tick(h))
            break;
    }
    if (v.fd >= 0)
        close(v.fd);
    return status;
}

int gt_cmd_connect(int argc, char **argv)
{
    const char *target = NULL, *out = "connect.gltrace", *token = NULL;
    int start = 0, fb = GT_FB_SWAP, fb_given = 0, textures = 0, verify = 1;
    double duration = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--token") && i + 1 < argc) {
            token = argv[++i];
        } else if (!strcmp(a, "--start")) {
            start = 1;
        } else if (!strcmp(a, "--no-verify")) {
            verify = 0;
        } else if (!strcmp(a, "--textures")) {
            textures = 1, fb_given = 1;
        } else if (!strcmp(a, "--fb") && i + 1 < argc) {
            if ((fb = parse_fb(argv[++i])) < 0) {
                fprintf(stderr, "gltrace connect: --fb %s: not none, swap or draw\n", argv[i]);
                return 2;
            }
            fb_given = 1;
        } else if (!strcmp(a, "--duration") && i + 1 < argc) {
            char *end;
            duration = strtod(argv[++i], &end);
            if (*end || duration <= 0) {
                fprintf(stderr, "gltrace connect: --duration %s: not a positive number of seconds\n", argv[i]);
                return 2;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "gltrace connect: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!target) {
            target = a;
        } else {
            fprintf(stderr, "gltrace connect: one target only (%s, then %s)\n", target, a);
            return 2;
        }
    }
    if (!target) {
        usage(stderr);
        return 2;
    }
    gt_host_target t;
    gt_host_parse(target, 0, &t);
    if (t.kind == GT_HOST_TCP && !token) {
        fprintf(stderr, "gltrace connect: %s: a tcp: server needs --token (the app printed it at start)\n", target);
        return 2;
    }
    int fd = connect_to(target);
    if (fd < 0)
        return 2;
    if (token)
        gt_host_send_token(fd, token);
    /* The app serves one host at a time: the answer waits while another is connected. */
    char line[256];
    int answer = gt_host_read_answer(fd, line, sizeof line, 5000);
    if (answer != 1 && answer != 2) {
        fprintf(stderr, "gltrace connect: %s %s\n", target,
                answer < 0 ? "did not answer within 5 s: another host is connected to it (one at a time)"
                : *line    ? line
                           : "closed the connection: it is not a gltrace trace server");
        close(fd);
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    host h = {.fd = fd, .fb = fb, .textures = textures, .duration = duration, .stdin_open = 1};
    if (fb_given)
        gt_host_send_snapshots(fd, fb, textures);
    if (start) {
        gt_host_send_word(fd, GT_HOST_START);
        h.started = now_s();
    }
    int status = answer == 2 ? spool_session(&h, target, out, verify) : stream_session(&h, target, out);
    close(fd);
    return status;
}
