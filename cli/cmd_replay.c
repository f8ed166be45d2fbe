/* cmd_replay.c: `gltrace replay TRACE [options]`: re-issues a trace headless
 * and compares its snapshots; prints the summary, writes the reports. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_compare_args.h"
#include "gt_callset.h"
#include "gt_cli.h"
#include "gt_diverge.h"
#include "gt_replay.h"

static const char usage_text[] =
    "usage: gltrace replay TRACE [options]\n"
    "\n"
    "Replays TRACE on EGL surfaceless (no display, no flag needed) and compares\n"
    "every recorded snapshot with the replayed pixels: byte for byte by default.\n"
    "\n"
    "selection and speed:\n"
    "  --frames A-B       compare only frames A..B (0-based; A- or -B open);\n"
    "                     replay stops after frame B. A frame ends at a swap,\n"
    "                     or in a trace that never swaps, at its snapshots\n"
    "  --calls A-B        compare only snapshots taken at calls A..B; replay\n"
    "                     stops after call B\n"
    "  --snapshot WHEN    also write PNGs (to --out) the trace did not record:\n"
    "                     frame (each back buffer before its swap), draw (the\n"
    "                     draw framebuffer after each draw or compute call), or\n"
    "                     CALLSET: after the GL calls listed, as 10,20-30,100\n"
    "  --check            also issue the queries the app made (glGet*, glIs*,\n"
    "                     glGetError, glCheckFramebufferStatus) and compare their\n"
    "                     results with the recorded ones; the first differences\n"
    "                     are reported and make the exit status 1\n"
    "  --benchmark        compare nothing; report per-frame times\n"
    "  --loop N           replay the last frame N more times (frames that read\n"
    "                     state they change differ); of a trimmed trace, all its\n"
    "                     kept calls, each time from a reset: the state they\n"
    "                     changed written back, or where that cannot be (they\n"
    "                     write objects' contents) its setup replayed again into\n"
    "                     new contexts; unless --benchmark, their snapshots and\n"
    "                     reads are compared again each time\n"
    "  --loop-rebuild     reset a trimmed trace's repeats by replaying its setup\n"
    "                     again, never by writing back what they changed\n"
    "  --allow-empty      exit 0 when the trace has nothing to compare (no\n"
    "                     snapshot, no pixel read of the app, no --check query)\n"
    "\n"
    "comparison (RGBA8 snapshots; float, integer, depth and stencil ones are\n"
    "always compared exactly), the options of gltrace diff:\n" CLI_COMPARE_USAGE "\n"
    "outputs:\n"
    "  --out DIR          expected, actual and diff PNGs of differing snapshots\n"
    "  --save-all         ... of every snapshot (needs --out)\n"
    "  --json FILE        JSON report ('-' for standard output)\n"
    "  --junit FILE       JUnit XML report, a test case per snapshot\n"
    "  --progress, --no-progress\n"
    "                     a progress line (default: when stderr is a terminal)\n"
    "  -q                 no warnings\n"
    "  --lockstep OUT,IN [--lockstep-draws A-B] [--lockstep-recorded]\n"
    "                     reports to gltrace diverge over those file descriptors\n"
    "Exit status: 0 all snapshots matched, 1 some differ or nothing was\n"
    "compared (without --allow-empty; --benchmark compares nothing by design),\n"
    "2 the trace or the arguments are unusable.\n";

/* Everything the command line says, before the replay runs. */
typedef struct replay_args {
    gt_replay_options o;
    cli_compare_args c;
    const char *path, *json, *junit;
    gt_callset snap_calls;
    gt_replay_probe probe;
    int progress; /* -1: when stderr is a terminal */
    int allow_empty;
} replay_args;

static int bad_arg(const char *fmt, const char *arg)
{
    fputs("gltrace replay: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

static int takes_value(const char *opt)
{
    static const char *const valued[] = {"--out", "--json", "--junit", "--frames", "--calls", "--loop", "--snapshot",
                                         "--lockstep", "--lockstep-draws"};
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(opt, valued[i]))
            return 1;
    return cli_compare_takes_value(opt);
}

/* A count 1..1000000 in decimal digits. */
static int parse_loop(const char *v, unsigned *n)
{
    size_t len = strlen(v);
    if (len == 0 || len > 7 || strspn(v, "0123456789") != len)
        return -1;
    unsigned long x = strtoul(v, NULL, 10);
    if (x == 0 || x > 1000000)
        return -1;
    *n = (unsigned)x;
    return 0;
}

static int take_snapshot(replay_args *a, const char *v)
{
    char err[512];
    if (!strcmp(v, "frame")) {
        a->o.snapshot = GT_REPLAY_SNAP_FRAME;
    } else if (!strcmp(v, "draw")) {
        a->o.snapshot = GT_REPLAY_SNAP_DRAW;
    } else {
        gt_callset_free(&a->snap_calls);
        if (gt_callset_parse("--snapshot", v, &a->snap_calls, err, sizeof err) != 0)
            return bad_arg("%s, or frame or draw", err);
        a->o.snapshot = GT_REPLAY_SNAP_CALLS;
        a->o.snap_calls = a->snap_calls.bounds, a->o.nsnap_calls = a->snap_calls.n;
    }
    return 0;
}

/* An option with its value: 0, or 2 after saying what is wrong. */
static int take_value(replay_args *a, const char *opt, const char *v)
{
    char err[512];
    if (cli_compare_takes_value(opt)) {
        if (cli_compare_value(&a->c, opt, v, err, sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--out")) {
        a->o.out_dir = v;
    } else if (!strcmp(opt, "--json")) {
        a->json = v;
    } else if (!strcmp(opt, "--junit")) {
        a->junit = v;
    } else if (!strcmp(opt, "--frames")) {
        if (gt_callset_parse_range("--frames", v, &a->o.frame_first, &a->o.frame_last, err, sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--calls")) {
        if (gt_callset_parse_range("--calls", v, &a->o.call_first, &a->o.call_last, err, sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--lockstep")) {
        if (sscanf(v, "%d,%d", &a->probe.out_fd, &a->probe.in_fd) != 2 || a->probe.out_fd < 0 || a->probe.in_fd < 0)
            return bad_arg("--lockstep '%s': expected two file descriptors OUT,IN", v);
        a->o.probe = &a->probe;
    } else if (!strcmp(opt, "--lockstep-draws")) {
        if (gt_callset_parse_range("--lockstep-draws", v, &a->probe.draw_first, &a->probe.draw_last, err,
                                   sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--loop")) {
        if (parse_loop(v, &a->o.loop) != 0)
            return bad_arg("--loop '%s': expected a count 1..1000000", v);
    } else {
        return take_snapshot(a, v);
    }
    return 0;
}

/* A flag: 0, or 2 after saying it is unknown. */
static int take_flag(replay_args *a, const char *opt, const char *arg)
{
    if (cli_compare_flag(&a->c, opt))
        return 0;
    const struct { const char *name; int *to, value; } flags[] = {
        {"--check", &a->o.check, 1},       {"--save-all", &a->o.save_all, 1}, {"--benchmark", &a->o.benchmark, 1},
        {"--progress", &a->progress, 1},   {"--no-progress", &a->progress, 0}, {"-q", &a->o.quiet, 1},
        {"--quiet", &a->o.quiet, 1},      {"--lockstep-recorded", &a->probe.recorded, 1},
        {"--allow-empty", &a->allow_empty, 1}, {"--loop-rebuild", &a->o.loop_rebuild, 1},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (!strcmp(opt, flags[i].name)) {
            *flags[i].to = flags[i].value;
            return 0;
        }
    }
    return bad_arg("unknown option '%s'", arg);
}

/* "--opt=value" into opt and *v; anything else is copied whole. */
static void split_option(const char *s, char *opt, size_t len, const char **v)
{
    const char *eq = strchr(s, '=');
    *v = NULL;
    if (eq && s[1] == '-' && (size_t)(eq - s) < len) {
        memcpy(opt, s, (size_t)(eq - s));
        opt[eq - s] = 0;
        *v = eq + 1;
    } else {
        snprintf(opt, len, "%s", s);
    }
}

/* -1 when the replay is to run; else the exit status (2, or 0 for --help). */
static int parse_args(int argc, char **argv, replay_args *a)
{
    int only_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v;
        if (only_paths || s[0] != '-' || !s[1]) {
            if (a->path)
                return bad_arg("unexpected argument '%s' (give one TRACE)", s);
            a->path = s;
            continue;
        }
        char opt[32];
        split_option(s, opt, sizeof opt, &v);
        int valued = takes_value(opt), rc = 0;
        if (valued && !v) {
            if (i + 1 == argc)
                return bad_arg("option '%s' needs a value", s);
            v = argv[++i];
        } else if (!valued && v) {
            return bad_arg("option '%s' takes no value", s);
        }
        if (!strcmp(opt, "--")) {
            only_paths = 1;
        } else if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if ((rc = valued ? take_value(a, opt, v) : take_flag(a, opt, s)) != 0) {
            return rc;
        }
    }
    return -1;
}

/* Options that cannot go together: -1 when all is well, else 2. */
static int check_args(replay_args *a)
{
    char err[512];
    const gt_replay_options *o = &a->o;
    if (!a->path)
        return bad_arg("%s", "missing TRACE");
    if (o->snapshot && !o->out_dir)
        return bad_arg("%s", "--snapshot writes PNGs: give --out DIR");
    if (o->check && o->benchmark)
        return bad_arg("%s", "--benchmark issues no query: no --check with it");
    if (o->snapshot && o->benchmark)
        return bad_arg("%s", "--benchmark reads nothing back: no --snapshot with it");
    if (o->save_all && !o->out_dir)
        return bad_arg("%s", "--save-all needs --out DIR");
    if (o->probe && (o->benchmark || o->snapshot || o->check))
        return bad_arg("%s", "--lockstep is gltrace diverge's: no --benchmark, --snapshot or --check with it");
    if (o->loop_rebuild && !o->loop)
        return bad_arg("%s", "--loop-rebuild says how --loop resets a trimmed trace: give --loop N too");
    if (o->loop && o->probe)
        return bad_arg("%s", "--lockstep compares each draw once: no --loop with it");
    if (o->benchmark && (a->c.given || o->out_dir))
        return bad_arg("%s", "--benchmark compares nothing: no comparison options or --out with it");
    if (cli_compare_finish(&a->c, err, sizeof err) != 0)
        return bad_arg("%s", err);
    if (a->c.given)
        a->o.compare = &a->c.o;
    a->o.progress = a->progress >= 0 ? a->progress : (!o->quiet && isatty(2));
    return -1;
}

static void print_benchmark(const char *path, const gt_replay_summary *s)
{
    gt_replay_frame_stats st;
    int rc = gt_replay_frame_stats_get(s, &st);
    if (rc == -1)
        fprintf(stderr, "gltrace replay: %s: no frame ended (no eglSwapBuffers); %.3f s in all\n", path, s->seconds);
    if (rc != 0)
        return;
    fprintf(stderr,
            "gltrace replay: %s: %zu frames in %.3f s (%.1f fps); frame time ms: median %.3f, p95 %.3f, "
            "min %.3f, max %.3f; %.3f s in all\n",
            path, st.frames, st.total_ms / 1e3, st.fps, st.median_ms, st.p95_ms, st.min_ms, st.max_ms, s->seconds);
}

/* How a trim's repeats were reset (gt_replay_summary.loop_written). */
static void print_reset(const gt_replay_options *o, const gt_replay_summary *s)
{
    if (s->loop_written)
        fprintf(stderr, "gltrace replay: --loop: %u of %u repeats reset by writing back the state the kept calls "
                        "changed (%" PRIu64 " calls)\n", s->loop_written, o->loop, s->loop_reset_calls);
    if (s->loop_written < o->loop)
        fprintf(stderr, "gltrace replay: --loop: %u of %u repeats reset by replaying its setup again into new "
                        "contexts: %s\n", o->loop - s->loop_written, o->loop,
                s->loop_rebuilt_why[0] ? s->loop_rebuilt_why : "no state was read at the start");
}

static void print_check(const gt_replay_summary *s)
{
    fprintf(stderr, "gltrace replay: --check: %" PRIu64 " queries issued, %" PRIu64 " gave another result\n",
            s->checked, s->check_mismatches);
    for (size_t k = 0; k < s->nmismatches && k < 5; k++)
        fprintf(stderr, "gltrace replay:   call %" PRIu64 " (frame %" PRIu64 ") %s %s: recorded %s, replayed %s\n",
                s->mismatches[k].seq, s->mismatches[k].frame, s->mismatches[k].function, s->mismatches[k].what,
                s->mismatches[k].recorded, s->mismatches[k].replayed);
}

static void print_unreadable(const gt_replay_summary *s)
{
    for (size_t k = 0; s->unreadable && k < s->nsnaps; k++) {
        const gt_replay_snapshot *u = &s->snaps[k];
        if (u->status == GT_REPLAY_UNREADABLE) {
            fprintf(stderr, "gltrace replay: %" PRIu64 " snapshots could not be read back; the first at call %" PRIu64
                            ", frame %" PRIu64 ": %s\n", s->unreadable, u->seq, u->frame, u->message);
            return;
        }
    }
}

static void print_summary(const char *path, const gt_replay_options *o, const gt_replay_summary *s)
{
    char reads[128] = "";
    if (s->reads)
        snprintf(reads, sizeof reads, "; %" PRIu64 " pixel reads of the app: %" PRIu64 " matched, %" PRIu64 " differ",
                 s->reads, s->reads_matched, s->reads_differing);
    if (o->benchmark)
        print_benchmark(path, s);
    else
        fprintf(stderr,
                "gltrace replay: %s: %" PRIu64 " calls (%" PRIu64 " skipped), %" PRIu64 " frames; %" PRIu64
                " snapshots: %" PRIu64 " matched, %" PRIu64 " differ, %" PRIu64 " not compared%s\n",
                path, s->calls, s->skipped, s->frames, s->snapshots, s->matched, s->differing, s->not_compared,
                reads);
    if (s->differing || s->reads_differing)
        fprintf(stderr, "gltrace replay: first difference at call %" PRIu64 ", frame %" PRIu64 "\n", s->first_diff_seq,
                s->first_diff_frame);
    if (o->snapshot)
        fprintf(stderr, "gltrace replay: --snapshot: %" PRIu64 " PNGs written to %s\n", s->extra_pngs, o->out_dir);
    if (o->check)
        print_check(s);
    if (o->loop && s->loop_range)
        print_reset(o, s);
    if (o->loop && !o->benchmark && s->loop_compared)
        fprintf(stderr, "gltrace replay: --loop: %s again %u times%s: %" PRIu64 " of their %" PRIu64
                        " snapshots and reads matched the recorded ones%s\n",
                s->loop_range ? "the trim's kept calls" : "the last frame", o->loop,
                s->loop_range ? ", each from a reset" : "", s->loop_matched, s->loop_compared,
                s->loop_matched == s->loop_compared ? ""
                : s->loop_range ? " (even from a reset: they read what the trace does not hold)"
                                : " (they read state they change)");
    else if (o->loop && !o->benchmark && !s->error[0])
        fprintf(stderr, "gltrace replay: --loop: the repeated frame has no snapshot or read: its repeats were not "
                        "compared\n");
    print_unreadable(s);
    if (s->error[0])
        fprintf(stderr, "gltrace replay: %s\n", s->error);
}

/* A replay that compared nothing would pass a CI job on nothing: status 1,
 * with the likeliest reason in one line. */
static int nothing_compared(const char *path, const gt_replay_summary *s)
{
    fprintf(stderr, "gltrace replay: %s: nothing was compared: ", path);
    if (s->foreign_api[0])
        fprintf(stderr, "the app drew with desktop GL through %s, which gltrace does not %s yet", s->foreign_api,
                strcmp(s->foreign_api, "EGL") ? "capture" : "replay");
    else if (s->snapshots)
        fprintf(stderr, "none of its %" PRIu64 " snapshots could be compared", s->snapshots);
    else
        fputs("the trace has no snapshot and no pixel read of the app (recorded with --fb=none, or nothing was "
              "drawn)", stderr);
    fputs("; --allow-empty accepts that\n", stderr);
    return 1;
}

/* 0, or -1 after saying why the report could not be written. */
static int save_report(const char *path, gt_replay_report_format format, const char *trace, int rc,
                       const gt_replay_summary *s)
{
    char err[512];
    if (!path || gt_replay_report_save(path, format, trace, rc, s, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "gltrace replay: %s\n", err);
    return -1;
}

static int run(replay_args *a)
{
    const gt_replay_options *o = &a->o;
    gt_replay_summary s;
    int rc = gt_replay_run(a->path, o, &s);
    if (!o->probe)
        print_summary(a->path, o, &s);
    else if (s.error[0]) /* gltrace diverge names the side */
        fprintf(stderr, "gltrace replay: %s\n", s.error);
    int ranged = o->frame_first || o->frame_last != UINT64_MAX || o->call_first || o->call_last != UINT64_MAX;
    if (!o->benchmark && ranged && rc == 0 && s.matched + s.differing + s.reads_matched == 0) {
        /* A range that misses every snapshot would pass a CI job on nothing. */
        fprintf(stderr, "gltrace replay: %s: no snapshot lies inside --frames/--calls (the trace has %" PRIu64
                        " frames)\n", a->path, s.frames);
        rc = 2;
    }
    if (!o->benchmark && !o->probe && !a->allow_empty && rc == 0 && !ranged &&
        s.matched + s.differing + s.reads_matched + s.reads_differing == 0 && !s.checked)
        rc = nothing_compared(a->path, &s);
    if (save_report(a->json, GT_REPLAY_REPORT_JSON, a->path, rc, &s) != 0 ||
        save_report(a->junit, GT_REPLAY_REPORT_JUNIT, a->path, rc, &s) != 0)
        rc = 2;
    gt_replay_summary_free(&s);
    return rc;
}

int gt_cmd_replay(int argc, char **argv)
{
    replay_args a = {.progress = -1, .probe = {.draw_first = 1, .draw_last = 0}};
    gt_replay_options_init(&a.o);
    cli_compare_args_init(&a.c);
    int rc = parse_args(argc, argv, &a);
    if (rc < 0)
        rc = check_args(&a);
    if (rc < 0)
        rc = run(&a);
    gt_callset_free(&a.snap_calls);
    return rc;
}
