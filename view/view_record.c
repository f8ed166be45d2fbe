/* view_record.c: records read back by their index position. The reader
 * seeks to the record's call number (the trace's seek index says which
 * chunk holds it) and decompresses from that chunk on. A cursor remembers
 * where it is, so the rows of one page are read in one pass. */
#include <stdlib.h>
#include <string.h>

#include "gt_show.h"
#include "view_internal.h"

struct view_cursor {
    char *trace;
    const gt_view_index *ix;
    gt_reader *r;
    gt_record rec;     /* the last record read (valid while r is) */
    int have;          /* rec holds a record, the one at position pos */
    uint64_t pos;
    Gltrace__GLMessage *m;
};

view_cursor *view_cursor_open(const char *trace, const gt_view_index *ix, char *err, size_t errlen)
{
    view_cursor *c = calloc(1, sizeof *c);
    if (!c || !(c->trace = strdup(trace))) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->ix = ix;
    return c;
}

void view_cursor_close(view_cursor *c)
{
    if (!c)
        return;
    if (c->m)
        gltrace__glmessage__free_unpacked(c->m, NULL);
    if (c->r)
        gt_reader_close(c->r);
    free(c->trace);
    free(c);
}

/* Reopens the reader at call `seq` (the chunk holding it is the first one
 * decompressed); a legacy trace, which has no chunk index, is read from
 * its start. */
static int reposition(view_cursor *c, uint64_t seq, char *err, size_t errlen)
{
    if (c->r)
        gt_reader_close(c->r);
    c->have = 0;
    c->r = gt_reader_open(c->trace, err, errlen);
    if (!c->r)
        return -1;
    gt_reader_stats st;
    gt_reader_stats_get(c->r, &st);
    if (st.format != GT_FORMAT_LEGACY && gt_reader_seek_seq(c->r, seq) != 0) {
        snprintf(err, errlen, "%s", gt_reader_error(c->r));
        return -1;
    }
    return 0;
}

Gltrace__GLMessage *view_cursor_get(view_cursor *c, uint64_t pos, gt_record *rec, char *err, size_t errlen)
{
    if (pos >= c->ix->ncalls) {
        snprintf(err, errlen, "no call at position %llu", (unsigned long long)pos);
        return NULL;
    }
    const gt_view_call *want = &c->ix->calls[pos];
    if (c->m) {
        gltrace__glmessage__free_unpacked(c->m, NULL);
        c->m = NULL;
    }
    /* read on from here when the record is a little ahead, else seek */
    if (!c->r || !c->have || c->pos > pos || pos - c->pos > 4096) {
        if (reposition(c, want->seq, err, errlen) != 0)
            return NULL;
    }
    if (c->have && c->rec.seq == want->seq)
        goto found;
    for (;;) {
        int rc = gt_reader_next(c->r, &c->rec);
        if (rc <= 0) {
            c->have = 0;
            if (rc < 0)
                snprintf(err, errlen, "%s", gt_reader_error(c->r));
            else
                snprintf(err, errlen, "%s: call %llu not found in the trace (the index is stale?)", c->trace,
                         (unsigned long long)want->seq);
            return NULL;
        }
        c->have = 1;
        if (c->rec.seq == want->seq) {
            c->pos = pos;
            break;
        }
        int64_t at = gt_view_index_find(c->ix, c->rec.seq);
        c->pos = at >= 0 ? (uint64_t)at : 0;
        if (c->rec.seq > want->seq) {
            snprintf(err, errlen, "%s: call %llu not found in the trace (the index is stale?)", c->trace,
                     (unsigned long long)want->seq);
            c->have = 0;
            return NULL;
        }
    }
found:
    c->m = gltrace__glmessage__unpack(NULL, c->rec.size, c->rec.data);
    if (!c->m) {
        snprintf(err, errlen, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage", c->trace,
                 (unsigned long long)c->rec.seq, (unsigned long long)c->rec.offset);
        return NULL;
    }
    *rec = c->rec;
    return c->m;
}

void view_show(view_buf *b, const Gltrace__GLMessage *m, const gt_record *rec, int json, int full,
               gt_snap_chain *chain)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        b->failed = 1;
        return;
    }
    gt_show_record(f, m, rec, json, full, chain);
    if (fclose(f) != 0 || !text) {
        b->failed = 1;
        free(text);
        return;
    }
    while (len && text[len - 1] == '\n')
        len--;
    if (json)
        view_buf_put(b, text, len);
    else
        view_buf_strn(b, text, len);
    free(text);
}
