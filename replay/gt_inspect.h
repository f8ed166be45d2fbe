/* gt_inspect.h: the GL and EGL state of a replay at chosen calls, as JSON
 * and resource files (textures and framebuffer attachments as PNG, buffers
 * and other texel formats as raw bytes with a small JSON header, shader
 * sources as text). The schema of state.json is replay/INSPECT.md.
 *
 * Two ways in:
 *   - gt_inspect_run replays a trace and dumps the state after each call of
 *     a call set (`gltrace inspect`);
 *   - gt_inspect_write dumps the state of a replay that is running (from
 *     inside the replay loop, e.g. a lockstep comparison of two drivers).
 *
 * Error style: 0, or -1 (gt_inspect_run: 2, as gt_replay_run) with one line
 * in the caller's err buffer naming the file or call at fault. Nothing here
 * prints (but the replay's own warnings, unless quiet) or exits. */
#ifndef GT_INSPECT_H
#define GT_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp; /* the replay's state (rp_internal.h) */

typedef struct gt_inspect_options {
    const char *out_dir;   /* where the dumps go (made when missing) */
    /* The calls after which the state is dumped: ncalls inclusive ranges
     * calls[2k]..calls[2k+1] (gt_callset.h's bounds). One call alone is
     * dumped into out_dir itself; several into out_dir/call-N/. */
    const uint64_t *calls;
    size_t ncalls;
    int draws_only;        /* only the draw and compute calls of the set */
    uint64_t frame_first, frame_last; /* and only inside these frames (default all) */
    int no_resources;      /* state.json only: no textures, buffers, shaders, attachments */
    int quiet;             /* no replay warnings on stderr */
} gt_inspect_options;

/* Defaults: no calls, all frames, resources written. */
void gt_inspect_options_init(gt_inspect_options *o);

typedef struct gt_inspect_summary {
    uint64_t dumps;        /* calls dumped */
    uint64_t last_call;    /* the last call dumped */
    double replay_seconds; /* the whole run */
    double dump_seconds;   /* of which the dumps */
    char error[512];       /* why it stopped, or "" */
} gt_inspect_summary;

/* Replays `trace` up to the last call of the set and dumps the state after
 * each call of it. 0: every wanted call dumped; 1: some wanted call never
 * came (the trace ended first) or a dump failed; 2: unusable trace or
 * options (summary->error says why). */
int gt_inspect_run(const char *trace, const gt_inspect_options *opt, gt_inspect_summary *summary);

/* Dumps the state of the context current on the replay thread of the
 * running replay `r` into `dir` (made when missing): dir/state.json and its
 * resource files. The replayed app's GL state is left as it was (its
 * pending GL error too). `resources` 0: state.json only. */
int gt_inspect_write(struct rp *r, const char *dir, int resources, char *err, size_t errlen);

/* What changed between two dumps: a JSON document
 *   {"from": FROM_CALL, "to": TO_CALL, "changes": [{"path": "/state/GL_BLEND",
 *    "before": false, "after": true}, ...]}
 * comparing the state.json files `before` and `after` (paths are JSON
 * pointers; a value present on one side only has "before" or "after"
 * missing). Written to f. */
int gt_inspect_diff(const char *before, const char *after, FILE *f, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
