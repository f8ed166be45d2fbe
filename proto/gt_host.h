/* gt_host.h: the trace server's protocol (FORMAT.md, "Streaming to a
 * host"), written once for both ends: the capture library serves it
 * (capture/cap_server.c), `gltrace connect` drives it (cli/cmd_connect.c).
 *
 * Where a server listens (GLTRACE_LISTEN, the host's TARGET):
 *   unix:PATH      a Unix socket at PATH
 *   abstract:NAME  (or @NAME) an abstract Unix socket
 *   tcp:PORT       127.0.0.1 only; a server may ask for port 0 (any free
 *                  one) and prints the one it got
 * and for a server, `,wait`, `,stream` or `,keep` after it. Host to server: commands, each a
 * big-endian uint32 length (1 to 255) and that many bytes: Android's
 * snapshot bitmask, or an ASCII word. Server to host: one answer line,
 * then the trace's bytes.
 *
 * No GL, no capture state: only sockets. Functions return 0 (or a
 * descriptor) on success, -1 with errno on failure. */
#ifndef GT_HOST_H
#define GT_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- targets */

enum { GT_HOST_UNIX, GT_HOST_ABSTRACT, GT_HOST_TCP };

#define GT_HOST_NAME_MAX 108 /* sun_path: a name and, for abstract, its leading NUL */

typedef struct gt_host_target {
    int kind;        /* GT_HOST_*; -1 when the text names none */
    /* A server's settings after the target (parsed with with_wait only):
     * `,wait` the first call waits for a host's start; `,stream` no spool
     * (a started trace lacks what was made before); `,keep` the spool stays
     * at exit. */
    int wait, stream, keep;
    size_t len;      /* the target's length in the text, without them */
    long port;       /* tcp: 0 to 65535 */
    char name[GT_HOST_NAME_MAX]; /* unix: the path; abstract: the name, no '@' */
} gt_host_target;

/* gt_host_parse's answers besides 0. */
enum { GT_HOST_BAD_FORM = -1, GT_HOST_BAD_PORT = -2, GT_HOST_TOO_LONG = -3 };

/* Parses a target; with_wait: the `,wait`, `,stream` and `,keep`
 * suffixes are taken off and noted (a server's settings). 0, or one of the GT_HOST_BAD_* above; t->kind is set
 * whenever the prefix was recognised. */
int gt_host_parse(const char *spec, int with_wait, gt_host_target *t);
/* The target as a host names it ("unix:/p", "abstract:n", "tcp:5555"). */
void gt_host_describe(const gt_host_target *t, char *out, size_t len);

/* A listening socket, close-on-exec; tcp: binds 127.0.0.1 and, for port
 * 0, sets t->port to the port it got. A unix: path where a socket of an
 * earlier run lies is replaced; any other file there is kept (and the bind
 * fails). */
int gt_host_listen(gt_host_target *t);
/* A connected socket, close-on-exec. */
int gt_host_connect(const gt_host_target *t);

/* ---------------------------------------------------------------- commands */

#define GT_HOST_CMD_MAX 255
#define GT_HOST_START "start"   /* begin (or continue) the trace */
#define GT_HOST_STOP "stop"     /* pause it */
#define GT_HOST_FINISH "finish" /* end it: the seek index, then the server closes */

/* What a received command is. */
enum { GT_HOST_CMD_OTHER, GT_HOST_CMD_START, GT_HOST_CMD_STOP, GT_HOST_CMD_FINISH, GT_HOST_CMD_SNAPSHOTS };
/* cmd (n bytes) as one of the above; for GT_HOST_CMD_SNAPSHOTS, *mask. */
int gt_host_command(const uint8_t *cmd, size_t n, uint32_t *mask);

/* Sends one command (1 to GT_HOST_CMD_MAX bytes), framed. */
int gt_host_send(int fd, const void *cmd, size_t n);
int gt_host_send_word(int fd, const char *word);
/* Receives one command into out (at most cap bytes, and a NUL after
 * them: out holds cap + 1), waiting at most timeout_ms in all (-1: as long
 * as it takes). Its length; 0 when the peer is gone, the time ran out or
 * the framing is broken. */
size_t gt_host_recv(int fd, uint8_t *out, size_t cap, int timeout_ms);

/* Android's snapshot bitmask: framebuffer at each swap, after each draw,
 * texture data. A 4-byte command whose first byte is 0 (words start with a
 * letter). fb is GT_FB_NONE, GT_FB_SWAP or GT_FB_DRAW (gt_settings.h). */
enum { GT_HOST_SNAP_SWAP = 1, GT_HOST_SNAP_DRAW = 2, GT_HOST_SNAP_TEXTURES = 4 };
int gt_host_send_snapshots(int fd, int fb, int textures);
void gt_host_snapshot_settings(uint32_t mask, int *fb, int *textures);

/* ---------------------------------------------------------------- tcp: token */

/* A tcp: server prints a token at start; the host's first command, within
 * GT_HOST_TOKEN_WAIT_MS, is "token T". Unix sockets check the peer's user
 * instead (SO_PEERCRED, the server's business). */
#define GT_HOST_TOKEN_LEN 32 /* hex digits */
#define GT_HOST_TOKEN_WAIT_MS 5000
int gt_host_new_token(char token[GT_HOST_TOKEN_LEN + 1]);
int gt_host_send_token(int fd, const char *token);
int gt_host_token_ok(const uint8_t *cmd, size_t n, const char *token); /* 1: it is "token <token>" */

/* ---------------------------------------------------------------- answer */

/* The server's answer to a host: "ok", or "refused: WHY" (why != NULL);
 * a server that spools, "ok spool" (see below). */
#define GT_HOST_OK_SPOOL "ok spool"
int gt_host_answer(int fd, const char *why);
int gt_host_answer_spool(int fd);
/* Reads the answer line, without its newline, into line (len bytes);
 * waits at most timeout_ms for each byte (a server busy with another host
 * answers only when it is done). 1: "ok" (the trace's bytes follow); 2:
 * "ok spool" (lines follow); 0: refused (line says why) or closed (line
 * empty); -1: no answer in time. */
int gt_host_read_answer(int fd, char *line, size_t len, int timeout_ms);

/* ---------------------------------------------------------------- spool */

/* A server that spools (FORMAT.md) records every call from the app's first
 * into a trace file of its own and sends no trace bytes; it tells the host
 * where the trace it asked for lies in that file, one line at a time:
 *   spool PATH              first: the spool's absolute path (a host keeps
 *                           it open: the app removes it when it exits)
 *   start CALL              the calls from CALL on are traced (start)
 *   stop CALL               up to and with CALL (stop)
 *   trace FIRST LAST PATH   at finish: the spool, and the calls asked for
 *   none                    at finish: no start was reached
 * then closes. The host writes the trace with gltrace trim --calls. */
#define GT_HOST_LINE_MAX 4200 /* a path of PATH_MAX and the numbers */
enum { GT_HOST_LINE_OTHER, GT_HOST_LINE_START, GT_HOST_LINE_STOP, GT_HOST_LINE_TRACE, GT_HOST_LINE_NONE,
       GT_HOST_LINE_SPOOL };
typedef struct gt_host_spool_line {
    int kind;               /* GT_HOST_LINE_* */
    uint64_t first, last;   /* start, stop: both the call; trace: the range */
    const char *path;       /* trace, spool: the spool's path (in text), absolute */
    char text[GT_HOST_LINE_MAX];
} gt_host_spool_line;
int gt_host_send_point(int fd, int start, uint64_t call);
/* path NULL: "none". */
int gt_host_send_spool(int fd, const char *path, uint64_t first, uint64_t last);
/* The first line: "spool PATH". */
int gt_host_send_spool_path(int fd, const char *path);
/* 1: a line (l->kind says which); 0: the server closed; -1: none within timeout_ms. */
int gt_host_read_spool_line(int fd, gt_host_spool_line *l, int timeout_ms);

#ifdef __cplusplus
}
#endif
#endif
