/* rp_run.c: the replay loop. Records come in the recorded global order
 * (the reader merges threads by seq); each is dispatched to its generated
 * routine (gt_replay_gen.c), to the hand-written EGL code, or to the
 * handlers of the records gltrace adds. */
#include "rp_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <GLES2/gl2.h>

#include "gt_api.h"
#include "gt_trace.h"
#include "rp_handlers_gen.h" /* rp_egl_swap: the handler that ends a frame */
#include "rp_trim_internal.h" /* rp_trim_state_*: the state at a trim's start, as gltrace inspect reads it */

static void scratch_reset(rp *r)
{
    if (!r->scratch)
        return;
    /* Free the blocks chained behind the current one. */
    uint8_t *prev;
    memcpy(&prev, r->scratch, sizeof prev);
    while (prev) {
        uint8_t *pp;
        memcpy(&pp, prev, sizeof pp);
        free(prev);
        prev = pp;
    }
    memset(r->scratch, 0, 8); /* the link to the previous block */
    r->scratch_used = 16;
}

/* After each call: most calls take no scratch (used is still 16, or 0
 * before the first block), and then there is nothing to free. */
static inline void scratch_done(rp *r)
{
    if (r->scratch_used > 16)
        scratch_reset(r);
}

/* A trace calls a few dozen of the thousand-odd functions replay knows:
 * each is looked up when first called (eglGetProcAddress searches the
 * driver's names; all of them at start cost 3.4 M instructions, 2% of an
 * empty trace's replay). */
void *rp_fn(rp *r, size_t i)
{
    if (!r->fn[i] && !r->fn_tried[i]) {
        const rp_entry *e = &rp_entries[i];
        r->fn_tried[i] = 1;
        if (e->fn || e->check || e->egl)
            r->fn[i] = (void *)eglGetProcAddress(e->name);
    }
    return r->fn[i];
}

static int setup(rp *r)
{
    r->fn = calloc(rp_nentries, sizeof *r->fn);
    r->fn_tried = calloc(rp_nentries, 1);
    size_t max = 0;
    for (size_t i = 0; i < rp_nentries; i++)
        if ((size_t)rp_entries[i].number > max)
            max = (size_t)rp_entries[i].number;
    r->max_number = max;
    r->by_number = calloc(max + 1, sizeof *r->by_number);
    if (!r->fn || !r->fn_tried || !r->by_number)
        return -1;
    for (size_t i = 0; i < rp_nentries; i++)
        if (rp_entries[i].alias == 0)
            r->by_number[rp_entries[i].number] = &rp_entries[i];
    return 0;
}

/* The entry of an alias: a search, as aliases are rare. */
static __attribute__((noinline)) const rp_entry *alias_entry(const rp_msg *m, uint32_t alias)
{
    for (size_t i = 0; i < rp_nentries; i++)
        if (rp_entries[i].number == m->function && rp_entries[i].alias == alias)
            return &rp_entries[i];
    return NULL;
}

/* The entry of a record: by number, or by number and alias index. Inlined
 * (also at -O2) into the loop, where it runs once per record. */
static inline __attribute__((always_inline)) const rp_entry *entry_of(rp *r, const rp_msg *m)
{
    if (m->function < 0 || (size_t)m->function > r->max_number)
        return NULL;
    uint32_t alias = m->has_alias ? m->alias : 0;
    return alias ? alias_entry(m, alias) : r->by_number[m->function];
}

/* Per function number (alias 0): its parameter count + 1 when none is a
 * pointer, else 0. rp_args_refused checks the count and the pointers'
 * recorded types; for a call with no pointer and the right count it can
 * only say yes, and that check was 4% of a replayed
 * glUniform1f/glEnable/glDisable loop (bench/replay/README.md), so such
 * calls skip it. Indexed by number, not entry, so that the check is two
 * loads. Aliased records take the full check. */
static uint8_t plain_none[1];
static const uint8_t *plain_params = plain_none;
static size_t plain_len;
static pthread_once_t plain_once = PTHREAD_ONCE_INIT;

static void plain_params_build(void)
{
    int32_t max = -1;
    for (size_t i = 0; i < rp_nentries; i++)
        if (rp_entries[i].number > max)
            max = rp_entries[i].number;
    uint8_t *t = max >= 0 ? calloc((size_t)max + 1, 1) : NULL;
    if (!t)
        return; /* every call is checked */
    for (size_t i = 0; i < rp_nentries; i++) {
        const rp_entry *e = &rp_entries[i];
        const gt_api_fn *f = e->alias || e->number < 0 ? NULL : gt_api_find_number(e->number, 0);
        int plain = f && f->nparams < 255;
        for (unsigned k = 0; plain && k < f->nparams; k++)
            plain = f->params[k].kind != GT_K_POINTER;
        if (plain)
            t[e->number] = (uint8_t)(f->nparams + 1);
    }
    plain_len = (size_t)max + 1;
    plain_params = t;
}

/* Inlined into the loop: it runs once per record. */
static inline __attribute__((always_inline)) void replay_record(rp *r, const rp_msg *m, uint64_t tid)
{
    if (GT_FN_IS_SYNTHETIC(m->function)) {
        if (m->function == GT_FN_UNCOVERED && m->marker && !strncmp(m->marker, "API ", 4)) {
            /* Another API's calls were left out (capture/cap_foreign.c). */
            snprintf(r->sum->foreign_api, sizeof r->sum->foreign_api, "%s", m->marker + 4);
            rp_warn_once(r, -1, "the app drew with desktop GL through %s, which gltrace does not capture yet: "
                         "those calls are not in the trace", r->sum->foreign_api);
        } else if (m->function == GT_FN_UNCOVERED) {
            /* Each function once, however often the app looked it up. */
            uint64_t h = 1469598103934665603ull, seen;
            for (const char *c = m->marker ? m->marker : "?"; *c; c++)
                h = (h ^ (uint8_t)*c) * 1099511628211ull;
            if (!rp_map_get(&r->uncovered, h | 1ull << 63, &seen)) {
                rp_map_put(&r->uncovered, h | 1ull << 63, 1);
                rp_warn_once(r, -1, "the app got %s, which gltrace does not cover: its calls were neither "
                             "recorded nor replayed", m->marker ? m->marker : "?");
            }
        } else {
            rp_synthetic(r, m, tid);
        }
        return;
    }
    const rp_entry *e = entry_of(r, m);
    if (!e) {
        rp_warn_once(r, m->function, "record %llu: function number %d is unknown to this gltrace: skipped",
                     (unsigned long long)r->seq, m->function);
        r->sum->skipped++;
        return;
    }
    /* entry_of checked m->function against max_number, which covers
     * every entry's number. */
    uint8_t plain = (size_t)m->function < plain_len && !m->has_alias ? plain_params[m->function] : 0;
    if (!(plain && m->n_args + 1 == plain) && rp_args_refused(r, m))
        return;
    r->sum->calls++;
    /* A new surface's recorded contents wait for the first command that
     * may see them (rp_initial.c). */
    if (__builtin_expect(r->initial_held != 0, 0) && e->pixels != RP_PIXELS_NONE && (!r->looping || r->repeat))
        rp_initial_seen(r, e, m, tid);
    if (e->how == RP_EGL) {
        /* The window system is replay's own: the record is taken, and its
         * handler (if any) keeps what later records need. */
        if (e->egl)
            e->egl(r, m, tid, rp_fn(r, (size_t)(e - rp_entries)));
        return;
    }
    if (e->how == RP_SKIP) {
        if (r->opt->check && e->check && !r->looping && rp_in_range(r) && rp_make_current_for(r, tid) == 0 &&
            rp_fn(r, (size_t)(e - rp_entries))) {
            r->cur_name = e->name;
            r->sum->checked++;
            e->check(r, m);
            scratch_done(r);
        } else {
            r->sum->skipped++;
        }
        return;
    }
    if (rp_make_current_for(r, tid) != 0) {
        rp_warn_once(r, m->function, "%s with no context current on its thread: skipped", e->name);
        r->sum->skipped++;
        return;
    }
    if (__builtin_expect(r->ctx[r->cur_ctx].desktop, 0)) {
        r->sum->skipped++; /* desktop OpenGL through EGL: said at its making (rp_egl.c) */
        return;
    }
    /* Looked up once: replay's routines call r->fn[their own entry]. */
    if (__builtin_expect(!r->fn[e - rp_entries], 0) && !rp_fn(r, (size_t)(e - rp_entries))) {
        rp_warn_once(r, m->function, "%s: the replay driver does not have it: skipped", e->name);
        r->sum->skipped++;
        return;
    }
    if (e->cls == GT_CLASS_DRAW && rp_client_draw_refused(r, e, m))
        return;
    e->fn(r, m);
    scratch_done(r);
    if (e->cls == GT_CLASS_ARRAYS)
        rp_client_noted(r, m);
    if (__builtin_expect(r->after_call, 0) && !r->looping) {
        if (r->probe)
            rp_probe_call(r, e);
        if (r->opt->snapshot == GT_REPLAY_SNAP_DRAW && e->cls == GT_CLASS_DRAW && rp_in_range(r))
            rp_snapshot_extra(r, 0, "replayed-after-draw");
        else if (r->opt->snapshot == GT_REPLAY_SNAP_CALLS && rp_in_range(r) && rp_snapshot_wanted(r, r->seq))
            rp_snapshot_extra(r, 0, "replayed-after-call");
    }
}

void gt_replay_options_init(gt_replay_options *o)
{
    memset(o, 0, sizeof *o);
    o->frame_last = o->call_last = UINT64_MAX;
}

void gt_replay_summary_free(gt_replay_summary *s)
{
    free(s->snaps);
    free(s->frame_ms);
    s->snaps = NULL, s->frame_ms = NULL;
    s->nsnaps = s->snaps_cap = s->nframe_ms = s->frame_ms_cap = 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int rp_in_range(const rp *r)
{
    const gt_replay_options *o = r->opt;
    return r->frame >= o->frame_first && r->frame <= o->frame_last && r->seq >= o->call_first &&
           r->seq <= o->call_last;
}

/* Benchmark: each frame is flushed, as eglSwapBuffers flushes a window's,
 * so the driver renders one frame while replay reads and issues the next,
 * as it would behind a real swap chain (a glFinish per frame would make the
 * two wait for each other: a third of the time of a glmark2 mix on two
 * cores). A frame's time is then the time between two frames' ends; the
 * run ends with a glFinish, so the total counts every frame's rendering. */
void rp_frame_end(rp *r, uint64_t tid)
{
    if (r->probe && !r->looping)
        rp_probe_frame(r, tid);
    if (r->opt->benchmark && rp_make_current_for(r, tid) == 0)
        glFlush();
    double t = now();
    gt_replay_summary *s = r->sum;
    if (r->opt->benchmark) {
        if (s->nframe_ms == s->frame_ms_cap) {
            size_t cap = s->frame_ms_cap ? s->frame_ms_cap * 2 : 256;
            double *v = realloc(s->frame_ms, cap * sizeof *v);
            if (v)
                s->frame_ms = v, s->frame_ms_cap = cap;
        }
        if (s->nframe_ms < s->frame_ms_cap)
            s->frame_ms[s->nframe_ms++] = (t - r->frame_start) * 1e3;
    }
    r->frame_start = t;
    if (!r->looping)
        r->frame++;
    s->frames++;
}

/* The records of the last complete frame, kept for --loop. */
typedef struct frame_list {
    rp_msg **m;
    uint64_t *tid, *seq;
    size_t n, cap;
} frame_list;

static void list_clear(frame_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        gltrace__glmessage__free_unpacked(l->m[i], NULL);
    l->n = 0;
}

static int list_add(frame_list *l, rp_msg *m, uint64_t tid, uint64_t seq)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        rp_msg **mv = realloc(l->m, cap * sizeof *mv);
        if (mv)
            l->m = mv;
        uint64_t *tv = realloc(l->tid, cap * sizeof *tv);
        if (tv)
            l->tid = tv;
        uint64_t *sv = realloc(l->seq, cap * sizeof *sv);
        if (sv)
            l->seq = sv;
        if (!mv || !tv || !sv)
            return -1;
        l->cap = cap;
    }
    l->m[l->n] = m, l->tid[l->n] = tid, l->seq[l->n] = seq;
    l->n++;
    return 0;
}

static void list_free(frame_list *l)
{
    list_clear(l);
    free(l->m);
    free(l->tid);
    free(l->seq);
}

/* Where --loop runs: before the app starts tearing down (`class teardown`,
 * or making no context current), so the frame finds its state. */
static int teardown(rp *r, const rp_msg *m)
{
    const rp_entry *e = m->function >= 0 ? entry_of(r, m) : NULL;
    if (!e || e->how != RP_EGL)
        return 0;
    if (e->cls == GT_CLASS_CURRENT)
        return rp_arg_u(m, 3) == 0; /* eglMakeCurrent's context */
    return e->cls == GT_CLASS_TEARDOWN;
}

/* A trimmed trace's start marker (gltrace trim, replay/TRIM.md): --loop
 * repeats every record after it, the kept frames, rather than the last
 * frame alone. */
static int trim_start(const rp_msg *m)
{
    if (m->function != GT_FN_METADATA || !m->metadata)
        return 0;
    for (size_t i = 0; i < m->metadata->n_options; i++) {
        const Gltrace__TraceMetadata__Option *o = m->metadata->options[i];
        if (o && o->key && o->value && !strcmp(o->key, "trim") && !strncmp(o->value, "start:", 6))
            return 1;
    }
    return 0;
}

static void run_loop(rp *r, const frame_list *last)
{
    r->looping = 1;
    for (unsigned k = 0; k < r->opt->loop && !r->sum->error[0]; k++) {
        for (size_t i = 0; i < last->n && !r->sum->error[0]; i++) {
            r->seq = last->seq[i];
            r->cur = last->m[i];
            replay_record(r, last->m[i], last->tid[i]);
        }
    }
    r->looping = 0;
}

/* ---- --loop of a trim, reset by calls written back (rp_reset.c) */

static void reset_cannot(rp *r, const char *why)
{
    rp_reset_cannot(r->reset, why);
}

/* At the start marker: the state there, read for writing back, and
 * dumped (gt_inspect_write) for the check of the first reset. */
static void take_reset(rp *r, uint64_t tid, char *dir, size_t n)
{
    char err[256];
    r->reset = rp_reset_take(r, tid);
    if (!r->reset || rp_reset_why_not(r->reset)[0])
        return;
    if (rp_trim_state_dir(dir, n, "loop") != 0) {
        dir[0] = 0;
        reset_cannot(r, "no temporary folder for the state at the start");
    } else if (rp_trim_state_dump(r, tid, dir, err, sizeof err) != 0) {
        reset_cannot(r, err);
    }
}

/* Whether the state after the first reset is the start's, as gltrace
 * inspect reads it (the context's state, its bound objects and their
 * contents, the program in use and its uniforms). */
static int reset_checked(rp *r, uint64_t tid, const char *start_dir)
{
    char dir[4096], err[256], first[512] = "", why[700];
    if (rp_trim_state_dir(dir, sizeof dir, "loop") != 0) {
        reset_cannot(r, "no temporary folder for the check of the state written back");
        return 0;
    }
    int dumped = rp_trim_state_dump(r, tid, dir, err, sizeof err) == 0;
    int diffs = dumped ? rp_trim_state_compare(start_dir, dir, first, sizeof first) : -1;
    rp_trim_state_remove(dir);
    if (diffs != 0) {
        snprintf(why, sizeof why, "after the calls written back, the state is not the start's (%s)",
                 dumped ? first : err);
        reset_cannot(r, why);
    }
    return diffs == 0;
}

/* Each repeat writes back what the kept calls changed, then replays them,
 * compared as a repeat. The first is checked (reset_checked, and unless
 * --benchmark its snapshots and reads); when it fails it does not count,
 * and every repeat rebuilds (gt_replay_run). */
static void run_written(rp *r, const frame_list *kept, const char *start_dir)
{
    gt_replay_summary *sum = r->sum;
    if (!start_dir[0])
        reset_cannot(r, "the state at the start was not dumped for the check");
    if (!kept->n)
        reset_cannot(r, "the trim keeps no calls");
    r->looping = r->repeat = 1;
    for (unsigned k = 0; k < r->opt->loop && !sum->error[0] && !rp_reset_why_not(r->reset)[0]; k++) {
        uint64_t compared = sum->loop_compared, matched = sum->loop_matched, frames = sum->frames;
        size_t nframe_ms = sum->nframe_ms;
        if (rp_reset_write(r->reset, r) != 0 || (k == 0 && !reset_checked(r, kept->tid[0], start_dir)))
            break;
        uint64_t calls = rp_reset_calls(r->reset);
        for (size_t i = 0; i < kept->n && !sum->error[0]; i++) {
            r->seq = kept->seq[i];
            r->cur = kept->m[i];
            replay_record(r, kept->m[i], kept->tid[i]);
        }
        if (k == 0 && sum->loop_matched - matched != sum->loop_compared - compared) {
            sum->loop_compared = compared, sum->loop_matched = matched;
            sum->frames = frames, sum->nframe_ms = nframe_ms;
            reset_cannot(r, "its first repeat from the calls written back differed from what was recorded");
            break;
        }
        sum->loop_written++;
        sum->loop_reset_calls += calls;
    }
    r->looping = r->repeat = 0;
}

static void progress(rp *r, int done)
{
    if (!r->opt->progress)
        return;
    if (done) {
        if (r->last_progress > 0)
            fputs("\r\033[K", stderr);
        return;
    }
    if (r->seq & 1023)
        return; /* the clock is read once per 1024 records */
    double t = now();
    if (t - r->last_progress < 0.25)
        return;
    r->last_progress = t;
    fprintf(stderr, "\rgltrace replay: frame %llu, call %llu, %llu snapshots differ\033[K",
            (unsigned long long)r->frame, (unsigned long long)r->seq, (unsigned long long)r->sum->differing);
}

/* One replay of the trace. repeat: a repeat of a trimmed trace for --loop
 * (gt_replay_run): its kept records, after the start marker, are compared
 * as repeats (gt_replay_summary.loop_*). */
static int replay_pass(const char *path, const gt_replay_options *opt, gt_replay_summary *sum, int repeat)
{
    memset(sum, 0, sizeof *sum);
    sum->loop = opt->loop;
    frame_list cur = {0}, last = {0};
    double start = now();
    rp *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(sum->error, sizeof sum->error, "out of memory");
        return 2;
    }
    r->opt = opt;
    r->sum = sum;
    r->path = path;
    r->cur_ctx = -1;
    r->repeat = repeat;
    int status = 2;
    char err[GT_ERRLEN];
    gt_reader *rd = NULL;
    if (opt->out_dir && mkdir(opt->out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(sum->error, sizeof sum->error, "cannot make %s: %s", opt->out_dir, strerror(errno));
        goto out;
    }
    rd = gt_reader_open(path, err, sizeof err);
    if (!rd) {
        snprintf(sum->error, sizeof sum->error, "%s", err);
        goto out;
    }
    if (!opt->loop) /* --loop keeps protobuf-c's copies: nothing to decode early */
        gt_reader_set_scanner(rd, rp_scan_record, r);
    r->after_call = opt->snapshot != GT_REPLAY_SNAP_NONE || opt->probe;
    pthread_once(&plain_once, plain_params_build); /* left NULL without memory: every call is checked */
    if (setup(r) != 0 || rp_egl_open(r) != 0 || (opt->probe && rp_probe_open(r) != 0)) {
        if (!sum->error[0])
            snprintf(sum->error, sizeof sum->error, "out of memory");
        goto out;
    }
    gt_record rec;
    int rc;
    r->frame_start = now();
    uint64_t stop_frame = opt->frame_last, stop_call = opt->call_last;
    int looped = 0, range = 0; /* range: past a trim's start marker (trim_start) */
    int written = 0;           /* a trim's written repeats ran (run_written) */
    char start_dir[4096] = ""; /* the state at the start, for the written reset's check */
    /* --loop: the frames of the trace, counted before replaying it (swaps
     * of every thread, as rp_frame_end counts them), so that the last frame
     * is repeated right after its swap: the app's teardown after it
     * (objects deleted, a last read) would change what the repeats draw.
     * 0 when the trace cannot be read (its replay says why); then the loop
     * runs at the teardown. */
    gt_frame_ends fe;
    uint64_t loop_after = 0;
    if (gt_frames_scan(path, gt_api_ends_frame, opt->loop && !repeat, &fe, err, sizeof err) == 0) {
        r->snap_frames = !fe.swaps; /* its snapshots end its frames (proto/gt_frames.c) */
        loop_after = opt->loop && !repeat ? fe.swaps : 0;
    }
    gt_frames_free(&fe);
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        if (rec.seq > stop_call || r->frame > stop_frame)
            break; /* past --frames / --calls: nothing after can be compared */
        /* --loop keeps the last frame's records past the chunk they are in:
         * protobuf-c's copies then. */
        rp_msg *m = NULL;
        int fast = 0;
        if (!opt->loop) {
            /* Usually the reader had it decoded when it found its seq. */
            if (rec.scan && rec.scan == r->dec_scan[0])
                m = &r->dec[0].msg, fast = 1;
            else if (rec.scan && rec.scan == r->dec_scan[1])
                m = &r->dec[1].msg, fast = 1;
            else if (!rec.scan || rec.scan != r->declined_scan) {
                int slot = r->dec_scan[1] < r->dec_scan[0]; /* not the reader's newest */
                r->dec_scan[slot] = 0;
                fast = rp_decode(&r->dec[slot], rec.data, rec.size, &m) == 1;
            }
        }
        if (!fast)
            m = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            snprintf(sum->error, sizeof sum->error, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage",
                     path, (unsigned long long)rec.seq, (unsigned long long)rec.offset);
            break;
        }
        int frame_mark = m->function == GT_FN_SNAPSHOT || m->function == GT_FN_FRAME_END;
        if (r->snap_pending && !frame_mark) {
            r->snap_pending = 0; /* the run of snapshots before ended a frame */
            rp_frame_end(r, r->snap_tid);
            if (r->frame > stop_frame) {
                if (!fast)
                    gltrace__glmessage__free_unpacked(m, NULL);
                break;
            }
        }
        if (opt->loop && !looped && last.n && teardown(r, m)) {
            run_loop(r, &last);
            looped = 1;
        }
        r->seq = rec.seq;
        r->cur = m;
        uint64_t tid = m->has_thread_id ? m->thread_id : rec.thread_id, frame = r->frame;
        if (range && r->reset && !written && !rp_reset_why_not(r->reset)[0])
            rp_reset_before(r->reset, r, m, tid, m->function >= 0 ? entry_of(r, m) : NULL, rec.seq);
        replay_record(r, m, tid);
        if (m->function == GT_FN_METADATA && !r->opt->benchmark && trim_start(m) && rp_make_current_for(r, tid) == 0)
            glFlush(); /* the original swapped (flushed: rp_egl_swap) before the kept frames, where the setup ends */
        if (r->snap_frames && frame_mark)
            r->snap_pending = 1, r->snap_tid = tid;
        int stop = opt->after_call && opt->after_call(opt->after_call_user, r, tid);
        if (opt->progress)
            progress(r, 0);
        if (opt->loop && !range && trim_start(m)) {
            /* A trim loops from a reset: written back (run_written), or
             * its setup replayed again (gt_replay_run). The kept records
             * are kept for the first. */
            range = sum->loop_range = looped = 1;
            r->looping = repeat; /* a repeat compares what follows as one */
            list_clear(&cur);
            list_clear(&last);
            if (!repeat && !opt->loop_rebuild)
                take_reset(r, tid, start_dir, sizeof start_dir); /* its dump names the marker (r->cur) */
            gltrace__glmessage__free_unpacked(m, NULL);
            r->cur = NULL;
        } else if (range) {
            if (r->reset && !written && !rp_reset_why_not(r->reset)[0]) {
                rp_reset_note(r->reset, r, m, tid, m->function >= 0 ? entry_of(r, m) : NULL, rec.seq);
                if (list_add(&cur, m, tid, rec.seq) != 0) {
                    reset_cannot(r, "out of memory");
                    gltrace__glmessage__free_unpacked(m, NULL);
                }
                /* The trace's last frame ended: its repeats run now, before
                 * the app tears down (deletes, destroys its context), as the
                 * last frame's loop does; what follows is replayed once. */
                if (r->frame != frame && r->frame == loop_after && !sum->error[0]) {
                    run_written(r, &cur, start_dir);
                    written = 1;
                }
            } else if (!fast) {
                gltrace__glmessage__free_unpacked(m, NULL);
            }
        } else if (opt->loop && list_add(&cur, m, tid, rec.seq) == 0) {
            if (r->frame != frame) { /* a swap: cur is the last complete frame now */
                frame_list t = last;
                list_clear(&t);
                last = cur, cur = t;
            }
            if (r->frame != frame && !looped && r->frame == loop_after) {
                run_loop(r, &last);
                looped = 1;
            }
        } else if (!fast) {
            gltrace__glmessage__free_unpacked(m, NULL);
        }
        if (sum->error[0] || stop)
            break;
    }
    if (rc < 0 && !sum->error[0])
        snprintf(sum->error, sizeof sum->error, "%s", gt_reader_error(rd));
    if (r->snap_pending && !sum->error[0])
        rp_frame_end(r, r->snap_tid); /* the trace ends with its last frame's snapshots */
    /* --loop: the last complete frame again, N times, if the app did not
     * tear down first (compared again unless --benchmark: rp_snapshot_loop). */
    if (opt->loop && !looped && last.n && !sum->error[0])
        run_loop(r, &last);
    if (r->reset && !written && !sum->error[0])
        run_written(r, &cur, start_dir);
    if (r->reset && rp_reset_why_not(r->reset)[0])
        snprintf(sum->loop_rebuilt_why, sizeof sum->loop_rebuilt_why, "%s", rp_reset_why_not(r->reset));
    else if (range && opt->loop_rebuild && !repeat)
        snprintf(sum->loop_rebuilt_why, sizeof sum->loop_rebuilt_why, "--loop-rebuild");
    if (start_dir[0])
        rp_trim_state_remove(start_dir);
    r->made_since = NULL;
    rp_reset_free(r->reset);
    r->reset = NULL;
    progress(r, 1);
    if (opt->benchmark && r->bound_ctx >= 0)
        glFinish(); /* the last frames' rendering, still queued */
    sum->seconds = now() - start;
    if (!sum->error[0])
        status = sum->differing || sum->reads_differing || sum->unreadable || sum->check_mismatches ||
                         sum->loop_matched != sum->loop_compared
                     ? 1
                     : 0;
out:
    if (rd)
        gt_reader_close(rd);
    rp_probe_close(r);
    rp_egl_close(r);
    scratch_reset(r);
    free(r->scratch);
    rp_client_free(r);
    rp_map_free(&r->names);
    rp_map_free(&r->handles);
    rp_map_free(&r->surfaces);
    rp_map_free(&r->bound_api);
    rp_map_free(&r->surface_cfgs);
    rp_initial_free(r);
    rp_decoder_free(&r->dec[0]);
    rp_decoder_free(&r->dec[1]);
    rp_map_free(&r->locations);
    rp_map_free(&r->attribs);
    rp_map_free(&r->uncovered);
    rp_map_free(&r->maps);
    rp_map_free(&r->tex_targets);
    rp_snapshot_free(r);
    list_free(&cur);
    list_free(&last);
    free(r->fn);
    free(r->fn_tried);
    free(r->by_number);
    free(r);
    return status;
}

/* Appends a repeat's per-frame times (--benchmark) to the run's. */
static void add_frame_ms(gt_replay_summary *sum, const gt_replay_summary *rs)
{
    for (size_t i = 0; i < rs->nframe_ms; i++) {
        if (sum->nframe_ms == sum->frame_ms_cap) {
            size_t cap = sum->frame_ms_cap ? sum->frame_ms_cap * 2 : 256;
            double *v = realloc(sum->frame_ms, cap * sizeof *v);
            if (!v)
                return;
            sum->frame_ms = v, sum->frame_ms_cap = cap;
        }
        sum->frame_ms[sum->nframe_ms++] = rs->frame_ms[i];
    }
}

/* --loop of a trimmed trace: each repeat starts from a reset of everything
 * the kept frames may have changed (state, object contents, pixels), made
 * as the first replay made it: the whole trace again, its setup into new
 * contexts and surfaces, then the kept records compared as a repeat. */
int gt_replay_run(const char *path, const gt_replay_options *opt, gt_replay_summary *sum)
{
    int status = replay_pass(path, opt, sum, 0);
    if (status == 2 || !opt->loop || !sum->loop_range || sum->loop_written == opt->loop)
        return status == 1 || sum->loop_matched != sum->loop_compared ? 1 : status;
    gt_replay_options ro = *opt;
    ro.quiet = 1; /* the first replay said it all */
    ro.progress = 0;
    ro.snapshot = GT_REPLAY_SNAP_NONE;
    ro.after_call = NULL;
    ro.check = 0;
    for (unsigned k = sum->loop_written; k < opt->loop; k++) {
        gt_replay_summary rs;
        replay_pass(path, &ro, &rs, 1);
        sum->loop_compared += rs.loop_compared;
        sum->loop_matched += rs.loop_matched;
        sum->seconds += rs.seconds;
        add_frame_ms(sum, &rs);
        if (rs.error[0])
            snprintf(sum->error, sizeof sum->error, "--loop, repeat %u: %.480s", k + 1, rs.error);
        gt_replay_summary_free(&rs);
        if (sum->error[0])
            return 2;
    }
    return status == 1 || sum->loop_matched != sum->loop_compared ? 1 : 0;
}
