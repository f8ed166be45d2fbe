/* rp_trim.c: gltrace trim (gt_trim.h): plan, write, and check the result by
 * replaying it. A result that differs is made again keeping first the
 * setup frames the next one repeats (state that accumulates), then also
 * the share groups destroyed before the start, then the setup's draws into
 * window surfaces (what an earlier frame drew, read
 * by an app that does not clear): the plain copy of every state-changing
 * call is the last resort, and replays as the original does. */
#include "rp_trim_internal.h"

#include <stdio.h>
#include <string.h>

#include "gt_replay.h"

void gt_trim_options_init(gt_trim_options *o)
{
    memset(o, 0, sizeof *o);
    o->verify = 1;
    o->level = 3; /* as gltrace record compacts */
}

static int make(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *sum)
{
    rp_trim_plan plan;
    if (rp_trim_plan_make(in, opt, &plan, sum) != 0)
        return -1;
    sum->dropped_window_draws = plan.dropped_draws;
    sum->dropped_queries = plan.dropped_other;
    sum->dropped_frames = plan.dropped_frames;
    sum->dropped_repeated = plan.dropped_repeated;
    sum->gone_contexts = plan.gone_contexts;
    sum->dropped_gone = plan.dropped_gone;
    sum->window_draws_kept = opt->keep_window_draws;
    sum->repeated_frames_kept = opt->keep_repeated_frames;
    int rc = rp_trim_write(in, out, opt, &plan, sum);
    rp_trim_plan_free(&plan);
    return rc;
}

/* Replays the trim: 0 when every snapshot and pixel read matched, 1 not. */
static int check(const char *out, gt_trim_summary *sum)
{
    gt_replay_options ro;
    gt_replay_options_init(&ro);
    ro.quiet = 1;
    gt_replay_summary rs;
    int rc = gt_replay_run(out, &ro, &rs);
    sum->verified = 1;
    sum->snapshots = rs.snapshots + rs.reads;
    sum->matched = rs.matched + rs.reads_matched;
    if (rc == 2)
        snprintf(sum->error, sizeof sum->error, "%.200s: its replay stopped: %.280s", out, rs.error);
    gt_replay_summary_free(&rs);
    return rc;
}

int gt_trim_run(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (opt->by_calls ? opt->call_first > opt->call_last : opt->frame_first > opt->frame_last) {
        snprintf(sum->error, sizeof sum->error, "the range to keep is empty (its first is past its last)");
        return 2;
    }
    if (make(in, out, opt, sum) != 0)
        return 2;
    if (!opt->verify)
        return 0;
    int rc = check(out, sum);
    gt_trim_options again = *opt;
    for (int step = 0; rc == 1 && step < 3; step++) {
        const char *what;
        uint64_t n;
        if (!again.keep_repeated_frames && sum->dropped_frames) {
            again.keep_repeated_frames = 1;
            what = "setup frames the next one repeats";
            n = sum->dropped_frames;
        } else if (!again.keep_gone_contexts && sum->gone_contexts) {
            again.keep_gone_contexts = again.keep_repeated_frames = 1;
            what = "contexts destroyed before the start";
            n = sum->gone_contexts;
        } else if (!again.keep_window_draws && sum->dropped_window_draws) {
            again.keep_window_draws = again.keep_gone_contexts = again.keep_repeated_frames = 1;
            what = "draws into window surfaces before the start";
            n = sum->dropped_window_draws;
        } else {
            break;
        }
        memset(sum, 0, sizeof *sum);
        if (make(in, out, &again, sum) != 0)
            return 2;
        snprintf(sum->note, sizeof sum->note,
                 "without the %llu %s the trim did not replay exactly: they are kept", (unsigned long long)n, what);
        rc = check(out, sum);
    }
    return rc;
}
