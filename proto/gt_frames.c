/* gt_frames.c: where a trace's frames end, one rule for replay, trim,
 * info and the viewer (gt_trace.h, gt_frames_scan).
 *
 * A frame ends at a swap (api/annotations.txt `class frame`: the caller's
 * predicate says which records those are, as this layer knows nothing of
 * GL). A trace that never swaps (a program that renders off screen and
 * calls glFinish or reads back: glmark2-es2 --off-screen, media pipelines,
 * test programs, a browser's GPU process) would otherwise be one frame,
 * which no one can cut or step through; its frames end at its snapshots
 * instead, which capture takes where such a program's output becomes
 * observable (capture/cap_unswapped.c: glFinish, a context let go of), or
 * before a mid-run start marks with a gltraceFrameEnd record. Consecutive
 * such records (a snapshot has one per attachment) end one frame, after
 * the last of them. A trace with one swap anywhere keeps swaps as its
 * frame ends: a program that renders into textures and swaps too would
 * otherwise have its numbering change with its passes. */
#include "gt_trace.h"

#include <stdio.h>
#include <stdlib.h>

/* A snapshot, or the mark capture leaves where it took none. */
static int ends_run(const gt_record *rec)
{
    uint64_t fn;
    return gt_wire_find_varint(rec->data, rec->size, 4, &fn) == 1 && (fn == GT_FN_SNAPSHOT || fn == GT_FN_FRAME_END);
}

static int is_swap(const gt_record *rec, int (*swap)(uint64_t fn, uint64_t alias))
{
    uint64_t fn, alias = 0;
    if (gt_wire_find_varint(rec->data, rec->size, 4, &fn) != 1)
        return 0;
    gt_wire_find_varint(rec->data, rec->size, 12, &alias);
    return swap(fn, alias);
}

static int add_end(gt_frame_ends *fe, uint64_t seq)
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

int gt_frames_scan(const char *path, int (*swap)(uint64_t fn, uint64_t alias), int all, gt_frame_ends *fe,
                   char *err, size_t errlen)
{
    *fe = (gt_frame_ends){0};
    gt_reader *rd = gt_reader_open(path, err, errlen);
    if (!rd)
        return -1;
    gt_record rec;
    int rc, in_run = 0;
    uint64_t run_last = 0;
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        if (is_swap(&rec, swap)) {
            fe->swaps++;
            if (!all)
                break;
            continue;
        }
        if (fe->swaps)
            continue;
        int mark = ends_run(&rec);
        if (in_run && !mark && add_end(fe, run_last) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -2;
            break;
        }
        in_run = mark;
        run_last = rec.seq;
    }
    if (rc == 0 && in_run && !fe->swaps && add_end(fe, run_last) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = -2;
    }
    if (rc == -1)
        snprintf(err, errlen, "%s", gt_reader_error(rd));
    gt_reader_close(rd);
    if (fe->swaps) /* swaps end its frames: the snapshots' ends are no one's */
        fe->n = 0;
    return rc < 0 ? -1 : 0;
}

void gt_frames_free(gt_frame_ends *fe)
{
    free(fe->last_seq);
    *fe = (gt_frame_ends){0};
}
