/* cmd_suite.c: `gltrace suite run|merge|update|add`: the arguments of the
 * suite runner; the work is the suite library's (suite/gt_suite.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_cli.h"
#include "gt_suite.h"

static const char usage_text[] =
    "usage: gltrace suite run SUITE --device NAME --out DIR [--jobs N] [--shard I/N]\n"
    "                         [--resume] [--retries K] [-q]\n"
    "       gltrace suite merge DIR... --out DIR\n"
    "       gltrace suite update SUITE --device NAME --from DIR [--only missing|changed|all]\n"
    "       gltrace suite add SUITE TRACE...\n"
    "\n"
    "A suite file (YAML, see suite/README.md) lists traces and what their replay\n"
    "must give per device: the recorded snapshots or a checksum per snapshot,\n"
    "labels (skip, flaky, crash, slow, timeout, fail), `gltrace diff` options\n"
    "and a time limit. Mesa's traces YAML reads as one.\n"
    "\n"
    "run      replays each trace in a child `gltrace replay`, N at once (default:\n"
    "         one per core), longest first; statuses Pass, Fail, Crash, Timeout,\n"
    "         Flake, Skip, ExpectedFail, UnexpectedPass, Error. Writes, as each\n"
    "         ends, DIR/results.csv, failures.csv, junit.xml, results.json and\n"
    "         report.html. An unexpected Fail or Crash is run again K times\n"
    "         (default 1): a pass then makes it a Flake. --resume keeps DIR's\n"
    "         results and runs the rest.\n"
    "         --shard I/N takes traces I, I+N, I+2N... (1-based) of the sorted\n"
    "         list. Without it: GLTRACE_SHARD=I/N, else GitLab's CI_NODE_INDEX/\n"
    "         CI_NODE_TOTAL, else JOB_COMPLETION_INDEX (0-based, Kubernetes) with\n"
    "         GLTRACE_SHARD_TOTAL.\n"
    "merge    joins shard runs' folders into one, with one report\n"
    "update   writes the checksums a run measured into SUITE for the device:\n"
    "         where none is (missing), where they differ (changed), or both\n"
    "         (all, the default); the rest of the file is kept byte for byte\n"
    "add      adds traces with `expect: recorded` (creates SUITE if missing)\n"
    "\n"
    "Exit status: 0 every result as expected, 1 some unexpected, 2 unusable\n"
    "input (the suite file's line and column are named).\n";

static int bad(const char *fmt, const char *arg)
{
    fputs("gltrace suite: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

static int count(const char *v, unsigned max, unsigned *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (!*v || *end || x > max)
        return -1;
    *out = (unsigned)x;
    return 0;
}

/* The value after option argv[*i]; NULL when there is none. */
static const char *value(int argc, char **argv, int *i)
{
    return *i + 1 < argc ? argv[++*i] : NULL;
}

static int run_cmd(int argc, char **argv)
{
    gt_suite_run_options o;
    gt_suite_run_options_init(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        unsigned n;
        if (!strcmp(a, "--resume"))
            o.resume = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
            o.quiet = 1;
        else if (a[0] != '-' && !o.suite)
            o.suite = a;
        else if (a[0] != '-' || !(v = value(argc, argv, &i)))
            return bad(a[0] == '-' ? "option '%s' needs a value" : "unexpected argument '%s'", a);
        else if (!strcmp(a, "--device"))
            o.device = v;
        else if (!strcmp(a, "--out"))
            o.out_dir = v;
        else if (!strcmp(a, "--jobs") && count(v, 4096, &n) == 0 && n > 0)
            o.jobs = n;
        else if (!strcmp(a, "--retries") && count(v, 100, &n) == 0)
            o.retries = (int)n;
        else if (!strcmp(a, "--shard") && gt_suite_shard_parse(v, &o.shard_index, &o.shard_total) == 0)
            ;
        else
            return bad(!strcmp(a, "--jobs") || !strcmp(a, "--retries") || !strcmp(a, "--shard")
                           ? "bad value for %s (--jobs 1.., --retries 0..100, --shard I/N with 1 <= I <= N)"
                           : "unknown option '%s'",
                       a);
    }
    if (!o.suite || !o.device || !o.out_dir)
        return bad("%s", "run needs SUITE, --device NAME and --out DIR");
    static char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    o.replay_exe = len > 0 ? exe : "gltrace";
    return gt_suite_run(&o);
}

static int merge_cmd(int argc, char **argv)
{
    const char *out = NULL;
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-')
            return free(dirs), bad("unknown option '%s'", argv[i]);
        else
            dirs[n++] = argv[i];
    }
    int rc = !out || !n ? bad("%s", "merge needs DIR... and --out DIR") : gt_suite_merge(dirs, n, out);
    free(dirs);
    return rc;
}

static int update_cmd(int argc, char **argv)
{
    const char *suite = NULL, *device = NULL, *from = NULL;
    gt_suite_only only = GT_SUITE_ONLY_ALL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (a[0] != '-' && !suite)
            suite = a;
        else if (a[0] != '-' || !(v = value(argc, argv, &i)))
            return bad(a[0] == '-' ? "option '%s' needs a value" : "unexpected argument '%s'", a);
        else if (!strcmp(a, "--device"))
            device = v;
        else if (!strcmp(a, "--from"))
            from = v;
        else if (!strcmp(a, "--only") && !strcmp(v, "missing"))
            only = GT_SUITE_ONLY_MISSING;
        else if (!strcmp(a, "--only") && !strcmp(v, "changed"))
            only = GT_SUITE_ONLY_CHANGED;
        else if (!strcmp(a, "--only") && !strcmp(v, "all"))
            only = GT_SUITE_ONLY_ALL;
        else
            return bad(!strcmp(a, "--only") ? "--only %s: expected missing, changed or all" : "unknown option '%s'",
                       !strcmp(a, "--only") ? v : a);
    }
    if (!suite || !device || !from)
        return bad("%s", "update needs SUITE, --device NAME and --from DIR");
    return gt_suite_update(suite, device, from, only);
}

static int add_cmd(int argc, char **argv)
{
    if (argc < 3 || argv[1][0] == '-')
        return bad("%s", "add needs SUITE and TRACE...");
    return gt_suite_add(argv[1], (const char *const *)argv + 2, (size_t)argc - 2);
}

int gt_cmd_suite(int argc, char **argv)
{
    if (argc < 2)
        return bad("%s", "missing a subcommand: run, merge, update or add");
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
    const char *sub = argv[1];
    if (!strcmp(sub, "run"))
        return run_cmd(argc - 1, argv + 1);
    if (!strcmp(sub, "merge"))
        return merge_cmd(argc - 1, argv + 1);
    if (!strcmp(sub, "update"))
        return update_cmd(argc - 1, argv + 1);
    if (!strcmp(sub, "add"))
        return add_cmd(argc - 1, argv + 1);
    return bad("unknown subcommand '%s' (run, merge, update or add)", sub);
}
