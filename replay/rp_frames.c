/* rp_frames.c: where a trace's frames end, one rule for replay, trim and
 * the tools built on them (inspect, diverge).
 *
 * A frame ends at a swap (api/annotations.txt `class frame`). A trace that
 * never swaps (a program that renders off screen and calls glFinish or
 * reads back: glmark2-es2 --off-screen, media pipelines, test programs)
 * would otherwise be one frame, which no one can cut or step through; its
 * frames end at its snapshots instead, which capture takes where such a
 * program's output becomes observable (capture/cap_unswapped.c: glFinish,
 * a context let go of), or before a mid-run start marks with a
 * gltraceFrameEnd record. Consecutive such records (a snapshot has one per
 * attachment) end one frame, after the last of them. A trace with one swap anywhere
 * keeps swaps as its frame ends: a program that renders into textures and
 * swaps too would otherwise have its numbering change with its passes. */
#include "rp_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "gt_api.h"
#include "gt_trace.h"

static int is_swap(const gt_record *rec)
{
    uint64_t fn, alias = 0;
    if (gt_wire_find_varint(rec->data, rec->size, 4, &fn) != 1)
        return 0;
    gt_wire_find_varint(rec->data, rec->size, 12, &alias);
    const gt_api_fn *f = gt_api_find_number((int32_t)fn, (uint32_t)alias);
    return f && f->cls == GT_CLASS_FRAME;
}

/* A snapshot, or the mark capture leaves where it took none (before a
 * mid-run start: gltraceFrameEnd). */
static int is_snapshot(const gt_record *rec)
{
    uint64_t fn;
    return gt_wire_find_varint(rec->data, rec->size, 4, &fn) == 1 && (fn == GT_FN_SNAPSHOT || fn == GT_FN_FRAME_END);
}

static int add_end(rp_frame_ends *fe, uint64_t seq)
{
    if (fe->n == fe->cap) {
        size_t cap = fe->cap ? fe->cap * 2 : 256;
        uint64_t *v = realloc(fe->last_seq, cap * sizeof *v);
        if (!v)
            return -1;
        fe->last_seq = v, fe->cap = cap;
    }
    fe->last_seq[fe->n++] = seq;
    return 0;
}

int rp_frames_scan(const char *path, int all, rp_frame_ends *fe, char *err, size_t len)
{
    *fe = (rp_frame_ends){0};
    char rerr[GT_ERRLEN];
    gt_reader *rd = gt_reader_open(path, rerr, sizeof rerr);
    if (!rd) {
        snprintf(err, len, "%s", rerr);
        return -1;
    }
    gt_record rec;
    int rc, in_run = 0;
    uint64_t run_last = 0;
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        if (is_swap(&rec)) {
            fe->swaps++;
            if (!all)
                break;
            continue;
        }
        if (fe->swaps)
            continue;
        int snap = is_snapshot(&rec);
        if (in_run && !snap && add_end(fe, run_last) != 0) {
            snprintf(err, len, "out of memory");
            rc = -2;
            break;
        }
        in_run = snap;
        run_last = rec.seq;
    }
    if (rc == 0 && in_run && !fe->swaps && add_end(fe, run_last) != 0) {
        snprintf(err, len, "out of memory");
        rc = -2;
    }
    if (rc == -1)
        snprintf(err, len, "%s", gt_reader_error(rd));
    gt_reader_close(rd);
    if (fe->swaps) /* swaps end its frames: the snapshots' ends are no one's */
        fe->n = 0;
    return rc < 0 ? -1 : 0;
}

void rp_frames_free(rp_frame_ends *fe)
{
    free(fe->last_seq);
    *fe = (rp_frame_ends){0};
}
