/* gltrace connect: the host of a running app's trace server
 * (GLTRACE_LISTEN, capture/gt_server.c): receives the trace into a file
 * and sends the commands. Scriptable with flags; commands also come from
 * standard input, a line each, so a user at a terminal can drive it:
 *   start | stop | fb none|swap|draw | textures on|off | quit
 * The wire is in proto/FORMAT.md. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gt_cli.h"

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
    int fd = -1;
    if (!strncmp(target, "tcp:", 4)) {
        char *end;
        long port = strtol(target + 4, &end, 10);
        if (!target[4] || *end || port <= 0 || port > 65535) {
            fprintf(stderr, "gltrace connect: %s: not a port number\n", target);
            return -2;
        }
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
            return fd;
    } else {
        int abstract = !strncmp(target, "abstract:", 9) || target[0] == '@';
        const char *name = !strncmp(target, "unix:", 5) ? target + 5 : !strncmp(target, "abstract:", 9) ? target + 9
                           : target[0] == '@' ? target + 1 : NULL;
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        if (!name || !*name || strlen(name) + (size_t)abstract >= sizeof a.sun_path) {
            fprintf(stderr, "gltrace connect: %s is not unix:PATH, abstract:NAME (@NAME) or tcp:PORT\n", target);
            return -2;
        }
        memcpy(a.sun_path + abstract, name, strlen(name));
        socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name) + (size_t)abstract);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, len) == 0)
            return fd;
    }
    fprintf(stderr, "gltrace connect: cannot connect to %s: %s\n", target, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

static int send_cmd(int fd, const void *payload, size_t n)
{
    uint8_t b[4 + 256];
    if (n > 256)
        return -1;
    b[0] = (uint8_t)(n >> 24), b[1] = (uint8_t)(n >> 16), b[2] = (uint8_t)(n >> 8), b[3] = (uint8_t)n;
    memcpy(b + 4, payload, n);
    return send(fd, b, 4 + n, MSG_NOSIGNAL) == (ssize_t)(4 + n) ? 0 : -1;
}

static int send_word(int fd, const char *w)
{
    return send_cmd(fd, w, strlen(w));
}

/* Android's bitmask: bit 0 framebuffer at swaps, bit 1 after draws, bit 2 textures. */
static int send_settings(int fd, int fb, int textures)
{
    uint32_t m = (uint32_t)(fb == 1 ? 1 : fb == 2 ? 2 : 0) | (textures ? 4u : 0u);
    uint8_t b[4] = {(uint8_t)(m >> 24), (uint8_t)(m >> 16), (uint8_t)(m >> 8), (uint8_t)m};
    return send_cmd(fd, b, 4);
}

static int parse_fb(const char *v)
{
    return !strcmp(v, "none") ? 0 : !strcmp(v, "swap") ? 1 : !strcmp(v, "draw") ? 2 : -1;
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
    int start = 0, fb = 1, fb_given = 0, textures = 0;
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
    if (!strncmp(target, "tcp:", 4) && !token) {
        fprintf(stderr, "gltrace connect: %s: a tcp: server needs --token (the app printed it at start)\n", target);
        return 2;
    }
    int fd = connect_to(target);
    if (fd < 0)
        return 2;
    if (token) {
        char t[128];
        snprintf(t, sizeof t, "token %s", token);
        send_word(fd, t);
    }
    /* The server's answer: one line, "ok" or "refused: why". */
    char line[256];
    size_t n = 0;
    int waited = 0;
    while (n + 1 < sizeof line) {
        /* The app serves one host at a time: the answer waits while another is connected. */
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 5000) == 0) {
            waited = 1;
            break;
        }
        ssize_t r = recv(fd, line + n, 1, 0);
        if (r <= 0 || line[n] == '\n')
            break;
        n++;
    }
    line[n] = 0;
    if (strcmp(line, "ok") != 0) {
        fprintf(stderr, "gltrace connect: %s %s\n", target,
                waited ? "did not answer within 5 s: another host is connected to it (one at a time)"
                : n    ? line
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
        send_settings(fd, fb, textures);
    double started = 0, finishing = 0;
    if (start) {
        send_word(fd, "start");
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
                        send_word(fd, "start");
                        if (!started)
                            started = now_s();
                    } else if (!strcmp(c, "stop")) {
                        send_word(fd, "stop");
                    } else if (!strncmp(c, "fb ", 3) && parse_fb(c + 3) >= 0) {
                        fb = parse_fb(c + 3);
                        send_settings(fd, fb, textures);
                    } else if (!strcmp(c, "textures on") || !strcmp(c, "textures off")) {
                        textures = !strcmp(c, "textures on");
                        send_settings(fd, fb, textures);
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
            send_word(fd, "finish");
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
