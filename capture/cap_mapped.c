/* cap_mapped.c: the bytes an app writes into mapped buffer memory.
 *
 * The driver reads mapped memory after the map call returns, so no call's
 * arguments carry it. At glFlushMappedBufferRange, glUnmapBuffer, and (for
 * persistent maps) before each draw and swap, a gltraceMappedData record
 * carries the written bytes: target, buffer name, offset from the buffer's
 * start, and the data (see proto/FORMAT.md). The record comes before the
 * call it belongs to, so replay writes the bytes before the driver reads
 * them. */
#include "cap_internal.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_encoders.h"
#include "cap_real_fns.h"
#include "gt_trace.h"

static uint32_t bound_buffer(GLenum target)
{
    GLenum q = gt_api_binding_of(target);
    GLint v = 0;
    if (q)
        cap_real.f.glGetIntegerv(q, &v);
    return (uint32_t)v;
}

static void write(cap_tls *t, const cap_map *m, int64_t off, int64_t len);

static void emit(cap_tls *t, const cap_map *m, int64_t off, int64_t len)
{
    if (CAP_UNLIKELY(t->bh_buffers) && cap_bufhold_mapped_bytes(t, m->buffer))
        return; /* before a mid-run capture's start: written where needed (cap_bufhold.c) */
    write(t, m, off, len);
}

static void write(cap_tls *t, const cap_map *m, int64_t off, int64_t len)
{
    if (off < 0 || len <= 0 || off + len > m->length)
        return;
    gt_span s = {0};
    cap_span_raw(&s, m->ptr + off, (long)len, 1);
    uint8_t *p = cap_syn_begin(t, GT_FN_MAPPED_DATA, 64 + gt_span_room(&s));
    if (!p)
        return;
    p = gt_dt_i32(p, 0x2a, 7, (int32_t)m->target);
    p = gt_dt_i32(p, 0x2a, 4, (int32_t)m->buffer);
    p = gt_dt_i64(p, 0x2a, m->offset + off);
    p = gt_dt_ptr(p, 0x2a, (uint64_t)(uintptr_t)(m->ptr + off), &s);
    cap_syn_end(t, p);
}

static cap_map *find(cap_ctx_state *cs, uint32_t buffer)
{
    for (int i = 0; i < cs->nmaps; i++)
        if (cs->maps[i].buffer == buffer)
            return &cs->maps[i];
    return NULL;
}

static void forget(cap_ctx_state *cs, cap_map *m)
{
    if (m->access & GL_MAP_PERSISTENT_BIT)
        cs->npersistent--;
    *m = cs->maps[--cs->nmaps];
}

/* glMapBufferRange(target, offset, length, access) and its EXT form;
 * glMapBufferOES(target, access): the whole buffer. */
void cap_hook_map(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    cap_ctx_state *cs = t->cs;
    if (!ret || !cs)
        return;
    cap_map m = {.target = (uint32_t)args[0], .ptr = (uint8_t *)(uintptr_t)ret};
    if (idx == GT_IDX_glMapBufferOES) {
        GLint size = 0;
        cap_real.f.glGetBufferParameteriv((GLenum)args[0], GL_BUFFER_SIZE, &size);
        m.length = size;
        m.access = args[1] == GL_WRITE_ONLY_OES ? GL_MAP_WRITE_BIT : GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
    } else {
        m.offset = (int64_t)args[1];
        m.length = (int64_t)args[2];
        m.access = (uint32_t)args[3];
    }
    m.buffer = bound_buffer((GLenum)m.target);
    if (!(m.access & GL_MAP_WRITE_BIT)) {
        if (t->bh_buffers) /* before a mid-run capture's start: read through it (cap_bufhold.c) */
            cap_bufhold_read_mapped(t, m.buffer);
        return; /* nothing the app writes */
    }
    cap_map *old = find(cs, m.buffer);
    if (old)
        forget(cs, old);
    if (cs->nmaps == CAP_MAX_MAPS) {
        cap_log("more than %d buffers mapped at once in context %d: the writes of buffer %u are not recorded",
               CAP_MAX_MAPS, cs->id, m.buffer);
        return;
    }
    cs->maps[cs->nmaps++] = m;
    if (m.access & GL_MAP_PERSISTENT_BIT)
        cs->npersistent++;
}

/* glFlushMappedBufferRange(target, offset, length): offset is from the
 * start of the mapping. */
void cap_hook_flush_mapped(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)ret;
    if (!t->cs)
        return;
    cap_map *m = find(t->cs, bound_buffer((GLenum)args[0]));
    if (m)
        emit(t, m, (int64_t)args[1], (int64_t)args[2]);
}

/* glUnmapBuffer(target): before the real call, while the memory is valid.
 * With explicit flushes only the flushed ranges are defined: nothing more. */
void cap_hook_unmap(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)ret;
    if (!t->cs)
        return;
    uint32_t buffer = bound_buffer((GLenum)args[0]);
    cap_map *m = find(t->cs, buffer);
    if (m && !(m->access & GL_MAP_FLUSH_EXPLICIT_BIT))
        emit(t, m, 0, m->length);
    if (t->bh_buffers)
        cap_bufhold_unmapped(t, buffer);
    if (m)
        forget(t->cs, m);
}

/* After glUnmapBuffer's record: a buffer read-mapped where a mid-run
 * capture started is written now (cap_bufhold.c). */
void cap_hook_unmap_end(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret)
{
    (void)idx, (void)ret;
    if (CAP_UNLIKELY(t->bh != NULL) && t->cs)
        cap_bufhold_after_unmap(t, bound_buffer((GLenum)args[0]));
}

/* The bytes of buffer `buffer`'s open mapping, all its range, written now
 * (cap_bufhold.c: its flushes were held back, and something needs them). */
void cap_mapped_write_all(cap_tls *t, uint32_t buffer)
{
    const cap_map *m = t->cs ? find(t->cs, buffer) : NULL;
    if (m)
        write(t, m, 0, m->length);
}

/* Persistent maps: the app writes whenever it likes and the driver reads at
 * the next draw; the whole range is recorded before each draw and swap. */
void cap_mapped_flush_persistent(cap_tls *t)
{
    for (int i = 0; i < t->cs->nmaps; i++) {
        const cap_map *m = &t->cs->maps[i];
        if ((m->access & GL_MAP_PERSISTENT_BIT) && !(m->access & GL_MAP_FLUSH_EXPLICIT_BIT))
            emit(t, m, 0, m->length);
    }
}
