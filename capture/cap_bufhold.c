/* cap_bufhold.c: buffer contents written off before the start of a
 * mid-run capture, written as read back (GLES 3: a read mapping).
 *
 * Before GLTRACE_START_FRAME's frame, or a trace server host's start
 * (cap_defer.c), on a GLES 3 context:
 * - A pixel read is not written: into the app's memory it changes nothing
 *   replay needs, and into a buffer followed here it changes that buffer.
 *   A read-only mapping is written, and reads nothing replay needs.
 * - glBufferData is not written: the buffer, its size and usage are noted
 *   here, and marked changed. A glBufferStorage is written, and its buffer
 *   followed from there when a read mapping reads it back and
 *   glBufferSubData writes it (`buffer-range`). Nor is a glBufferSubData
 *   into such a buffer, nor the bytes an app writes through a write-only
 *   mapping of it, persistent ones too (cap_mapped.c: no
 *   gltraceMappedData). The mapping's own calls are written, so the
 *   buffer is written once before its first one.
 * - A changed buffer is written as one glBufferData of what a read mapping
 *   of it gives (api/state.tsv `function buffer-data`, bound to
 *   GL_COPY_WRITE_BUFFER and that bound back after): before a written
 *   command that may read any buffer (a draw or clear not left out, a
 *   copy of pixels or between objects), before a written upload (the
 *   pixel unpack buffer it reads), before one that changes it otherwise
 *   (storage, a mapping that reads and writes: then it is forgotten),
 *   before the thread makes another context current, and where writing
 *   comes on. A deleted buffer is forgotten.
 * Which commands those are comes from the API description
 * (api/emit_defer.py buffer_write, texture_before).
 *
 * A buffer mapped (write-only) when it must be written cannot be mapped
 * again: its mapping's bytes, all of its range, are written instead
 * (a gltraceMappedData, after the mapping's own call in the trace), and
 * the mapping made it written first if it did not cover all of it. One the
 * app maps for reading is read by nothing until its unmap: where writing
 * comes on it is written just after its unmap's record (written before,
 * replay's glBufferData would unmap it first).
 *
 * The table is the thread's own (one allocation, at its first buffer): no
 * lock. Buffers beyond its room are written as before. */
#include "cap_internal.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "cap_real_get.h"

#include <stdlib.h>
#include <string.h>

#define BH_BUFFERS 1024
#define BH_MAX_BYTES ((int64_t)256 << 20) /* larger: written as before */

typedef struct held {
    uint32_t name, usage;
    int64_t size;
    uint8_t changed;  /* since last written */
    uint8_t written;  /* its glBufferData is in the trace (a mapping's calls need one) */
    uint8_t mapped;   /* a write-only mapping is open: its bytes are not written */
    uint8_t immutable; /* made by a storage command (written): written back in place */
    uint8_t read_mapped; /* the app maps it for reading: it can be neither mapped nor written */
} held;

struct cap_bufhold {
    held v[BH_BUFFERS];
    uint32_t n;
    uint32_t pending; /* entries left where writing came on: read-mapped, written after their unmap */
    int busy;
};

/* The glGet pname of the buffer bound to `target`, 0 when target binds no
 * buffer (a texture's: a name of another class), from api/state.tsv's
 * bindings; remembered (the few targets a program uses). */
static uint32_t buffer_binding(uint32_t target)
{
    static _Atomic uint64_t known[32]; /* target << 32 | pname + 1 */
    for (unsigned i = 0; i < 32; i++) {
        uint64_t k = atomic_load_explicit(&known[i], memory_order_relaxed);
        if (!k)
            break;
        if (k >> 32 == target)
            return (uint32_t)k - 1;
    }
    uint32_t q = 0;
    for (size_t i = 0; i < gt_api_nstates && !q; i++)
        if (gt_api_states[i].target == target && gt_api_states[i].cls == GT_STATE_BUFFER_NAME)
            q = gt_api_states[i].pname;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t expect = 0;
        if (atomic_compare_exchange_strong(&known[i], &expect, (uint64_t)target << 32 | (q + 1)) ||
            expect >> 32 == target)
            break;
    }
    return q;
}

static uint32_t bound(uint32_t target)
{
    uint32_t q = buffer_binding(target);
    return q ? (uint32_t)cap_get_int(q) : 0;
}

static held *find(cap_tls *t, uint32_t name)
{
    struct cap_bufhold *h = t->bh;
    for (uint32_t i = 0; h && name && i < h->n; i++)
        if (h->v[i].name == name)
            return &h->v[i];
    return NULL;
}

static void changed(cap_tls *t, held *b)
{
    if (!b->changed)
        b->changed = 1, t->bh_changed++;
}

static void forget(cap_tls *t, held *b)
{
    if (b->changed)
        t->bh_changed--;
    *b = t->bh->v[--t->bh->n];
    t->bh_buffers = t->bh->n;
}

static int usable(const cap_tls *t)
{
    return t->es_major >= 3 && t->cs && !(t->bh && t->bh->busy);
}

/* ---------------------------------------------------------------- writing */

/* One buffer, read through a read mapping, as one glBufferData. */
static void write_buffer(cap_tls *t, held *b, uint32_t copy_write)
{
    static _Atomic int told;
    uint8_t *bytes = NULL;
    if (b->size > 0) {
        bytes = malloc((size_t)b->size);
        GLint app = cap_get_int(GL_COPY_READ_BUFFER_BINDING);
        cap_real.f.glBindBuffer(GL_COPY_READ_BUFFER, b->name);
        void *p = bytes ? cap_real.f.glMapBufferRange(GL_COPY_READ_BUFFER, 0, b->size, GL_MAP_READ_BIT) : NULL;
        if (p) {
            memcpy(bytes, p, (size_t)b->size);
            cap_real.f.glUnmapBuffer(GL_COPY_READ_BUFFER);
        }
        cap_real.f.glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)app);
        if (!p) {
            if (!atomic_exchange(&told, 1))
                cap_log("buffer %u (%lld bytes) could not be read back: its contents before the start are missing",
                        b->name, (long long)b->size);
            free(bytes);
            return;
        }
    }
    cap_write_call(t, "bind-buffer", (int64_t[]){GL_COPY_WRITE_BUFFER, b->name}, NULL, 0);
    if (b->immutable)
        cap_write_call(t, "buffer-range", (int64_t[]){GL_COPY_WRITE_BUFFER, 0, b->size, 0}, bytes, (size_t)b->size);
    else
        cap_write_call(t, "buffer-data", (int64_t[]){GL_COPY_WRITE_BUFFER, b->size, 0, b->usage}, bytes,
                       (size_t)b->size);
    cap_write_call(t, "bind-buffer", (int64_t[]){GL_COPY_WRITE_BUFFER, copy_write}, NULL, 0);
    free(bytes);
}

/* Writes buffer `only` (0: every changed one not mapped), after the state
 * commands held before it; with `whole`, also one whose glBufferData is
 * not in the trace yet. */
static void write_changed(cap_tls *t, uint32_t only, int whole)
{
    struct cap_bufhold *h = t->bh;
    if (!h || h->busy || !t->cs)
        return;
    int any = 0;
    for (uint32_t i = 0; i < h->n && !any; i++)
        any = (h->v[i].changed || (whole && !h->v[i].written)) && (!only || h->v[i].name == only) &&
              !h->v[i].read_mapped;
    if (!any)
        return;
    h->busy = 1;
    cap_defer_flush(t);
    uint32_t copy_write = (uint32_t)cap_get_int(GL_COPY_WRITE_BUFFER_BINDING);
    for (uint32_t i = 0; i < h->n; i++) {
        held *b = &h->v[i];
        if ((only && b->name != only) || !(b->changed || (whole && !b->written)) || b->read_mapped)
            continue; /* read-mapped: no command reads it until its unmap */
        if (b->mapped)
            cap_mapped_write_all(t, b->name); /* its mapping's bytes: it cannot be mapped again */
        else
            write_buffer(t, b, copy_write);
        b->written = 1;
        if (b->changed)
            b->changed = 0, t->bh_changed--;
    }
    h->busy = 0;
}

/* ---------------------------------------------------------------- commands */

int cap_bufhold_data(cap_tls *t, uint32_t target, int64_t size, uint32_t usage)
{
    if (!usable(t))
        return 0;
    uint32_t name = bound(target);
    held *b = find(t, name);
    if (!name || (b && (b->mapped || b->immutable)))
        return 0; /* an immutable one's fails: written as the app made it */
    if (size < 0 || size > BH_MAX_BYTES) {
        if (b)
            forget(t, b); /* written whole from here */
        return 0;
    }
    if (!b) {
        if (!t->bh && !(t->bh = calloc(1, sizeof *t->bh))) {
            cap_log("no memory to leave buffer writes out before the start: they are written");
            return 0;
        }
        if (t->bh->n == BH_BUFFERS)
            return 0;
        b = &t->bh->v[t->bh->n++];
        memset(b, 0, sizeof *b);
        t->bh_buffers = t->bh->n;
    }
    b->name = name, b->size = size, b->usage = usage, b->written = 0;
    changed(t, b);
    return 1;
}

/* glBufferStorage* (written): a buffer a read mapping reads back and
 * glBufferSubData writes (GL_MAP_READ_BIT and GL_DYNAMIC_STORAGE_BIT in
 * its flags) is followed from now, its contents unchanged. */
void cap_bufhold_storage(cap_tls *t, uint32_t target, int64_t size, uint32_t flags)
{
    if (!usable(t))
        return;
    uint32_t name = bound(target);
    held *b = find(t, name);
    if (b && b->mapped)
        return;
    if (b)
        forget(t, b); /* its store replaced */
    if (!name || size < 0 || size > BH_MAX_BYTES || (flags & (GL_MAP_READ_BIT | GL_DYNAMIC_STORAGE_BIT_EXT)) !=
                                                      (GL_MAP_READ_BIT | GL_DYNAMIC_STORAGE_BIT_EXT))
        return;
    if (cap_bufhold_data(t, target, size, 0)) {
        b = find(t, name);
        b->immutable = 1, b->written = 1, b->changed = 0, t->bh_changed--;
    }
}

int cap_bufhold_subdata(cap_tls *t, uint32_t target)
{
    held *b = usable(t) ? find(t, bound(target)) : NULL;
    if (!b || b->mapped)
        return 0;
    changed(t, b);
    return 1;
}

/* Before a mapping's call (written): a write-only one of a buffer held
 * here keeps its bytes out; the buffer is written first when its
 * glBufferData is not in the trace yet, or it changed and the mapping does
 * not cover it. Any other mapping writes the buffer and forgets it.
 * access: a glMapBufferRange's bits (0 for another form); length -1: all. */
void cap_bufhold_map(cap_tls *t, uint32_t target, uint32_t access, int64_t offset, int64_t length)
{
    held *b = usable(t) ? find(t, bound(target)) : NULL;
    if (!b || b->mapped)
        return;
    if ((access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT)) == GL_MAP_READ_BIT) {
        /* The app reads what the driver has: nothing of it is replayed, but
         * replay's mapping needs the store. */
        if (!b->written)
            write_changed(t, b->name, 1);
        return;
    }
    if ((access & GL_MAP_WRITE_BIT) && !(access & GL_MAP_READ_BIT)) {
        int covers = offset == 0 && (length < 0 || length >= b->size);
        if (!b->written || (b->changed && !covers))
            write_changed(t, b->name, 1);
        b->mapped = 1;
        return;
    }
    write_changed(t, b->name, 1);
    forget(t, b);
}

/* A pixel read before the start, on GLES 3: into a buffer held here it
 * changes it (1: not written); into the app's memory it changes nothing
 * replay needs (1); into another buffer it is written (0). */
int cap_bufhold_pixel_read(cap_tls *t)
{
    if (t->es_major < 3 || !t->cs)
        return 0; /* GLES 2 binds pack buffers only with an extension, which asking for would need */
    uint32_t pack = bound(GL_PIXEL_PACK_BUFFER);
    held *b = pack && !(t->bh && t->bh->busy) ? find(t, pack) : NULL;
    if (pack && (!b || b->mapped))
        return 0;
    if (b)
        changed(t, b);
    return 1;
}

/* cap_mapped.c: whether a mapping's bytes are held (they change the buffer). */
int cap_bufhold_mapped_bytes(cap_tls *t, uint32_t name)
{
    held *b = find(t, name);
    if (!b || !b->mapped)
        return 0;
    changed(t, b);
    return 1;
}

/* cap_mapped.c: a read-only mapping the app made of buffer `name`: it is
 * written after its unmap, not read through the app's mapping. */
void cap_bufhold_read_mapped(cap_tls *t, uint32_t name)
{
    held *b = t->bh && !t->bh->pending ? find(t, name) : NULL;
    if (b)
        b->read_mapped = 1;
}

void cap_bufhold_unmapped(cap_tls *t, uint32_t name)
{
    held *b = find(t, name);
    if (b)
        b->mapped = 0, b->read_mapped = 0;
}

/* After its unmap's record: a buffer left read-mapped where writing came
 * on (replay's glBufferData would unmap it before the app does). */
void cap_bufhold_after_unmap(cap_tls *t, uint32_t name)
{
    struct cap_bufhold *h = t->bh;
    held *b = h->pending ? find(t, name) : NULL;
    if (!b)
        return;
    uint32_t copy_write = (uint32_t)cap_get_int(GL_COPY_WRITE_BUFFER_BINDING);
    h->busy = 1;
    write_buffer(t, b, copy_write);
    h->busy = 0;
    *b = h->v[--h->n];
    h->pending--;
}

void cap_bufhold_reading(cap_tls *t)
{
    write_changed(t, 0, 0);
}

/* Before a written upload: the pixel unpack buffer it may read. */
void cap_bufhold_unpacking(cap_tls *t)
{
    held *b = usable(t) ? find(t, bound(GL_PIXEL_UNPACK_BUFFER)) : NULL;
    if (b && b->changed)
        write_changed(t, b->name, 0);
}

void cap_bufhold_touch(cap_tls *t, uint32_t target)
{
    held *b = usable(t) ? find(t, bound(target)) : NULL;
    if (!b || b->mapped)
        return;
    write_changed(t, b->name, 1);
    forget(t, b);
}

void cap_bufhold_deleted(cap_tls *t, int32_t n, const uint32_t *names)
{
    for (int32_t k = 0; names && k < n && t->bh && !t->bh->busy; k++) {
        held *b = find(t, names[k]);
        if (b)
            forget(t, b);
    }
}

void cap_bufhold_leave(cap_tls *t)
{
    struct cap_bufhold *h = t->bh;
    if (!h || h->busy)
        return;
    write_changed(t, 0, 0);
    uint32_t kept = 0; /* read-mapped and changed: written after their unmap */
    for (uint32_t i = 0; i < h->n; i++)
        if (h->v[i].read_mapped && h->v[i].changed)
            h->v[kept++] = h->v[i];
    h->n = kept, h->pending = kept;
    t->bh_buffers = 0, t->bh_changed = 0; /* an open write mapping's later bytes are written at its flushes */
}
