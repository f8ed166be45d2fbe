/* gt_diverge.h: the first call where two replays of a trace disagree (two
 * drivers, two builds of one, or a trace and an altered copy), or where a
 * replay leaves the trace's own recorded snapshots.
 *
 * Each side is a replay in a process of its own (a gltrace binary run with
 * the side's environment, so that LD_LIBRARY_PATH and the driver choice
 * apply from its start), reporting events in lockstep to this parent over
 * two pipes: a hash of the back buffer at each frame's end and, for the
 * frames asked for, of the draw framebuffer after each draw. The parent
 * compares the hashes; where they differ it fetches both pictures and
 * compares them with the diff library's tolerant options, stepping over
 * differences within tolerance. A first pass compares frame ends only; a
 * second replays up to the first differing frame and compares its draws.
 *
 * Error style: gt_diverge_run returns 0 (no divergence), 1 (one found: the
 * result says where) or 2 (an unusable trace, argument or side: a message
 * naming it in result->error). */
#ifndef GT_DIVERGE_H
#define GT_DIVERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gt_diff_options;

/* ---- the replay's side (gt_replay_options.probe) ------------------------ */

/* A replay reporting to a diverge parent. After each event line written to
 * out_fd it reads commands from in_fd until "c" (see rp_diverge_probe.c for
 * the lines); end of input ends the process at once. */
typedef struct gt_replay_probe {
    int out_fd, in_fd;
    uint64_t draw_first, draw_last; /* frames whose draws are reported; first > last: none */
    int recorded;          /* recorded snapshots reported, frame ends not */
} gt_replay_probe;

/* ---- the parent ---------------------------------------------------------- */

typedef struct gt_diverge_options {
    const char *exe;       /* a gltrace binary to run each side ("/proc/self/exe") */
    const char *trace_a;
    const char *trace_b;   /* NULL: trace_a */
    /* NULL-terminated "NAME=VALUE" lists set in each side's environment
     * (over the inherited one); NULL: none. */
    const char *const *env_a, *const *env_b;
    const char *label_a, *label_b; /* how the report names the sides; NULL: from the lists */
    int b_recorded;        /* side B is the trace's recorded snapshots (env_b, trace_b unused) */
    const struct gt_diff_options *compare; /* NULL: exact */
    const char *out_dir;   /* the pictures and state dumps of the divergence; NULL: none */
    int quiet;             /* the sides' warnings left out */
} gt_diverge_options;

void gt_diverge_options_init(gt_diverge_options *o);

/* One side of the divergence. */
typedef struct gt_diverge_side {
    uint64_t hash;         /* gt_diff_image_hash of its picture */
    uint32_t width, height;
    char png[4096];        /* in out_dir, "" when none was written */
    char state_dir[4096];  /* its state dump at the call (gltrace inspect), "" when none */
} gt_diverge_side;

typedef struct gt_diverge_result {
    int found;
    uint64_t call, frame;  /* the first diverging call and its frame */
    char function[64];
    char kind[16];         /* "draw", "frame end" or "snapshot" */
    char what[64];         /* --b recorded: the snapshot ("surface-color", ...) */
    uint64_t snapshot_seq; /* --b recorded: the snapshot record's number */
    char note[256];        /* anything the person must know about the finding */
    gt_diverge_side a, b;
    char diff_png[4096];
    int has_metrics;       /* the two pictures were compared: */
    uint64_t diff_pixels;
    double diff_percent, rmse, psnr;
    unsigned max_channel_diff;
    char state_note[256];  /* why there is no state dump, or "" */
    int state_paused;      /* dumped by the sides themselves at the call */
    /* What was compared, over both passes. */
    uint64_t frames, draws, snapshots;
    uint64_t tolerated;    /* hashes that differed within tolerance */
    int passes;
    double pass_seconds[2], seconds;
    char error[512];
} gt_diverge_result;

/* Runs the comparison; see the top of this file. */
int gt_diverge_run(const gt_diverge_options *o, gt_diverge_result *res);

/* The result for a person (text) or a program (one JSON object), with
 * the exit status `rc`. 0, or -1 when f reports a write error. */
int gt_diverge_report_text(FILE *f, const gt_diverge_options *o, const gt_diverge_result *res);
int gt_diverge_report_json(FILE *f, const gt_diverge_options *o, const gt_diverge_result *res, int rc);

#ifdef __cplusplus
}
#endif
#endif
