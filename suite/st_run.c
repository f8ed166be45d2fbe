/* st_run.c: `gltrace suite run`: the traces of this shard, each replayed in
 * a child `gltrace replay` (longest first, `jobs` at once), classified,
 * retried when an unexpected failure may be a flake, and written down as
 * each ends. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_classify.h"
#include "st_internal.h"

typedef struct job {
    st_trace *t;
    st_result x;
    st_child c;
    unsigned attempt;
    st_status first;   /* the status of the first attempt */
    char *first_message;
} job;

typedef struct runner {
    const gt_suite_run_options *o;
    st_suite s;
    st_results done;
    FILE *csv, *fails;
    int retries;
    size_t total, finished;
} runner;

void gt_suite_run_options_init(gt_suite_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->retries = -1;
}

/* ---------------------------------------------------------------- a child */

static char **replay_argv(runner *r, job *j)
{
    st_strs a = {0};
    for (size_t i = 0; i < j->t->wrapper.n; i++)
        st_strs_push(&a, j->t->wrapper.v[i]);
    char *json = st_fmt("%s/%s/report.json", r->o->out_dir, j->x.dir);
    char *img = st_fmt("%s/%s/img", r->o->out_dir, j->x.dir);
    const char *fixed[] = {r->o->replay_exe, "replay", j->t->path, "--json", json, "--out", img, "--no-progress",
                           "-q"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        st_strs_push(&a, fixed[i]);
    if (j->attempt > 1 && j->t->expect == ST_EXPECT_CHECKSUMS)
        st_strs_push(&a, "--save-all"); /* pictures for the report of a checksum that differs */
    for (size_t i = 0; i < j->t->options.n; i++)
        st_strs_push(&a, j->t->options.v[i]);
    unlink(json);
    free(json);
    free(img);
    return a.v;
}

static int start(runner *r, job *j)
{
    j->attempt++;
    char *dir = st_fmt("%s/%s/img", r->o->out_dir, j->x.dir), *log = st_fmt("%s/%s/log.txt", r->o->out_dir, j->x.dir);
    st_mkdirs(dir);
    st_strs env = {0};
    /* Children share the cores: llvmpipe's own threads would only compete. */
    if (r->o->jobs != 1 && !getenv("LP_NUM_THREADS"))
        st_strs_push(&env, "LP_NUM_THREADS=1");
    for (size_t i = 0; i < j->t->env.n; i++)
        st_strs_push(&env, j->t->env.v[i]);
    char **argv = replay_argv(r, j);
    double limit = j->t->timeout * (j->t->labels & ST_L_SLOW ? 4 : 1);
    int rc = st_child_start(&j->c, argv, &env, log, limit);
    st_strs a = {argv, 0};
    while (argv[a.n])
        a.n++;
    st_strs_free(&a);
    st_strs_free(&env);
    free(dir);
    free(log);
    return rc;
}

/* ---------------------------------------------------------------- results */

static void record(runner *r, job *j)
{
    st_result *x = st_results_push(&r->done);
    *x = j->x;
    memset(&j->x, 0, sizeof j->x);
    st_csv_append(r->csv, r->fails, x);
    char err[ST_ERR_MAX];
    if (st_write_reports(r->o->out_dir, &r->done, err) != 0)
        st_say("%s", err);
    r->finished++;
    if (!r->o->quiet || !st_status_expected(x->status))
        st_say("[%zu/%zu] %s %s (%.2f s)%s%s", r->finished, r->total, st_status_name(x->status), x->trace,
               x->seconds, x->message ? ": " : "", x->message ? x->message : "");
}

/* 1 when the job is to run again. */
static int finish(runner *r, job *j)
{
    j->x.seconds += j->c.timed_out ? j->t->timeout : st_now() - j->c.started;
    j->x.attempts = j->attempt;
    st_status raw = st_classify_run(j->t, &j->c, r->o->out_dir, &j->x);
    st_status st = st_classify_labels(raw, j->t->labels);
    if (j->attempt == 1)
        j->first = st, j->first_message = st_strdup(j->x.message);
    if (st == ST_PASS && j->attempt > 1) {
        free(j->x.message);
        j->x.message = st_fmt("%s on run 1 (%s), passed on run %u", st_status_name(j->first),
                              j->first_message ? j->first_message : "", j->attempt);
        st = ST_FLAKE;
    }
    j->x.status = st;
    if ((st == ST_FAIL || st == ST_CRASH) && j->attempt <= (unsigned)r->retries)
        return 1;
    free(j->first_message);
    j->first_message = NULL;
    record(r, j);
    return 0;
}

static void without_run(runner *r, job *j, st_status st, char *message)
{
    j->x.status = st;
    j->x.message = message;
    record(r, j);
}

/* ---------------------------------------------------------------- the pool */

static void run_jobs(runner *r, job *jobs, size_t n)
{
    unsigned width = r->o->jobs ? r->o->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    job **running = calloc(width ? width : 1, sizeof *running);
    st_child **kids = calloc(width ? width : 1, sizeof *kids);
    size_t next = 0, nrun = 0;
    job **retry = calloc(n ? n : 1, sizeof *retry);
    size_t nretry = 0;
    for (;;) {
        while (nrun < width && (nretry || next < n)) {
            job *j = nretry ? retry[--nretry] : &jobs[next++];
            if (start(r, j) != 0)
                without_run(r, j, ST_ERROR, st_strdup("cannot start a child process"));
            else
                running[nrun++] = j;
        }
        if (!nrun)
            break;
        for (size_t i = 0; i < nrun; i++)
            kids[i] = &running[i]->c;
        st_child_wait(kids, nrun);
        for (size_t i = 0; i < nrun;) {
            if (!running[i]->c.done) {
                i++;
                continue;
            }
            job *j = running[i];
            running[i] = running[--nrun];
            if (finish(r, j))
                retry[nretry++] = j;
        }
    }
    free(retry);
    free(kids);
    free(running);
}

/* ---------------------------------------------------------------- order */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const st_trace *)a)->name, ((const st_trace *)b)->name);
}

/* Slow traces, then the largest, first: the longest start early, so that
 * the run does not end waiting on one. */
static int cmp_longest(const void *a, const void *b)
{
    const job *x = a, *y = b;
    int sx = !!(x->t->labels & ST_L_SLOW), sy = !!(y->t->labels & ST_L_SLOW);
    if (sx != sy)
        return sy - sx;
    if (x->t->size != y->t->size)
        return x->t->size < y->t->size ? 1 : -1;
    return strcmp(x->t->name, y->t->name);
}

static int already(const st_results *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].trace, name))
            return 1;
    return 0;
}

static int fetch(runner *r, job *j)
{
    char *cache = st_fmt("%s/cache", r->o->out_dir), *base = st_trace_dirname(j->t->name);
    st_mkdirs(cache);
    char *dest = st_fmt("%s/%s.gltrace", cache, base), err[ST_ERR_MAX];
    int rc = st_fetch(j->t->url, j->t->sha256, dest, err);
    if (rc == 0) {
        free(j->t->path);
        j->t->path = dest;
        struct stat st;
        j->t->size = stat(dest, &st) == 0 ? st.st_size : 0;
    } else {
        free(dest);
        without_run(r, j, ST_ERROR, st_strdup(err));
    }
    free(cache);
    free(base);
    return rc;
}

/* The jobs of this shard still to run (skips recorded at once). */
static job *plan(runner *r, unsigned index, unsigned total, size_t *njobs)
{
    qsort(r->s.traces, r->s.ntraces, sizeof *r->s.traces, cmp_name);
    job *jobs = calloc(r->s.ntraces ? r->s.ntraces : 1, sizeof *jobs);
    size_t n = 0;
    for (size_t k = 0; k < r->s.ntraces; k++) {
        st_trace *t = &r->s.traces[k];
        if (k % total != index - 1 || already(&r->done, t->name))
            continue;
        r->total++;
        job *j = &jobs[n];
        memset(j, 0, sizeof *j);
        j->t = t;
        j->x.trace = st_strdup(t->name);
        char *base = st_trace_dirname(t->name);
        j->x.dir = st_fmt("traces/%s", base);
        free(base);
        if (t->labels & ST_L_SKIP)
            without_run(r, j, ST_SKIP, st_strdup("label skip"));
        else if (t->expect == ST_EXPECT_NONE)
            without_run(r, j, ST_SKIP, st_fmt("no expectation for device %s", r->o->device));
        else if (t->url && fetch(r, j) != 0)
            ;
        else
            n++;
    }
    qsort(jobs, n, sizeof *jobs, cmp_longest);
    *njobs = n;
    return jobs;
}

/* ---------------------------------------------------------------- the run */

static int shard_of(const gt_suite_run_options *o, unsigned *index, unsigned *total)
{
    char err[ST_ERR_MAX];
    *index = o->shard_index, *total = o->shard_total;
    if (*total)
        return 0;
    *index = *total = 1;
    if (gt_suite_shard_from_env(index, total, err, sizeof err) < 0) {
        st_say("%s", err);
        return 2;
    }
    return 0;
}

static void load_previous(runner *r)
{
    char err[ST_ERR_MAX];
    if (st_csv_read(r->o->out_dir, &r->done, err) != 0)
        return;
    for (size_t i = 0; i < r->done.n; i++) {
        int rc;
        char *keep = r->done.v[i].message;
        r->done.v[i].message = NULL;
        st_report_read(r->o->out_dir, &r->done.v[i], &rc, err);
        free(r->done.v[i].message);
        r->done.v[i].message = keep;
    }
}

static int verdict(runner *r)
{
    char err[ST_ERR_MAX];
    st_results_sort(&r->done);
    if (st_write_reports(r->o->out_dir, &r->done, err) != 0 || st_write_image_report(r->o->out_dir, &r->done, err))
        st_say("%s", err);
    size_t bad = 0;
    for (size_t i = 0; i < r->done.n; i++)
        bad += !st_status_expected(r->done.v[i].status);
    st_say("%zu traces, %zu unexpected; report: %s/report.html", r->done.n, bad, r->o->out_dir);
    return bad ? 1 : 0;
}

int gt_suite_run(const gt_suite_run_options *o)
{
    runner r = {.o = o, .retries = o->retries < 0 ? 1 : o->retries};
    unsigned index, total;
    if (shard_of(o, &index, &total) != 0 || st_suite_load(&r.s, o->suite, o->device) != 0)
        return 2;
    char err[ST_ERR_MAX];
    if (st_mkdirs(o->out_dir) != 0) {
        st_say("cannot create %s", o->out_dir);
        st_suite_free(&r.s);
        return 2;
    }
    r.done.device = st_strdup(o->device);
    if (o->resume)
        load_previous(&r);
    if (st_csv_open(o->out_dir, o->resume, &r.csv, &r.fails, err) != 0) {
        st_say("%s", err);
        st_suite_free(&r.s);
        st_results_free(&r.done);
        return 2;
    }
    st_child_block_sigchld(1);
    size_t n;
    job *jobs = plan(&r, index, total, &n);
    run_jobs(&r, jobs, n);
    st_child_block_sigchld(0);
    fclose(r.csv);
    fclose(r.fails);
    int rc = verdict(&r);
    free(jobs);
    st_suite_free(&r.s);
    st_results_free(&r.done);
    return rc;
}
