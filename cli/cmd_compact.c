/* gltrace compact: rewrites a trace in large chunks (gt_compact). Also run
 * by `gltrace record` once the app has exited. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "gt_cli.h"
#include "gt_trace.h"

/* The numbers of the commands that end a frame (`class frame`). */
size_t gt_frame_functions(int32_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < gt_api_nfns && n < max; i++)
        if (gt_api_fns[i].cls == GT_CLASS_FRAME)
            out[n++] = gt_api_fns[i].number;
    return n;
}

int gt_compact_in_place(const char *path, int level, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.compacting", path) >= sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    int32_t fns[8];
    size_t n = gt_frame_functions(fns, 8);
    int rc = gt_compact(path, tmp, level, 0, fns, n, err, errlen);
    if (rc != 0)
        return rc;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot replace it with the compacted trace", path);
        remove(tmp);
        return -1;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace compact [--level N] [-o OUT] TRACE\n"
               "  rewrites TRACE (or writes OUT) with large chunks: smaller, same records.\n"
               "  A damaged trace is refused and left as it is.\n");
}

int gt_cmd_compact(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int level = 3;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < -7 || v > 19) {
                fprintf(stderr, "gltrace compact: --level takes a zstd level from -7 to 19, not '%s'\n", argv[i]);
                return 2;
            }
            level = (int)v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' || in) {
            fprintf(stderr, "gltrace compact: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            in = argv[i];
        }
    }
    if (!in) {
        usage(stderr);
        return 2;
    }
    char err[GT_ERRLEN];
    int rc;
    if (out) {
        int32_t fns[8];
        size_t n = gt_frame_functions(fns, 8);
        rc = gt_compact(in, out, level, 0, fns, n, err, sizeof err);
    } else {
        rc = gt_compact_in_place(in, level, err, sizeof err);
    }
    if (rc != 0) {
        fprintf(stderr, "gltrace compact: %s\n", err);
        return 2;
    }
    return 0;
}
