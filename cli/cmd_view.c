/* gltrace view: the trace viewer in a browser (view/gt_view.h): a local
 * server, or a folder that opens from disk (--export). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_callset.h"
#include "gt_cli.h"
#include "gt_trace.h"
#include "gt_view.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace view TRACE [--port N] [--open] [--report R.json [--images DIR]]\n"
               "       gltrace view TRACE --export DIR [--frames SET]\n"
               "       gltrace view TRACE --index\n"
               "  Serves the trace viewer on 127.0.0.1 and prints its URL (with its access token);\n"
               "  the first run indexes the trace into TRACE.gtview.\n"
               "  --port N        listen on port N (default: a free one)\n"
               "  --open          open the URL in the browser ($BROWSER, else xdg-open)\n"
               "  --report R      a `gltrace replay --json` report: expected, actual, diff images\n"
               "  --images DIR    where the report's PNGs are (replay's --out; default: beside R)\n"
               "  --export DIR    write a folder that opens from disk (DIR/index.html), no server\n"
               "  --frames SET    with --export: only these frames (3, 10-20, ...)\n"
               "  --index         build (or check) the index and print its numbers, no server\n");
}

typedef struct view_args {
    const char *trace, *report, *images, *export_dir;
    int port, open, index_only;
    gt_callset frames;
} view_args;

static int parse(int argc, char **argv, view_args *a)
{
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(o, "--open")) {
            a->open = 1;
        } else if (!strcmp(o, "--index")) {
            a->index_only = 1;
        } else if (!strcmp(o, "--port") && i + 1 < argc) {
            char *end;
            long p = strtol(argv[++i], &end, 10);
            if (*end || p < 1 || p > 65535) {
                fprintf(stderr, "gltrace view: --port '%s': expected 1-65535\n", argv[i]);
                return 2;
            }
            a->port = (int)p;
        } else if (!strcmp(o, "--report") && i + 1 < argc) {
            a->report = argv[++i];
        } else if (!strcmp(o, "--images") && i + 1 < argc) {
            a->images = argv[++i];
        } else if (!strcmp(o, "--export") && i + 1 < argc) {
            a->export_dir = argv[++i];
        } else if (!strcmp(o, "--frames") && i + 1 < argc) {
            if (gt_callset_parse("--frames", argv[++i], &a->frames, err, sizeof err) != 0) {
                fprintf(stderr, "gltrace view: %s\n", err);
                return 2;
            }
        } else if (o[0] == '-' || a->trace) {
            fprintf(stderr, "gltrace view: unexpected argument '%s'\n", o);
            usage(stderr);
            return 2;
        } else {
            a->trace = o;
        }
    }
    if (!a->trace) {
        usage(stderr);
        return 2;
    }
    if (a->frames.n && !a->export_dir) {
        fprintf(stderr, "gltrace view: --frames goes with --export\n");
        return 2;
    }
    if (a->report && a->export_dir) {
        fprintf(stderr, "gltrace view: --report goes with the server, not --export\n");
        return 2;
    }
    if (a->images && !a->report) {
        fprintf(stderr, "gltrace view: --images goes with --report\n");
        return 2;
    }
    if (a->report && access(a->report, R_OK) != 0) {
        fprintf(stderr, "gltrace view: --report %s: cannot read it\n", a->report);
        return 2;
    }
    return -1;
}

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    fprintf(stderr, "\rgltrace view: indexing %llu of %llu MB", (unsigned long long)(done >> 20),
            (unsigned long long)(total >> 20));
}

/* Opens url with $BROWSER or xdg-open, in the background. */
static void open_browser(const char *url)
{
    const char *b = getenv("BROWSER");
    char cmd[1024];
    if (b && *b)
        snprintf(cmd, sizeof cmd, "%s '%s' >/dev/null 2>&1 &", b, url);
    else if (system("command -v xdg-open >/dev/null 2>&1") == 0)
        snprintf(cmd, sizeof cmd, "xdg-open '%s' >/dev/null 2>&1 &", url);
    else {
        fprintf(stderr, "gltrace view: --open: no browser to open (set BROWSER, or install xdg-utils); "
                        "open the URL above by hand\n");
        return;
    }
    if (system(cmd) != 0)
        fprintf(stderr, "gltrace view: --open: '%s' failed; open the URL above by hand\n", cmd);
}

static void ready(void *ctx, const char *url)
{
    const view_args *a = ctx;
    printf("%s\n", url);
    fflush(stdout);
    fprintf(stderr, "gltrace view: serving %s (Ctrl-C stops)\n", a->trace);
    if (a->open)
        open_browser(url);
}

int gt_cmd_view(int argc, char **argv)
{
    view_args a = {0};
    int status = parse(argc, argv, &a);
    if (status >= 0)
        goto done;
    char err[GT_ERRLEN];
    status = 2;
    gt_view_index *ix = gt_view_index_open(a.trace, isatty(2) ? progress : NULL, NULL, err, sizeof err);
    if (!ix) {
        fprintf(stderr, "gltrace view: %s\n", err);
        goto done;
    }
    if (a.index_only)
        printf("{\"index\": \"%s\", \"built\": %s, \"build_seconds\": %.3f, \"calls\": %llu, \"frames\": %llu}\n",
               ix->path, ix->built ? "true" : "false", ix->build_seconds, (unsigned long long)ix->ncalls,
               (unsigned long long)ix->nframes);
    gt_view_index_close(ix);
    if (a.index_only) {
        status = 0;
    } else if (a.export_dir) {
        if (gt_view_export(a.trace, a.export_dir, a.frames.bounds, a.frames.n, err, sizeof err) != 0)
            fprintf(stderr, "gltrace view: %s\n", err);
        else {
            printf("%s/index.html\n", a.export_dir);
            status = 0;
        }
    } else {
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        gt_view_options o = {.trace = a.trace, .report = a.report, .report_images = a.images, .host_exe = n > 0 ? exe : NULL,
                             .port = a.port, .ready = ready, .ctx = &a};
        if (gt_view_serve(&o, err, sizeof err) != 0)
            fprintf(stderr, "gltrace view: %s\n", err);
        else
            status = 0;
    }
done:
    gt_callset_free(&a.frames);
    return status;
}
