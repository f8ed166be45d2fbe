/* gt_replay.h: replays a trace headless (EGL surfaceless, llvmpipe) and
 * compares every recorded framebuffer snapshot with what replay drew.
 *
 * Error style: gt_replay_run returns 0 when every compared snapshot matched,
 * 1 when some differ or could not be read back (or, with --check, a query
 * gave another result), 2 when the trace or the options are unusable (a
 * message naming the file and record is then in summary->error); the
 * summary holds the counts and per-snapshot verdicts in every case, so a
 * damaged trace still reports what was compared before the damage. */
#ifndef GT_REPLAY_H
#define GT_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gt_diff_options;
struct rp;
struct gt_replay_probe;

typedef struct gt_replay_options {
    const char *out_dir;   /* PNGs of differing snapshots (expected, actual, diff); NULL: none */
    int save_all;          /* PNGs of every snapshot */
    int quiet;             /* no warnings on stderr */
    /* Tolerant comparison of RGBA8 snapshots (gt_diff.h); NULL: exact.
     * Float, integer, depth and stencil snapshots are always compared exactly. */
    const struct gt_diff_options *compare;
    /* Snapshots compared only inside these inclusive ranges of frames and
     * call numbers (the calls before are still replayed, to build the state);
     * the replay stops after the last. Defaults 0..UINT64_MAX: set both. */
    uint64_t frame_first, frame_last, call_first, call_last;
    int benchmark;         /* no snapshot is read or compared; per-frame times kept */
    unsigned loop;         /* replay the last frame this many more times (a trimmed trace: its kept
                            * frames, all of them); without benchmark their snapshots are compared
                            * again each time (gt_replay_summary.loop_*) */
    int loop_rebuild;      /* a trimmed trace's repeats reset by its setup replayed again, never by
                            * the state they changed written back (replay/rp_reset.c) */
    int progress;          /* a progress line on stderr, redrawn in place */
    /* Snapshots the trace did not record, written as PNGs to out_dir (not
     * compared): of the back buffer before each swap (FRAME), of the draw
     * framebuffer after each draw or compute call (DRAW), or after each call
     * whose number lies in one of the nsnap_calls inclusive ranges
     * snap_calls[2k]..snap_calls[2k+1] (CALLS). */
    enum { GT_REPLAY_SNAP_NONE, GT_REPLAY_SNAP_FRAME, GT_REPLAY_SNAP_DRAW, GT_REPLAY_SNAP_CALLS } snapshot;
    const uint64_t *snap_calls;
    size_t nsnap_calls;
    /* Issue the queries the trace recorded (glGet*, glIs*, glGetError,
     * glCheckFramebufferStatus; not those api/annotations.txt marks `check
     * no`) and compare their results with the recorded ones. Values are
     * compared as the drivers returned them: object names, locations,
     * strings and limits of another driver differ by nature. */
    int check;
    /* Called after each record is replayed, with the replay's state (for
     * gt_inspect_write, gt_inspect.h) and the record's thread; a nonzero
     * return stops the replay there. NULL: none. */
    int (*after_call)(void *user, struct rp *r, uint64_t tid);
    void *after_call_user;
    /* gltrace diverge's lockstep events (gt_diverge.h); NULL: none. */
    const struct gt_replay_probe *probe;
} gt_replay_options;

/* Sets the defaults: everything off, all frames and calls. */
void gt_replay_options_init(gt_replay_options *o);

/* NOT_COMPARED: left out on purpose (outside --frames/--calls);
 * UNREADABLE: wanted, but replay could not read it back (why: message). */
typedef enum gt_replay_verdict {
    GT_REPLAY_MATCHED, GT_REPLAY_DIFFERS, GT_REPLAY_NOT_COMPARED, GT_REPLAY_UNREADABLE
} gt_replay_verdict;

/* One recorded snapshot and what replay made of it. */
typedef struct gt_replay_snapshot {
    uint64_t seq, frame;   /* the snapshot record's call number, and its frame */
    char what[64];         /* "surface-color", "fbo3-color1", "texture5-level0-layer2", ... */
    uint32_t width, height;
    gt_replay_verdict status;
    int identical;         /* byte for byte */
    int has_metrics;       /* RGBA8 differing: the diff library's metrics below */
    uint64_t diff_pixels;  /* RGBA8: differing pixels; other formats: differing bytes */
    double diff_percent, rmse, psnr;
    unsigned max_channel_diff;
    char message[96];      /* why not compared */
    char expected_png[160], actual_png[160], diff_png[160]; /* in out_dir; "" when not written */
    /* gt_diff_image_hash of the replayed pixels as read back (RGBA8: the
     * image; other formats: their bytes), so that a corpus runner can hold
     * a checksum per snapshot instead of a picture; valid when has_hash. */
    uint64_t hash;
    int has_hash;
} gt_replay_snapshot;

/* A query whose replayed result differs from the recorded one. */
typedef struct gt_replay_mismatch {
    uint64_t seq, frame;
    char function[48];
    char what[32];         /* "return value" or the output parameter's name */
    char recorded[80], replayed[80]; /* the values, shortened */
} gt_replay_mismatch;
#define GT_REPLAY_MAX_MISMATCHES 16

typedef struct gt_replay_summary {
    uint64_t calls;        /* records replayed (GL and EGL calls) */
    uint64_t skipped;      /* queries not re-issued, and calls replay cannot make */
    uint64_t frames;
    uint64_t snapshots, matched, differing, not_compared;
    /* The app's own pixel reads (glReadPixels into memory): the bytes it
     * got, recorded, against replay's read; counted apart from the
     * snapshot records (a differing read makes the status 1 as well, and
     * is the first difference when it comes first). */
    uint64_t reads, reads_matched, reads_differing, reads_not_compared;
    /* Of not_compared: those inside --frames/--calls that replay could not
     * read (GT_REPLAY_UNREADABLE: no context current, a format it cannot
     * read back): a failure like a difference, since nothing shows they
     * match. */
    uint64_t unreadable;
    /* --loop without --benchmark: the snapshots and pixel reads of the
     * repeated frame, each repeat compared (by hash) with the recorded
     * ones; a difference makes the status 1. */
    uint64_t loop_compared, loop_matched;
    unsigned loop;         /* the repeats --loop asked for (0: no --loop) */
    int loop_range;        /* what repeated was a trimmed trace's kept records, not the last frame */
    /* A trim's repeats: those reset by calls written back (the state the
     * kept calls changed, replay/rp_reset.c) and the calls written for
     * them; the others rebuilt (its setup replayed again), and why. */
    unsigned loop_written;
    uint64_t loop_reset_calls;
    char loop_rebuilt_why[256];
    uint64_t extra_pngs;   /* --snapshot: PNGs written */
    uint64_t checked, check_mismatches;  /* --check: queries issued, and differing */
    gt_replay_mismatch mismatches[GT_REPLAY_MAX_MISMATCHES]; /* the first ones */
    size_t nmismatches;
    uint64_t first_diff_seq, first_diff_frame; /* valid when differing > 0 */
    gt_replay_snapshot *snaps;   /* every snapshot record, in order */
    size_t nsnaps, snaps_cap;
    double *frame_ms;      /* benchmark: wall time of each frame replayed */
    size_t nframe_ms, frame_ms_cap;
    double seconds;        /* wall time of the whole replay */
    char foreign_api[16];  /* desktop GL: "GLX" (capture left its calls out), "EGL" (recorded, not replayed), or "" */
    char error[512];       /* why the replay stopped early, or "" */
} gt_replay_summary;

/* Replays the trace at `path`. See the top of this file for the result.
 * The summary owns memory: release it with gt_replay_summary_free. */
int gt_replay_run(const char *path, const gt_replay_options *opt, gt_replay_summary *summary);

void gt_replay_summary_free(gt_replay_summary *summary);

/* ---- reports ------------------------------------------------------------ */

typedef enum gt_replay_report_format {
    GT_REPLAY_REPORT_JSON,  /* one object: counts, check results, a result per snapshot */
    GT_REPLAY_REPORT_JUNIT, /* JUnit XML: a test case per snapshot, one for --check,
                             * one for an error that stopped the replay */
} gt_replay_report_format;

/* Writes the report of the replay of `trace` that ended with exit status
 * `rc` (0, 1 or 2, as gt_replay_run returns or the caller decided after
 * it) to f. Returns 0, or -1 when f reports a write error. */
int gt_replay_report_write(FILE *f, gt_replay_report_format format, const char *trace, int rc,
                           const gt_replay_summary *s);

/* Same, into the file `path` ("-": standard output, flushed). 0, or -1
 * with "cannot write PATH: why" in err. */
int gt_replay_report_save(const char *path, gt_replay_report_format format, const char *trace, int rc,
                          const gt_replay_summary *s, char *err, size_t errlen);

/* Frame times of a benchmark replay (summary->frame_ms), in milliseconds. */
typedef struct gt_replay_frame_stats {
    size_t frames;
    double total_ms, fps;
    double median_ms, p95_ms, min_ms, max_ms;
} gt_replay_frame_stats;

/* 0; -1 when no frame ended (no swap was replayed); -2 out of memory. */
int gt_replay_frame_stats_get(const gt_replay_summary *s, gt_replay_frame_stats *st);

#ifdef __cplusplus
}
#endif
#endif
