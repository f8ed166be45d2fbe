/* cmd_inspect.c: `gltrace inspect TRACE CALLSET --out DIR [--diff-from CALL2]`:
 * the GL and EGL state (and the textures, buffers, shaders and attachments
 * bound) after chosen calls; the work is the replay library's (gt_inspect.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callset.h"
#include "gt_cli.h"
#include "gt_inspect.h"

static const char usage_text[] =
    "usage: gltrace inspect TRACE CALLSET --out DIR [options]\n"
    "\n"
    "Replays TRACE up to the last call of CALLSET (as 120, or 10,20-30,100, or\n"
    "500- ; call numbers as `gltrace dump` shows them) and writes the state of\n"
    "the context after each call: DIR/state.json and its resource files for one\n"
    "call, DIR/call-N/... for several. The schema is replay/INSPECT.md.\n"
    "\n"
    "  --out DIR          where the dumps go (required)\n"
    "  --draws            only the draw and compute calls of CALLSET\n"
    "  --frames A-B       only calls inside frames A..B (0-based)\n"
    "  --diff-from CALL2  also dump CALL2 and write DIR/diff.json: the state\n"
    "                     that differs between CALL2 and CALL (one CALL only)\n"
    "  --no-resources     state.json only: no textures, buffers, shaders, pictures\n"
    "  -q, --quiet        no replay warnings\n";

static int bad_arg(const char *msg, const char *v)
{
    fprintf(stderr, "gltrace inspect: ");
    fprintf(stderr, msg, v);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

typedef struct args {
    gt_inspect_options o;
    const char *trace, *calls_text, *diff_from;
    gt_callset calls;
} args;

/* -1: run; else the exit status. */
static int parse(int argc, char **argv, args *a)
{
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int valued = !strcmp(s, "--out") || !strcmp(s, "--frames") || !strcmp(s, "--diff-from");
        if (valued && i + 1 == argc)
            return bad_arg("option '%s' needs a value", s);
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(s, "--out")) {
            a->o.out_dir = argv[++i];
        } else if (!strcmp(s, "--diff-from")) {
            a->diff_from = argv[++i];
        } else if (!strcmp(s, "--frames")) {
            if (gt_callset_parse_range("--frames", argv[++i], &a->o.frame_first, &a->o.frame_last, err,
                                       sizeof err) != 0)
                return bad_arg("%s", err);
        } else if (!strcmp(s, "--draws")) {
            a->o.draws_only = 1;
        } else if (!strcmp(s, "--no-resources")) {
            a->o.no_resources = 1;
        } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            a->o.quiet = 1;
        } else if (s[0] == '-' && s[1]) {
            return bad_arg("unknown option '%s'", s);
        } else if (!a->trace) {
            a->trace = s;
        } else if (!a->calls_text) {
            a->calls_text = s;
        } else {
            return bad_arg("unexpected argument '%s' (give TRACE and CALLSET)", s);
        }
    }
    if (!a->trace || !a->calls_text)
        return bad_arg("%s", "give TRACE and CALLSET");
    if (!a->o.out_dir)
        return bad_arg("%s", "give --out DIR");
    if (gt_callset_parse("CALLSET", a->calls_text, &a->calls, err, sizeof err) != 0)
        return bad_arg("%s", err);
    return -1;
}

/* --diff-from: both calls dumped (one replay), then compared. */
static int diff_from(args *a, uint64_t *bounds)
{
    char err[512];
    uint64_t to = a->calls.bounds[0];
    if (a->calls.n != 1 || a->calls.bounds[0] != a->calls.bounds[1] || a->o.draws_only)
        return bad_arg("%s", "--diff-from compares two calls: give one CALL");
    if (gt_callset_parse_range("--diff-from", a->diff_from, &bounds[0], &bounds[1], err, sizeof err) != 0 ||
        bounds[0] != bounds[1])
        return bad_arg("%s", "--diff-from takes one call number");
    bounds[2] = bounds[3] = to;
    a->o.calls = bounds, a->o.ncalls = 2;
    return -1;
}

int gt_cmd_inspect(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    gt_inspect_options_init(&a.o);
    int rc = parse(argc, argv, &a);
    uint64_t pair[4];
    if (rc < 0 && a.diff_from)
        rc = diff_from(&a, pair);
    if (rc >= 0) {
        gt_callset_free(&a.calls);
        return rc;
    }
    if (!a.diff_from)
        a.o.calls = a.calls.bounds, a.o.ncalls = a.calls.n;
    gt_inspect_summary s;
    rc = gt_inspect_run(a.trace, &a.o, &s);
    if (rc != 0)
        fprintf(stderr, "gltrace inspect: %s\n", s.error);
    if (rc == 0 && a.diff_from) {
        char before[4096], after[4096], out[4096], err[512];
        snprintf(before, sizeof before, "%s/call-%" PRIu64 "/state.json", a.o.out_dir, pair[0]);
        snprintf(after, sizeof after, "%s/call-%" PRIu64 "/state.json", a.o.out_dir, pair[2]);
        snprintf(out, sizeof out, "%s/diff.json", a.o.out_dir);
        FILE *f = fopen(out, "w");
        int bad = !f || gt_inspect_diff(before, after, f, err, sizeof err) != 0;
        if (f && fclose(f) != 0)
            bad = 1;
        if (bad) {
            fprintf(stderr, "gltrace inspect: %s\n", f ? err : "cannot write diff.json");
            rc = 2;
        }
    }
    if (rc == 0)
        fprintf(stderr, "gltrace inspect: %" PRIu64 " calls dumped into %s; replay %.3f s, of which dumps %.3f s\n",
                s.dumps, a.o.out_dir, s.replay_seconds, s.dump_seconds);
    gt_callset_free(&a.calls);
    return rc;
}
