/* view_server.h: the server's state and what its files share (internal). */
#ifndef VIEW_SERVER_H
#define VIEW_SERVER_H

#include <pthread.h>
#include <sys/types.h>

#include "view_internal.h"

typedef struct view_find view_find;
/* Searches alive at once: a page's filter and find, a few tabs. Each
 * holds its matches' positions (8 bytes a match). */
#define VIEW_FINDS 8

/* A child process of the viewer (`gltrace inspect`, `gltrace replay`):
 * one of each kind runs at a time; asking for another cancels it. */
typedef struct view_job {
    pid_t pid;          /* 0: none running */
    uint64_t what;      /* the call it inspects */
    char dir[4300];     /* where it writes */
    int status;         /* of the last one that ended: 0 ok, else failed */
} view_job;

typedef struct view_server {
    const char *trace;
    const char *report;          /* --report, or the replay's own once it ran */
    char report_buf[4500];
    const char *report_images;   /* NULL: the report's own folder */
    const char *host_exe;
    gt_view_index *ix;
    char cache[4300];
    char token[33];
    char cookie[40];             /* the cookie's name: gt_token_PORT */
    unsigned port;
    pthread_mutex_t lock;        /* cursor, find, jobs */
    view_cursor *cursor;
    /* images have a reader of their own: making thumbnails does not hold
     * up the call list */
    pthread_mutex_t image_lock;
    view_cursor *image_cursor;
    view_find *finds[VIEW_FINDS];
    uint64_t find_clock;
    int next_find_id;
    view_job inspect, replay;
} view_server;

/* An answer: status, content type and body (owned: freed after sending). */
typedef struct view_answer {
    unsigned status;
    const char *type;
    view_buf body;
    const char *file;            /* instead of body: this file's content */
    char file_buf[4400];
    int page;                    /* the page itself: its security headers */
} view_answer;

typedef const char *(*view_arg_fn)(void *conn, const char *key);
typedef size_t (*view_args_fn)(void *conn, const char *key, const char **out, size_t max);

/* The answer to GET `path` (after the security checks). */
void view_route(view_server *s, const char *path, void *conn, view_arg_fn arg, view_args_fn args, view_answer *a);

/* answer helpers */
void view_fail(view_answer *a, unsigned status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- find (view_find.c) */
/* Starts a search of every record's dump text for the patterns (POSIX
 * extended regular expressions; `all`: every pattern must match, else
 * one); returns its id, or -1 with err (a pattern that does not compile). */
int view_find_start(view_server *s, const char *const *re, size_t nre, int all, char *err, size_t errlen);
/* With s->lock held: */
view_find *view_find_get(view_server *s, int id);
void view_find_status(view_find *f, view_buf *b);
/* The matches' positions k.. (at most n); returns how many, *total the
 * matches found so far. */
size_t view_find_page(view_find *f, uint64_t k, uint64_t *pos, size_t n, uint64_t *total);
/* The first match after (dir > 0) or before position pos: 1 and *out, 0
 * none (yet: *pending says whether the search still runs). */
int view_find_next(view_find *f, uint64_t pos, int dir, uint64_t *out, int *pending);
void view_find_free(view_find *f);
/* Stops and frees every search (without s->lock held). */
void view_find_stop_all(view_server *s);

/* ---- child processes (view_jobs.c), with s->lock held */
void view_jobs_state(view_server *s, uint64_t pos, view_buf *b);
int view_jobs_state_file(view_server *s, uint64_t seq, const char *name, char *path, size_t len, char *err,
                         size_t errlen);
void view_jobs_replay(view_server *s, int start, view_buf *b);
void view_jobs_stop(view_server *s);
int view_jobs_report_image(view_server *s, uint64_t k, const char *which, char *path, size_t len, char *err,
                           size_t errlen);

#endif
