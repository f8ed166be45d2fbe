/* gt_replay.h: replays a trace headless (EGL surfaceless, llvmpipe) and
 * compares every recorded framebuffer snapshot with what replay drew.
 *
 * Error style: gt_replay_run returns 0 when every compared snapshot matched,
 * 1 when some differ, 2 when the trace or the options are unusable (a
 * message naming the file and record is then in summary->error); the
 * summary holds the counts in every case, so a damaged trace still reports
 * what was compared before the damage. */
#ifndef GT_REPLAY_H
#define GT_REPLAY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gt_replay_options {
    const char *out_dir;   /* PNGs of differing snapshots (expected, actual); NULL: none */
    int save_all;          /* PNGs of every snapshot */
    int quiet;             /* no warnings on stderr */
} gt_replay_options;

typedef struct gt_replay_summary {
    uint64_t calls;        /* records replayed (GL and EGL calls) */
    uint64_t skipped;      /* queries not re-issued, and calls replay cannot make */
    uint64_t frames;
    uint64_t snapshots, matched, differing, not_compared;
    uint64_t first_diff_seq, first_diff_frame; /* valid when differing > 0 */
    char error[512];       /* why the replay stopped early, or "" */
} gt_replay_summary;

/* Replays the trace at `path`. See the top of this file for the result. */
int gt_replay_run(const char *path, const gt_replay_options *opt, gt_replay_summary *summary);

#ifdef __cplusplus
}
#endif
#endif
