/* view_api.c: the JSON the page reads, one function per kind of answer.
 * The server sends them; the export writes the same into script chunks,
 * so both pages read one format.
 *
 * JSON is written by hand into a buffer rather than built as a tree with
 * a library (jansson, cJSON): the answers are flat lists of numbers and
 * strings that the index gives directly, the records' JSON comes ready
 * from gt_show (what `gltrace dump --json` prints), and a page of calls
 * costs no allocation per value this way. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_api.h"
#include "view_internal.h"

static const char *error_name(uint16_t e)
{
    const char *n = gt_api_enum_name(e, 0, 0);
    return n ? n : "?";
}

void view_api_info(view_buf *b, const char *trace, const gt_view_index *ix, int has_report)
{
    const char *name = strrchr(trace, '/');
    view_buf_put(b, "{\"trace\":", 9);
    view_buf_str(b, name ? name + 1 : trace);
    view_buf_printf(b, ",\"calls\":%" PRIu64 ",\"frames\":%" PRIu64 ",\"contexts\":%u,\"threads\":[", ix->ncalls,
                    ix->nframes, ix->ncontexts);
    for (uint32_t i = 0; i < ix->nthreads; i++)
        view_buf_printf(b, "%s%" PRIu64, i ? "," : "", ix->threads[i]);
    view_buf_printf(b, "],\"first_seq\":%" PRIu64 ",\"last_seq\":%" PRIu64 ",\"index\":{\"built\":%s,"
                       "\"build_seconds\":%.3f},\"report\":%s}",
                    ix->ncalls ? ix->calls[0].seq : 0, ix->ncalls ? ix->calls[ix->ncalls - 1].seq : 0,
                    ix->built ? "true" : "false", ix->build_seconds, has_report ? "true" : "false");
}

int view_api_frames(view_buf *b, const gt_view_index *ix, uint64_t from, uint64_t count)
{
    if (from > ix->nframes)
        from = ix->nframes;
    if (count > ix->nframes - from)
        count = ix->nframes - from;
    view_buf_printf(b, "{\"total\":%" PRIu64 ",\"from\":%" PRIu64 ",\"frames\":[", ix->nframes, from);
    for (uint64_t i = from; i < from + count; i++) {
        const gt_view_frame *f = &ix->frames[i];
        view_buf_printf(b, "%s{\"n\":%" PRIu64 ",\"pos\":%" PRIu64 ",\"first\":%" PRIu64 ",\"last\":%" PRIu64 ",\"calls\":%" PRIu64
                           ",\"draws\":%u,\"snapshots\":%u,\"t0\":%" PRId64 ",\"t1\":%" PRId64 ",\"wall\":%" PRIu64
                           ",\"cpu\":%" PRIu64,
                        i > from ? "," : "", i, f->first, ix->calls[f->first].seq, ix->calls[f->first + f->count - 1].seq,
                        f->count, f->draws, f->snapshots, f->t0, f->t1, f->wall, f->cpu);
        if (f->thumb != UINT64_MAX)
            view_buf_printf(b, ",\"thumb\":%" PRIu64, ix->calls[f->thumb].seq);
        view_buf_put(b, "}", 1);
    }
    view_buf_put(b, "]}", 2);
    return 0;
}

/* The fields every row has, from the index alone. */
static void call_fields(view_buf *b, const gt_view_index *ix, const gt_view_call *c)
{
    char nb[32];
    view_buf_printf(b, "\"seq\":%" PRIu64 ",\"frame\":%u,\"fn\":", c->seq, c->frame);
    view_buf_str(b, view_fn_name(c->fn, c->alias, nb, sizeof nb));
    view_buf_printf(b, ",\"ctx\":%u,\"tid\":%" PRIu64 ",\"depth\":%u,\"t\":%" PRId64 ",\"dur\":%u", c->ctx,
                    c->thread < ix->nthreads ? ix->threads[c->thread] : 0, c->depth, c->t, c->dur);
    if (c->flags & GT_VIEW_CPU)
        view_buf_printf(b, ",\"cpu\":%u", c->cpu);
    if (c->flags & GT_VIEW_DRAW)
        view_buf_put(b, ",\"draw\":true", 12);
    if (c->flags & GT_VIEW_SNAPSHOT)
        view_buf_put(b, ",\"snapshot\":true", 16);
    if (c->flags & GT_VIEW_FRAME_END)
        view_buf_put(b, ",\"swap\":true", 12);
    if (c->flags & GT_VIEW_PUSH)
        view_buf_put(b, ",\"push\":true", 12);
    if (c->flags & GT_VIEW_POP)
        view_buf_put(b, ",\"pop\":true", 11);
    if (c->flags & GT_VIEW_SYNTHETIC)
        view_buf_put(b, ",\"synthetic\":true", 17);
    if (c->flags & GT_VIEW_ERROR) {
        view_buf_put(b, ",\"error\":", 9);
        view_buf_str(b, error_name(c->error));
    }
}

int view_api_calls(view_buf *b, const gt_view_index *ix, view_cursor *c, const uint64_t *pos, size_t n,
                   uint64_t total, uint64_t from, char *err, size_t errlen)
{
    view_buf_printf(b, "{\"total\":%" PRIu64 ",\"from\":%" PRIu64 ",\"calls\":[", total, from);
    for (size_t i = 0; i < n; i++) {
        view_buf_put(b, i ? ",{" : "{", i ? 2 : 1);
        call_fields(b, ix, &ix->calls[pos[i]]);
        if (c) {
            gt_record rec;
            /* a coded snapshot by its pixels, as dump shows it: the ones
             * before it that it needs (a few reads; none for the others) */
            gt_snap_chain *chain = ix->calls[pos[i]].flags & GT_VIEW_SNAPSHOT
                                       ? view_snapshot_chain(c, ix, pos[i], err, errlen)
                                       : NULL;
            Gltrace__GLMessage *m = (chain || !(ix->calls[pos[i]].flags & GT_VIEW_SNAPSHOT))
                                        ? view_cursor_get(c, pos[i], &rec, err, errlen)
                                        : NULL;
            if (m) {
                view_buf_put(b, ",\"text\":", 8);
                view_show(b, m, &rec, 0, 0, chain);
            }
            gt_snap_chain_free(chain);
            if (!m)
                return -1;
        }
        view_buf_put(b, "}", 1);
    }
    view_buf_put(b, "]}", 2);
    return 0;
}

/* The closest draw before position pos in its context, or -1. */
static int64_t previous_draw(const gt_view_index *ix, uint64_t pos)
{
    /* across frames too, but not through a whole trace of gigabytes */
    uint64_t stop = pos > 1000000 ? pos - 1000000 : 0;
    for (uint64_t i = pos; i-- > stop;)
        if (ix->calls[i].flags & GT_VIEW_DRAW && ix->calls[i].ctx == ix->calls[pos].ctx)
            return (int64_t)i;
    return -1;
}

int view_api_call(view_buf *b, const gt_view_index *ix, view_cursor *c, uint64_t pos, char *err, size_t errlen)
{
    gt_record rec;
    gt_snap_chain *chain = view_snapshot_chain(c, ix, pos, err, errlen); /* a coded snapshot by its pixels */
    Gltrace__GLMessage *m = chain ? view_cursor_get(c, pos, &rec, err, errlen) : NULL;
    if (!m) {
        gt_snap_chain_free(chain);
        return -1;
    }
    view_buf_put(b, "{", 1);
    call_fields(b, ix, &ix->calls[pos]);
    view_buf_put(b, ",\"text\":", 8);
    view_show(b, m, &rec, 0, 0, chain);
    gt_snap_chain *again = view_snapshot_chain(c, ix, pos, err, errlen); /* the chain is used up by the text */
    m = again ? view_cursor_get(c, pos, &rec, err, errlen) : NULL;
    gt_snap_chain_free(chain);
    if (!m) {
        gt_snap_chain_free(again);
        return -1;
    }
    view_buf_put(b, ",\"record\":", 10);
    view_show(b, m, &rec, 1, 1, again);
    gt_snap_chain_free(again);
    int64_t prev = previous_draw(ix, pos);
    if (prev >= 0)
        view_buf_printf(b, ",\"prev_draw\":%" PRIu64, ix->calls[prev].seq);
    /* the snapshots recorded right after a draw are its images */
    view_buf_put(b, ",\"images\":[", 11);
    int k = 0;
    for (uint64_t i = pos; i < ix->ncalls && i < pos + 16; i++) {
        const gt_view_call *s = &ix->calls[i];
        if (i > pos && !(s->flags & GT_VIEW_SYNTHETIC))
            break;
        if (s->flags & GT_VIEW_SNAPSHOT)
            view_buf_printf(b, "%s%" PRIu64, k++ ? "," : "", s->seq);
    }
    view_buf_put(b, "]}", 2);
    return 0;
}

typedef struct fn_sum {
    uint64_t count, wall, cpu;
} fn_sum;

static void stat_row(view_buf *b, int first, uint16_t fn, uint8_t alias, uint64_t count, uint64_t wall, uint64_t cpu)
{
    char nb[32];
    view_buf_put(b, first ? "{\"fn\":" : ",{\"fn\":", first ? 6 : 7);
    view_buf_str(b, view_fn_name(fn, alias, nb, sizeof nb));
    view_buf_printf(b, ",\"count\":%" PRIu64 ",\"wall\":%" PRIu64 ",\"cpu\":%" PRIu64 "}", count, wall, cpu);
}

int view_api_stats(view_buf *b, const gt_view_index *ix, int64_t frame)
{
    if (frame < 0) {
        uint64_t calls = 0, wall = 0, cpu = 0;
        for (uint32_t i = 0; i < ix->nstats; i++)
            calls += ix->stats[i].count, wall += ix->stats[i].wall, cpu += ix->stats[i].cpu;
        uint64_t draws = 0;
        for (uint64_t f = 0; f < ix->nframes; f++)
            draws += ix->frames[f].draws;
        view_buf_printf(b, "{\"frame\":null,\"calls\":%" PRIu64 ",\"draws\":%" PRIu64 ",\"wall\":%" PRIu64
                           ",\"cpu\":%" PRIu64 ",\"functions\":[", calls, draws, wall, cpu);
        for (uint32_t i = 0; i < ix->nstats; i++)
            stat_row(b, i == 0, ix->stats[i].fn, 0, ix->stats[i].count, ix->stats[i].wall, ix->stats[i].cpu);
        view_buf_put(b, "]}", 2);
        return 0;
    }
    if ((uint64_t)frame >= ix->nframes)
        return -1;
    const gt_view_frame *f = &ix->frames[frame];
    fn_sum *sum = calloc(65536, sizeof *sum);
    if (!sum)
        return -1;
    for (uint64_t i = f->first; i < f->first + f->count; i++) {
        fn_sum *s = &sum[ix->calls[i].fn];
        s->count++, s->wall += ix->calls[i].dur, s->cpu += ix->calls[i].cpu;
    }
    view_buf_printf(b, "{\"frame\":%" PRId64 ",\"calls\":%" PRIu64 ",\"draws\":%u,\"wall\":%" PRIu64
                       ",\"cpu\":%" PRIu64 ",\"t0\":%" PRId64 ",\"t1\":%" PRId64 ",\"functions\":[",
                    frame, f->count, f->draws, f->wall, f->cpu, f->t0, f->t1);
    int first = 1;
    for (uint32_t fn = 0; fn < 65536; fn++)
        if (sum[fn].count) {
            stat_row(b, first, (uint16_t)fn, 0, sum[fn].count, sum[fn].wall, sum[fn].cpu);
            first = 0;
        }
    view_buf_put(b, "]}", 2);
    free(sum);
    return 0;
}

#define TIMELINE_MAX 200000u

int view_api_timeline(view_buf *b, const gt_view_index *ix, uint64_t f0, uint64_t f1)
{
    if (f0 >= ix->nframes || f1 < f0)
        return -1;
    if (f1 >= ix->nframes)
        f1 = ix->nframes - 1;
    uint64_t first = ix->frames[f0].first, end = ix->frames[f1].first + ix->frames[f1].count;
    int truncated = end - first > TIMELINE_MAX;
    if (truncated)
        end = first + TIMELINE_MAX;
    int64_t t0 = ix->frames[f0].t0;
    /* columns rather than objects: a frame range of many calls stays small */
    view_buf_printf(b, "{\"f0\":%" PRIu64 ",\"f1\":%" PRIu64 ",\"t0\":%" PRId64 ",\"truncated\":%s,\"lanes\":[",
                    f0, f1, t0, truncated ? "true" : "false");
    uint32_t lanes[64][2];
    uint32_t nlanes = 0;
    uint8_t *lane_of = malloc((size_t)(end - first) ? (size_t)(end - first) : 1);
    if (!lane_of)
        return -1;
    for (uint64_t i = first; i < end; i++) {
        const gt_view_call *c = &ix->calls[i];
        uint32_t l = 0;
        while (l < nlanes && !(lanes[l][0] == c->thread && lanes[l][1] == c->ctx))
            l++;
        if (l == nlanes && nlanes < 64) {
            lanes[nlanes][0] = c->thread, lanes[nlanes][1] = c->ctx;
            view_buf_printf(b, "%s{\"tid\":%" PRIu64 ",\"ctx\":%u}", nlanes ? "," : "",
                            c->thread < ix->nthreads ? ix->threads[c->thread] : 0, c->ctx);
            nlanes++;
        }
        lane_of[i - first] = (uint8_t)(l < nlanes ? l : nlanes - 1);
    }
    view_buf_printf(b, "],\"first\":%" PRIu64 ",\"t\":[", first < ix->ncalls ? ix->calls[first].seq : 0);
    for (uint64_t i = first; i < end; i++)
        view_buf_printf(b, "%s%" PRId64, i > first ? "," : "", ix->calls[i].t - t0);
    view_buf_put(b, "],\"dur\":[", 9);
    for (uint64_t i = first; i < end; i++)
        view_buf_printf(b, "%s%u", i > first ? "," : "", ix->calls[i].dur);
    view_buf_put(b, "],\"lane\":[", 10);
    for (uint64_t i = first; i < end; i++)
        view_buf_printf(b, "%s%u", i > first ? "," : "", lane_of[i - first]);
    view_buf_put(b, "],\"kind\":[", 10);
    for (uint64_t i = first; i < end; i++) {
        uint8_t fl = ix->calls[i].flags;
        view_buf_printf(b, "%s%d", i > first ? "," : "",
                        fl & GT_VIEW_ERROR ? 3 : fl & GT_VIEW_DRAW ? 1 : fl & GT_VIEW_FRAME_END ? 2 : 0);
    }
    view_buf_put(b, "],\"fn\":[", 8);
    for (uint64_t i = first; i < end; i++)
        view_buf_printf(b, "%s%u", i > first ? "," : "", ix->calls[i].fn);
    view_buf_put(b, "],\"names\":{", 11);
    uint8_t *seen = calloc(65536, 1);
    int k = 0;
    for (uint64_t i = first; seen && i < end; i++) {
        const gt_view_call *c = &ix->calls[i];
        if (seen[c->fn]++)
            continue;
        char nb[32];
        view_buf_printf(b, "%s\"%u\":", k++ ? "," : "", c->fn);
        view_buf_str(b, view_fn_name(c->fn, c->alias, nb, sizeof nb));
    }
    free(seen);
    view_buf_put(b, "}}", 2);
    free(lane_of);
    return 0;
}
