/* gltrace replay: re-issues a trace headless and compares its snapshots. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gt_cli.h"
#include "gt_replay.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace replay TRACE [--out DIR] [--save-all] [-q]\n"
               "  replays TRACE on EGL surfaceless (no display needed) and compares every\n"
               "  recorded snapshot with the replayed pixels, byte for byte.\n"
               "  --out DIR    write expected and actual PNGs of differing snapshots there\n"
               "  --save-all   ... of every snapshot (needs --out)\n"
               "  -q           no warnings\n"
               "Exit status: 0 all snapshots matched, 1 some differ, 2 the trace or the\n"
               "arguments are unusable.\n");
}

int gt_cmd_replay(int argc, char **argv)
{
    gt_replay_options o = {0};
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            o.out_dir = argv[++i];
        else if (strcmp(argv[i], "--save-all") == 0)
            o.save_all = 1;
        else if (strcmp(argv[i], "-q") == 0)
            o.quiet = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "gltrace replay: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else
            path = argv[i];
    }
    if (!path || (o.save_all && !o.out_dir)) {
        usage(stderr);
        return 2;
    }
    gt_replay_summary s;
    int rc = gt_replay_run(path, &o, &s);
    fprintf(stderr,
            "gltrace replay: %s: %" PRIu64 " calls (%" PRIu64 " skipped), %" PRIu64 " frames; %" PRIu64
            " snapshots: %" PRIu64 " matched, %" PRIu64 " differ, %" PRIu64 " not compared\n",
            path, s.calls, s.skipped, s.frames, s.snapshots, s.matched, s.differing, s.not_compared);
    if (s.differing)
        fprintf(stderr, "gltrace replay: first difference at call %" PRIu64 ", frame %" PRIu64 "\n",
                s.first_diff_seq, s.first_diff_frame);
    if (s.error[0])
        fprintf(stderr, "gltrace replay: %s\n", s.error);
    return rc;
}
