/* fuzz_host: both ends of the trace server's protocol (proto/gt_host.c) on
 * any bytes: the commands a host sends into the app (framing, words,
 * Android's snapshot bitmask, the tcp token) as the capture library's
 * server reads them, and the answer line `gltrace connect` reads back; and
 * the target texts of GLTRACE_LISTEN and --listen/connect.
 * the target texts of GLTRACE_LISTEN and --listen/connect; and the lines
 * a spooling app sends `gltrace connect` (start, stop, trace, none), read
 * as they come and, for the ones the app writes, read back as written.
 * Input: one selector byte, then the bytes on the socket (or the text).
 * Selector % 4: 0 the app's side, 1 connect's side, 2 a target text, 3
 * spool lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gt_host.h"

/* More than the socket buffers hold would block the writer. */
#define MAX_STREAM 65536

static const char token[GT_HOST_TOKEN_LEN + 1] = "0123456789abcdef0123456789abcdef";

static void app_side(int fd)
{
    uint8_t cmd[GT_HOST_CMD_MAX + 1];
    size_t n;
    for (int i = 0; i < 4096 && (n = gt_host_recv(fd, cmd, GT_HOST_CMD_MAX, 0)) > 0; i++) {
        uint32_t mask = 0;
        int fb, textures;
        if (gt_host_command(cmd, n, &mask) == GT_HOST_CMD_SNAPSHOTS)
            gt_host_snapshot_settings(mask, &fb, &textures);
        (void)gt_host_token_ok(cmd, n, token);
    }
}

static void connect_side(int fd)
{
    char line[256];
    while (gt_host_read_answer(fd, line, sizeof line, 0) == 1)
        ;
}

static void target_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = 0;
    for (int with_wait = 0; with_wait <= 1; with_wait++) {
        gt_host_target t;
        char out[256];
        if (gt_host_parse(text, with_wait, &t) == 0)
            gt_host_describe(&t, out, sizeof out);
    }
    free(text);
}

static void spool_lines(int fd)
{
    gt_host_spool_line l;
    for (int i = 0; i < 4096 && gt_host_read_spool_line(fd, &l, 0) == 1; i++)
        if (l.kind == GT_HOST_LINE_TRACE && (!l.path || l.path[0] != '/' || l.path < l.text ||
                                             l.path >= l.text + sizeof l.text))
            abort(); /* a trace line whose path is not an absolute path inside the line */
}

/* What the app writes, read back as written: two numbers and a path from
 * the input (the path up to a newline or NUL, made absolute). */
static void spool_round_trip(const uint8_t *data, size_t size)
{
    if (size < 16)
        return;
    uint64_t first, last;
    memcpy(&first, data, 8);
    memcpy(&last, data + 8, 8);
    char path[GT_HOST_LINE_MAX + 8] = "/";
    size_t n = 1;
    for (size_t i = 16; i < size && n + 1 < sizeof path && data[i] && data[i] != '\n'; i++)
        path[n++] = (char)data[i];
    path[n] = 0;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return;
    gt_host_spool_line l;
    if (gt_host_send_point(sv[0], 1, first) == 0 &&
        (gt_host_read_spool_line(sv[1], &l, 0) != 1 || l.kind != GT_HOST_LINE_START || l.first != first))
        abort();
    if (gt_host_send_spool(sv[0], path, first, last) == 0 &&
        (gt_host_read_spool_line(sv[1], &l, 0) != 1 || l.kind != GT_HOST_LINE_TRACE || l.first != first ||
         l.last != last || strcmp(l.path, path) != 0))
        abort();
    close(sv[0]);
    close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > MAX_STREAM)
        return 0;
    unsigned sel = data[0] % 4;
    data++, size--;
    if (sel == 2) {
        target_text(data, size);
        return 0;
    }
    if (sel == 3)
        spool_round_trip(data, size);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return 0;
    int sndbuf = MAX_STREAM * 2;
    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    for (size_t done = 0; done < size;) {
        ssize_t n = write(sv[0], data + done, size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(sv[0]);
    if (sel == 0)
        app_side(sv[1]);
    else if (sel == 1)
        connect_side(sv[1]);
    else
        spool_lines(sv[1]);
    close(sv[1]);
    return 0;
}
