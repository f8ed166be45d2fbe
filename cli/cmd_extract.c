/* gltrace extract: the recorded snapshots of a trace as PNG files, without
 * replaying anything. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gltrace.pb-c.h"
#include "gt_callset.h"
#include "gt_cli.h"
#include "gt_enums.h"
#include "gt_diff.h"
#include "gt_show.h"
#include "gt_trace.h"
#include "gt_view.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace extract TRACE --out DIR [--frames SET]\n"
               "  writes each gltraceSnapshot record as DIR/frameNNNNNN-callNNNNNNNNN-WHAT.png\n"
               "  (WHAT: surface, attachmentN, or textureNAME-LEVEL-LAYER; frame = swaps before it).\n"
               "  --frames SET: only those frames, as 3, 10-20, 10- or -20, or a list: 0,5-9\n"
               "  Float snapshots are clamped to 0..1 and integer ones to 0..255 for the PNG.\n"
               "  Prints one line per file; exit 0, or 2 with a message for an unusable trace.\n");
}

typedef struct extract_args {
    const char *path, *out;
    gt_callset frames; /* empty: every frame */
} extract_args;

/* -1 to go on, else the exit status (0 after --help, 2). */
static int parse_args(int argc, char **argv, extract_args *a)
{
    char err[512];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            a->out = argv[++i];
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            gt_callset_free(&a->frames);
            if (gt_callset_parse("--frames", argv[++i], &a->frames, err, sizeof err) != 0) {
                fprintf(stderr, "gltrace extract: %s\n", err);
                return 2;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' || a->path) {
            fprintf(stderr, "gltrace extract: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            a->path = argv[i];
        }
    }
    if (!a->path || !a->out) {
        usage(stderr);
        return 2;
    }
    return -1;
}

/* DIR/frameNNNNNN-callNNNNNNNNN-WHAT.png of one snapshot record: 0, or -1
 * after saying why. */
static int write_snapshot(const extract_args *a, gt_snap_chain *chain, const gt_record *rec, uint64_t frame,
                          int wanted)
{
    Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec->size, rec->data);
    gt_diff_image img = {0};
    int rc = 0;
    const uint8_t *px = NULL;
    size_t n = 0;
    char why[GT_ERRLEN] = "malformed";
    /* Every snapshot goes through the chain, wanted or not: a coded one
     * needs the ones before it. */
    if (!m || !m->fb ||
        gt_show_snapshot_pixels(chain, m->fb, rec->thread_id, wanted ? &px : NULL, &n, why, sizeof why) != 0 ||
        (wanted && gt_view_snapshot_image(m->fb, px, n, &img) != 0)) {
        fprintf(stderr, "gltrace extract: %s: snapshot record %" PRIu64 " (chunk at byte %" PRIu64 "): %s\n", a->path,
                rec->seq, rec->offset, why);
        rc = -1;
    } else if (wanted) {
        char what[64], file[4096], perr[GT_DIFF_ERR_MAX];
        const Gltrace__GLMessage__FrameBuffer *f = m->fb;
        uint32_t src = f->has_source ? f->source : 0;
        if (src == 1)
            snprintf(what, sizeof what, "attachment%u", f->attachment - GL_COLOR_ATTACHMENT0);
        else if (src == 2)
            snprintf(what, sizeof what, "texture%u-%d-%d", f->object, f->level, f->layer);
        else
            snprintf(what, sizeof what, "surface");
        snprintf(file, sizeof file, "%s/frame%06" PRIu64 "-call%09" PRIu64 "-%s.png", a->out, frame, rec->seq, what);
        if (gt_diff_png_write(file, &img, perr) != 0) {
            fprintf(stderr, "gltrace extract: %s\n", perr);
            rc = -1;
        } else {
            printf("%s\n", file);
        }
    }
    gt_diff_image_free(&img);
    if (m)
        gltrace__glmessage__free_unpacked(m, NULL);
    return rc;
}

/* Every snapshot record of the chosen frames: 0, or 2. */
static int extract(const extract_args *a, gt_reader *r)
{
    gt_record rec;
    int rc, status = 0;
    uint64_t frame = 0, written = 0;
    gt_snap_chain *chain = gt_snap_chain_new();
    if (!chain) {
        fprintf(stderr, "gltrace extract: out of memory\n");
        return 2;
    }
    int32_t swaps[8];
    size_t nswaps = gt_frame_functions(swaps, 8);
    while (status == 0 && (rc = gt_reader_next(r, &rec)) == 1) {
        uint64_t fn = 0;
        if (gt_wire_find_varint(rec.data, rec.size, 4, &fn) != 1)
            continue;
        int swap = 0;
        for (size_t k = 0; k < nswaps; k++)
            swap |= (int64_t)fn == swaps[k];
        if (swap) {
            frame++;
            continue;
        }
        if (fn != GT_FN_SNAPSHOT)
            continue;
        int wanted = !a->frames.n || gt_callset_contains(&a->frames, frame);
        if (write_snapshot(a, chain, &rec, frame, wanted) != 0)
            status = 2;
        else
            written += wanted;
    }
    if (status == 0 && rc < 0) {
        fprintf(stderr, "gltrace extract: %s (the %" PRIu64 " snapshots before it were written)\n",
                gt_reader_error(r), written);
        status = 2;
    }
    gt_snap_chain_free(chain);
    return status;
}

int gt_cmd_extract(int argc, char **argv)
{
    extract_args a = {0};
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        goto done;
    status = 2;
    if (mkdir(a.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gltrace extract: cannot make %s: %s\n", a.out, strerror(errno));
        goto done;
    }
    char err[GT_ERRLEN];
    gt_reader *r = gt_reader_open(a.path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "gltrace extract: %s\n", err);
        goto done;
    }
    status = extract(&a, r);
    gt_reader_close(r);
done:
    gt_callset_free(&a.frames);
    return status;
}
