/* rp_trim.c: gltrace trim (gt_trim.h): plan, write, and check the result by
 * replaying it; a result that differs is made again keeping the setup's
 * draws into window surfaces (the one thing the plan leaves out that a
 * frame can read: what an earlier frame drew, when the app does not clear). */
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
    sum->window_draws_kept = opt->keep_window_draws;
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
    if (rc == 1 && !opt->keep_window_draws && sum->dropped_window_draws) {
        gt_trim_options again = *opt;
        again.keep_window_draws = 1;
        uint64_t dropped = sum->dropped_window_draws;
        memset(sum, 0, sizeof *sum);
        if (make(in, out, &again, sum) != 0)
            return 2;
        snprintf(sum->note, sizeof sum->note,
                 "without the %llu draws into window surfaces before the start the trim did not replay "
                 "exactly (its first frame reads what an earlier one drew): they are kept",
                 (unsigned long long)dropped);
        rc = check(out, sum);
    }
    return rc;
}
