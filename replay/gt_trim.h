/* gt_trim.h: a standalone trace of some frames (or calls) of a longer one.
 *
 * The trimmed trace is the original's records of the frames kept, copied
 * verbatim (snapshots included), behind a setup: the records before them
 * that built the state those frames start from, less what leaves no state
 * behind. Which records those are is decided by replaying the original up
 * to the start (replay/TRIM.md says what is left out and why), and the
 * result is checked by replaying it. Nothing here prints or exits.
 *
 * Error style: gt_trim_run returns 0 (written, and when checked, replaying
 * exactly), 1 (written, but its replay differs from the recording), 2
 * (nothing usable written; summary->error says why, naming the file). */
#ifndef GT_TRIM_H
#define GT_TRIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gt_trim_options {
    /* What is kept: frames frame_first..frame_last (0-based, as `gltrace
     * replay --frames` counts them), or, with by_calls, the calls
     * call_first..call_last (as `gltrace dump` numbers them). */
    uint64_t frame_first, frame_last;
    int by_calls;
    uint64_t call_first, call_last;
    /* Keep every draw of the setup, also those into a window surface,
     * whose pixels the next swap throws away (see TRIM.md): a trim whose
     * first frame reads what an earlier one drew into the window needs it.
     * Without it, a trim that fails its check is made again with it. */
    int keep_window_draws;
    /* Write the pixels the window surfaces that draws of the setup were
     * left out of have at the start (gltraceSurfaceContents records before
     * the start marker): a trim whose first frame reads what earlier
     * frames drew into the window (an app that redraws only what changed)
     * then replays without them. Without it, a trim that fails its check
     * is made again with it first. */
    int window_contents;
    /* Keep the setup's frames that the next frame repeats with other
     * floating-point values (see TRIM.md). Without it, a trim that fails
     * its check is made again with it first. */
    int keep_repeated_frames;
    /* Keep the records of share groups all of whose contexts were
     * destroyed before the start (see TRIM.md). */
    int keep_gone_contexts;
    /* Keep the uploads, parameters and sources of objects deleted before
     * the start, and of those the kept records never touch (see TRIM.md). Without it, a trim that fails its check is
     * made again with it, after the repeated frames. */
    int keep_all;
    /* Keep the setup's state commands that a later one of the same piece
     * of state replaced before anything read them (bindings, settings,
     * uniforms: api/annotations.txt `state` lines, TRIM.md step 8).
     * Without it, a trim that fails its check is made again with it,
     * after the windows' pixels. */
    int keep_state_commands;
    /* Keep the setup's draws into textures, instead of reading back at
     * the start what they drew and writing it as uploads (TRIM.md step
     * 9). Without it, a trim that fails its check is made again with it
     * first. */
    int keep_texture_draws;
    int verify;      /* replay the result and compare its snapshots (default on) */
    int level;       /* zstd level of the output (default 3, as record compacts) */
} gt_trim_options;

/* Defaults: frames 0..0, checked, level 3. */
void gt_trim_options_init(gt_trim_options *o);

typedef struct gt_trim_summary {
    uint64_t in_bytes, out_bytes;       /* file sizes */
    uint64_t in_records, out_records;
    uint64_t setup_records;             /* of out_records: the setup's */
    uint64_t dropped_window_draws;      /* setup draws into a window surface left out */
    uint64_t dropped_queries;           /* setup queries, reads, snapshots, swaps left out */
    uint64_t dropped_frames, dropped_repeated; /* setup frames the next repeats, and their records */
    uint64_t gone_contexts, dropped_gone;      /* contexts gone with their share group, their records */
    uint64_t dead_objects, dropped_dead;       /* objects deleted before the start, the records filling them */
    uint64_t untouched_objects, dropped_untouched; /* alive but untouched by the kept records, the same */
    uint64_t superseded_objects, dropped_superseded; /* alive, with writes a later whole one replaced */
    uint64_t syncs, dropped_syncs;      /* fence syncs made before the start no kept record names, their records */
    uint64_t dropped_sets;              /* state commands a later one of the same key replaced */
    uint64_t dropped_asked;             /* location queries asked again of a link, answered the same */
    uint64_t dropped_switches;          /* context switches and flushes nothing kept between them needed */
    uint64_t dropped_texture_draws;     /* draws and clears into textures left out */
    uint64_t dropped_texture_uploads;   /* uploads of regions into them left out (step 9) */
    uint64_t dropped_ends;              /* makings and deletions of objects with nothing else left */
    uint64_t dead_framebuffers, dead_vertex_arrays, dropped_holder_calls; /* made and deleted before the
                                                               start, nothing read through them: their records */
    uint64_t restored_textures, restored_bytes; /* texture levels read back and written instead, their bytes */
    uint64_t restored_buffers, restored_buffer_bytes; /* buffers a pixel read wrote: read back, written instead */
    uint64_t first_call, last_call;     /* the original calls kept */
    uint64_t frames;                    /* frames kept */
    int snapshot_frames;                /* the trace never swaps: its snapshots ended them (kept as calls) */
    int window_draws_kept;              /* the result keeps setup draws into windows */
    uint64_t window_contents, window_contents_bytes; /* windows' pixels at the start written, their raw bytes */
    int repeated_frames_kept;           /* and the frames the next one repeats */
    int verified;                       /* its replay was compared */
    uint64_t snapshots, matched;        /* that replay's snapshots, and matched */
    /* The state at the start, as gltrace inspect reads it, against the
     * original's (see TRIM.md): compared, how many differences, the first;
     * or why it was not compared. */
    int state_compared;
    uint64_t state_differences;
    char state_first[160];
    char state_not_compared[192];
    /* Its kept calls replayed once more (`gltrace replay --loop` repeats a
     * trimmed trace's kept calls): their snapshots and reads then, and how
     * many matched the recorded ones. 0 compared: not checked (no snapshot
     * kept, or the trim is by calls or failed its check). loop_written:
     * that repeat started from the state the kept calls changed written
     * back (loop_reset_calls calls); else from its setup replayed again,
     * for the reason loop_rebuilt_why gives. */
    uint64_t loop_compared, loop_matched;
    uint64_t state_calls;  /* calls written at the end of the setup that set the context's state at the start */
    int loop_written;
    uint64_t loop_reset_calls;
    char loop_rebuilt_why[256];
    uint64_t start_marker;              /* the trim's number of the start marker */
    char note[256];                     /* what was done beyond the plain case, or "" */
    char error[512];
} gt_trim_summary;

/* Writes the trim of `in` to `out`. See the top of this file. */
int gt_trim_run(const char *in, const char *out, const gt_trim_options *opt, gt_trim_summary *summary);

#ifdef __cplusplus
}
#endif
#endif
