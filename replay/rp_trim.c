/* rp_trim.c: gltrace trim (gt_trim.h): plan, write, and check the result by
 * replaying it. A result that differs is made again writing first the
 * pixels of the windows whose setup draws were left out (an app that
 * redraws only what changed), then keeping the
 * setup frames a later one repeats (state that accumulates), then also
 * the objects deleted before the start, then the share groups destroyed
 * before the start, then the setup's draws into
 * window surfaces (what an earlier frame drew, read
 * by an app that does not clear): the plain copy of every state-changing
 * call is the last resort, and replays as the original does. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_api.h"
#include "gt_replay.h"
#include "gt_trace.h"

/* The two dumps of the state at the start (rp_trim_state.c). */
typedef struct dumps {
    char orig[256], trim[256];
    int made;
    uint64_t tid;          /* the thread whose context is dumped */
    int orig_done, trim_done;
    char err[160];
} dumps;

void gt_trim_options_init(gt_trim_options *o)
{
    memset(o, 0, sizeof *o);
    o->verify = 1;
    o->level = 3; /* as gltrace record compacts */
}

static int make(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *sum, dumps *d)
{
    rp_trim_plan plan;
    plan.state_dir = d->made ? d->orig : NULL;
    if (rp_trim_plan_make(in, opt, &plan, sum) != 0)
        return -1;
    d->orig_done = plan.state_dumped;
    d->tid = plan.last_tid;
    snprintf(d->err, sizeof d->err, "%s", plan.state_err);
    sum->dropped_window_draws = plan.dropped_draws;
    sum->dropped_queries = plan.dropped_other;
    sum->dropped_frames = plan.dropped_frames;
    sum->dropped_repeated = plan.dropped_repeated;
    sum->gone_contexts = plan.gone_contexts;
    sum->dropped_gone = plan.dropped_gone;
    sum->dead_objects = plan.dead_objects;
    sum->dropped_dead = plan.dropped_dead;
    sum->untouched_objects = plan.untouched_objects;
    sum->dropped_untouched = plan.dropped_untouched;
    sum->syncs = plan.syncs;
    sum->dropped_syncs = plan.dropped_syncs;
    sum->superseded_objects = plan.superseded_objects;
    sum->dropped_superseded = plan.dropped_superseded;
    sum->dropped_sets = plan.dropped_sets;
    sum->dropped_asked = plan.dropped_asked;
    sum->dropped_switches = plan.dropped_switches;
    sum->dropped_texture_draws = plan.dropped_texture_draws;
    sum->dropped_texture_uploads = plan.dropped_texture_uploads;
    sum->dropped_ends = plan.dropped_ends;
    sum->dead_framebuffers = plan.dead_framebuffers;
    sum->dead_vertex_arrays = plan.dead_vertex_arrays;
    sum->dropped_holder_calls = plan.dropped_holder_calls;
    sum->window_draws_kept = opt->keep_window_draws;
    sum->repeated_frames_kept = opt->keep_repeated_frames;
    int rc = rp_trim_write(in, out, opt, &plan, sum);
    rp_trim_plan_free(&plan);
    return rc;
}

typedef struct checking {
    dumps *d;
    uint64_t marker;
} checking;

/* The trim's state is dumped after its setup: at the start marker. */
static int after_call(void *user, struct rp *r, uint64_t tid)
{
    checking *c = user;
    (void)tid;
    if (r->seq == c->marker && c->d->orig_done)
        c->d->trim_done = rp_trim_state_dump(r, c->d->tid, c->d->trim, c->d->err, sizeof c->d->err) == 0;
    return 0;
}

/* The state dumps compared: 0 the same, 1 not (sum says how). */
static int compare_state(dumps *d, gt_trim_summary *sum)
{
    if (!d->orig_done || !d->trim_done) {
        snprintf(sum->state_not_compared, sizeof sum->state_not_compared, "%s",
                 !d->made ? "no temporary folder for the dumps" : d->err[0] ? d->err : "the trim has no setup");
        return 0;
    }
    int n = rp_trim_state_compare(d->orig, d->trim, sum->state_first, sizeof sum->state_first);
    if (n < 0) {
        snprintf(sum->state_not_compared, sizeof sum->state_not_compared, "%s", sum->state_first);
        sum->state_first[0] = 0;
        return 0;
    }
    sum->state_compared = 1;
    sum->state_differences = (uint64_t)n;
    return n > 0;
}

/* Replays the trim: 0 when every snapshot and pixel read matched and the
 * state at the start is the original's, 1 not. */
static int check(const char *in, const char *out, gt_trim_summary *sum, dumps *d)
{
    gt_replay_options ro;
    gt_replay_options_init(&ro);
    ro.quiet = 1;
    checking c = {.d = d, .marker = sum->start_marker};
    d->trim_done = 0;
    ro.after_call = after_call;
    ro.after_call_user = &c;
    gt_replay_summary rs;
    int rc = gt_replay_run(out, &ro, &rs);
    if (rc == 0 && compare_state(d, sum))
        rc = 1;
    sum->verified = 1;
    sum->snapshots = rs.snapshots + rs.reads;
    sum->matched = rs.matched + rs.reads_matched;
    if (rc == 2)
        snprintf(sum->error, sizeof sum->error,
                 "%.120s: its replay stopped (on a record of %.120s, copied as it is, or of the setup): %.180s", out,
                 in, rs.error);
    gt_replay_summary_free(&rs);
    return rc;
}

/* Makes the trim with `opt`, checked when asked, and with less left out
 * while the check fails. */
static int trim(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *sum, dumps *d)
{
    if (make(in, out, opt, sum, d) != 0)
        return 2;
    if (!opt->verify)
        return 0;
    int rc = check(in, out, sum, d);
    gt_trim_options again = *opt;
    /* A replay that stopped (a record it could not take: an array reading
     * memory the setup no longer gave it) is a difference too. */
    for (int step = 0; rc != 0 && step < 7; step++) {
        const char *what, *how = "they are kept";
        uint64_t n;
        if (!again.keep_texture_draws && (sum->dropped_texture_draws || sum->dropped_texture_uploads)) {
            again.keep_texture_draws = 1; /* the newest step, and what it writes may be what differs */
            what = "draws and uploads into textures before the start, read back instead";
            n = sum->dropped_texture_draws + sum->dropped_texture_uploads;
        } else if (!again.window_contents && !again.keep_window_draws && sum->dropped_window_draws) {
            again.window_contents = 1; /* one picture per window: cheaper than any other step */
            what = "draws and clears into window surfaces before the start";
            how = "the windows' pixels at the start are written instead";
            n = sum->dropped_window_draws;
        } else if (!again.keep_state_commands && (sum->dropped_sets || sum->dropped_switches)) {
            again.keep_state_commands = 1;
            what = "state commands a later one replaced and context switches nothing needed";
            n = sum->dropped_sets + sum->dropped_switches;
        } else if (!again.keep_repeated_frames && sum->dropped_frames) {
            again.keep_repeated_frames = again.keep_state_commands = 1;
            what = "setup frames a later one repeats";
            n = sum->dropped_frames;
        } else if (!again.keep_all && (sum->dead_objects || sum->untouched_objects || sum->superseded_objects)) {
            again.keep_all = again.keep_repeated_frames = again.keep_state_commands = 1;
            what = "objects deleted before the start, untouched by the kept calls or with superseded writes";
            n = sum->dead_objects + sum->untouched_objects + sum->superseded_objects;
        } else if (!again.keep_gone_contexts && sum->gone_contexts) {
            again.keep_gone_contexts = again.keep_all = again.keep_repeated_frames = again.keep_state_commands = 1;
            what = "contexts destroyed before the start";
            n = sum->gone_contexts;
        } else if (!again.keep_window_draws && sum->dropped_window_draws) {
            again.keep_window_draws = again.keep_gone_contexts = again.keep_all = again.keep_repeated_frames = again.keep_state_commands = 1;
            what = "draws and clears into window surfaces before the start";
            n = sum->dropped_window_draws;
        } else {
            break;
        }
        memset(sum, 0, sizeof *sum);
        if (make(in, out, &again, sum, d) != 0)
            return 2;
        snprintf(sum->note, sizeof sum->note,
                 "without the %llu %s the trim did not replay exactly: %s", (unsigned long long)n, what, how);
        rp_trim_state_remove(d->trim); /* no file of the last try may pass for this one's */
        if (d->made && mkdir(d->trim, 0700) != 0)
            d->orig_done = 0;
        rc = check(in, out, sum, d);
    }
    return rc;
}

/* Whether the trim loops: its kept calls replayed once more compare with
 * the recorded ones (see gt_trim_summary.loop_compared). */
static void check_loop(const char *out, gt_trim_summary *sum)
{
    gt_replay_options ro;
    gt_replay_options_init(&ro);
    ro.quiet = 1;
    ro.loop = 1;
    gt_replay_summary rs;
    gt_replay_run(out, &ro, &rs);
    if (!rs.error[0]) {
        sum->loop_compared = rs.loop_compared, sum->loop_matched = rs.loop_matched;
        sum->loop_written = rs.loop_written != 0, sum->loop_reset_calls = rs.loop_reset_calls;
        snprintf(sum->loop_rebuilt_why, sizeof sum->loop_rebuilt_why, "%s", rs.loop_rebuilt_why);
    }
    gt_replay_summary_free(&rs);
}

/* Frames of a trace that never swaps end at its snapshots (proto/gt_frames.c):
 * they are kept as the calls they span. 0 when `frames` is that range (or
 * the trace swaps: *at_snapshots 0), 2 with sum->error filled. */
static int snapshot_frames(const char *in, const gt_trim_options *opt, gt_trim_options *calls, int *at_snapshots,
                           gt_trim_summary *sum)
{
    gt_frame_ends fe;
    *calls = *opt;
    *at_snapshots = 0;
    if (gt_frames_scan(in, gt_api_ends_frame, 0, &fe, sum->error, sizeof sum->error) != 0)
        return 2;
    int rc = 0;
    if (fe.swaps) {
        /* cut at its swaps */
    } else if (fe.n == 0) {
        snprintf(sum->error, sizeof sum->error,
                 "%s: never swaps and took no snapshot (recorded with --fb=none?), so it has no frames to cut "
                 "(a frame ends at a swap, or in a trace that never swaps, at its snapshots); cut it with --calls "
                 "FIRST-LAST, numbered as gltrace dump shows them",
                 in);
        rc = 2;
    } else if (opt->frame_first >= fe.n) {
        snprintf(sum->error, sizeof sum->error,
                 "%s: has no frame %llu (it has %zu; it never swaps, so its snapshots end its frames: taken at "
                 "glFinish and where a context is let go of); cut it with --calls FIRST-LAST, numbered as gltrace "
                 "dump shows them",
                 in, (unsigned long long)opt->frame_first, fe.n);
        rc = 2;
    } else {
        *at_snapshots = 1;
        calls->by_calls = 1;
        calls->call_first = opt->frame_first ? fe.last_seq[opt->frame_first - 1] + 1 : 0;
        calls->call_last = opt->frame_last < fe.n ? fe.last_seq[opt->frame_last] : UINT64_MAX;
        sum->frames = (opt->frame_last < fe.n ? opt->frame_last + 1 : fe.n) - opt->frame_first;
    }
    gt_frames_free(&fe);
    return rc;
}

int gt_trim_run(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (opt->by_calls ? opt->call_first > opt->call_last : opt->frame_first > opt->frame_last) {
        snprintf(sum->error, sizeof sum->error, "the range to keep is empty (its first is past its last)");
        return 2;
    }
    gt_trim_options calls;
    int at_snapshots = 0;
    if (!opt->by_calls && snapshot_frames(in, opt, &calls, &at_snapshots, sum) != 0)
        return 2;
    uint64_t frames = sum->frames;
    if (at_snapshots)
        opt = &calls;
    dumps d = {0};
    if (opt->verify && rp_trim_state_dir(d.orig, sizeof d.orig, "original") == 0) {
        if (rp_trim_state_dir(d.trim, sizeof d.trim, "trim") == 0)
            d.made = 1;
        else
            rp_trim_state_remove(d.orig);
    }
    int rc = trim(in, out, opt, sum, &d);
    if (at_snapshots) {
        sum->frames = frames; /* the writer counts swaps */
        sum->snapshot_frames = 1;
    }
    if (rc == 0 && opt->verify && (!opt->by_calls || at_snapshots) && sum->frames)
        check_loop(out, sum);
    if (d.made) {
        rp_trim_state_remove(d.orig);
        rp_trim_state_remove(d.trim);
    }
    return rc;
}
