/* view_index.c: the viewer's index of a trace, one 48-byte entry per
 * record plus frames, threads and per-function totals, built in one pass
 * (after a scan for its first swap: a trace with none has its frames end
 * at its snapshots, proto/gt_frames.c)
 * and kept in a file beside the trace, then mapped: opening a trace of
 * gigabytes reads only the header and what the page looks at.
 *
 * The pass reads each record's top-level fields straight from the wire
 * (no unpacking: snapshot pixels are never copied), so it goes as fast as
 * the reader decompresses. The file is a cache in host byte order; its
 * header carries the trace's size and modification time, and any mismatch
 * (or another version) rebuilds it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gt_api.h"
#include "gt_enums.h"
#include "view_internal.h"

#define VIEW_MAGIC "GTVIEWIX"
#define HEADER_SIZE 128u

typedef struct view_header {
    char magic[8];
    uint32_t version, call_size;
    uint64_t trace_size;
    int64_t trace_mtime_ns;
    uint64_t ncalls, nframes;
    uint32_t nthreads, nstats, ncontexts, frame_size;
    uint64_t calls_off, frames_off, threads_off, stats_off;
    double build_seconds;
} view_header;

_Static_assert(sizeof(gt_view_call) == 48, "index entry layout");
_Static_assert(sizeof(view_header) <= HEADER_SIZE, "header fits");

/* ------------------------------------------------------------ wire fields */

static int varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 64 && *i < len; shift += 7) {
        uint8_t b = p[(*i)++];
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

typedef struct wire_call {
    uint64_t ctx, start, dur, fn, cpu, seq, tid, dur64, alias;
    int has_cpu, has_tid, has_dur64, has_fb;
    const uint8_t *ret;
    size_t retlen;
} wire_call;

/* The top-level fields of one GLMessage; -1 when malformed. */
static int wire_scan(const uint8_t *p, size_t len, wire_call *w)
{
    memset(w, 0, sizeof *w);
    size_t i = 0;
    while (i < len) {
        uint64_t key, v;
        if (varint(p, len, &i, &key) != 0)
            return -1;
        uint32_t field = (uint32_t)(key >> 3), type = key & 7;
        if (type == 0) {
            if (varint(p, len, &i, &v) != 0)
                return -1;
            switch (field) {
            case 1: w->ctx = v; break;
            case 2: w->start = v; break;
            case 3: w->dur = v; break;
            case 4: w->fn = v; break;
            case 8: w->cpu = v, w->has_cpu = 1; break;
            case 9: w->seq = v; break;
            case 10: w->tid = v, w->has_tid = 1; break;
            case 11: w->dur64 = v, w->has_dur64 = 1; break;
            case 12: w->alias = v; break;
            default: break;
            }
        } else if (type == 2) {
            if (varint(p, len, &i, &v) != 0 || v > len - i)
                return -1;
            if (field == 6)
                w->ret = p + i, w->retlen = (size_t)v;
            else if (field == 7)
                w->has_fb = 1;
            i += (size_t)v;
        } else if (type == 1 || type == 5) {
            size_t n = type == 1 ? 8 : 4;
            if (n > len - i)
                return -1;
            i += n;
        } else {
            return -1;
        }
    }
    return 0;
}

/* The first intValue of a DataType (field 3, plain or packed), or -1. */
static int64_t first_int(const uint8_t *p, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint64_t key, v;
        if (varint(p, len, &i, &key) != 0)
            return -1;
        uint32_t type = key & 7;
        if (type == 0) {
            if (varint(p, len, &i, &v) != 0)
                return -1;
            if (key >> 3 == 3)
                return (int64_t)(uint32_t)v;
        } else if (type == 2) {
            if (varint(p, len, &i, &v) != 0 || v > len - i)
                return -1;
            if (key >> 3 == 3 && v) {
                size_t j = i;
                uint64_t x;
                return varint(p, i + (size_t)v, &j, &x) == 0 ? (int64_t)(uint32_t)x : -1;
            }
            i += (size_t)v;
        } else if (type == 1 || type == 5) {
            i += type == 1 ? 8 : 4;
        } else {
            return -1;
        }
    }
    return -1;
}

static int is_gl_error(int64_t v)
{
    switch (v) {
    case GL_INVALID_ENUM: case GL_INVALID_VALUE: case GL_INVALID_OPERATION: case GL_STACK_OVERFLOW:
    case GL_STACK_UNDERFLOW: case GL_OUT_OF_MEMORY: case GL_INVALID_FRAMEBUFFER_OPERATION:
    case GL_CONTEXT_LOST:
        return 1;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------ building */

/* What the API description says of a function number, looked up once. */
typedef struct fn_facts {
    uint8_t known, flags, ret_enum;
} fn_facts;

static fn_facts facts_of(fn_facts *tab, uint16_t fn)
{
    fn_facts *f = &tab[fn];
    if (f->known)
        return *f;
    f->known = 1;
    const gt_api_fn *a = gt_api_find_number(fn, 0);
    if (a) {
        f->flags = a->cls == GT_CLASS_DRAW ? GT_VIEW_DRAW : a->cls == GT_CLASS_FRAME ? GT_VIEW_FRAME_END
                 : a->cls == GT_CLASS_PUSH ? GT_VIEW_PUSH : a->cls == GT_CLASS_POP ? GT_VIEW_POP : 0;
        f->ret_enum = a->ret_kind == GT_K_ENUM && !a->is_egl;
    }
    if (GT_FN_IS_SYNTHETIC(fn))
        f->flags |= GT_VIEW_SYNTHETIC;
    return *f;
}

typedef struct builder {
    FILE *out;
    fn_facts facts[65536];
    gt_view_stat stats[65536];
    gt_view_frame *frames;
    uint64_t nframes, cap_frames;
    uint64_t *threads;
    uint32_t nthreads, cap_threads;
    uint16_t *depth; /* per context */
    uint32_t ncontexts, cap_depth;
    uint64_t ncalls;
    gt_frame_ends ends; /* a trace that never swaps: the last records of its frames (proto/gt_frames.c) */
    size_t next_end;
} builder;

static int grow(void **p, size_t size, uint64_t need, uint64_t *cap)
{
    if (need <= *cap)
        return 0;
    uint64_t n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

static int thread_index(builder *b, uint64_t tid, uint16_t *out)
{
    for (uint32_t i = b->nthreads; i-- > 0;)
        if (b->threads[i] == tid)
            return *out = (uint16_t)i, 0;
    if (b->nthreads >= 65535)
        return *out = 65535, 0;
    uint64_t cap = b->cap_threads;
    if (grow((void **)&b->threads, sizeof *b->threads, b->nthreads + 1u, &cap) != 0)
        return -1;
    b->cap_threads = (uint32_t)cap;
    b->threads[b->nthreads] = tid;
    *out = (uint16_t)b->nthreads++;
    return 0;
}

/* Depth of the context's debug groups, moved by push and pop. */
static int marker_depth(builder *b, gt_view_call *c)
{
    if (c->ctx >= b->cap_depth) {
        uint64_t cap = b->cap_depth, old = cap;
        if (grow((void **)&b->depth, sizeof *b->depth, c->ctx + 1u, &cap) != 0)
            return -1;
        memset(b->depth + old, 0, (size_t)(cap - old) * sizeof *b->depth);
        b->cap_depth = (uint32_t)cap;
    }
    uint16_t *d = &b->depth[c->ctx];
    if (c->flags & GT_VIEW_POP && *d > 0)
        (*d)--;
    c->depth = *d;
    if (c->flags & GT_VIEW_PUSH && *d < 65535)
        (*d)++;
    return 0;
}

static int add_to_frame(builder *b, const gt_view_call *c, uint64_t pos)
{
    if (c->frame >= b->nframes) {
        if (grow((void **)&b->frames, sizeof *b->frames, c->frame + 1u, &b->cap_frames) != 0)
            return -1;
        while (b->nframes <= c->frame) {
            gt_view_frame *f = &b->frames[b->nframes++];
            memset(f, 0, sizeof *f);
            f->first = pos;
            f->t0 = c->t;
            f->thumb = UINT64_MAX;
        }
    }
    gt_view_frame *f = &b->frames[c->frame];
    f->count = pos + 1 - f->first;
    if (c->t < f->t0)
        f->t0 = c->t;
    if (c->t + (int64_t)c->dur > f->t1)
        f->t1 = c->t + (int64_t)c->dur;
    f->wall += c->dur;
    f->cpu += c->cpu;
    f->draws += !!(c->flags & GT_VIEW_DRAW);
    if (c->flags & GT_VIEW_SNAPSHOT) {
        f->snapshots++;
        f->thumb = pos;
    }
    return 0;
}

static int add_record(builder *b, const gt_record *rec, uint32_t *frame, char *err, size_t errlen, const char *trace)
{
    wire_call w;
    if (wire_scan(rec->data, rec->size, &w) != 0 || w.fn > 65535) {
        snprintf(err, errlen, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage", trace,
                 (unsigned long long)rec->seq, (unsigned long long)rec->offset);
        return -1;
    }
    gt_view_call c = {0};
    c.seq = rec->seq;
    c.offset = rec->offset;
    c.t = (int64_t)w.start;
    uint64_t dur = w.has_dur64 ? w.dur64 : w.dur;
    c.dur = dur > UINT32_MAX ? UINT32_MAX : (uint32_t)dur;
    c.cpu = (uint32_t)w.cpu;
    c.fn = (uint16_t)w.fn;
    c.alias = (uint8_t)w.alias;
    c.ctx = w.ctx > 65535 ? 65535 : (uint16_t)w.ctx;
    fn_facts f = facts_of(b->facts, c.fn);
    c.flags = f.flags | (w.has_cpu ? GT_VIEW_CPU : 0);
    if (c.fn == GT_FN_SNAPSHOT && w.has_fb)
        c.flags |= GT_VIEW_SNAPSHOT;
    if (f.ret_enum && w.ret) {
        int64_t v = first_int(w.ret, w.retlen);
        if (is_gl_error(v))
            c.flags |= GT_VIEW_ERROR, c.error = (uint16_t)v;
    }
    c.frame = *frame;
    if (b->next_end < b->ends.n && c.seq == b->ends.last_seq[b->next_end])
        c.flags |= GT_VIEW_FRAME_END, b->next_end++; /* the last snapshot of a frame of a trace that never swaps */
    if (c.flags & GT_VIEW_FRAME_END)
        ++*frame;
    if (thread_index(b, w.has_tid ? w.tid : rec->thread_id, &c.thread) != 0 || marker_depth(b, &c) != 0 ||
        add_to_frame(b, &c, b->ncalls) != 0) {
        snprintf(err, errlen, "%s: out of memory indexing record %llu", trace, (unsigned long long)rec->seq);
        return -1;
    }
    if (!(c.flags & GT_VIEW_SYNTHETIC) && w.ctx + 1 > b->ncontexts)
        b->ncontexts = (uint32_t)(w.ctx + 1 > 65536 ? 65536 : w.ctx + 1);
    gt_view_stat *s = &b->stats[c.fn];
    s->fn = c.fn;
    s->count++;
    s->wall += c.dur;
    s->cpu += c.cpu;
    b->ncalls++;
    return fwrite(&c, sizeof c, 1, b->out) == 1 ? 0 : -2;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The tables after the calls, then the header. 0 or -1 (a write failed). */
static int write_tail(builder *b, view_header *h)
{
    h->ncalls = b->ncalls;
    h->calls_off = HEADER_SIZE;
    h->frames_off = h->calls_off + b->ncalls * sizeof(gt_view_call);
    h->nframes = b->nframes;
    h->threads_off = h->frames_off + b->nframes * sizeof(gt_view_frame);
    h->nthreads = b->nthreads;
    h->stats_off = h->threads_off + b->nthreads * sizeof(uint64_t);
    h->ncontexts = b->ncontexts;
    if (b->nframes && fwrite(b->frames, sizeof *b->frames, b->nframes, b->out) != b->nframes)
        return -1;
    if (b->nthreads && fwrite(b->threads, sizeof *b->threads, b->nthreads, b->out) != b->nthreads)
        return -1;
    for (size_t i = 0; i < 65536; i++) {
        if (!b->stats[i].count)
            continue;
        if (fwrite(&b->stats[i], sizeof b->stats[i], 1, b->out) != 1)
            return -1;
        h->nstats++;
    }
    char block[HEADER_SIZE] = {0};
    memcpy(block, h, sizeof *h);
    if (fseek(b->out, 0, SEEK_SET) != 0 || fwrite(block, sizeof block, 1, b->out) != 1)
        return -1;
    return fflush(b->out) == 0 ? 0 : -1;
}

static int build_pass(builder *b, const char *trace, gt_reader *r, void (*progress)(void *, uint64_t, uint64_t),
                      void *ctx, uint64_t size, char *err, size_t errlen)
{
    gt_record rec;
    int rc;
    uint32_t frame = 0;
    uint64_t next_report = 0;
    while ((rc = gt_reader_next(r, &rec)) == 1) {
        int a = add_record(b, &rec, &frame, err, errlen, trace);
        if (a == -2)
            snprintf(err, errlen, "cannot write the index: %s", strerror(errno));
        if (a != 0)
            return -1;
        if (progress && rec.offset >= next_report) {
            progress(ctx, rec.offset, size);
            next_report = rec.offset + (64u << 20);
        }
    }
    if (rc < 0) {
        snprintf(err, errlen, "%s", gt_reader_error(r));
        return -1;
    }
    return 0;
}

static int build(const char *trace, const char *path, const struct stat *st,
                 void (*progress)(void *, uint64_t, uint64_t), void *ctx, char *err, size_t errlen)
{
    double t0 = now_seconds();
    gt_reader *r = gt_reader_open(trace, err, errlen);
    if (!r)
        return -1;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    builder *b = calloc(1, sizeof *b);
    int rc = -1;
    if (!b) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    b->out = fopen(tmp, "wb");
    if (!b->out) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    setvbuf(b->out, NULL, _IOFBF, 1 << 20);
    view_header h = {0};
    memcpy(h.magic, VIEW_MAGIC, 8);
    h.version = GT_VIEW_INDEX_VERSION;
    h.call_size = sizeof(gt_view_call);
    h.frame_size = sizeof(gt_view_frame);
    h.trace_size = (uint64_t)st->st_size;
    h.trace_mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    char zero[HEADER_SIZE] = {0};
    if (gt_frames_scan(trace, gt_api_ends_frame, 0, &b->ends, err, errlen) != 0)
        goto done;
    if (fwrite(zero, sizeof zero, 1, b->out) != 1 ||
        build_pass(b, trace, r, progress, ctx, (uint64_t)st->st_size, err, errlen) != 0)
        goto done;
    h.build_seconds = now_seconds() - t0;
    if (write_tail(b, &h) != 0 || fclose(b->out) != 0) {
        b->out = NULL;
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    b->out = NULL;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (b) {
        if (b->out)
            fclose(b->out);
        free(b->frames);
        free(b->threads);
        free(b->depth);
        gt_frames_free(&b->ends);
        free(b);
    }
    if (rc != 0)
        unlink(tmp);
    gt_reader_close(r);
    return rc;
}

/* ------------------------------------------------------------ loading */

/* 1 loaded, 0 missing or stale (rebuild), -1 damaged beyond that. */
static int load(gt_view_index *ix, const char *path, const struct stat *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat is;
    if (fstat(fd, &is) != 0 || (size_t)is.st_size < HEADER_SIZE) {
        close(fd);
        return 0;
    }
    void *map = mmap(NULL, (size_t)is.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    view_header h;
    memcpy(&h, map, sizeof h);
    uint64_t size = (uint64_t)is.st_size;
    int64_t mtime = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    int ok = memcmp(h.magic, VIEW_MAGIC, 8) == 0 && h.version == GT_VIEW_INDEX_VERSION &&
             h.call_size == sizeof(gt_view_call) && h.frame_size == sizeof(gt_view_frame) &&
             h.trace_size == (uint64_t)st->st_size && h.trace_mtime_ns == mtime && h.calls_off == HEADER_SIZE &&
             h.ncalls <= (size - HEADER_SIZE) / sizeof(gt_view_call) &&
             h.frames_off == h.calls_off + h.ncalls * sizeof(gt_view_call) &&
             h.nframes <= (size - h.frames_off) / sizeof(gt_view_frame) &&
             h.threads_off == h.frames_off + h.nframes * sizeof(gt_view_frame) &&
             h.stats_off == h.threads_off + (uint64_t)h.nthreads * 8 &&
             h.stats_off + (uint64_t)h.nstats * sizeof(gt_view_stat) == size;
    const char *base = map;
    /* frames index calls: checked, so a damaged file is rebuilt rather
     * than read out of bounds (calls themselves index nothing unchecked) */
    const gt_view_frame *fr = (const gt_view_frame *)(base + h.frames_off);
    for (uint64_t i = 0; ok && i < h.nframes; i++)
        ok = fr[i].count && fr[i].first < h.ncalls && fr[i].count <= h.ncalls - fr[i].first &&
             (fr[i].thumb == UINT64_MAX || fr[i].thumb < h.ncalls);
    if (!ok) {
        munmap(map, (size_t)is.st_size);
        return 0;
    }
    ix->calls = (const gt_view_call *)(base + h.calls_off);
    ix->ncalls = h.ncalls;
    ix->frames = (const gt_view_frame *)(base + h.frames_off);
    ix->nframes = h.nframes;
    ix->threads = (const uint64_t *)(base + h.threads_off);
    ix->nthreads = h.nthreads;
    ix->stats = (const gt_view_stat *)(base + h.stats_off);
    ix->nstats = h.nstats;
    ix->ncontexts = h.ncontexts;
    ix->build_seconds = h.build_seconds;
    ix->map = map;
    ix->map_size = (size_t)is.st_size;
    /* the frame table is what every page shows first */
    madvise((char *)map + (h.frames_off & ~(uint64_t)4095), (size_t)(size - (h.frames_off & ~(uint64_t)4095)),
            MADV_WILLNEED);
    return 1;
}

void gt_view_index_path(const char *trace, char *out, size_t len)
{
    snprintf(out, len, "%s.gtview", trace);
}

/* $XDG_CACHE_HOME/gltrace/NAME-HASH.gtview for a trace whose folder is
 * read-only. */
static int cache_path(const char *trace, char *out, size_t len)
{
    char real[PATH_MAX];
    if (!realpath(trace, real))
        return -1;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char dir[PATH_MAX];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/gltrace", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/gltrace", home);
    else
        return -1;
    if (view_mkdirs(dir) != 0)
        return -1;
    const char *name = strrchr(real, '/');
    int n = snprintf(out, len, "%s/%s-%08x.gtview", dir, name ? name + 1 : real, gt_crc32(real, strlen(real)));
    return n > 0 && (size_t)n < len ? 0 : -1;
}

gt_view_index *gt_view_index_open(const char *trace, void (*progress)(void *, uint64_t, uint64_t), void *ctx,
                                  char *err, size_t errlen)
{
    struct stat st;
    if (stat(trace, &st) != 0) {
        snprintf(err, errlen, "%s: %s", trace, strerror(errno));
        return NULL;
    }
    gt_view_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char alt[PATH_MAX];
    gt_view_index_path(trace, ix->path, sizeof ix->path);
    if (load(ix, ix->path, &st) == 1)
        return ix;
    if (cache_path(trace, alt, sizeof alt) == 0 && load(ix, alt, &st) == 1) {
        snprintf(ix->path, sizeof ix->path, "%s", alt);
        return ix;
    }
    /* beside the trace when its folder is writable, else in the cache */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", trace);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = 0;
    else
        snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK) != 0) {
        if (cache_path(trace, alt, sizeof alt) != 0) {
            snprintf(err, errlen, "%s: its folder is not writable and there is no cache folder for its index "
                     "($XDG_CACHE_HOME or $HOME)", trace);
            free(ix);
            return NULL;
        }
        snprintf(ix->path, sizeof ix->path, "%s", alt);
    }
    if (build(trace, ix->path, &st, progress, ctx, err, errlen) != 0) {
        free(ix);
        return NULL;
    }
    if (load(ix, ix->path, &st) != 1) {
        snprintf(err, errlen, "%s: the index just written does not read back", ix->path);
        free(ix);
        return NULL;
    }
    ix->built = 1;
    return ix;
}

void gt_view_index_close(gt_view_index *ix)
{
    if (!ix)
        return;
    if (ix->map)
        munmap(ix->map, ix->map_size);
    free(ix);
}

int64_t gt_view_index_find(const gt_view_index *ix, uint64_t seq)
{
    uint64_t lo = 0, hi = ix->ncalls;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ix->calls[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->ncalls && ix->calls[lo].seq == seq ? (int64_t)lo : -1;
}
