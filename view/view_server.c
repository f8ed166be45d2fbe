/* view_server.c: the local HTTP server of `gltrace view`, on
 * libmicrohttpd (Debian's, small, threads of its own, no framework).
 *
 * What keeps the trace private to the user who started it, as Jupyter
 * does: it listens on 127.0.0.1 only (and refuses a peer that is not
 * loopback all the same); every request needs the random token, from the
 * URL once (it then becomes a cookie, named after the port so two viewers
 * do not overwrite each other's) or an X-Gltrace-Token header; a Host
 * header that is not a loopback name is refused, so a page of another
 * site cannot reach it by DNS rebinding; and nothing a request says
 * becomes a file path: the page is embedded in the program and every
 * other answer is computed from the index (see view_routes.c). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "view_server.h"

/* Set by a signal handler (on whichever thread the signal lands: one of
 * libmicrohttpd's, often) or another thread: a lock-free atomic. */
static atomic_int stop_requested;

void gt_view_stop(void)
{
    atomic_store(&stop_requested, 1);
}

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

void view_fail(view_answer *a, unsigned status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    view_buf_free(&a->body);
    a->file = NULL;
    a->status = status;
    a->type = "application/json";
    view_buf_put(&a->body, "{\"error\":", 9);
    view_buf_str(&a->body, msg);
    view_buf_put(&a->body, "}", 1);
}

/* Equal without telling by its time how much of the token was right. */
static int token_equal(const char *given, const char *token)
{
    size_t n = strlen(token);
    if (!given || strlen(given) != n)
        return 0;
    unsigned char d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (unsigned char)(given[i] ^ token[i]);
    return d == 0;
}

/* localhost, 127.0.0.1 or [::1], with this server's port or none. */
static int host_ok(const char *host, unsigned port)
{
    if (!host)
        return 0;
    static const char *const names[] = {"localhost", "127.0.0.1", "[::1]"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(host, names[i], n) != 0)
            continue;
        if (host[n] == 0)
            return 1;
        char want[16];
        snprintf(want, sizeof want, ":%u", port);
        return strcmp(host + n, want) == 0;
    }
    return 0;
}

static int peer_loopback(const struct sockaddr *addr)
{
    if (!addr)
        return 0;
    if (addr->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)addr)->sin_addr.s_addr) >> 24) == 127;
    if (addr->sa_family == AF_INET6) {
        const struct in6_addr *a6 = &((const struct sockaddr_in6 *)addr)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(a6) ||
               (IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127);
    }
    return 0;
}

static enum MHD_Result accept_policy(void *cls, const struct sockaddr *addr, socklen_t len)
{
    (void)cls;
    (void)len;
    return peer_loopback(addr) ? MHD_YES : MHD_NO;
}

static const char *get_arg(void *conn, const char *key)
{
    return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, key);
}

typedef struct collect {
    const char *key;
    const char **out;
    size_t n, max;
} collect;

static enum MHD_Result collect_one(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    collect *c = cls;
    if (value && strcmp(key, c->key) == 0 && c->n < c->max)
        c->out[c->n++] = value;
    return MHD_YES;
}

static size_t get_args(void *conn, const char *key, const char **out, size_t max)
{
    collect c = {key, out, 0, max};
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_one, &c);
    return c.n;
}

static enum MHD_Result send_answer(struct MHD_Connection *conn, view_server *s, view_answer *a, int set_cookie)
{
    struct MHD_Response *r = NULL;
    if (a->file) {
        int fd = open(a->file, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            r = MHD_create_response_from_fd64((uint64_t)st.st_size, fd);
        } else {
            if (fd >= 0)
                close(fd);
            view_fail(a, 500, "cannot read a cached file: %s", strerror(errno));
        }
    }
    if (!r) {
        if (a->body.failed)
            view_fail(a, 500, "out of memory");
        r = MHD_create_response_from_buffer(a->body.len, a->body.data ? a->body.data : (void *)"",
                                            MHD_RESPMEM_MUST_COPY);
    }
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", a->type ? a->type : "application/json");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cache-Control", a->file ? "private, max-age=3600" : "no-store");
    if (a->page) {
        MHD_add_response_header(r, "Content-Security-Policy",
                                "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
                                "connect-src 'self'; frame-ancestors 'none'");
        MHD_add_response_header(r, "X-Frame-Options", "DENY");
    }
    if (set_cookie) {
        char c[160];
        snprintf(c, sizeof c, "%s=%s; Path=/; HttpOnly; SameSite=Strict", s->cookie, s->token);
        MHD_add_response_header(r, "Set-Cookie", c);
    }
    enum MHD_Result rc = MHD_queue_response(conn, a->status ? a->status : 200, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    view_server *s = cls;
    if (!*con_cls) { /* the headers: wait for the (ignored) body */
        *con_cls = s;
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0; /* no request has a body worth reading */
        return MHD_YES;
    }
    view_answer a = {0};
    int set_cookie = 0;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
    const char *qtoken = get_arg(conn, "token");
    const char *ctoken = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, s->cookie);
    const char *htoken = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Gltrace-Token");
    if (!ci || !peer_loopback(ci->client_addr)) {
        view_fail(&a, 403, "only connections from this machine (loopback) are served");
    } else if (!host_ok(host, s->port)) {
        view_fail(&a, 403, "Host '%s' refused: this server answers to localhost, 127.0.0.1 or [::1] only",
                  host ? host : "(none)");
    } else if (!token_equal(qtoken, s->token) && !token_equal(ctoken, s->token) && !token_equal(htoken, s->token)) {
        view_fail(&a, 403, "%s token: open the URL gltrace view printed (it carries ?token=...)",
                  qtoken || ctoken || htoken ? "wrong" : "missing");
    } else if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        view_fail(&a, 405, "method %s not allowed: the viewer only reads", method);
    } else {
        set_cookie = token_equal(qtoken, s->token);
        view_route(s, url, conn, get_arg, get_args, &a);
    }
    enum MHD_Result rc = send_answer(conn, s, &a, set_cookie);
    view_buf_free(&a.body);
    return rc;
}

static int random_token(char *out)
{
    unsigned char r[16];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom(r + got, sizeof r - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof r; i++)
        sprintf(out + 2 * i, "%02x", r[i]);
    return 0;
}

/* The listening socket is made here, not by libmicrohttpd: its port (a
 * free one when port is 0) and the cookie's name from it must be set
 * before the daemon's threads answer the first request, which reads them. */
static struct MHD_Daemon *start_daemon(view_server *s, int port, char *err, size_t errlen)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1:%d: %s%s", port, strerror(errno),
                 port ? " (in use? leave out --port for a free one)" : "");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    s->port = ntohs(sa.sin_port);
    snprintf(s->cookie, sizeof s->cookie, "gt_token_%u", s->port);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, accept_policy, NULL, handle, s,
        MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)4,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_END);
    if (!d) {
        snprintf(err, errlen, "cannot serve on 127.0.0.1:%u", s->port);
        close(fd);
    }
    return d; /* the daemon closes its listening socket when stopped */
}

int gt_view_serve(const gt_view_options *opt, char *err, size_t errlen)
{
    view_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    struct MHD_Daemon *d = NULL;
    s->trace = opt->trace;
    s->report = opt->report;
    s->report_images = opt->report_images;
    s->host_exe = opt->host_exe;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->image_lock, NULL);
    if (opt->token)
        snprintf(s->token, sizeof s->token, "%s", opt->token);
    else if (random_token(s->token) != 0) {
        snprintf(err, errlen, "no random numbers for the token: %s", strerror(errno));
        goto done;
    }
    s->ix = gt_view_index_open(opt->trace, NULL, NULL, err, errlen);
    if (!s->ix || view_cache_dir(s->ix, s->cache, sizeof s->cache, err, errlen) != 0)
        goto done;
    s->cursor = view_cursor_open(opt->trace, s->ix, err, errlen);
    s->image_cursor = s->cursor ? view_cursor_open(opt->trace, s->ix, err, errlen) : NULL;
    if (!s->image_cursor)
        goto done;
    d = start_daemon(s, opt->port, err, errlen);
    if (!d)
        goto done;
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/?token=%s", s->port, s->token);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (opt->ready)
        opt->ready(opt->ctx, url);
    while (!atomic_load(&stop_requested))
        usleep(100000); /* also sees gt_view_stop from another thread */
    rc = 0;
done:
    if (d)
        MHD_stop_daemon(d);
    pthread_mutex_lock(&s->lock);
    view_jobs_stop(s);
    pthread_mutex_unlock(&s->lock);
    view_find_stop_all(s);
    view_cursor_close(s->cursor);
    view_cursor_close(s->image_cursor);
    gt_view_index_close(s->ix);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->image_lock);
    free(s);
    return rc;
}
