/* view_jobs.c: the work the viewer hands to child processes of the
 * gltrace program: the state at a call (`gltrace inspect`, a replay up to
 * it) and a whole replay with its comparison report (`gltrace replay
 * --json --save-all`). A child cannot take the server down whatever the
 * trace does to the driver; its results land in the cache folder and are
 * kept. One of each kind runs at a time: asking for another call's state
 * stops the one in progress (the user moved on). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "view_server.h"

extern char **environ;

/* Runs host_exe with argv, output to dir/log.txt. */
static pid_t spawn(const char *exe, char *const argv[], const char *dir)
{
    char log[4500];
    snprintf(log, sizeof log, "%s/log.txt", dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

/* Reaps the job's child when it ended. 1 still running. */
static int poll_job(view_job *j)
{
    if (!j->pid)
        return 0;
    int st;
    pid_t r = waitpid(j->pid, &st, WNOHANG);
    if (r == 0)
        return 1;
    j->status = r == j->pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    j->pid = 0;
    return 0;
}

static void stop_job(view_job *j)
{
    if (!j->pid)
        return;
    kill(j->pid, SIGTERM);
    waitpid(j->pid, NULL, 0);
    j->pid = 0;
    j->what = 0; /* stopped, not failed: asked for again, it runs again */
    j->status = 0;
}

void view_jobs_stop(view_server *s)
{
    stop_job(&s->inspect);
    stop_job(&s->replay);
}

/* The whole of a small file into b; -1 when unreadable. */
static int put_file(view_buf *b, const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char chunk[65536];
    size_t n, total = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && total < max) {
        view_buf_put(b, chunk, n);
        total += n;
    }
    fclose(f);
    return 0;
}

static void put_log(view_buf *b, const char *dir)
{
    char log[4500];
    snprintf(log, sizeof log, "%s/log.txt", dir);
    view_buf tmp = {0};
    put_file(&tmp, log, 16384);
    view_buf_put(b, ",\"log\":", 7);
    view_buf_strn(b, tmp.data ? tmp.data : "", tmp.len);
    view_buf_free(&tmp);
}

void view_jobs_state(view_server *s, uint64_t pos, view_buf *b)
{
    uint64_t seq = s->ix->calls[pos].seq;
    char dir[4400], state[4500], failed[4500];
    snprintf(dir, sizeof dir, "%s/state-%" PRIu64, s->cache, seq);
    snprintf(state, sizeof state, "%s/state.json", dir);
    snprintf(failed, sizeof failed, "%s/failed", dir);
    int running = poll_job(&s->inspect);
    if (!running && s->inspect.what == seq + 1 && s->inspect.status != 0) {
        int fd = open(failed, O_WRONLY | O_CREAT, 0644); /* remembered: not tried again */
        if (fd >= 0)
            close(fd);
        s->inspect.what = 0;
    }
    view_buf_printf(b, "{\"call\":%" PRIu64, seq);
    if (access(state, R_OK) == 0 && !(running && s->inspect.what == seq + 1)) {
        view_buf_put(b, ",\"status\":\"done\",\"state\":", 25);
        put_file(b, state, (size_t)1 << 30);
    } else if (access(failed, F_OK) == 0) {
        view_buf_put(b, ",\"status\":\"failed\"", 18);
        put_log(b, dir);
    } else if (running && s->inspect.what == seq + 1) {
        view_buf_put(b, ",\"status\":\"running\"", 19);
    } else {
        stop_job(&s->inspect); /* the user moved on to another call */
        char num[32];
        snprintf(num, sizeof num, "%" PRIu64, seq);
        char *argv[] = {(char *)"gltrace", (char *)"inspect", (char *)s->trace, num, (char *)"--out", dir, NULL};
        pid_t pid = view_mkdirs(dir) == 0 ? spawn(s->host_exe, argv, dir) : -1;
        if (pid < 0) {
            view_buf_printf(b, ",\"status\":\"failed\",\"log\":\"cannot start %s inspect\"", s->host_exe);
        } else {
            s->inspect.pid = pid;
            s->inspect.what = seq + 1;
            view_buf_put(b, ",\"status\":\"running\"", 19);
        }
    }
    view_buf_put(b, "}", 1);
}

/* Names a state dump writes: letters, digits, '-', '_', '.', not leading. */
static int plain_name(const char *n)
{
    if (!n || !*n || n[0] == '.' || strlen(n) > 200)
        return 0;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_' || *p == '.'))
            return 0;
    return 1;
}

int view_jobs_state_file(view_server *s, uint64_t seq, const char *name, char *path, size_t len, char *err,
                         size_t errlen)
{
    if (!plain_name(name)) {
        snprintf(err, errlen, "argument name: a file name of the state dump (letters, digits, -, _, .) expected");
        return -1;
    }
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/state-%" PRIu64, s->cache, seq);
    /* only a file the dump wrote: looked up in its folder, never opened by
     * the name as given */
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, name) == 0 && e->d_type == DT_REG)
            found = 1;
    if (d)
        closedir(d);
    if (!found) {
        snprintf(err, errlen, "the state at call %" PRIu64 " has no file %s", seq, name);
        return -1;
    }
    snprintf(path, len, "%s/%s", dir, name);
    return 0;
}

void view_jobs_replay(view_server *s, int start, view_buf *b)
{
    char dir[4400], report[4500];
    snprintf(dir, sizeof dir, "%s/replay", s->cache);
    snprintf(report, sizeof report, "%s/report.json", dir);
    int running = poll_job(&s->replay);
    if (!running && !s->report && access(report, R_OK) == 0) {
        snprintf(s->report_buf, sizeof s->report_buf, "%s", report);
        s->report = s->report_buf;
    }
    if (start && !running && s->host_exe) {
        char *argv[] = {(char *)"gltrace", (char *)"replay", (char *)s->trace, (char *)"--json", report,
                        (char *)"--out", dir, (char *)"--save-all", NULL};
        unlink(report);
        pid_t pid = view_mkdirs(dir) == 0 ? spawn(s->host_exe, argv, dir) : -1;
        if (pid > 0) {
            s->replay.pid = pid;
            running = 1;
            if (s->report == s->report_buf)
                s->report = NULL;
        }
    }
    view_buf_printf(b, "{\"status\":\"%s\"", running ? "running" : s->report ? "done" : "none");
    if (!running && s->report) {
        view_buf_put(b, ",\"report\":", 10);
        if (put_file(b, s->report, (size_t)1 << 28) != 0)
            view_buf_put(b, "null", 4);
    }
    if (!running && s->replay.status && !s->report)
        put_log(b, dir);
    view_buf_put(b, "}", 1);
}

/* The expected, actual or diff PNG of result k of the report: the report
 * names it (relative names are taken from the report's folder, then as
 * given). The request names only k and which. */
int view_jobs_report_image(view_server *s, uint64_t k, const char *which, char *path, size_t len, char *err,
                           size_t errlen)
{
    static const char *const keys[][2] = {{"expected", "expected_png"}, {"actual", "actual_png"}, {"diff", "diff_png"}};
    const char *key = NULL;
    for (size_t i = 0; i < 3; i++)
        if (which && strcmp(which, keys[i][0]) == 0)
            key = keys[i][1];
    if (!key) {
        snprintf(err, errlen, "argument which: expected, actual or diff");
        return -1;
    }
    if (!s->report) {
        snprintf(err, errlen, "no replay report: give --report or replay from the page");
        return -1;
    }
    json_error_t je;
    json_t *root = json_load_file(s->report, 0, &je);
    json_t *res = root ? json_array_get(json_object_get(root, "results"), (size_t)k) : NULL;
    const char *name = res ? json_string_value(json_object_get(res, key)) : NULL;
    int rc = -1;
    if (!root)
        snprintf(err, errlen, "%s: line %d: %s", s->report, je.line, je.text);
    else if (!name)
        snprintf(err, errlen, "result %" PRIu64 " of the report has no %s image", k, which);
    else {
        const char *slash = strrchr(s->report, '/');
        if (name[0] == '/')
            snprintf(path, len, "%s", name);
        else if (s->report_images && s->report != s->report_buf)
            snprintf(path, len, "%s/%s", s->report_images, name);
        else if (slash)
            snprintf(path, len, "%.*s/%s", (int)(slash - s->report), s->report, name);
        else
            snprintf(path, len, "%s", name);
        if (access(path, R_OK) != 0)
            snprintf(err, errlen, "%s: %s (the report's images are looked up beside it, or in --images DIR)", path,
                     strerror(errno));
        else
            rc = 0;
    }
    json_decref(root);
    return rc;
}
