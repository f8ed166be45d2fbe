/* fuzz_view: the viewer's requests (view/view_routes.c) on any bytes, as
 * `gltrace view` answers them once libmicrohttpd has split a request into
 * its path and arguments: every route, its number and regular-expression
 * arguments, calls and images of a small trace (tests/fuzz/view_trace,
 * es2_triangle's), searches, state and report files. The server is the
 * one gt_view_serve makes, without the socket.
 * Input: up to 8 requests, one a line: PATH[?KEY=VALUE&...] (the bytes as
 * they are, no %-decoding: that is libmicrohttpd's). A search the input
 * starts is asked about by the later lines, then stopped. The two routes
 * that start a child process (/api/state, and /api/replay with start=1)
 * are left out: a process per input is not what this target tests, and
 * the children's own input is the trace, fuzzed by reader and replay. */
#define _GNU_SOURCE
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view_server.h"

#ifndef FUZZ_VIEW_TRACE
#error "FUZZ_VIEW_TRACE: the trace the viewer serves (tests/fuzz/CMakeLists.txt)"
#endif

#define MAX_ARGS 32

typedef struct request {
    const char *key[MAX_ARGS], *value[MAX_ARGS];
    size_t n;
} request;

static view_server server;
static char dir[64];

static const char *get_arg(void *conn, const char *key)
{
    const request *q = conn;
    for (size_t i = 0; i < q->n; i++)
        if (!strcmp(q->key[i], key))
            return q->value[i];
    return NULL;
}

static size_t get_args(void *conn, const char *key, const char **out, size_t max)
{
    const request *q = conn;
    size_t n = 0;
    for (size_t i = 0; i < q->n && n < max; i++)
        if (!strcmp(q->key[i], key))
            out[n++] = q->value[i];
    return n;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void cleanup(void)
{
    view_cursor_close(server.cursor);
    view_cursor_close(server.image_cursor);
    gt_view_index_close(server.ix);
    if (dir[0])
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The server gt_view_serve makes, on a copy of the trace in a folder of
 * its own (the viewer caches its images beside the trace). */
static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/gltrace-fuzz-view-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    static char trace[128];
    snprintf(trace, sizeof trace, "%s/view.gltrace", dir);
    FILE *in = fopen(FUZZ_VIEW_TRACE, "rb"), *out = fopen(trace, "wb");
    char buf[65536];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    int ok = in && out;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    char err[512];
    server.trace = trace;
    server.host_exe = "/nonexistent/gltrace"; /* no route here starts a child */
    snprintf(server.token, sizeof server.token, "0123456789abcdef0123456789abcdef");
    pthread_mutex_init(&server.lock, NULL);
    pthread_mutex_init(&server.image_lock, NULL);
    if (!ok || !(server.ix = gt_view_index_open(trace, NULL, NULL, err, sizeof err)) ||
        view_cache_dir(server.ix, server.cache, sizeof server.cache, err, sizeof err) != 0 ||
        !(server.cursor = view_cursor_open(trace, server.ix, err, sizeof err)) ||
        !(server.image_cursor = view_cursor_open(trace, server.ix, err, sizeof err))) {
        fprintf(stderr, "fuzz_view: %s: %s\n", FUZZ_VIEW_TRACE, ok ? err : "cannot copy it");
        abort();
    }
    atexit(cleanup);
    return 0;
}

/* Splits one request line in place: path, then key=value pairs. */
static const char *parse(char *line, request *q)
{
    q->n = 0;
    char *query = strchr(line, '?');
    if (!query)
        return line;
    *query++ = 0;
    for (char *p = query; p && *p && q->n < MAX_ARGS;) {
        char *next = strchr(p, '&');
        if (next)
            *next++ = 0;
        char *eq = strchr(p, '=');
        if (eq)
            *eq++ = 0;
        q->key[q->n] = p;
        q->value[q->n++] = eq ? eq : "";
        p = next;
    }
    return line;
}

/* The only files the viewer sends are its own cache's (view_routes.c):
 * whatever the request, a file answer lies inside that folder. */
static void file_inside_cache(const char *path, const view_answer *a)
{
    if (!a->file)
        return;
    char real[PATH_MAX], cache[sizeof server.cache + PATH_MAX];
    if (!realpath(a->file, real))
        return; /* not there: nothing is sent (a 404 at open) */
    if (!realpath(server.cache, cache))
        snprintf(cache, sizeof cache, "%s", server.cache);
    size_t n = strlen(cache);
    if (strncmp(real, cache, n) != 0 || real[n] != '/') {
        fprintf(stderr, "fuzz_view: %s: answered with %s, outside the cache %s\n", path, real, cache);
        abort();
    }
}

static int spawns(const char *path, const request *q)
{
    const char *start = get_arg((void *)q, "start");
    return !strcmp(path, "/api/state") || (!strcmp(path, "/api/replay") && start && strcmp(start, "0") != 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready && setup() == 0)
        ready = 1;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *line = text;
    for (int k = 0; k < 8 && line; k++) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        request q;
        const char *path = parse(line, &q);
        if (*path == '/' && !spawns(path, &q)) {
            view_answer a;
            memset(&a, 0, sizeof a);
            view_route(&server, path, &q, get_arg, get_args, &a);
            file_inside_cache(path, &a);
            view_buf_free(&a.body);
        }
        line = next;
    }
    view_find_stop_all(&server);
    free(text);
    return 0;
}
