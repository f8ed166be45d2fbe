/* gt_reader.c: reads a trace record by record, in call (seq) order.
 *
 * Chunks of different threads interleave in the file in flush order, so the
 * reader knows every chunk's seq range first (from the seek index, or by
 * walking the chunk headers of a file without one), then merges: chunks are
 * opened in first-seq order only when the merge reaches them, so memory
 * holds just the chunks that overlap in seq, never the whole file.
 * Legacy Android files are read in file order. Damage is reported after
 * every record that can be delivered in order has been. */
#define _GNU_SOURCE
#include "gt_container.h"
#include "gt_trace.h"
#include "gt_wire_times.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

typedef struct chunk {
    uint64_t off, tid, first_seq, last_seq, first_frame;
    uint32_t count, csize, flags;
} chunk;

typedef struct open_chunk {
    const chunk *c;
    uint8_t *data;
    size_t size, pos;     /* pos: start of the current record's frame */
    uint64_t seq;         /* seq of the current record */
    uint64_t scan;        /* its scan id (gt_reader_set_scanner), 0 none */
    uint32_t delivered;
} open_chunk;

struct gt_reader {
    int fd;
    char *path;
    gt_format fmt;
    uint64_t size;
    int has_index;
    chunk *chunks;        /* sorted by first_seq */
    size_t nchunks, next;
    open_chunk *heap;     /* min-heap on seq */
    size_t nheap;
    uint8_t *retired;     /* data of the last exhausted chunk, freed later */
    ZSTD_DCtx *dctx;
    uint64_t skip_below;  /* seek: records with smaller seq are skipped */
    uint64_t stop_seq;    /* a chunk from here on is damaged: stop before it */
    uint64_t last_seq;    /* last delivered */
    uint64_t fast_below;  /* next_merged's fast path: seqs below this need no chunk opened or stop */
    gt_record_scanner scanner;
    void *scan_ctx;
    uint64_t scan_ids;    /* the last scan id given */
    int delivered_any;
    /* damage found while indexing, reported after the good chunks */
    char pending[GT_ERRLEN];
    int failed;
    char err[GT_ERRLEN];
    /* legacy */
    uint64_t lpos, lindex;
    uint8_t *lbuf;
    size_t lcap;
    gt_reader_stats st;
};

static int fail(gt_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(gt_reader *r, const char *fmt, ...)
{
    if (!r->failed) {
        int n = snprintf(r->err, sizeof r->err, "%s: ", r->path);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
        va_end(ap);
        r->failed = 1;
    }
    return -1;
}

static int read_at(gt_reader *r, void *buf, size_t len, uint64_t off)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(r->fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

/* ------------------------------------------------------------ indexing */

/* In the fuzz build (GLTRACE_FUZZ defines the macro, as OSS-Fuzz does) any
 * CRC passes, or the fuzzer would never get past one to the code behind it. */
static int crc_ok(uint32_t want, const uint8_t *p, size_t n)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    (void)want, (void)p, (void)n;
    return 1;
#else
    return want == gt_crc32(p, n);
#endif
}

static int parse_header(const uint8_t *h, chunk *c, uint32_t *usize)
{
    const uint8_t *p = h + 8;
    if (gt_rd32(h) != GT_CHUNK_FRAME || gt_rd32(h + 4) != GT_CHUNK_PAYLOAD || gt_rd32(p) != GT_CHUNK_MAGIC ||
        !crc_ok(gt_rd32(p + 60), p, 60))
        return -1;
    c->tid = gt_rd64(p + 8);
    c->first_seq = gt_rd64(p + 16);
    c->last_seq = gt_rd64(p + 24);
    c->first_frame = gt_rd64(p + 32);
    c->count = gt_rd32(p + 40);
    *usize = gt_rd32(p + 44);
    c->csize = gt_rd32(p + 48);
    c->flags = gt_rd32(p + 52);
    return c->last_seq >= c->first_seq && c->count > 0 ? 0 : -1;
}

static int push_chunk(gt_reader *r, const chunk *c, size_t *cap)
{
    if (r->nchunks == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        chunk *n = realloc(r->chunks, ncap * sizeof *n);
        if (!n)
            return -1;
        r->chunks = n;
        *cap = ncap;
    }
    r->chunks[r->nchunks++] = *c;
    return 0;
}

/* The seek index at the end, if the file has a valid one: 1 used, 0 none,
 * -1 present but damaged (error set). */
static int load_index(gt_reader *r)
{
    uint8_t tail[16];
    if (r->size < 8 + 16 + 16 || read_at(r, tail, 16, r->size - 16) != 0 || gt_rd32(tail + 12) != GT_END_MAGIC)
        return 0;
    uint64_t at = gt_rd64(tail);
    if (at >= r->size - 24 || r->size - at > ((uint64_t)1 << 32))
        return fail(r, "corrupt seek index: its offset %llu is outside the file", (unsigned long long)at);
    size_t n = (size_t)(r->size - at);
    uint8_t *b = malloc(n);
    if (!b)
        return fail(r, "out of memory for the seek index");
    int rc = -1;
    if (read_at(r, b, n, at) != 0) {
        fail(r, "cannot read the seek index at byte %llu", (unsigned long long)at);
        goto out;
    }
    const uint8_t *p = b + 8;
    uint64_t cnt = n >= 24 ? gt_rd64(p + 8) : 0;
    if (gt_rd32(b) != GT_INDEX_FRAME || gt_rd32(b + 4) != n - 8 || gt_rd32(p) != GT_INDEX_MAGIC ||
        cnt != (n - 8 - 32) / GT_INDEX_ENTRY || 16 + GT_INDEX_ENTRY * cnt + 16 != n - 8 ||
        gt_rd64(p + 16 + GT_INDEX_ENTRY * cnt) != at ||
        !crc_ok(gt_rd32(p + 24 + GT_INDEX_ENTRY * cnt), p, 24 + GT_INDEX_ENTRY * cnt)) {
        fail(r, "corrupt seek index at byte %llu (its checksum or layout does not match)", (unsigned long long)at);
        goto out;
    }
    size_t cap = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        const uint8_t *e = p + 16 + GT_INDEX_ENTRY * i;
        chunk c = {gt_rd64(e), gt_rd64(e + 8), gt_rd64(e + 16), gt_rd64(e + 24), gt_rd64(e + 32),
                   gt_rd32(e + 40), gt_rd32(e + 44), 0};
        if (c.off >= at || GT_CHUNK_HEADER + (uint64_t)c.csize > at - c.off || c.last_seq < c.first_seq) {
            fail(r, "corrupt seek index at byte %llu: entry %llu points outside the chunks",
                 (unsigned long long)at, (unsigned long long)i);
            goto out;
        }
        if (push_chunk(r, &c, &cap) != 0) {
            fail(r, "out of memory");
            goto out;
        }
    }
    r->has_index = 1;
    rc = 1;
out:
    free(b);
    return rc;
}

/* A compacted trace cut right after a chunk (its chunks carry
 * GT_CHUNK_RANGES) whose seq range is not complete: damage, said once the
 * records before it are read, so that delivery stops at the first record
 * missing (gt_reader_next) and what is read is a prefix of the calls.
 * Cut inside a chunk, the walk has found the damage already. */
static void note_torn_range(gt_reader *r)
{
    if (!r->nchunks || r->pending[0])
        return;
    /* Compaction writes a range's chunks by first seq, the range's last one
     * flagged complete, and ranges in order: in a whole file the chunk that
     * begins last ends a range. Found by seq, not by place, so that a file
     * whose chunks were moved about still reads whole (walk_headers orders
     * them by seq). */
    const chunk *c = &r->chunks[0];
    for (size_t i = 1; i < r->nchunks; i++)
        if (r->chunks[i].first_seq > c->first_seq)
            c = &r->chunks[i];
    if (!(c->flags & GT_CHUNK_RANGES) || (c->flags & GT_CHUNK_COMPLETE))
        return;
    snprintf(r->pending, sizeof r->pending, "%s: cut short at byte %llu, after a chunk whose range of calls is not "
             "complete (compacted chunks are written a range at a time)", r->path,
             (unsigned long long)(c->off + GT_CHUNK_HEADER + c->csize));
}

/* No index (a capture that did not end cleanly): walk the headers. Damage
 * ends the walk; it is reported once the chunks before it are delivered. */
static void walk_headers(gt_reader *r)
{
    size_t cap = 0;
    uint64_t off = 0;
    while (off < r->size) {
        uint8_t h[GT_CHUNK_HEADER];
        chunk c = {0};
        uint32_t usize;
        if (r->size - off < GT_CHUNK_HEADER) {
            snprintf(r->pending, sizeof r->pending, "%s: truncated at byte %llu (chunk header at byte %llu needs %u bytes)",
                     r->path, (unsigned long long)r->size, (unsigned long long)off, GT_CHUNK_HEADER);
            return;
        }
        if (read_at(r, h, sizeof h, off) != 0) {
            snprintf(r->pending, sizeof r->pending, "%s: cannot read at byte %llu", r->path, (unsigned long long)off);
            return;
        }
        if (gt_rd32(h) == GT_INDEX_FRAME)
            return; /* an index whose trailer was cut off: chunks are complete */
        if (parse_header(h, &c, &usize) != 0) {
            snprintf(r->pending, sizeof r->pending, "%s: corrupt chunk header at byte %llu", r->path,
                     (unsigned long long)off);
            return;
        }
        c.off = off;
        if (c.csize > r->size - off - GT_CHUNK_HEADER) {
            snprintf(r->pending, sizeof r->pending, "%s: truncated at byte %llu (chunk at byte %llu needs %llu bytes)",
                     r->path, (unsigned long long)r->size, (unsigned long long)off,
                     (unsigned long long)(GT_CHUNK_HEADER + (uint64_t)c.csize));
            return;
        }
        if (push_chunk(r, &c, &cap) != 0) {
            snprintf(r->pending, sizeof r->pending, "%s: out of memory", r->path);
            return;
        }
        off += GT_CHUNK_HEADER + c.csize;
    }
}

static int by_first_seq(const void *a, const void *b)
{
    const chunk *x = a, *y = b;
    if (x->first_seq != y->first_seq)
        return x->first_seq < y->first_seq ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

gt_reader *gt_reader_open(const char *path, char *err, size_t errlen)
{
    gt_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(r);
        return NULL;
    }
    r->stop_seq = UINT64_MAX;
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (r->fd < 0 || fstat(r->fd, &st) != 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        goto fail;
    }
    r->size = (uint64_t)st.st_size;
    uint8_t m[4];
    if (r->size < 4 || read_at(r, m, 4, 0) != 0) {
        snprintf(err, errlen, "%s: not a trace: the file has %llu bytes", path, (unsigned long long)r->size);
        goto fail;
    }
    uint32_t magic = gt_rd32(m);
    if (magic == GT_ZSTD_MAGIC || (magic & GT_SKIP_MAGIC_MASK) == GT_SKIP_MAGIC_BASE) {
        r->fmt = GT_FORMAT_ZSTD;
        if (magic == GT_ZSTD_MAGIC) {
            snprintf(err, errlen, "%s: a zstd stream without gltrace chunk headers at byte 0 (decompress it with "
                                  "zstd -dc to read it as a legacy trace)", path);
            goto fail;
        }
        int idx = load_index(r);
        if (idx < 0) {
            snprintf(err, errlen, "%s", r->err);
            goto fail;
        }
        if (idx == 0) {
            walk_headers(r);
            note_torn_range(r);
        }
        if (r->nchunks == 0 && r->pending[0]) {
            snprintf(err, errlen, "%s", r->pending);
            goto fail;
        }
        if (r->nchunks) /* a file of skippable frames only has none, and no array */
            qsort(r->chunks, r->nchunks, sizeof *r->chunks, by_first_seq);
        r->heap = calloc(r->nchunks ? r->nchunks : 1, sizeof *r->heap);
        r->dctx = ZSTD_createDCtx();
        if (!r->heap || !r->dctx) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto fail;
        }
        for (size_t i = 0; i < r->nchunks; i++)
            r->st.records += r->chunks[i].count;
        r->st.chunks = r->nchunks;
    } else {
        uint32_t len = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
        if (len == 0 || len > GT_LEGACY_MAX_RECORD || len > r->size - 4) {
            snprintf(err, errlen, "%s: not a trace: neither gltrace's zstd container nor a legacy .gltrace "
                                  "(first record length %u at byte 0)", path, len);
            goto fail;
        }
        r->fmt = GT_FORMAT_LEGACY;
    }
    r->st.format = r->fmt;
    r->st.has_index = r->has_index;
    r->st.file_size = r->size;
    return r;
fail:
    gt_reader_close(r);
    return NULL;
}

/* ------------------------------------------------------------ merging */

static int heap_less(const open_chunk *a, const open_chunk *b) { return a->seq < b->seq; }

static void heap_push(gt_reader *r, open_chunk oc)
{
    size_t i = r->nheap++;
    r->heap[i] = oc;
    while (i > 0 && heap_less(&r->heap[i], &r->heap[(i - 1) / 2])) {
        open_chunk t = r->heap[i];
        r->heap[i] = r->heap[(i - 1) / 2];
        r->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

/* Restores the heap order after heap[0] changed. `after_equal`: the top
 * goes below children of the same seq, as a pop and push would put it (only
 * damaged traces repeat a seq, but they keep their order of delivery). */
static void heap_sift_top(gt_reader *r, int after_equal)
{
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, c = l;
        if (l >= r->nheap)
            break;
        if (l + 1 < r->nheap && heap_less(&r->heap[l + 1], &r->heap[l]))
            c = l + 1;
        if (!heap_less(&r->heap[c], &r->heap[i]) && !(after_equal && r->heap[c].seq == r->heap[i].seq))
            break;
        open_chunk t = r->heap[i];
        r->heap[i] = r->heap[c];
        r->heap[c] = t;
        i = c;
    }
}

static open_chunk heap_pop(gt_reader *r)
{
    open_chunk top = r->heap[0];
    r->heap[0] = r->heap[--r->nheap];
    heap_sift_top(r, 0);
    return top;
}

/* The seq of a record, by the caller's scanner or gt_wire_find_varint
 * (1 found, 0 absent, -1 malformed); *id: the scan's id, 0 for none. */
static inline int scan_seq(gt_reader *r, const uint8_t *msg, size_t len, uint64_t keep, uint64_t *id, uint64_t *seq)
{
    if (!r->scanner) {
        *id = 0;
        return gt_wire_find_varint(msg, len, GT_FIELD_SEQ, seq);
    }
    *id = ++r->scan_ids;
    return r->scanner(r->scan_ctx, msg, len, *id, keep, seq);
}

void gt_reader_set_scanner(gt_reader *r, gt_record_scanner scan, void *ctx)
{
    r->scanner = scan;
    r->scan_ctx = ctx;
}

/* Checks the record at oc->pos and finds its seq. 0 ok, -1 damaged. keep:
 * the scan id of the record being delivered (see scan_seq). */
static int frame_record(gt_reader *r, open_chunk *oc, uint64_t prev_seq, int first, uint64_t keep)
{
    if (oc->size - oc->pos < 4)
        return fail(r, "corrupt chunk at byte %llu: a record's length is cut short", (unsigned long long)oc->c->off);
    uint32_t len = gt_rdbe32(oc->data + oc->pos);
    if (len > oc->size - oc->pos - 4)
        return fail(r, "corrupt chunk at byte %llu: a record of %u bytes overruns the chunk",
                    (unsigned long long)oc->c->off, len);
    uint64_t seq;
    int found = scan_seq(r, oc->data + oc->pos + 4, len, keep, &oc->scan, &seq);
    if (found < 0)
        return fail(r, "corrupt chunk at byte %llu: record %u is not a valid message",
                    (unsigned long long)oc->c->off, oc->delivered);
    if (!found)
        seq = first ? oc->c->first_seq : prev_seq + 1;
    if ((first && seq != oc->c->first_seq) || (!first && seq <= prev_seq) || seq > oc->c->last_seq)
        return fail(r, "corrupt chunk at byte %llu: record seq %llu is outside the chunk's range %llu-%llu",
                    (unsigned long long)oc->c->off, (unsigned long long)seq,
                    (unsigned long long)oc->c->first_seq, (unsigned long long)oc->c->last_seq);
    oc->seq = seq;
    return 0;
}

static int open_chunk_at(gt_reader *r, const chunk *c)
{
    uint8_t h[GT_CHUNK_HEADER];
    chunk hc;
    uint32_t usize;
    if (read_at(r, h, sizeof h, c->off) != 0)
        return fail(r, "truncated at byte %llu (chunk header at byte %llu)", (unsigned long long)r->size,
                    (unsigned long long)c->off);
    if (parse_header(h, &hc, &usize) != 0)
        return fail(r, "corrupt chunk header at byte %llu", (unsigned long long)c->off);
    /* From the seek index, c must be what the header says in every field:
     * an index entry pointing elsewhere (another chunk, a record's bytes)
     * is damage even when both checksums hold. */
    if (hc.tid != c->tid || hc.first_seq != c->first_seq || hc.last_seq != c->last_seq ||
        hc.first_frame != c->first_frame || hc.count != c->count || hc.csize != c->csize)
        return fail(r, "corrupt chunk header at byte %llu: it does not match the seek index's entry",
                    (unsigned long long)c->off);
    /* Sizes a damaged header declares are believed only as far as the file
     * backs them: the compressed bytes must be there, and the zstd frame
     * must declare the same size, before anything that large is allocated. */
    if (c->off + GT_CHUNK_HEADER + (uint64_t)c->csize > r->size)
        return fail(r, "truncated at byte %llu (chunk at byte %llu needs %llu bytes)", (unsigned long long)r->size,
                    (unsigned long long)c->off, (unsigned long long)(GT_CHUNK_HEADER + (uint64_t)c->csize));
    uint8_t *comp = malloc(c->csize ? c->csize : 1), *data = NULL;
    if (!comp)
        return fail(r, "out of memory for the chunk at byte %llu", (unsigned long long)c->off);
    if (read_at(r, comp, c->csize, c->off + GT_CHUNK_HEADER) != 0) {
        free(comp);
        return fail(r, "truncated at byte %llu (chunk at byte %llu needs %llu bytes)", (unsigned long long)r->size,
                    (unsigned long long)c->off, (unsigned long long)(GT_CHUNK_HEADER + (uint64_t)c->csize));
    }
    if (ZSTD_getFrameContentSize(comp, c->csize) != usize) {
        free(comp);
        return fail(r, "corrupt chunk at byte %llu: its zstd frame does not hold the %u bytes its header says",
                    (unsigned long long)c->off, usize);
    }
    if (!(data = malloc(usize ? usize : 1))) {
        free(comp);
        return fail(r, "out of memory for the chunk at byte %llu", (unsigned long long)c->off);
    }
    size_t n = ZSTD_decompressDCtx(r->dctx, data, usize, comp, c->csize);
    free(comp);
    if (ZSTD_isError(n) || n != usize) {
        free(data);
        return fail(r, "corrupt chunk at byte %llu: %s", (unsigned long long)c->off,
                    ZSTD_isError(n) ? ZSTD_getErrorName(n) : "size differs from its header");
    }
    if ((hc.flags & GT_CHUNK_TIMES) && gt_times_from_delta(data, usize, (hc.flags & GT_CHUNK_TIMES_BASE) != 0) != 0) {
        free(data);
        return fail(r, "corrupt chunk at byte %llu: a start time does not fit its field",
                    (unsigned long long)c->off);
    }
    r->st.uncompressed_size += usize;
    if (c->first_frame > r->st.frames)
        r->st.frames = c->first_frame;
    open_chunk oc = {c, data, usize, 0, 0, 0, 0};
    if (frame_record(r, &oc, 0, 1, 0) != 0) {
        free(data);
        return -1;
    }
    heap_push(r, oc);
    return 0;
}

/* The record at oc->pos (of `len` bytes), as gt_reader_next hands it out. */
static inline void fill_record(gt_record *rec, const open_chunk *oc, uint32_t len)
{
    rec->data = oc->data + oc->pos + 4;
    rec->size = len;
    rec->seq = oc->seq;
    rec->thread_id = oc->c->tid;
    rec->offset = oc->c->off;
    rec->scan = oc->scan;
}

/* noinline: the fast path in gt_reader_next then needs no stack frame */
static __attribute__((noinline)) int next_merged_slow(gt_reader *r, gt_record *rec)
{
    if (r->retired) {
        free(r->retired);
        r->retired = NULL;
    }
    for (;;) {
        if (r->failed)
            return -1;
        while (r->next < r->nchunks && (r->nheap == 0 || r->chunks[r->next].first_seq <= r->heap[0].seq)) {
            const chunk *c = &r->chunks[r->next++];
            if (c->last_seq < r->skip_below)
                continue;
            if (open_chunk_at(r, c) != 0) {
                /* Deliver what comes before the damaged chunk in seq
                 * order, then report it (ahead of any later damage). */
                snprintf(r->pending, sizeof r->pending, "%s", r->err);
                r->failed = 0;
                r->stop_seq = c->first_seq;
                r->next = r->nchunks;
            }
        }
        r->fast_below = r->next < r->nchunks && r->chunks[r->next].first_seq < r->stop_seq
                            ? r->chunks[r->next].first_seq : r->stop_seq;
        if (r->nheap == 0 || r->heap[0].seq >= r->stop_seq) {
            if (r->pending[0]) {
                snprintf(r->err, sizeof r->err, "%s", r->pending);
                r->failed = 1;
                return -1;
            }
            return 0;
        }
        /* With damage known, a gap in seq means records lost with it:
         * stop at the gap, so what is delivered is a true prefix. */
        if (r->pending[0] && r->delivered_any && r->heap[0].seq != r->last_seq + 1 &&
            r->heap[0].seq >= r->skip_below) {
            snprintf(r->err, sizeof r->err, "%s", r->pending);
            r->failed = 1;
            return -1;
        }
        /* The record is taken from the top chunk in place: its next
         * record's seq only grows, so one sift restores the order (none
         * at all with one chunk open, the usual case). */
        open_chunk *oc = &r->heap[0];
        uint32_t len = gt_rdbe32(oc->data + oc->pos);
        fill_record(rec, oc, len);
        oc->pos += 4 + (size_t)len;
        oc->delivered++;
        if (oc->pos < oc->size) {
            if (frame_record(r, oc, rec->seq, 0, rec->scan) != 0) {
                /* This record is whole; the damage after it is reported
                 * by the next call (r->failed is set). */
                r->retired = heap_pop(r).data;
                return 1;
            }
            if (r->nheap > 1)
                heap_sift_top(r, 1);
        } else {
            open_chunk done = heap_pop(r);
            if (done.delivered != done.c->count || rec->seq != done.c->last_seq) {
                free(done.data);
                return fail(r, "corrupt chunk at byte %llu: %u records (header says %u), last seq %llu (header says %llu)",
                            (unsigned long long)done.c->off, done.delivered, done.c->count,
                            (unsigned long long)rec->seq, (unsigned long long)done.c->last_seq);
            }
            r->retired = done.data; /* rec->data points into it until the next call */
        }
        if (rec->seq < r->skip_below)
            continue;
        r->last_seq = rec->seq;
        r->delivered_any = 1;
        return 1;
    }
}

/* The seq of the record at pos, after the record of seq `prev` in the same
 * chunk, when frame_record would find nothing wrong with it: 0, or -1 (let
 * frame_record look again and say what). */
static inline int next_seq(gt_reader *r, const open_chunk *oc, size_t pos, uint64_t prev, uint64_t *id,
                           uint64_t *seq)
{
    if (oc->size - pos < 4)
        return -1;
    uint32_t len = gt_rdbe32(oc->data + pos);
    if (len > oc->size - pos - 4)
        return -1;
    int found = scan_seq(r, oc->data + pos + 4, len, oc->scan, id, seq);
    if (found < 0 || (found && *seq <= prev))
        return -1;
    if (!found)
        *seq = prev + 1;
    return *seq > oc->c->last_seq ? -1 : 0;
}

/* The usual record: the top chunk's, with another after it in the chunk
 * that frames well, no chunk to open before it, nothing to skip, no damage
 * known. Anything else takes the general path from the same state. */
static int next_merged(gt_reader *r, gt_record *rec)
{
    open_chunk *oc = r->heap;
    if (__builtin_expect(r->nheap != 0 && oc->seq < r->fast_below && oc->seq >= r->skip_below && !r->retired &&
                         !r->failed && !r->pending[0], 1)) {
        uint32_t len = gt_rdbe32(oc->data + oc->pos);
        size_t next = oc->pos + 4 + (size_t)len;
        uint64_t seq, id;
        if (next < oc->size && next_seq(r, oc, next, oc->seq, &id, &seq) == 0) {
            fill_record(rec, oc, len);
            oc->pos = next;
            oc->delivered++;
            oc->seq = seq;
            oc->scan = id;
            if (r->nheap > 1)
                heap_sift_top(r, 1);
            r->last_seq = rec->seq;
            r->delivered_any = 1;
            return 1;
        }
    }
    return next_merged_slow(r, rec);
}

/* ------------------------------------------------------------ legacy */

static __attribute__((noinline)) int next_legacy(gt_reader *r, gt_record *rec)
{
    if (r->failed)
        return -1;
    if (r->lpos == r->size)
        return 0;
    uint8_t h[4];
    if (r->size - r->lpos < 4 || read_at(r, h, 4, r->lpos) != 0)
        return fail(r, "truncated at byte %llu (record at byte %llu has no complete length)",
                    (unsigned long long)r->size, (unsigned long long)r->lpos);
    uint32_t len = gt_rdbe32(h);
    if (len > GT_LEGACY_MAX_RECORD)
        return fail(r, "corrupt record at byte %llu: length %u is over the legacy limit", (unsigned long long)r->lpos, len);
    if (len > r->size - r->lpos - 4)
        return fail(r, "truncated at byte %llu (record at byte %llu needs %llu bytes)", (unsigned long long)r->size,
                    (unsigned long long)r->lpos, (unsigned long long)len + 4);
    if (len > r->lcap) {
        uint8_t *b = realloc(r->lbuf, len);
        if (!b)
            return fail(r, "out of memory for a %u-byte record", len);
        r->lbuf = b;
        r->lcap = len;
    }
    if (read_at(r, r->lbuf, len, r->lpos + 4) != 0)
        return fail(r, "cannot read at byte %llu", (unsigned long long)r->lpos);
    rec->data = r->lbuf;
    rec->size = len;
    rec->seq = r->lindex++;
    rec->thread_id = 0;
    rec->offset = r->lpos;
    rec->scan = 0;
    r->lpos += 4 + (uint64_t)len;
    r->st.records = r->lindex;
    r->st.uncompressed_size = r->lpos;
    return 1;
}

int gt_reader_next(gt_reader *r, gt_record *rec)
{
    return r->fmt == GT_FORMAT_LEGACY ? next_legacy(r, rec) : next_merged(r, rec);
}

int gt_reader_seek_frame(gt_reader *r, uint64_t frame)
{
    if (r->fmt == GT_FORMAT_LEGACY) {
        snprintf(r->err, sizeof r->err, "%s: a legacy trace has no frame index", r->path);
        return -1;
    }
    /* Per thread, the last chunk that began at or before the frame; the
     * earliest of their first seqs is where the frame can begin. */
    uint64_t start = 0;
    int any = 0;
    for (size_t i = 0; i < r->nchunks; i++) {
        const chunk *c = &r->chunks[i];
        if (c->first_frame > frame)
            continue;
        int later = 0;
        for (size_t j = 0; j < r->nchunks && !later; j++)
            later = r->chunks[j].tid == c->tid && r->chunks[j].first_frame <= frame &&
                    r->chunks[j].first_seq > c->first_seq;
        if (!later && (!any || c->first_seq < start)) {
            start = c->first_seq;
            any = 1;
        }
    }
    return gt_reader_seek_seq(r, start);
}

int gt_reader_seek_seq(gt_reader *r, uint64_t seq)
{
    if (r->fmt == GT_FORMAT_LEGACY) {
        snprintf(r->err, sizeof r->err, "%s: a legacy trace has no chunk index", r->path);
        return -1;
    }
    while (r->nheap)
        free(heap_pop(r).data);
    free(r->retired);
    r->retired = NULL;
    r->next = 0;
    r->fast_below = 0;
    r->skip_below = seq;
    return 0;
}

const char *gt_reader_error(const gt_reader *r) { return r->err; }

void gt_reader_stats_get(const gt_reader *r, gt_reader_stats *st) { *st = r->st; }

void gt_reader_close(gt_reader *r)
{
    if (!r)
        return;
    while (r->nheap)
        free(heap_pop(r).data);
    free(r->heap);
    free(r->retired);
    free(r->chunks);
    free(r->lbuf);
    ZSTD_freeDCtx(r->dctx);
    if (r->fd >= 0)
        close(r->fd);
    free(r->path);
    free(r);
}
