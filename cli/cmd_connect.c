/* gltrace connect: the host of a running app's trace server
 * (GLTRACE_LISTEN, capture/cap_server.c): receives the trace into a file
 * and sends the commands. Scriptable with flags; commands also come from
 * standard input, a line each, so a user at a terminal can drive it:
 *   start | stop | fb none|swap|draw | textures on|off | quit
 * The wire is in proto/FORMAT.md and proto/gt_host.h, which the app's
 * trace server shares. */
#define _GNU_SOURCE
#include <errno.h>
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
            "standard input, a command per line: start, stop, fb none|swap|draw, textures on|off, quit\n"
            "At quit, end of input after --duration, or Ctrl-C: the app finishes the trace (seek index)\n"
            "and tracing is off again; the app runs on.\n");
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

int gt_cmd_connect(int argc, char **argv)
{
    const char *target = NULL, *out = "connect.gltrace", *token = NULL;
    int start = 0, fb = GT_FB_SWAP, fb_given = 0, textures = 0;
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
    if (answer != 1) {
        fprintf(stderr, "gltrace connect: %s %s\n", target,
                answer < 0 ? "did not answer within 5 s: another host is connected to it (one at a time)"
                : *line    ? line
                           : "closed the connection: it is not a gltrace trace server");
        close(fd);
        return 2;
    }
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
        close(fd);
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    fprintf(stderr, "gltrace connect: connected to %s, writing %s\n", target, out);
    if (fb_given)
        gt_host_send_snapshots(fd, fb, textures);
    double started = 0, finishing = 0;
    if (start) {
        gt_host_send_word(fd, GT_HOST_START);
        started = now_s();
    }
    int stdin_open = 1, status = 0;
    unsigned long long bytes = 0;
    char cmd[256];
    size_t cmdlen = 0;
    for (;;) {
        struct pollfd p[2] = {{fd, POLLIN, 0}, {0, POLLIN, 0}};
        int np = stdin_open && !finishing ? 2 : 1;
        int r = poll(p, (nfds_t)np, 100);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && p[0].revents) {
            char buf[65536];
            ssize_t got = recv(fd, buf, sizeof buf, 0);
            if (got <= 0)
                break; /* the app finished the trace (or exited) */
            if (fwrite(buf, 1, (size_t)got, f) != (size_t)got) {
                fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
                status = 2;
                break;
            }
            bytes += (unsigned long long)got;
        }
        if (r > 0 && np == 2 && p[1].revents) {
            ssize_t got = read(0, cmd + cmdlen, sizeof cmd - 1 - cmdlen);
            if (got <= 0) {
                stdin_open = 0; /* no more commands: flags and Ctrl-C still work */
            } else {
                cmdlen += (size_t)got;
                char *nl;
                while ((nl = memchr(cmd, '\n', cmdlen))) {
                    *nl = 0;
                    char *c = cmd;
                    while (*c == ' ')
                        c++;
                    if (!strcmp(c, "start")) {
                        gt_host_send_word(fd, GT_HOST_START);
                        if (!started)
                            started = now_s();
                    } else if (!strcmp(c, "stop")) {
                        gt_host_send_word(fd, GT_HOST_STOP);
                    } else if (!strncmp(c, "fb ", 3) && parse_fb(c + 3) >= 0) {
                        fb = parse_fb(c + 3);
                        gt_host_send_snapshots(fd, fb, textures);
                    } else if (!strcmp(c, "textures on") || !strcmp(c, "textures off")) {
                        textures = !strcmp(c, "textures on");
                        gt_host_send_snapshots(fd, fb, textures);
                    } else if (!strcmp(c, "quit")) {
                        interrupted = 1;
                    } else if (*c) {
                        fprintf(stderr, "gltrace connect: unknown command '%s' (start, stop, fb none|swap|draw, "
                                        "textures on|off, quit)\n", c);
                    }
                    size_t used = (size_t)(nl + 1 - cmd);
                    memmove(cmd, nl + 1, cmdlen - used);
                    cmdlen -= used;
                }
                if (cmdlen == sizeof cmd - 1)
                    cmdlen = 0; /* a line too long to be a command */
            }
        }
        if (!finishing && (interrupted || (duration > 0 && started && now_s() - started >= duration))) {
            gt_host_send_word(fd, GT_HOST_FINISH);
            finishing = now_s();
        }
        if (finishing && now_s() - finishing > 30) {
            fprintf(stderr, "gltrace connect: the app did not finish the trace within 30 s\n");
            status = 2;
            break;
        }
    }
    close(fd);
    if (fclose(f) != 0 && !status) {
        fprintf(stderr, "gltrace connect: cannot write %s: %s\n", out, strerror(errno));
        status = 2;
    }
    fprintf(stderr, "gltrace connect: wrote %s (%llu bytes)%s\n", out, bytes,
            finishing ? "" : ": the app ended the connection");
    return status;
}
