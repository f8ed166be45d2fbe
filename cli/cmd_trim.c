/* gltrace trim: a standalone trace of some frames of a longer one
 * (gt_trim.h; replay/TRIM.md). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callset.h"
#include "gt_cli.h"
#include "gt_trim.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace trim TRACE (--frames A-B | --calls A-B) [-o OUT] [--keep-repeated-frames]\n"
               "       [--keep-state-commands] [--keep-texture-draws] [--keep-gone-contexts] [--keep-all] [--keep-window-draws]\n"
               "       [--window-pixels] [--no-verify]\n"
               "  writes a trace of frames A..B of TRACE (0-based, as replay --frames counts them: a frame ends\n"
               "  at a swap, or in a trace that never swaps, at its snapshots; A-: to the end), or of calls\n"
               "  A..B (as dump numbers them), that replays on its own: the calls\n"
               "  before them that built their state, then their records as recorded, snapshots included.\n"
               "  -o OUT                  the trimmed trace (default: TRACE's name with -frames-A-B)\n"
               "  --keep-repeated-frames  keep the frames before A that one of the next four repeats\n"
               "  --keep-state-commands   keep the bindings, settings and uniforms before A that a later one\n"
               "                          of the same piece of state replaced before anything read them\n"
               "  --keep-texture-draws    keep the draws into textures before A, instead of writing the\n"
               "                          textures' pixels at A as uploads\n"
               "  --keep-gone-contexts    keep the calls of share groups destroyed before A\n"
               "  --keep-all              keep the uploads, parameters and sources of objects deleted before A,\n"
               "                          never touched by the kept calls, or replaced by a later whole upload\n"
               "  --window-pixels         write the pixels at A of the windows whose earlier draws are left out\n"
               "                          (without it, done when the trim does not replay exactly otherwise)\n"
               "  --keep-window-draws     keep the draws and clears into window surfaces before A\n"
               "  --no-verify             do not replay the result to check it\n"
               "  exit 0: written and replaying exactly; 1: written, its replay differs; 2: error\n"
               "  replay --loop N of a trim replays all its kept calls N more times, each from a reset (its setup\n"
               "  replayed again into new contexts), compared each time.\n"
               "  More: replay/TRIM.md\n");
}

static void default_out(char *buf, size_t n, const char *in, const char *what, uint64_t a, uint64_t b)
{
    size_t len = strlen(in);
    if (len > 8 && !strcmp(in + len - 8, ".gltrace"))
        len -= 8;
    if (b == UINT64_MAX)
        snprintf(buf, n, "%.*s-%s-%" PRIu64 "-end.gltrace", (int)len, in, what, a);
    else
        snprintf(buf, n, "%.*s-%s-%" PRIu64 "-%" PRIu64 ".gltrace", (int)len, in, what, a, b);
}

int gt_cmd_trim(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    gt_trim_options o;
    gt_trim_options_init(&o);
    int have_range = 0;
    char err[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--frames") || !strcmp(a, "--calls")) && i + 1 < argc) {
            int calls = !strcmp(a, "--calls");
            uint64_t *first = calls ? &o.call_first : &o.frame_first, *last = calls ? &o.call_last : &o.frame_last;
            if (gt_callset_parse_range(a, argv[++i], first, last, err, sizeof err) != 0) {
                fprintf(stderr, "gltrace trim: %s\n", err);
                return 2;
            }
            if (have_range) {
                fprintf(stderr, "gltrace trim: give one of --frames and --calls\n");
                return 2;
            }
            o.by_calls = calls;
            have_range = 1;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--keep-window-draws")) {
            o.keep_window_draws = 1;
        } else if (!strcmp(a, "--window-pixels")) {
            o.window_contents = 1;
        } else if (!strcmp(a, "--keep-gone-contexts")) {
            o.keep_gone_contexts = 1;
        } else if (!strcmp(a, "--keep-all")) {
            o.keep_all = 1;
        } else if (!strcmp(a, "--keep-state-commands")) {
            o.keep_state_commands = 1;
        } else if (!strcmp(a, "--keep-texture-draws")) {
            o.keep_texture_draws = 1;
        } else if (!strcmp(a, "--keep-repeated-frames")) {
            o.keep_repeated_frames = 1;
        } else if (!strcmp(a, "--no-verify")) {
            o.verify = 0;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-' || in) {
            fprintf(stderr, "gltrace trim: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            in = a;
        }
    }
    if (!in || !have_range) {
        usage(stderr);
        return 2;
    }
    uint64_t *last = o.by_calls ? &o.call_last : &o.frame_last;
    char def[PATH_MAX];
    if (!out) {
        default_out(def, sizeof def, in, o.by_calls ? "calls" : "frames", o.by_calls ? o.call_first : o.frame_first,
                    *last);
        out = def;
    }
    gt_trim_summary s;
    int rc = gt_trim_run(in, out, &o, &s);
    if (rc == 2) {
        fprintf(stderr, "gltrace trim: %s\n", s.error);
        return 2;
    }
    printf("%s: calls %" PRIu64 "-%" PRIu64 " of %s (%" PRIu64 " frames%s), after a setup of %" PRIu64
           " of the %" PRIu64 " calls before them\n",
           out, s.first_call, s.last_call, in, s.frames,
           s.snapshot_frames ? ", ended by snapshots: it never swaps" : "", s.setup_records, s.first_call);
    printf("size: %" PRIu64 " bytes, %.2f%% of the original's %" PRIu64 " (%" PRIu64 " of %" PRIu64 " records)\n",
           s.out_bytes, s.in_bytes ? 100.0 * (double)s.out_bytes / (double)s.in_bytes : 0.0, s.in_bytes,
           s.out_records, s.in_records);
    if (s.gone_contexts)
        printf("left out of the setup: %" PRIu64 " contexts destroyed with their share group before the start (%" PRIu64
               " calls)\n", s.gone_contexts, s.dropped_gone);
    if (s.dead_objects)
        printf("left out of the setup: the contents of %" PRIu64 " objects deleted before the start (%" PRIu64
               " calls)\n", s.dead_objects, s.dropped_dead);
    if (s.untouched_objects)
        printf("left out of the setup: %" PRIu64 " objects the kept calls never touch, their contents and their making"
               " when made alone (%" PRIu64 " calls)\n", s.untouched_objects, s.dropped_untouched);
    if (s.syncs)
        printf("left out of the setup: %" PRIu64 " fence syncs the kept calls never name, made, waited on and deleted "
               "(%" PRIu64 " calls)\n", s.syncs, s.dropped_syncs);
    if (s.superseded_objects)
        printf("left out of the setup: uploads a later whole one replaced, into %" PRIu64 " textures and buffers (%" PRIu64
               " calls)\n", s.superseded_objects, s.dropped_superseded);
    if (s.dropped_asked)
        printf("left out of the setup: %" PRIu64 " location queries asked again of the same link with the same "
               "answer\n", s.dropped_asked);
    if (s.dropped_sets)
        printf("left out of the setup: %" PRIu64 " bindings, settings and uniforms a later one replaced before a read\n",
               s.dropped_sets);
    if (s.dropped_switches)
        printf("left out of the setup: %" PRIu64 " context switches (eglMakeCurrent) and flushes that nothing kept "
               "between them needed\n", s.dropped_switches);
    if (s.dropped_texture_draws || s.dropped_texture_uploads)
        printf("left out of the setup: %" PRIu64 " draws and clears into textures, %" PRIu64 " uploads of regions "
               "into them; written at the start instead: the pixels of %" PRIu64 " texture levels (%" PRIu64
               " bytes before compression)\n",
               s.dropped_texture_draws, s.dropped_texture_uploads, s.restored_textures, s.restored_bytes);
    if (s.dead_framebuffers || s.dead_vertex_arrays)
        printf("left out of the setup: the state of %" PRIu64 " framebuffers and %" PRIu64 " vertex arrays deleted "
               "before the start that nothing kept drew into, with or read (%" PRIu64 " calls)\n",
               s.dead_framebuffers, s.dead_vertex_arrays, s.dropped_holder_calls);
    if (s.dropped_ends)
        printf("left out of the setup: %" PRIu64 " makings and deletions of objects nothing else was kept of\n",
               s.dropped_ends);
    if (s.restored_buffers)
        printf("left out of the setup: the last pixel read into each of %" PRIu64 " pixel pack buffers; written at the "
               "start instead: their bytes (%" PRIu64 " before compression)\n",
               s.restored_buffers, s.restored_buffer_bytes);
    if (s.state_calls)
        printf("written at the start: %" PRIu64 " call%s that set%s the state of the context current there "
               "(api/state.tsv), in place of the setup's commands %s replace%s\n", s.state_calls,
               s.state_calls == 1 ? "" : "s", s.state_calls == 1 ? "s" : "", s.state_calls == 1 ? "it" : "they",
               s.state_calls == 1 ? "s" : "");
    if (s.window_contents)
        printf("written at the start: the pixels of %" PRIu64 " window surfaces (%" PRIu64 " bytes before compression)\n",
               s.window_contents, s.window_contents_bytes);
    printf("left out of the setup: %" PRIu64 " frames a later one repeats (%" PRIu64 " calls), %" PRIu64
           " draws and clears into window surfaces, %" PRIu64
           " queries, reads, snapshots, swaps, invalidations and EGL records that change nothing\n",
           s.dropped_frames, s.dropped_repeated, s.dropped_window_draws, s.dropped_queries);
    if (s.note[0])
        printf("note: %s\n", s.note);
    if (s.verified && s.matched == s.snapshots)
        printf("checked: its replay matches %" PRIu64 " of %" PRIu64 " snapshots and reads\n", s.matched, s.snapshots);
    else if (s.verified)
        fprintf(stderr, "gltrace trim: %s does not replay exactly: %" PRIu64 " of %" PRIu64
                " snapshots and reads match (gltrace replay %s --out DIR shows where)\n",
                out, s.matched, s.snapshots, out);
    if (s.verified && s.state_compared && !s.state_differences)
        printf("checked: the state at the start, as gltrace inspect reads it, is the original's\n");
    else if (s.verified && s.state_compared)
        fprintf(stderr, "gltrace trim: the state at the start differs from the original's in %" PRIu64
                " places (first: %s)\n", s.state_differences, s.state_first);
    else if (s.verified)
        printf("note: the state at the start was not compared: %s\n", s.state_not_compared);
    if (s.loop_compared && s.loop_matched == s.loop_compared && s.loop_written)
        printf("loop: its kept calls replayed again from a reset match what was recorded: gltrace replay --loop N "
               "repeats them exactly, each time after %" PRIu64 " calls that write back the state they changed\n",
               s.loop_reset_calls);
    else if (s.loop_compared && s.loop_matched == s.loop_compared)
        printf("loop: its kept calls replayed again from a reset match what was recorded: gltrace replay --loop N "
               "repeats them exactly, each time after its setup replayed again (%s)\n", s.loop_rebuilt_why);
    else if (s.loop_compared)
        printf("loop: its kept calls replayed again differ from what was recorded (%" PRIu64 " of %" PRIu64
               " snapshots and reads), even from a reset: gltrace replay --loop N does not repeat them exactly\n",
               s.loop_compared - s.loop_matched, s.loop_compared);
    if (s.verified && rc == 0 && s.snapshots == 0)
        printf("note: the kept frames hold no snapshot or pixel read: the check compared nothing\n");
    return rc;
}
