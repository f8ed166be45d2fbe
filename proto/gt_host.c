/* gt_host.c: the trace server's protocol (gt_host.h, FORMAT.md): targets,
 * sockets, command framing, the snapshot bitmask, the token, the answer. */
#define _GNU_SOURCE
#include "gt_host.h"
#include "gt_settings.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(((struct sockaddr_un *)0)->sun_path) == GT_HOST_NAME_MAX, "sun_path");

/* A server's settings after the target, any of them in any order. */
static const struct {
    const char *text;
    size_t off;
} suffixes[] = {
    {",wait", offsetof(gt_host_target, wait)},
    {",stream", offsetof(gt_host_target, stream)},
    {",keep", offsetof(gt_host_target, keep)},
};

/* Takes the server's suffixes off the end of spec[0..len). */
static size_t strip_suffixes(const char *spec, size_t len, gt_host_target *t)
{
    for (int found = 1; found;) {
        found = 0;
        for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
            size_t sl = strlen(suffixes[i].text);
            if (len >= sl && !strncmp(spec + len - sl, suffixes[i].text, sl)) {
                len -= sl, found = 1;
                *(int *)((char *)t + suffixes[i].off) = 1;
            }
        }
    }
    return len;
}

/* ---------------------------------------------------------------- targets */

static const struct {
    const char *prefix;
    int kind;
} prefixes[] = {
    {"unix:", GT_HOST_UNIX}, {"abstract:", GT_HOST_ABSTRACT}, {"@", GT_HOST_ABSTRACT}, {"tcp:", GT_HOST_TCP},
};

int gt_host_parse(const char *spec, int with_wait, gt_host_target *t)
{
    memset(t, 0, sizeof *t);
    t->kind = -1;
    size_t len = strlen(spec);
    if (with_wait)
        len = strip_suffixes(spec, len, t);
    t->len = len;
    const char *rest = NULL;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !rest; i++) {
        size_t pl = strlen(prefixes[i].prefix);
        if (len > pl && !strncmp(spec, prefixes[i].prefix, pl))
            rest = spec + pl, t->kind = prefixes[i].kind;
    }
    if (!rest)
        return GT_HOST_BAD_FORM;
    size_t n = len - (size_t)(rest - spec);
    if (t->kind == GT_HOST_TCP) {
        char digits[32], *end;
        if (n >= sizeof digits)
            return GT_HOST_BAD_PORT;
        memcpy(digits, rest, n);
        digits[n] = 0;
        t->port = strtol(digits, &end, 10);
        return *end || t->port < 0 || t->port > 65535 ? GT_HOST_BAD_PORT : 0;
    }
    if (n + (t->kind == GT_HOST_ABSTRACT) >= GT_HOST_NAME_MAX)
        return GT_HOST_TOO_LONG;
    memcpy(t->name, rest, n);
    t->name[n] = 0;
    return 0;
}

void gt_host_describe(const gt_host_target *t, char *out, size_t len)
{
    if (t->kind == GT_HOST_TCP)
        snprintf(out, len, "tcp:%ld", t->port);
    else
        snprintf(out, len, "%s:%s", t->kind == GT_HOST_UNIX ? "unix" : "abstract", t->name);
}

/* The socket address of a target: tcp: on 127.0.0.1, never reachable from
 * another machine; abstract names start with a NUL. */
static socklen_t address(const gt_host_target *t, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof *ss);
    if (t->kind == GT_HOST_TCP) {
        struct sockaddr_in *a = (struct sockaddr_in *)ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)t->port);
        a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return sizeof *a;
    }
    struct sockaddr_un *a = (struct sockaddr_un *)ss;
    size_t skip = t->kind == GT_HOST_ABSTRACT, n = strlen(t->name);
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path + skip, t->name, n);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + skip);
}

static int fail_closing(int fd)
{
    int e = errno;
    if (fd >= 0)
        close(fd);
    errno = e;
    return -1;
}

int gt_host_listen(gt_host_target *t)
{
    struct sockaddr_storage ss;
    socklen_t len = address(t, &ss);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (t->kind == GT_HOST_TCP) {
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    } else if (t->kind == GT_HOST_UNIX) {
        struct stat st;
        if (lstat(t->name, &st) == 0 && S_ISSOCK(st.st_mode))
            unlink(t->name);
    }
    if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, 1) != 0)
        return fail_closing(fd);
    if (t->kind == GT_HOST_TCP) {
        struct sockaddr_in a;
        socklen_t n = sizeof a;
        if (getsockname(fd, (struct sockaddr *)&a, &n) == 0)
            t->port = ntohs(a.sin_port);
    }
    return fd;
}

int gt_host_connect(const gt_host_target *t)
{
    struct sockaddr_storage ss;
    socklen_t len = address(t, &ss);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len) != 0)
        return fail_closing(fd);
    return fd;
}

/* ---------------------------------------------------------------- commands */

static uint32_t get_be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24), b[1] = (uint8_t)(v >> 16), b[2] = (uint8_t)(v >> 8), b[3] = (uint8_t)v;
}

int gt_host_command(const uint8_t *cmd, size_t n, uint32_t *mask)
{
    if (n == 4 && cmd[0] == 0) {
        *mask = get_be32(cmd);
        return GT_HOST_CMD_SNAPSHOTS;
    }
    static const struct {
        const char *word;
        int cmd;
    } words[] = {{GT_HOST_START, GT_HOST_CMD_START}, {GT_HOST_STOP, GT_HOST_CMD_STOP},
                 {GT_HOST_FINISH, GT_HOST_CMD_FINISH}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (n == strlen(words[i].word) && !memcmp(cmd, words[i].word, n))
            return words[i].cmd;
    }
    return GT_HOST_CMD_OTHER;
}

int gt_host_send(int fd, const void *cmd, size_t n)
{
    uint8_t b[4 + GT_HOST_CMD_MAX];
    if (n == 0 || n > GT_HOST_CMD_MAX) {
        errno = EINVAL;
        return -1;
    }
    put_be32(b, (uint32_t)n);
    memcpy(b + 4, cmd, n);
    return send(fd, b, 4 + n, MSG_NOSIGNAL) == (ssize_t)(4 + n) ? 0 : -1;
}

int gt_host_send_word(int fd, const char *word)
{
    return gt_host_send(fd, word, strlen(word));
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* n bytes, by `deadline` (ms, CLOCK_MONOTONIC; -1: none). */
static int recv_all(int fd, uint8_t *p, size_t n, int64_t deadline)
{
    for (size_t got = 0; got < n;) {
        if (deadline >= 0) {
            struct pollfd pf = {fd, POLLIN, 0};
            int64_t left = deadline - now_ms();
            if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
                return -1;
        }
        ssize_t r = recv(fd, p + got, n - got, 0);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

size_t gt_host_recv(int fd, uint8_t *out, size_t cap, int timeout_ms)
{
    int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    uint8_t h[4];
    if (recv_all(fd, h, 4, deadline) != 0)
        return 0;
    size_t n = get_be32(h);
    if (n == 0 || n > cap || recv_all(fd, out, n, deadline) != 0)
        return 0;
    out[n] = 0;
    return n;
}

int gt_host_send_snapshots(int fd, int fb, int textures)
{
    uint32_t m = (fb == GT_FB_SWAP ? GT_HOST_SNAP_SWAP : fb == GT_FB_DRAW ? GT_HOST_SNAP_DRAW : 0) |
                 (textures ? GT_HOST_SNAP_TEXTURES : 0);
    uint8_t b[4];
    put_be32(b, m);
    return gt_host_send(fd, b, 4);
}

void gt_host_snapshot_settings(uint32_t mask, int *fb, int *textures)
{
    *fb = mask & GT_HOST_SNAP_DRAW ? GT_FB_DRAW : mask & GT_HOST_SNAP_SWAP ? GT_FB_SWAP : GT_FB_NONE;
    *textures = (mask & GT_HOST_SNAP_TEXTURES) != 0;
}

/* ---------------------------------------------------------------- tcp: token */

#define TOKEN_WORD "token "

int gt_host_new_token(char token[GT_HOST_TOKEN_LEN + 1])
{
    uint8_t raw[GT_HOST_TOKEN_LEN / 2];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(token + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

int gt_host_send_token(int fd, const char *token)
{
    char t[128];
    snprintf(t, sizeof t, TOKEN_WORD "%s", token);
    return gt_host_send_word(fd, t);
}

int gt_host_token_ok(const uint8_t *cmd, size_t n, const char *token)
{
    size_t wl = sizeof TOKEN_WORD - 1;
    return n == wl + GT_HOST_TOKEN_LEN && !memcmp(cmd, TOKEN_WORD, wl) && !memcmp(cmd + wl, token, GT_HOST_TOKEN_LEN);
}

/* ---------------------------------------------------------------- answer */

static int send_line(int fd, const char *line, int k, size_t cap)
{
    size_t n = k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1;
    return send(fd, line, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

int gt_host_answer(int fd, const char *why)
{
    char line[256];
    int k = why ? snprintf(line, sizeof line, "refused: %s\n", why) : snprintf(line, sizeof line, "ok\n");
    return send_line(fd, line, k, sizeof line);
}

int gt_host_answer_spool(int fd)
{
    char line[] = GT_HOST_OK_SPOOL "\n";
    return send_line(fd, line, (int)sizeof line - 1, sizeof line);
}

/* One line without its newline; 1, 0 closed (what came is in line), -1 late. */
static int read_line(int fd, char *line, size_t len, int timeout_ms)
{
    size_t n = 0;
    int late = 0, closed = 1;
    while (n + 1 < len) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) == 0) {
            late = 1;
            break;
        }
        ssize_t r = recv(fd, line + n, 1, 0);
        if (r <= 0)
            break;
        if (line[n] == '\n') {
            closed = 0;
            break;
        }
        n++;
    }
    line[n] = 0;
    return late ? -1 : !closed;
}

int gt_host_read_answer(int fd, char *line, size_t len, int timeout_ms)
{
    int r = read_line(fd, line, len, timeout_ms);
    if (r < 0)
        return -1;
    return !strcmp(line, "ok") ? 1 : !strcmp(line, GT_HOST_OK_SPOOL) ? 2 : 0;
}

/* ---------------------------------------------------------------- spool lines */

#define LINE_START "start "
#define LINE_STOP "stop "
#define LINE_TRACE "trace "
#define LINE_NONE "none"
#define LINE_SPOOL "spool "

int gt_host_send_point(int fd, int start, uint64_t call)
{
    char line[64];
    int k = snprintf(line, sizeof line, "%s%llu\n", start ? LINE_START : LINE_STOP, (unsigned long long)call);
    return send_line(fd, line, k, sizeof line);
}

int gt_host_send_spool(int fd, const char *path, uint64_t first, uint64_t last)
{
    char line[GT_HOST_LINE_MAX];
    int k = path ? snprintf(line, sizeof line, LINE_TRACE "%llu %llu %s\n", (unsigned long long)first,
                            (unsigned long long)last, path)
                 : snprintf(line, sizeof line, LINE_NONE "\n");
    if (k < 0 || (size_t)k >= sizeof line) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return send_line(fd, line, k, sizeof line);
}

int gt_host_send_spool_path(int fd, const char *path)
{
    char line[GT_HOST_LINE_MAX];
    int k = snprintf(line, sizeof line, LINE_SPOOL "%s\n", path);
    if (k < 0 || (size_t)k >= sizeof line) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return send_line(fd, line, k, sizeof line);
}

int gt_host_read_spool_line(int fd, gt_host_spool_line *l, int timeout_ms)
{
    memset(l, 0, sizeof *l);
    int r = read_line(fd, l->text, sizeof l->text, timeout_ms);
    if (r <= 0)
        return r;
    unsigned long long a = 0, b = 0;
    int used = 0;
    if (sscanf(l->text, LINE_START "%llu%n", &a, &used) == 1 && !l->text[used])
        l->kind = GT_HOST_LINE_START;
    else if (sscanf(l->text, LINE_STOP "%llu%n", &a, &used) == 1 && !l->text[used])
        l->kind = GT_HOST_LINE_STOP;
    else if (sscanf(l->text, LINE_TRACE "%llu %llu %n", &a, &b, &used) == 2 && used > 0 && l->text[used] == '/')
        l->kind = GT_HOST_LINE_TRACE, l->path = l->text + used;
    else if (!strcmp(l->text, LINE_NONE))
        l->kind = GT_HOST_LINE_NONE;
    else if (!strncmp(l->text, LINE_SPOOL, sizeof LINE_SPOOL - 1) && l->text[sizeof LINE_SPOOL - 1] == '/')
        l->kind = GT_HOST_LINE_SPOOL, l->path = l->text + sizeof LINE_SPOOL - 1;
    else
        l->kind = GT_HOST_LINE_OTHER;
    l->first = a, l->last = l->kind == GT_HOST_LINE_TRACE ? b : a;
    return 1;
}
