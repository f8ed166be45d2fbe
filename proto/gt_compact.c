/* gt_compact.c: rewrites a trace into large chunks.
 *
 * While an app runs, capture flushes a chunk at every swap and every 100 ms
 * so that a crash loses little; each chunk is an independent zstd frame, so
 * a small app's trace is many small frames that compress poorly (each
 * starts without history). After the app has exited nothing is at risk any
 * more: this pass reads the trace in call order and writes each thread's
 * records again in chunks of about `chunk_bytes`, adding a record's seq
 * where its new neighbours no longer imply it (FORMAT.md, `seq`); the
 * threads' chunks of one seq range are written together (flush_all), so
 * that a copy cut short is a prefix of the calls. Frames are
 * counted from the records whose function is one of `frame_fns` (the
 * caller's eglSwapBuffers numbers: this layer knows nothing of GL). */
#include "gt_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pending {
    uint64_t tid;
    uint8_t *data;
    size_t len, cap;
    gt_chunk_info info;
    uint64_t last_seq;
} pending;

typedef struct compactor {
    gt_writer *w;
    pending *p;
    size_t np, capp;
    size_t chunk_bytes;
} compactor;

static pending *pending_of(compactor *c, uint64_t tid)
{
    for (size_t i = 0; i < c->np; i++)
        if (c->p[i].tid == tid)
            return &c->p[i];
    if (c->np == c->capp) {
        size_t cap = c->capp ? c->capp * 2 : 8;
        pending *n = realloc(c->p, cap * sizeof *n);
        if (!n)
            return NULL;
        c->p = n;
        c->capp = cap;
    }
    pending *p = &c->p[c->np++];
    memset(p, 0, sizeof *p);
    p->tid = tid;
    return p;
}

static int flush(compactor *c, pending *p, uint32_t flags)
{
    if (!p->info.record_count)
        return 0;
    p->info.thread_id = p->tid;
    p->info.flags = flags;
    int rc = gt_writer_chunk(c->w, &p->info, p->data, p->len);
    p->len = 0;
    p->info.record_count = 0;
    return rc;
}

/* Every thread's pending records, as one seq range: chunks by first seq,
 * the last flagged GT_CHUNK_COMPLETE. A file cut short then holds whole
 * ranges and a part of one, which readers leave out: what remains is a
 * prefix of the calls, whichever thread's chunk filled first. */
static int flush_all(compactor *c)
{
    for (;;) {
        pending *next = NULL, *after = NULL;
        for (size_t i = 0; i < c->np; i++) {
            pending *p = &c->p[i];
            if (!p->info.record_count)
                continue;
            if (!next || p->info.first_seq < next->info.first_seq)
                after = next, next = p;
            else if (!after || p->info.first_seq < after->info.first_seq)
                after = p;
        }
        if (!next)
            return 0;
        if (flush(c, next, GT_CHUNK_RANGES | (after ? 0 : GT_CHUNK_COMPLETE)) != 0)
            return -1;
    }
}

static int reserve(pending *p, size_t n)
{
    if (p->len + n <= p->cap)
        return 0;
    size_t cap = p->cap ? p->cap : 1 << 20;
    while (cap < p->len + n)
        cap *= 2;
    uint8_t *d = realloc(p->data, cap);
    if (!d)
        return -1;
    p->data = d;
    p->cap = cap;
    return 0;
}

static int add(compactor *c, const gt_record *rec, uint64_t frame)
{
    pending *p = pending_of(c, rec->thread_id);
    if (!p)
        return -1;
    if (p->len >= c->chunk_bytes && flush_all(c) != 0)
        return -1;
    uint64_t has_seq;
    int found = gt_wire_find_varint(rec->data, rec->size, GT_FIELD_SEQ, &has_seq);
    if (found < 0)
        return -1;
    /* A chunk's first record takes its seq from the header; later ones are
     * the previous plus one unless they say otherwise. */
    int need_seq = p->info.record_count && rec->seq != p->last_seq + 1 && !found;
    size_t extra = need_seq ? 11 : 0;
    if (reserve(p, 4 + rec->size + extra) != 0)
        return -1;
    uint8_t *o = p->data + p->len;
    size_t n = rec->size + extra;
    uint8_t *q = o + 4;
    memcpy(q, rec->data, rec->size);
    q += rec->size;
    if (need_seq) {
        *q++ = (uint8_t)(GT_FIELD_SEQ << 3);
        uint64_t v = rec->seq;
        while (v >= 0x80) {
            *q++ = (uint8_t)(v | 0x80);
            v >>= 7;
        }
        *q++ = (uint8_t)v;
        n = (size_t)(q - (o + 4));
    }
    o[0] = (uint8_t)(n >> 24), o[1] = (uint8_t)(n >> 16), o[2] = (uint8_t)(n >> 8), o[3] = (uint8_t)n;
    if (!p->info.record_count) {
        p->info.first_seq = rec->seq;
        p->info.first_frame = frame;
    }
    p->info.last_seq = rec->seq;
    p->info.record_count++;
    p->last_seq = rec->seq;
    p->len += 4 + n;
    return 0;
}

int gt_compact(const char *in, const char *out, int level, size_t chunk_bytes, const int32_t *frame_fns,
               size_t nframe_fns, char *err, size_t errlen)
{
    gt_reader *r = gt_reader_open(in, err, errlen);
    if (!r)
        return -1;
    gt_reader_stats st;
    gt_reader_stats_get(r, &st);
    if (st.format != GT_FORMAT_ZSTD || !st.has_index) {
        snprintf(err, errlen, st.format != GT_FORMAT_ZSTD
                                  ? "%s: not a gltrace zstd trace (legacy traces are left as they are)"
                                  : "%s: has no seek index (its capture did not finish): left as written",
                 in);
        gt_reader_close(r);
        return st.format != GT_FORMAT_ZSTD ? -1 : -2;
    }
    compactor c = {.chunk_bytes = chunk_bytes ? chunk_bytes : 4u << 20};
    c.w = gt_writer_open(out, level, err, errlen);
    if (!c.w) {
        gt_reader_close(r);
        return -1;
    }
    gt_record rec;
    int rc;
    uint64_t frame = 0;
    while ((rc = gt_reader_next(r, &rec)) == 1) {
        if (add(&c, &rec, frame) != 0) {
            snprintf(err, errlen, "%s: record %llu: %s", out, (unsigned long long)rec.seq,
                     gt_writer_error(c.w)[0] ? gt_writer_error(c.w) : "out of memory or malformed record");
            rc = -2;
            break;
        }
        uint64_t fn;
        if (gt_wire_find_varint(rec.data, rec.size, 4, &fn) == 1)
            for (size_t i = 0; i < nframe_fns; i++)
                if ((int64_t)fn == frame_fns[i])
                    frame++;
    }
    if (rc == -1)
        snprintf(err, errlen, "%s", gt_reader_error(r));
    if (rc == 0 && flush_all(&c) != 0) {
        snprintf(err, errlen, "%s", gt_writer_error(c.w));
        rc = -2;
    }
    for (size_t i = 0; i < c.np; i++)
        free(c.p[i].data);
    free(c.p);
    gt_reader_close(r);
    if (rc != 0) {
        gt_writer_abandon(c.w);
        remove(out);
        return -1;
    }
    return gt_writer_close(c.w, err, errlen);
}
