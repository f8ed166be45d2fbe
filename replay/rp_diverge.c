/* rp_diverge.c: gltrace diverge's parent (gt_diverge.h): runs the two
 * sides as replays in processes of their own, reads their events in
 * lockstep (rp_diverge_probe.c has the lines), compares, and narrows from
 * frame ends to the draws of the first differing frame. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gt_diff.h"
#include "gt_diverge.h"

#define NO_FRAME UINT64_MAX  /* frame ends only */
#define ALL_FRAMES (UINT64_MAX - 1) /* every draw: a trace with no frame end */

typedef struct side {
    pid_t pid;
    int cmd_fd;          /* commands to it */
    FILE *ev;            /* its events */
    const char *trace, *name;
    const char *const *env;
} side;

typedef struct event {
    char kind;           /* F, D, S; 0: the side ended */
    uint64_t frame, seq, hash, call;
    uint32_t w, h;
    int same;
    char name[64], function[64];
} event;

/* A comparison's state: options, result, the pictures of the last mismatch. */
typedef struct run {
    const gt_diverge_options *o;
    gt_diverge_result *res;
    gt_diff_options exact;
    gt_diff_image ia, ib;
    gt_diff_result cmp;
    int compared;        /* cmp holds the comparison of ia and ib */
} run;

void gt_diverge_options_init(gt_diverge_options *o)
{
    memset(o, 0, sizeof *o);
    o->exe = "/proc/self/exe";
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- processes */

/* In the child: its environment, its pipes, then the replay. */
static void exec_side(const gt_diverge_options *o, const side *s, int ev_fd, int cmd_fd, uint64_t draw_frame)
{
    for (const char *const *e = s->env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[256];
        if (!eq || (size_t)(eq - *e) >= sizeof name)
            _exit(127);
        memcpy(name, *e, (size_t)(eq - *e));
        name[eq - *e] = 0;
        setenv(name, eq + 1, 1);
    }
    fcntl(ev_fd, F_SETFD, 0);
    fcntl(cmd_fd, F_SETFD, 0);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 1);
    char fds[32], draws[64];
    snprintf(fds, sizeof fds, "%d,%d", ev_fd, cmd_fd);
    if (draw_frame == ALL_FRAMES)
        snprintf(draws, sizeof draws, "0-");
    else
        snprintf(draws, sizeof draws, "%" PRIu64 "-%" PRIu64, draw_frame, draw_frame);
    const char *argv[12];
    int n = 0;
    argv[n++] = "gltrace", argv[n++] = "replay", argv[n++] = s->trace, argv[n++] = "--lockstep", argv[n++] = fds;
    if (draw_frame != NO_FRAME)
        argv[n++] = "--lockstep-draws", argv[n++] = draws;
    if (o->b_recorded)
        argv[n++] = "--lockstep-recorded";
    if (o->quiet)
        argv[n++] = "-q";
    argv[n++] = "--no-progress";
    argv[n] = NULL;
    execv(o->exe, (char *const *)argv);
    _exit(127);
}

static int spawn(run *x, side *s, uint64_t draw_frame)
{
    int evp[2], cmdp[2];
    if (pipe2(evp, O_CLOEXEC) != 0)
        goto fail;
    if (pipe2(cmdp, O_CLOEXEC) != 0) {
        close(evp[0]), close(evp[1]);
        goto fail;
    }
    fflush(NULL);
    s->pid = fork();
    if (s->pid == 0)
        exec_side(x->o, s, evp[1], cmdp[0], draw_frame);
    close(evp[1]), close(cmdp[0]);
    s->cmd_fd = cmdp[1];
    s->ev = s->pid > 0 ? fdopen(evp[0], "r") : NULL;
    if (s->ev)
        return 0;
    close(evp[0]), close(cmdp[1]);
fail:
    snprintf(x->res->error, sizeof x->res->error, "cannot start side %s: %s", s->name, strerror(errno));
    s->pid = 0;
    return -1;
}

/* Ends a side: the rest of its replay is of no interest. Its status: 0
 * or 1 (a replay's own verdicts), 2 (it could not replay), 127 (it could
 * not start), -1 (killed here). */
static int finish(side *s, int kill_it)
{
    int status = -1;
    if (!s->pid)
        return -1;
    if (kill_it)
        kill(s->pid, SIGKILL);
    if (s->ev)
        fclose(s->ev);
    close(s->cmd_fd);
    int ws = 0;
    while (waitpid(s->pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(ws))
        status = WEXITSTATUS(ws);
    s->pid = 0, s->ev = NULL;
    return status;
}

static int command(side *s, const char *c)
{
    size_t n = strlen(c);
    return write(s->cmd_fd, c, n) == (ssize_t)n ? 0 : -1;
}

/* 1 with *e, or 0 when the side ended (no more events). */
static int next_event(side *s, event *e)
{
    char line[512];
    memset(e, 0, sizeof *e);
    if (!fgets(line, sizeof line, s->ev))
        return 0;
    int n = sscanf(line, "%c %" SCNu64 " %" SCNu64 " %" SCNx64 " %" SCNu32 " %" SCNu32 " %63s %d %" SCNu64 " %63s",
                   &e->kind, &e->frame, &e->seq, &e->hash, &e->w, &e->h, e->name, &e->same, &e->call, e->function);
    if (n < 7)
        return 0;
    if (e->kind != 'S')
        e->call = e->seq, snprintf(e->function, sizeof e->function, "%s", e->name);
    return 1;
}

/* The picture of the side's last event ("i") or its recorded snapshot ("e"). */
static int fetch(side *s, const char *which, gt_diff_image *img)
{
    char line[64];
    uint32_t w = 0, h = 0;
    gt_diff_image_free(img);
    if (command(s, which) != 0 || !fgets(line, sizeof line, s->ev) ||
        sscanf(line, "I %" SCNu32 " %" SCNu32, &w, &h) != 2)
        return -1;
    if (!w || !h)
        return 0; /* none */
    if (gt_diff_image_alloc(img, w, h) != 0)
        return -1;
    size_t n = (size_t)w * h * 4;
    if (fread(img->rgba, 1, n, s->ev) != n) {
        gt_diff_image_free(img);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- comparing */

/* Whether the fetched pictures pass the tolerant comparison. */
static int pictures_pass(run *x)
{
    char err[GT_DIFF_ERR_MAX];
    const gt_diff_options *opt = x->o->compare ? x->o->compare : &x->exact;
    x->compared = 0;
    if (!x->ia.rgba || !x->ib.rgba || x->ia.width != x->ib.width || x->ia.height != x->ib.height)
        return 0;
    if (gt_diff_compare(&x->ia, &x->ib, opt, 1, &x->cmp, NULL, err) != 0)
        return 0;
    x->compared = 1;
    return x->cmp.pass;
}

/* 1 when the two events' pictures agree (their hashes, or within tolerance). */
static int agree(run *x, side *a, side *b, const event *ea, const event *eb)
{
    if (ea->hash == eb->hash && ea->w == eb->w && ea->h == eb->h)
        return 1;
    if (fetch(a, "i\n", &x->ia) != 0 || fetch(b, "i\n", &x->ib) != 0)
        return 0;
    if (!pictures_pass(x))
        return 0;
    x->res->tolerated++;
    return 1;
}

static void found(run *x, const event *e, const char *kind)
{
    gt_diverge_result *r = x->res;
    r->found = 1;
    r->call = e->call, r->frame = e->frame;
    snprintf(r->function, sizeof r->function, "%s", e->function);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    r->has_metrics = x->compared;
    if (x->compared) {
        r->diff_pixels = x->cmp.diff_pixels, r->diff_percent = x->cmp.diff_percent;
        r->rmse = x->cmp.rmse, r->psnr = x->cmp.psnr, r->max_channel_diff = x->cmp.max_channel_diff;
    }
}

/* Side B is the trace's recorded snapshots: A's S events say. 1: found;
 * 0: A ended with none differing. */
static int against_recorded(run *x, side *a)
{
    event e;
    while (next_event(a, &e)) {
        if (e.kind == 'D')
            x->res->draws++;
        if (e.kind == 'S') {
            x->res->snapshots++;
            if (!e.same) {
                if (fetch(a, "i\n", &x->ia) != 0 || fetch(a, "e\n", &x->ib) != 0)
                    return -1;
                /* B is what was recorded: the comparison's expected side. */
                gt_diff_image t = x->ia;
                x->ia = x->ib, x->ib = t;
                if (!pictures_pass(x)) {
                    t = x->ia, x->ia = x->ib, x->ib = t;
                    found(x, &e, "snapshot");
                    snprintf(x->res->what, sizeof x->res->what, "%s", e.name);
                    x->res->snapshot_seq = e.seq;
                    return 1;
                }
                x->res->tolerated++;
            }
        }
        if (command(a, "c\n") != 0)
            return -1;
    }
    return 0;
}

static void apart(run *x, const event *ea, const event *eb, int ra, int rb)
{
    const event *first = !ra ? eb : !rb ? ea : ea->seq <= eb->seq ? ea : eb;
    found(x, first, first->kind == 'D' ? "draw" : "frame end");
    if (!ra || !rb)
        snprintf(x->res->note, sizeof x->res->note, "side %s ended before this call; the other replayed on",
                 !ra ? "A" : "B");
    else
        snprintf(x->res->note, sizeof x->res->note,
                 "the two replays reached different calls here (A call %" PRIu64 ", B call %" PRIu64 ")", ea->seq,
                 eb->seq);
}

/* Two sides in lockstep. draw_frame: the frame whose draws are compared
 * (NO_FRAME: frame ends only). 1: found; 0: no divergence; -1: an error. */
static int lockstep(run *x, side *a, side *b, uint64_t draw_frame)
{
    event ea, eb;
    for (;;) {
        int ra = next_event(a, &ea), rb = next_event(b, &eb);
        if (!ra && !rb)
            return 0;
        if (!ra || !rb || ea.kind != eb.kind || ea.seq != eb.seq) {
            apart(x, &ea, &eb, ra, rb);
            return 1;
        }
        int compare = draw_frame == NO_FRAME ? ea.kind == 'F' : draw_frame == ALL_FRAMES || ea.frame >= draw_frame;
        if (compare) {
            x->res->frames += ea.kind == 'F' && draw_frame == NO_FRAME;
            x->res->draws += ea.kind == 'D';
            if (!agree(x, a, b, &ea, &eb)) {
                found(x, &ea, ea.kind == 'D' ? "draw" : "frame end");
                return 1;
            }
            if (ea.kind == 'F' && draw_frame != NO_FRAME && draw_frame != ALL_FRAMES) {
                snprintf(x->res->note, sizeof x->res->note,
                         "frame %" PRIu64 " differed at its end on the first pass, not on the second: a side does "
                         "not replay the same way twice", ea.frame);
                return 0;
            }
        }
        if (command(a, "c\n") != 0 || command(b, "c\n") != 0)
            return -1;
    }
}

/* ---------------------------------------------------------------- passes */

/* A side's exit status made an error: 2 or 127 mean it could not replay. */
static int side_failed(run *x, const side *s, int status)
{
    if (status != 2 && status != 127)
        return 0;
    if (!x->res->error[0])
        snprintf(x->res->error, sizeof x->res->error, "side %s could not replay %s%s", s->name, s->trace,
                 status == 127 ? ": cannot run the gltrace binary or set its environment" : " (its message is above)");
    return 1;
}

/* The state at the divergence, dumped by a side paused right after it
 * into out_dir/state-SUB. 0, or -1 when it cannot (the caller then runs
 * gltrace inspect). */
static int dump_paused(run *x, side *s, const char *sub, gt_diverge_side *to)
{
    char cmd[4200], line[600];
    snprintf(to->state_dir, sizeof to->state_dir, "%s/state-%s", x->o->out_dir, sub);
    snprintf(cmd, sizeof cmd, "s %s\n", to->state_dir);
    if (command(s, cmd) == 0 && fgets(line, sizeof line, s->ev) && !strncmp(line, "ok", 2))
        return 0;
    to->state_dir[0] = 0;
    return -1;
}

/* One pass; 1 found, 0 none, 2 an error. */
static int pass(run *x, side *a, side *b, uint64_t draw_frame)
{
    double t = now();
    int rc = -1;
    if (spawn(x, a, draw_frame) == 0 && (!b || spawn(x, b, draw_frame) == 0))
        rc = b ? lockstep(x, a, b, draw_frame) : against_recorded(x, a);
    /* A finding the second pass will narrow is dumped there. */
    int final = rc == 1 && (!b || x->res->note[0] || strcmp(x->res->kind, "frame end") || draw_frame != NO_FRAME);
    if (final && x->o->out_dir && !x->res->note[0])
        x->res->state_paused = dump_paused(x, a, "a", &x->res->a) == 0 && (!b || dump_paused(x, b, "b", &x->res->b) == 0);
    int kill_them = rc != 0;
    int sa = finish(a, kill_them), sb = b ? finish(b, kill_them) : 0;
    x->res->pass_seconds[x->res->passes++] = now() - t;
    if (side_failed(x, a, sa) || (b && side_failed(x, b, sb)))
        return 2;
    if (rc < 0) {
        if (!x->res->error[0])
            snprintf(x->res->error, sizeof x->res->error, "a side stopped answering in the middle of its replay");
        return 2;
    }
    return rc;
}

/* The pictures of the divergence and of their differences, in out_dir. */
static void write_pictures(run *x)
{
    gt_diverge_result *r = x->res;
    const char *dir = x->o->out_dir;
    char err[GT_DIFF_ERR_MAX];
    r->a.width = x->ia.width, r->a.height = x->ia.height, r->b.width = x->ib.width, r->b.height = x->ib.height;
    r->a.hash = x->ia.rgba ? gt_diff_image_hash(&x->ia) : 0;
    r->b.hash = x->ib.rgba ? gt_diff_image_hash(&x->ib) : 0;
    if (!dir)
        return;
    struct { const gt_diff_image *img; char *path; const char *suffix; } out[] = {
        {&x->ia, r->a.png, "a"}, {&x->ib, r->b.png, "b"}};
    for (size_t i = 0; i < 2; i++) {
        if (!out[i].img->rgba)
            continue;
        snprintf(out[i].path, sizeof r->a.png, "%s/call%" PRIu64 "-%s.png", dir, r->call, out[i].suffix);
        if (gt_diff_png_write(out[i].path, out[i].img, err) != 0)
            out[i].path[0] = 0;
    }
    if (!r->has_metrics)
        return;
    uint8_t *mask = malloc((size_t)x->ia.width * x->ia.height);
    gt_diff_image d = {0};
    gt_diff_result res;
    const gt_diff_options *opt = x->o->compare ? x->o->compare : &x->exact;
    if (mask && gt_diff_compare(&x->ia, &x->ib, opt, 1, &res, mask, err) == 0 && gt_diff_render(&x->ia, mask, &d) == 0) {
        snprintf(r->diff_png, sizeof r->diff_png, "%s/call%" PRIu64 "-diff.png", dir, r->call);
        if (gt_diff_png_write(r->diff_png, &d, err) != 0)
            r->diff_png[0] = 0;
    }
    gt_diff_image_free(&d);
    free(mask);
}

/* gltrace inspect at the call, on each side with its environment, into
 * out_dir/state-a and state-b (run at once, side by side). */
static void dump_states(run *x, side *a, side *b)
{
    gt_diverge_result *r = x->res;
    const char *dir = x->o->out_dir;
    if (!dir) {
        snprintf(r->state_note, sizeof r->state_note, "no --out: the state at the call was not dumped");
        return;
    }
    struct { side *s; gt_diverge_side *to; const char *sub; pid_t pid; } v[2] = {{a, &r->a, "a", 0},
                                                                               {b, &r->b, "b", 0}};
    char call[32];
    snprintf(call, sizeof call, "%" PRIu64, r->call);
    fflush(NULL);
    for (int i = 0; i < 2 && v[i].s; i++) {
        snprintf(v[i].to->state_dir, sizeof v[i].to->state_dir, "%s/state-%s", dir, v[i].sub);
        v[i].pid = fork();
        if (v[i].pid == 0) {
            for (const char *const *e = v[i].s->env; e && *e; e++)
                putenv((char *)*e);
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 1), dup2(null, 2);
            execl(x->o->exe, "gltrace", "inspect", v[i].s->trace, call, "--out", v[i].to->state_dir, (char *)NULL);
            _exit(127);
        }
    }
    int failed = 0;
    for (int i = 0; i < 2 && v[i].s; i++) {
        int ws = 0;
        if (v[i].pid > 0)
            while (waitpid(v[i].pid, &ws, 0) < 0 && errno == EINTR)
                ;
        if (v[i].pid <= 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            failed = 1;
            v[i].to->state_dir[0] = 0;
        }
    }
    if (failed)
        snprintf(r->state_note, sizeof r->state_note, "gltrace inspect could not dump the state at call %s", call);
}

static int check_input(const gt_diverge_options *o, gt_diverge_result *r)
{
    const char *traces[2] = {o->trace_a, o->b_recorded ? NULL : o->trace_b};
    for (int i = 0; i < 2; i++) {
        if (traces[i] && access(traces[i], R_OK) != 0) {
            snprintf(r->error, sizeof r->error, "cannot read %s: %s", traces[i], strerror(errno));
            return -1;
        }
    }
    if (o->out_dir && mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(r->error, sizeof r->error, "cannot make %s: %s", o->out_dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int diverge(run *x)
{
    const gt_diverge_options *o = x->o;
    side a = {.trace = o->trace_a, .name = "A", .env = o->env_a};
    side b = {.trace = o->trace_b ? o->trace_b : o->trace_a, .name = "B", .env = o->env_b};
    side *bp = o->b_recorded ? NULL : &b;
    /* Recorded snapshots fix the points compared: one pass. */
    int rc = pass(x, &a, bp, NO_FRAME);
    if (rc == 1 && bp && !x->res->note[0] && !strcmp(x->res->kind, "frame end")) {
        gt_diverge_result keep = *x->res;
        uint64_t frame = x->res->frame;
        x->res->found = 0;
        rc = pass(x, &a, bp, frame);
        if (rc == 0) { /* not found again: keep the first pass's finding */
            char note[256];
            snprintf(note, sizeof note, "%s", x->res->note);
            keep.passes = x->res->passes, keep.pass_seconds[1] = x->res->pass_seconds[1];
            keep.draws = x->res->draws;
            *x->res = keep;
            snprintf(x->res->note, sizeof x->res->note, "%s", note);
            rc = 1;
        }
    }
    /* No frame ended (an off-screen program ending frames with glFinish):
     * every draw is compared, in one more pass. */
    if (rc == 0 && bp && !x->res->frames)
        rc = pass(x, &a, bp, ALL_FRAMES);
    if (rc != 1)
        return rc;
    write_pictures(x);
    if (x->res->state_paused)
        return 1;
    /* The sides could not dump while paused (one had already ended, say):
     * each replays to the call again under gltrace inspect. */
    dump_states(x, &a, bp);
    return 1;
}

int gt_diverge_run(const gt_diverge_options *o, gt_diverge_result *res)
{
    memset(res, 0, sizeof *res);
    run x = {.o = o, .res = res};
    gt_diff_options_init(&x.exact);
    double t = now();
    if (check_input(o, res) != 0)
        return 2;
    /* A side that ends early must not take the parent with it. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigaction(SIGPIPE, &ign, &old);
    int rc = diverge(&x);
    sigaction(SIGPIPE, &old, NULL);
    gt_diff_image_free(&x.ia);
    gt_diff_image_free(&x.ib);
    res->seconds = now() - t;
    return rc;
}
