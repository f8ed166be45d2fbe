/* rp_trim_write.c: writes the trimmed trace. The records are the
 * original's bytes, each thread's in chunks of its own as gltrace compact
 * writes them, but numbered again from 0 (the original's seq field is taken
 * out and put back where the new numbers need it, FORMAT.md `seq`), so the
 * trim reads as a trace of its own; the kept calls keep their order, and
 * their original numbers are those of the marker plus a constant it gives. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_trace.h"

#define TRIM_CHUNK_BYTES (4u << 20)

typedef struct tchunk {
    uint64_t tid;
    uint8_t *data;
    size_t len, cap;
    gt_chunk_info info;
} tchunk;

typedef struct tout {
    gt_writer *w;
    tchunk *c;
    size_t n, cap;
    uint64_t seq;     /* the next record's number */
    uint64_t frame;   /* swaps written */
    gt_trim_summary *sum;
    Gltrace__GLMessage *first; /* the original's first record (its metadata), or NULL */
    rp_trim_snaps snaps;       /* coded snapshots: the first written per slot a keyframe */
} tout;

static int emit(tout *o, uint64_t tid, const uint8_t *msg, size_t n);

/* Writes rec as it is, or as the keyframe a coded snapshot must become. */
static int emit_record(tout *o, const gt_record *rec)
{
    uint8_t *key = NULL;
    size_t keylen = 0;
    if (rp_trim_snap_record(&o->snaps, rec, 1, &key, &keylen, o->sum->error, sizeof o->sum->error) != 0)
        return -1;
    int rc = key ? emit(o, rec->thread_id, key, keylen) : emit(o, rec->thread_id, rec->data, rec->size);
    free(key);
    return rc;
}

static tchunk *chunk_of(tout *o, uint64_t tid)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->c[i].tid == tid)
            return &o->c[i];
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        tchunk *c = realloc(o->c, cap * sizeof *c);
        if (!c)
            return NULL;
        o->c = c, o->cap = cap;
    }
    tchunk *c = &o->c[o->n++];
    memset(c, 0, sizeof *c);
    c->tid = tid;
    return c;
}

static int flush(tout *o, tchunk *c)
{
    if (!c->info.record_count)
        return 0;
    c->info.thread_id = c->tid;
    int rc = gt_writer_chunk(o->w, &c->info, c->data, c->len);
    c->len = 0;
    c->info.record_count = 0;
    return rc;
}

static int varint(const uint8_t *p, size_t n, size_t *at, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; *at < n && shift < 64; shift += 7) {
        uint8_t b = p[(*at)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

/* Copies the top-level fields of a GLMessage but its seq into dst (room
 * for n bytes); the length copied, or -1 for a malformed record. */
static long strip_seq(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t at = 0, out = 0;
    while (at < n) {
        size_t start = at;
        uint64_t key, v;
        if (varint(src, n, &at, &key) != 0)
            return -1;
        switch (key & 7) {
        case 0: if (varint(src, n, &at, &v) != 0) return -1; break;
        case 1: at += 8; break;
        case 5: at += 4; break;
        case 2:
            if (varint(src, n, &at, &v) != 0 || v > n - at)
                return -1;
            at += v;
            break;
        default: return -1;
        }
        if (at > n)
            return -1;
        if ((key >> 3) != GT_FIELD_SEQ) {
            memcpy(dst + out, src + start, at - start);
            out += at - start;
        }
    }
    return (long)out;
}

/* Adds one record (the bytes of a GLMessage) of thread tid, numbered next. */
static int emit(tout *o, uint64_t tid, const uint8_t *msg, size_t n)
{
    tchunk *c = chunk_of(o, tid);
    if (!c || (c->len >= TRIM_CHUNK_BYTES && flush(o, c) != 0))
        return -1;
    if (c->len + 4 + n + 11 > c->cap) {
        size_t cap = c->cap ? c->cap : 1 << 20;
        while (cap < c->len + 4 + n + 11)
            cap *= 2;
        uint8_t *d = realloc(c->data, cap);
        if (!d)
            return -1;
        c->data = d, c->cap = cap;
    }
    uint8_t *q = c->data + c->len + 4;
    long len = strip_seq(msg, n, q);
    if (len < 0)
        return -1;
    uint64_t seq = o->seq++;
    uint8_t *e = q + len;
    if (c->info.record_count && seq != c->info.last_seq + 1) {
        *e++ = (uint8_t)(GT_FIELD_SEQ << 3);
        uint64_t v = seq;
        for (; v >= 0x80; v >>= 7)
            *e++ = (uint8_t)(v | 0x80);
        *e++ = (uint8_t)v;
    }
    size_t total = (size_t)(e - q);
    uint8_t *h = c->data + c->len;
    h[0] = (uint8_t)(total >> 24), h[1] = (uint8_t)(total >> 16), h[2] = (uint8_t)(total >> 8), h[3] = (uint8_t)total;
    if (!c->info.record_count) {
        c->info.first_seq = seq;
        c->info.first_frame = o->frame;
    }
    c->info.last_seq = seq;
    c->info.record_count++;
    c->len += 4 + total;
    o->sum->out_records++;
    return 0;
}

/* A record of trim's own (a marker, a window's pixels), packed and written. */
static int emit_message(tout *o, uint64_t tid, const Gltrace__GLMessage *m)
{
    size_t n = gltrace__glmessage__get_packed_size(m);
    uint8_t *buf = malloc(n);
    if (!buf)
        return -1;
    gltrace__glmessage__pack(m, buf);
    int rc = emit(o, tid, buf, n);
    free(buf);
    return rc;
}

/* A gltraceMetadata record whose options say where the trim's parts are
 * (FORMAT.md, trimmed traces): `trim` says what follows, in words. The
 * original's first record's options come first: readers that merge
 * metadata take a later record's options for all of them. */
static int emit_marker(tout *o, uint64_t tid, const char *in, const gt_trim_options *opt, const char *what,
                       uint64_t first_kept)
{
    const Gltrace__TraceMetadata *om = o->first && o->first->metadata ? o->first->metadata : NULL;
    size_t nold = om ? om->n_options : 0;
    char frames[64], offset[32];
    if (opt->by_calls)
        snprintf(frames, sizeof frames, "calls %llu-%llu", (unsigned long long)opt->call_first,
                 (unsigned long long)opt->call_last);
    else
        snprintf(frames, sizeof frames, "frames %llu-%llu", (unsigned long long)opt->frame_first,
                 (unsigned long long)opt->frame_last);
    Gltrace__TraceMetadata__Option kv[4];
    Gltrace__TraceMetadata__Option **kvp = malloc((nold + 4) * sizeof *kvp);
    if (!kvp)
        return -1;
    for (size_t i = 0; i < nold; i++)
        kvp[i] = om->options[i];
    const char *keys[4] = {"trim", "trim_source", "trim_range", "trim_call_offset"};
    /* The first kept call is numbered o->seq + 1 (after this marker). */
    snprintf(offset, sizeof offset, "%lld", (long long)first_kept - (long long)(o->seq + 1));
    const char *vals[4] = {what, in, frames, offset};
    for (int i = 0; i < 4; i++) {
        gltrace__trace_metadata__option__init(&kv[i]);
        kv[i].key = (char *)keys[i];
        kv[i].value = (char *)vals[i];
        kvp[nold + i] = &kv[i];
    }
    Gltrace__TraceMetadata md = GLTRACE__TRACE_METADATA__INIT;
    md.options = kvp;
    md.n_options = nold + (first_kept ? 4 : 3); /* the offset holds from the start marker on */
    Gltrace__GLMessage m = GLTRACE__GLMESSAGE__INIT;
    m.context_id = -1;
    m.function = GT_FN_METADATA;
    m.metadata = &md;
    int rc = emit_message(o, tid, &m);
    free(kvp);
    return rc;
}

/* The windows' pixels at the start (gt_trim_options.window_contents), as
 * gltraceSurfaceContents records: replay holds each until a command may
 * see that surface's pixels, and writes it then (rp_initial.c). */
static int emit_window(tout *o, uint64_t tid, const struct rp_trim_window *w)
{
    {
        Gltrace__GLMessage__FrameBuffer fb = GLTRACE__GLMESSAGE__FRAME_BUFFER__INIT;
        ProtobufCBinaryData px = {(size_t)w->w * (size_t)w->h * 4, w->px};
        fb.width = w->w, fb.height = w->h;
        fb.n_contents = 1, fb.contents = &px;
        fb.has_format = fb.has_type = fb.has_source = fb.has_attachment = fb.has_surface = 1;
        fb.format = GL_RGBA, fb.type = GL_UNSIGNED_BYTE, fb.source = 0, fb.attachment = GL_BACK;
        fb.surface = w->surface;
        Gltrace__GLMessage m = GLTRACE__GLMESSAGE__INIT;
        m.context_id = -1;
        m.function = GT_FN_SURFACE_CONTENTS;
        m.fb = &fb;
        if (emit_message(o, tid, &m) != 0)
            return -1;
    }
    return 0;
}

static int emit_windows(tout *o, uint64_t tid, const rp_trim_plan *plan)
{
    for (size_t i = 0; i < plan->nwindows; i++) {
        if (emit_window(o, tid, &plan->windows[i]) != 0)
            return -1;
        o->sum->window_contents++;
        o->sum->window_contents_bytes += (uint64_t)plan->windows[i].w * (uint64_t)plan->windows[i].h * 4;
    }
    return 0;
}

/* A GL call of trim's own on the context current at the start, of the
 * function api/state.tsv names for `use` (`function` lines): numbers,
 * and the bytes of its one pointer (rp_trim_call_pack). */
static int emit_call(tout *o, uint64_t tid, int32_t ctx, const char *use, const int64_t *args, const uint8_t *bytes,
                     size_t len)
{
    const gt_api_fn *f = NULL;
    for (size_t i = 0; !f && i < gt_api_nstate_fns; i++)
        if (!strcmp(gt_api_state_fns[i].use, use))
            f = gt_api_find_name(gt_api_state_fns[i].int_fn);
    double a[16];
    uint8_t *msg = NULL;
    size_t n = 0;
    if (!f || f->nparams > 16)
        return -1;
    for (unsigned i = 0; i < f->nparams; i++)
        a[i] = f->params[i].kind == GT_K_POINTER ? 0 : (double)args[i];
    int rc = rp_trim_call_pack(f, ctx, a, f->nparams, bytes ? bytes : (const uint8_t *)"", len, &msg, &n) == 0
                 ? emit(o, tid, msg, n)
                 : -1;
    free(msg);
    return rc;
}

/* The calls of the state at the start (rp_trim_calls.c), on the thread and
 * context current there. */
static int emit_state_calls(tout *o, const struct rp_trim_calls *c)
{
    for (size_t i = 0; i < c->n; i++) {
        if (!c->v[i].needed)
            continue;
        if (emit(o, c->tid, c->v[i].bytes, c->v[i].len) != 0)
            return -1;
        o->sum->state_calls++;
    }
    return 0;
}

/* The buffers whose last pixel read was left out (rp_trim_objects.c),
 * written whole as they were at the start through GL_COPY_WRITE_BUFFER,
 * which is bound back after. */
static int emit_buffers(tout *o, uint64_t tid, const struct rp_trim_buffers *b)
{
    int rc = 0, any = 0;
    for (size_t i = 0; i < b->n && !rc; i++) {
        const struct rp_trim_buffer *x = &b->v[i];
        if (!x->used)
            continue;
        any = 1;
        rc |= emit_call(o, tid, b->ctx, "bind-buffer", (int64_t[]){GL_COPY_WRITE_BUFFER, x->buffer}, NULL, 0);
        rc |= emit_call(o, tid, b->ctx, "buffer-range", (int64_t[]){GL_COPY_WRITE_BUFFER, 0, (int64_t)x->len, 0},
                        x->bytes, x->len);
        o->sum->restored_buffers++;
        o->sum->restored_buffer_bytes += x->len;
    }
    if (any)
        rc |= emit_call(o, tid, b->ctx, "bind-buffer", (int64_t[]){GL_COPY_WRITE_BUFFER, b->copy_write}, NULL, 0);
    return rc ? -1 : 0;
}

/* A recorded texture name for the texture a renderbuffer is written
 * through: one no driver gives an app (names count up from 1), deleted
 * before the start. */
#define RESTORE_TEXTURE 0x7fff0000u

/* A renderbuffer written as it was at the start, as capture writes one
 * (capture/cap_texhold.c): a texture of its format made, filled, copied
 * into it (glCopyImageSubData, GLES 3.2), deleted. The caller binds the
 * start's 2D texture again after. */
static int emit_renderbuffer(tout *o, uint64_t tid, int32_t ctx, const struct rp_trim_restore *x)
{
    uint32_t tex = RESTORE_TEXTURE;
    int rc = emit_call(o, tid, ctx, "gen-textures", (int64_t[]){1, 0}, (const uint8_t *)&tex, sizeof tex);
    rc |= emit_call(o, tid, ctx, "bind-texture", (int64_t[]){GL_TEXTURE_2D, tex}, NULL, 0);
    rc |= emit_call(o, tid, ctx, "texture-storage", (int64_t[]){GL_TEXTURE_2D, 1, x->internal, x->w, x->h}, NULL, 0);
    rc |= emit_call(o, tid, ctx, "texture-level", (int64_t[]){GL_TEXTURE_2D, 0, 0, 0, x->w, x->h, x->format, x->type, 0},
                    x->px, x->len);
    rc |= emit_call(o, tid, ctx, "copy-image",
                    (int64_t[]){tex, GL_TEXTURE_2D, 0, 0, 0, 0, x->texture, GL_RENDERBUFFER, 0, 0, 0, 0, x->w, x->h, 1},
                    NULL, 0);
    rc |= emit_call(o, tid, ctx, "delete-textures", (int64_t[]){1, 0}, (const uint8_t *)&tex, sizeof tex);
    o->sum->restored_textures++;
    o->sum->restored_bytes += x->len;
    return rc;
}

/* The texture levels whose draws were left out, written as they were at
 * the start (rp_trim_draws.c): unpack state that reads the rows as they
 * are, each level bound on the active unit and written whole, then the
 * start's state again. */
static int emit_restores(tout *o, uint64_t tid, const rp_trim_plan *plan)
{
    static const int64_t pnames[6] = {GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                      GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES};
    const struct rp_trim_restore_state *st = &plan->restore_state;
    int32_t ctx = st->ctx;
    size_t used = 0;
    for (size_t i = 0; i < plan->nsurfaces; i++) {
        const struct rp_trim_window *w = &plan->surfaces[i];
        if (!w->used)
            continue;
        if (emit_window(o, tid, w) != 0)
            return -1;
        o->sum->restored_textures++;
        o->sum->restored_bytes += (uint64_t)w->w * (uint64_t)w->h * 4;
    }
    if (emit_buffers(o, tid, &plan->buffers) != 0)
        return -1;
    for (size_t i = 0; i < plan->nrestores; i++)
        used += plan->restores[i].used != 0;
    if (!used)
        return 0;
    int rc = 0;
    if (st->unpack_buffer)
        rc |= emit_call(o, tid, ctx, "bind-buffer", (int64_t[]){GL_PIXEL_UNPACK_BUFFER, 0}, NULL, 0);
    for (int k = 0; k < 6; k++)
        if (st->unpack[k] != (k == 0 ? 1 : 0))
            rc |= emit_call(o, tid, ctx, "pixel-store", (int64_t[]){pnames[k], k == 0 ? 1 : 0}, NULL, 0);
    int bound2d = 0, boundcube = 0;
    for (size_t i = 0; i < plan->nrestores && !rc; i++) {
        const struct rp_trim_restore *x = &plan->restores[i];
        if (!x->used)
            continue;
        if (x->bind == GL_RENDERBUFFER) {
            rc |= emit_renderbuffer(o, tid, ctx, x);
            bound2d = 1;
            continue;
        }
        rc |= emit_call(o, tid, ctx, "bind-texture", (int64_t[]){x->bind, x->texture}, NULL, 0);
        *(x->bind == GL_TEXTURE_2D ? &bound2d : &boundcube) = 1;
        rc |= emit_call(o, tid, ctx, "texture-level",
                        (int64_t[]){x->face, x->level, 0, 0, x->w, x->h, x->format, x->type, 0}, x->px, x->len);
        o->sum->restored_textures++;
        o->sum->restored_bytes += x->len;
    }
    if (bound2d)
        rc |= emit_call(o, tid, ctx, "bind-texture", (int64_t[]){GL_TEXTURE_2D, st->tex2d}, NULL, 0);
    if (boundcube)
        rc |= emit_call(o, tid, ctx, "bind-texture", (int64_t[]){GL_TEXTURE_CUBE_MAP, st->texcube}, NULL, 0);
    for (int k = 0; k < 6; k++)
        if (st->unpack[k] != (k == 0 ? 1 : 0))
            rc |= emit_call(o, tid, ctx, "pixel-store", (int64_t[]){pnames[k], st->unpack[k]}, NULL, 0);
    if (st->unpack_buffer)
        rc |= emit_call(o, tid, ctx, "bind-buffer", (int64_t[]){GL_PIXEL_UNPACK_BUFFER, st->unpack_buffer}, NULL, 0);
    return rc ? -1 : 0;
}

static int frame_call(const gt_record *rec)
{
    uint64_t fn, alias = 0;
    if (gt_wire_find_varint(rec->data, rec->size, 4, &fn) != 1)
        return 0;
    gt_wire_find_varint(rec->data, rec->size, 12, &alias);
    const gt_api_fn *f = gt_api_find_number((int32_t)fn, (uint32_t)alias);
    return f && f->cls == GT_CLASS_FRAME;
}

/* A record the trim copies must be one: a damaged one is the input's,
 * named with its place (replay's words for it). */
static int valid(const char *in, const gt_record *rec, gt_trim_summary *sum)
{
    Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec->size, rec->data);
    if (m) {
        gltrace__glmessage__free_unpacked(m, NULL);
        return 1;
    }
    snprintf(sum->error, sizeof sum->error, "%s: record %llu (chunk at byte %llu) is not a valid GLMessage", in,
             (unsigned long long)rec->seq, (unsigned long long)rec->offset);
    return 0;
}

static int copy_records(gt_reader *rd, tout *o, const char *in, const gt_trim_options *opt,
                        const rp_trim_plan *plan, gt_trim_summary *sum)
{
    gt_record rec;
    int rc, started = 0;
    uint64_t frame = plan->start_frame;
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        if (rec.seq == 0 && !o->first)
            o->first = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (rec.seq < plan->first_kept) {
            if (rp_trim_dropped(plan, rec.seq)) {
                uint8_t *none = NULL;
                size_t zero = 0;
                if (rp_trim_snap_record(&o->snaps, &rec, 0, &none, &zero, sum->error, sizeof sum->error) != 0)
                    return -1;
                continue;
            }
            if (!valid(in, &rec, sum) || emit_record(o, &rec) != 0)
                return -1;
            sum->setup_records++;
            if (rec.seq == 0 &&
                emit_marker(o, rec.thread_id, in, opt, "setup: the state the kept calls start from", 0) != 0)
                return -1;
            continue;
        }
        if (opt->by_calls ? rec.seq > opt->call_last : frame > opt->frame_last)
            break;
        if (!started) {
            started = 1;
            sum->first_call = rec.seq;
            /* The state at the start first: the write-backs after it read
             * the unpack state, the unpack buffer and the active unit as
             * they are at the start (and set them back so), where step 8
             * may have left out the setup's last setting of them for its
             * call here (GTK 4's fishbowl: a glyph upload's row length,
             * left to the write-back of a shadow texture). */
            if (plan->first_kept &&
                (emit_state_calls(o, &plan->calls) != 0 || emit_restores(o, plan->last_tid, plan) != 0 ||
                 emit_windows(o, rec.thread_id, plan) != 0))
                return -1;
            sum->start_marker = o->seq;
            if (plan->first_kept &&
                emit_marker(o, rec.thread_id, in, opt, "start: the kept calls follow", plan->first_kept) != 0)
                return -1;
        }
        if (!valid(in, &rec, sum) || emit_record(o, &rec) != 0)
            return -1;
        sum->last_call = rec.seq;
        if (frame_call(&rec)) {
            frame++;
            o->frame++;
            sum->frames++;
        }
    }
    if (rc < 0) {
        snprintf(sum->error, sizeof sum->error, "%s", gt_reader_error(rd));
        return -1;
    }
    if (!started) {
        snprintf(sum->error, sizeof sum->error, "%s: nothing to keep: the trace ends before the start", in);
        return -1;
    }
    /* (A trace that never swaps is cut by the calls its frames span:
     * gt_trim_run.) */
    if (!opt->by_calls && sum->frames == 0)
        sum->frames = 1; /* a last frame the trace ends without swapping */
    return 0;
}

int rp_trim_write(const char *in, const char *out, const gt_trim_options *opt, const rp_trim_plan *plan,
                  gt_trim_summary *sum)
{
    char err[GT_ERRLEN];
    gt_reader *rd = gt_reader_open(in, err, sizeof err);
    if (!rd) {
        snprintf(sum->error, sizeof sum->error, "%s", err);
        return -1;
    }
    tout o = {.sum = sum};
    if (rp_trim_snaps_open(&o.snaps) != 0) {
        snprintf(sum->error, sizeof sum->error, "out of memory");
        gt_reader_close(rd);
        return -1;
    }
    o.w = gt_writer_open(out, opt->level, err, sizeof err);
    if (!o.w) {
        rp_trim_snaps_close(&o.snaps);
        snprintf(sum->error, sizeof sum->error, "%s", err);
        gt_reader_close(rd);
        return -1;
    }
    sum->in_records = sum->out_records = sum->setup_records = sum->frames = 0;
    int rc = copy_records(rd, &o, in, opt, plan, sum);
    if (rc != 0 && !sum->error[0])
        snprintf(sum->error, sizeof sum->error, "%s: %s", out,
                 gt_writer_error(o.w)[0] ? gt_writer_error(o.w) : "out of memory or a malformed record");
    for (size_t i = 0; rc == 0 && i < o.n; i++)
        if (flush(&o, &o.c[i]) != 0) {
            snprintf(sum->error, sizeof sum->error, "%s", gt_writer_error(o.w));
            rc = -1;
        }
    for (size_t i = 0; i < o.n; i++)
        free(o.c[i].data);
    free(o.c);
    if (o.first)
        gltrace__glmessage__free_unpacked(o.first, NULL);
    rp_trim_snaps_close(&o.snaps);
    gt_reader_stats rst;
    gt_reader_stats_get(rd, &rst);
    sum->in_records = rst.records;
    gt_reader_close(rd);
    if (rc != 0) {
        gt_writer_abandon(o.w);
        remove(out);
        return -1;
    }
    if (gt_writer_close(o.w, err, sizeof err) != 0) {
        snprintf(sum->error, sizeof sum->error, "%s", err);
        remove(out);
        return -1;
    }
    struct stat st;
    if (stat(in, &st) == 0)
        sum->in_bytes = (uint64_t)st.st_size;
    if (stat(out, &st) == 0)
        sum->out_bytes = (uint64_t)st.st_size;
    return 0;
}
