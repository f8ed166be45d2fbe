/* view_routes.c: what each URL of the server answers. The paths are a
 * fixed table; arguments are numbers parsed strictly or regular
 * expressions; the only files sent are the viewer's own cache files,
 * named from numbers (and, for a state dump, a name checked against the
 * files the dump wrote). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view_server.h"

#define PAGE_MAX 1000u

/* A decimal number argument; `def` when absent. 0, or -1 after failing a. */
static int num_arg(void *conn, view_arg_fn arg, const char *key, uint64_t def, uint64_t *out, view_answer *a)
{
    const char *v = arg(conn, key);
    if (!v) {
        *out = def;
        return 0;
    }
    uint64_t n = 0;
    if (!*v || strlen(v) > 19) {
        view_fail(a, 400, "argument %s='%.40s': expected a decimal number", key, v);
        return -1;
    }
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') {
            view_fail(a, 400, "argument %s='%.40s': expected a decimal number", key, v);
            return -1;
        }
        n = n * 10 + (uint64_t)(*p - '0');
    }
    *out = n;
    return 0;
}

/* The index position of call `n` (argument key). */
static int call_arg(view_server *s, void *conn, view_arg_fn arg, const char *key, uint64_t *pos, view_answer *a)
{
    uint64_t seq;
    if (num_arg(conn, arg, key, UINT64_MAX, &seq, a) != 0)
        return -1;
    if (seq == UINT64_MAX) {
        view_fail(a, 400, "argument %s (a call number) is missing", key);
        return -1;
    }
    int64_t p = gt_view_index_find(s->ix, seq);
    if (p < 0) {
        view_fail(a, 404, "no call %" PRIu64 " in the trace (calls %" PRIu64 "-%" PRIu64 ")", seq,
                  s->ix->ncalls ? s->ix->calls[0].seq : 0, s->ix->ncalls ? s->ix->calls[s->ix->ncalls - 1].seq : 0);
        return -1;
    }
    *pos = (uint64_t)p;
    return 0;
}

static void route_asset(const char *name, view_answer *a)
{
    const view_asset *as = view_asset_find(name);
    if (!as) {
        view_fail(a, 404, "no such page");
        return;
    }
    a->type = as->type;
    a->page = 1;
    view_buf_put(&a->body, as->data, as->size);
}

static void route_locate(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos;
    if (call_arg(s, conn, arg, "n", &pos, a) == 0)
        view_buf_printf(&a->body, "{\"pos\":%" PRIu64 ",\"frame\":%u}", pos, s->ix->calls[pos].frame);
}

static void route_calls(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t from, count, find;
    if (num_arg(conn, arg, "from", 0, &from, a) || num_arg(conn, arg, "count", 100, &count, a) ||
        num_arg(conn, arg, "find", UINT64_MAX, &find, a))
        return;
    if (count > PAGE_MAX)
        count = PAGE_MAX;
    uint64_t *pos = malloc(count ? count * sizeof *pos : 1), total = s->ix->ncalls;
    size_t n = 0;
    char err[GT_ERRLEN];
    pthread_mutex_lock(&s->lock);
    if (find != UINT64_MAX) {
        view_find *f = find <= INT32_MAX ? view_find_get(s, (int)find) : NULL;
        if (!f)
            view_fail(a, 404, "no search %" PRIu64 " (%d newer ones replaced it?)", find, VIEW_FINDS);
        else if (pos)
            n = view_find_page(f, from, pos, (size_t)count, &total);
    } else if (pos) {
        for (uint64_t i = from; i < s->ix->ncalls && n < count; i++)
            pos[n++] = i;
    }
    if (!pos)
        view_fail(a, 500, "out of memory");
    else if (!a->status && view_api_calls(&a->body, s->ix, s->cursor, pos, n, total, from, err, sizeof err) != 0)
        view_fail(a, 500, "%s", err);
    pthread_mutex_unlock(&s->lock);
    free(pos);
}

static void route_call(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos;
    char err[GT_ERRLEN];
    if (call_arg(s, conn, arg, "n", &pos, a) != 0)
        return;
    pthread_mutex_lock(&s->lock);
    if (view_api_call(&a->body, s->ix, s->cursor, pos, err, sizeof err) != 0)
        view_fail(a, 500, "%s", err);
    pthread_mutex_unlock(&s->lock);
}

static void route_image(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos, thumb;
    char err[GT_ERRLEN];
    if (call_arg(s, conn, arg, "n", &pos, a) != 0 || num_arg(conn, arg, "thumb", 0, &thumb, a) != 0)
        return;
    if (!view_has_picture(&s->ix->calls[pos])) {
        view_fail(a, 404, "call %" PRIu64 " has no image (not a snapshot record)", s->ix->calls[pos].seq);
        return;
    }
    pthread_mutex_lock(&s->image_lock);
    if (view_image_file(s->cache, s->image_cursor, s->ix, pos, thumb != 0, a->file_buf, sizeof a->file_buf, err,
                        sizeof err) != 0)
        view_fail(a, 500, "%s", err);
    else
        a->file = a->file_buf, a->type = "image/png";
    pthread_mutex_unlock(&s->image_lock);
}

static void route_find(view_server *s, void *conn, view_arg_fn arg, view_args_fn args, view_answer *a)
{
    const char *re[8];
    size_t n = args(conn, "re", re, 8);
    uint64_t all;
    if (num_arg(conn, arg, "all", 0, &all, a) != 0)
        return;
    if (!n) {
        view_fail(a, 400, "argument re (a regular expression, several allowed) is missing");
        return;
    }
    char err[512];
    int id = view_find_start(s, re, n, all != 0, err, sizeof err);
    if (id < 0)
        view_fail(a, 400, "%s", err);
    else
        view_buf_printf(&a->body, "{\"id\":%d}", id);
}

static view_find *find_arg(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t id;
    if (num_arg(conn, arg, "id", UINT64_MAX, &id, a) != 0)
        return NULL;
    view_find *f = id <= INT32_MAX ? view_find_get(s, (int)id) : NULL;
    if (!f)
        view_fail(a, 404, "no search %s (%d newer ones replaced it?)", arg(conn, "id") ? arg(conn, "id") : "(id missing)",
                  VIEW_FINDS);
    return f;
}

static void route_find_status(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    pthread_mutex_lock(&s->lock);
    view_find *f = find_arg(s, conn, arg, a);
    if (f)
        view_find_status(f, &a->body);
    pthread_mutex_unlock(&s->lock);
}

static void route_find_next(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos, back;
    if (call_arg(s, conn, arg, "from", &pos, a) != 0 || num_arg(conn, arg, "back", 0, &back, a) != 0)
        return;
    pthread_mutex_lock(&s->lock);
    view_find *f = find_arg(s, conn, arg, a);
    uint64_t at;
    int pending = 0;
    if (f) {
        if (view_find_next(f, pos, back ? -1 : 1, &at, &pending) == 1)
            view_buf_printf(&a->body, "{\"seq\":%" PRIu64 ",\"pending\":false}", s->ix->calls[at].seq);
        else
            view_buf_printf(&a->body, "{\"seq\":null,\"pending\":%s}", pending ? "true" : "false");
    }
    pthread_mutex_unlock(&s->lock);
}

static void route_state(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos;
    if (call_arg(s, conn, arg, "n", &pos, a) != 0)
        return;
    if (!s->host_exe) {
        view_fail(a, 501, "state at a call needs the gltrace program (not given to this server)");
        return;
    }
    pthread_mutex_lock(&s->lock);
    view_jobs_state(s, pos, &a->body);
    pthread_mutex_unlock(&s->lock);
}

static void route_state_file(view_server *s, void *conn, view_arg_fn arg, view_answer *a)
{
    uint64_t pos;
    char err[512];
    if (call_arg(s, conn, arg, "n", &pos, a) != 0)
        return;
    const char *name = arg(conn, "name");
    pthread_mutex_lock(&s->lock);
    if (view_jobs_state_file(s, s->ix->calls[pos].seq, name, a->file_buf, sizeof a->file_buf, err, sizeof err) != 0)
        view_fail(a, 404, "%s", err);
    else {
        a->file = a->file_buf;
        size_t l = strlen(name);
        a->type = l > 4 && strcmp(name + l - 4, ".png") == 0 ? "image/png"
                : l > 5 && strcmp(name + l - 5, ".json") == 0 ? "application/json" : "application/octet-stream";
    }
    pthread_mutex_unlock(&s->lock);
}

void view_route(view_server *s, const char *path, void *conn, view_arg_fn arg, view_args_fn args, view_answer *a)
{
    uint64_t x, y;
    char err[GT_ERRLEN];
    if (strcmp(path, "/") == 0)
        route_asset("index.html", a);
    else if (strcmp(path, "/data/export.js") == 0) { /* what tells an exported page apart */
        a->type = "text/javascript";
        view_buf_printf(&a->body, "window.GT_EXPORT_INFO = null;\n");
    } else if (strchr(path + 1, '/') == NULL && view_asset_find(path + 1))
        route_asset(path + 1, a);
    else if (strcmp(path, "/api/locate") == 0)
        route_locate(s, conn, arg, a);
    else if (strcmp(path, "/api/info") == 0)
        view_api_info(&a->body, s->trace, s->ix, s->report != NULL);
    else if (strcmp(path, "/api/frames") == 0) {
        if (!num_arg(conn, arg, "from", 0, &x, a) && !num_arg(conn, arg, "count", 1000, &y, a))
            view_api_frames(&a->body, s->ix, x, y > 100000 ? 100000 : y);
    } else if (strcmp(path, "/api/calls") == 0)
        route_calls(s, conn, arg, a);
    else if (strcmp(path, "/api/call") == 0)
        route_call(s, conn, arg, a);
    else if (strcmp(path, "/api/image") == 0)
        route_image(s, conn, arg, a);
    else if (strcmp(path, "/api/stats") == 0) {
        if (!num_arg(conn, arg, "frame", UINT64_MAX, &x, a) &&
            view_api_stats(&a->body, s->ix, x == UINT64_MAX ? -1 : (int64_t)x) != 0)
            view_fail(a, 404, "no frame %" PRIu64 " (the trace has %" PRIu64 ")", x, s->ix->nframes);
    } else if (strcmp(path, "/api/timeline") == 0) {
        if (!num_arg(conn, arg, "f0", 0, &x, a) && !num_arg(conn, arg, "f1", x, &y, a) &&
            view_api_timeline(&a->body, s->ix, x, y) != 0)
            view_fail(a, 404, "no frames %" PRIu64 "-%" PRIu64 " (the trace has %" PRIu64 ")", x, y, s->ix->nframes);
    } else if (strcmp(path, "/api/find") == 0)
        route_find(s, conn, arg, args, a);
    else if (strcmp(path, "/api/find/status") == 0)
        route_find_status(s, conn, arg, a);
    else if (strcmp(path, "/api/find/next") == 0)
        route_find_next(s, conn, arg, a);
    else if (strcmp(path, "/api/state") == 0)
        route_state(s, conn, arg, a);
    else if (strcmp(path, "/api/state/file") == 0)
        route_state_file(s, conn, arg, a);
    else if (strcmp(path, "/api/replay") == 0 || strcmp(path, "/api/report") == 0) {
        if (!num_arg(conn, arg, "start", 0, &x, a)) {
            pthread_mutex_lock(&s->lock);
            view_jobs_replay(s, strcmp(path, "/api/replay") == 0 && x, &a->body);
            pthread_mutex_unlock(&s->lock);
        }
    } else if (strcmp(path, "/api/report/image") == 0) {
        if (!num_arg(conn, arg, "k", 0, &x, a)) {
            pthread_mutex_lock(&s->lock);
            if (view_jobs_report_image(s, x, arg(conn, "which"), a->file_buf, sizeof a->file_buf, err, sizeof err) != 0)
                view_fail(a, 404, "%s", err);
            else
                a->file = a->file_buf, a->type = "image/png";
            pthread_mutex_unlock(&s->lock);
        }
    } else
        view_fail(a, 404, "no such page or API: the viewer serves /, its page files and /api/...");
    if (!a->type)
        a->type = "application/json";
}
