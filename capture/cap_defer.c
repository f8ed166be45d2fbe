/* cap_defer.c: writing off before the start of a mid-run capture.
 *
 * Before GLTRACE_START_FRAME's frame, or a trace server host's start, the
 * trace is only the setup of what comes after: trim (replay/TRIM.md) keeps
 * of it what the state at the start needs.
 *
 * - A command that only sets state (api/annotations.txt `state` lines;
 *   which ones, and the key of the piece each sets, come from
 *   api/emit_defer.py) waits here, encoded, in its thread's queue; a
 *   later command of the same key replaces it unless a queued command
 *   read that key in between (glBindTexture reads the unit glActiveTexture
 *   selected; each entry counts its queued readers). Every other record
 *   writes the queue first, in order, so whatever reads state (a draw, an
 *   upload, a query, an EGL call) is recorded after exactly what it saw.
 *   A swap and its gltraceSurface read no context state: the queue waits
 *   past them, and is numbered anew when it is written after them.
 * - A draw or clear into the window its thread swapped is not written
 *   (trim's step 2 leaves such draws out); the window's pixels are, when
 *   writing comes on or the thread leaves that window.
 *
 * A loop that sets state and draws nothing writes one command of each key;
 * a frame that only draws into its window writes its swap. A held command
 * takes no clock and is not compressed or written.
 *
 * One thread only: GLES shares programs and samplers between contexts,
 * and a second thread's draw may read what the first holds back, so a
 * second thread making a context current turns holding back off for good
 * (each thread writes its queue at its next record).
 *
 * The queue is the thread's own (made at its first held command, the one
 * allocation), so nothing here takes a lock or makes a syscall per call. */
#include "cap_internal.h"
#include "gt_enums.h"
#include "gt_encoders.h"
#include "cap_real_fns.h"

#include <stdlib.h>
#include <string.h>

#define Q_BYTES (256 * 1024)
#define Q_ENTRIES 4096
#define Q_SLOTS 8192 /* a power of two, twice Q_ENTRIES */
#define Q_READS 4    /* entries one entry reads; beyond, those it reads stay for good */
#define Q_NAMES 256   /* key names (api/emit_defer.py refuses more) */
#define NONE UINT32_MAX

typedef struct entry {
    cap_defer_key key;
    uint64_t seq;           /* taken at the call */
    uint32_t off, len;      /* its frame length, header and arguments: the trailer is written with it */
    uint32_t alias;
    uint32_t readers;       /* queued entries that read it: it stays while they do */
    uint32_t read[Q_READS]; /* the entries it read (their latest of each key it reads), NONE: none */
    uint32_t slot;          /* its key's slot, while it is the latest of its key */
    uint8_t dead;           /* replaced: not written */
    uint8_t sticky;         /* read by a read of every key of its name, or by too many: stays */
    uint8_t latest;         /* the latest queued of its key */
} entry;

struct cap_defer_q {
    uint8_t *data;          /* the records, each entry's at its off; a replaced one's bytes left behind */
    uint8_t bytes[2][Q_BYTES]; /* data is one; compact copies the live records into the other */
    uint32_t used;
    entry e[Q_ENTRIES];
    uint32_t n;
    uint32_t slot[Q_SLOTS]; /* the latest entry of a key, + 1; 0: empty (no deletion: all emptied at once) */
    uint32_t remap[Q_ENTRIES]; /* compact's */
    uint32_t named[Q_NAMES];   /* queued entries of each key name not replaced */
    uint32_t last[Q_NAMES];    /* the entry of each name last found, + 1: most loops set one key of a name */
};

_Atomic int cap_defer_on;
static _Atomic uint8_t sel_used[CAP_DEFER_NSEL]; /* a selector's command was called in the process */
static _Atomic int threads; /* that made a context current */

static int keys_equal(const cap_defer_key *a, const cap_defer_key *b)
{
    return a->name == b->name && a->nparts == b->nparts && a->part[0] == b->part[0] && a->part[1] == b->part[1] &&
           a->part[2] == b->part[2];
}

static uint32_t key_hash(const cap_defer_key *k)
{
    uint64_t h = k->name * 0x9e3779b97f4a7c15ull ^ k->nparts;
    for (int i = 0; i < 3; i++)
        h = (h ^ k->part[i]) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 40);
}

/* The slot of key k: its latest entry's, or the empty one where it goes. */
static uint32_t *slot_of(struct cap_defer_q *q, const cap_defer_key *k)
{
    uint32_t i = key_hash(k) & (Q_SLOTS - 1);
    while (q->slot[i] && !keys_equal(&q->e[q->slot[i] - 1].key, k))
        i = (i + 1) & (Q_SLOTS - 1);
    return &q->slot[i];
}

void cap_defer_enable(void)
{
    atomic_store(&cap_defer_on, 1);
}

void cap_defer_stop(void)
{
    atomic_store_explicit(&cap_defer_on, 0, memory_order_relaxed);
}

static void selectors_reset(cap_tls *t)
{
    for (unsigned i = 0; i < CAP_DEFER_NSEL; i++)
        t->sel[i] = atomic_load_explicit(&sel_used[i], memory_order_relaxed) ? CAP_SEL_UNKNOWN : CAP_SEL_DEFAULT;
}

void cap_defer_made_current(cap_tls *t, int with_context, uint64_t draw_surf)
{
    selectors_reset(t);
    if (draw_surf != t->draw_surf)
        t->surf_swapped = 0; /* the same window made current again (each frame) stays one */
    t->draw_surf = draw_surf;
    if (with_context && !t->made_current) {
        t->made_current = 1;
        if (atomic_fetch_add(&threads, 1) > 0)
            cap_defer_stop(); /* a second thread with a context of its own */
    }
}

void cap_defer_thread_new(cap_tls *t)
{
    selectors_reset(t);
}

void cap_defer_select(cap_tls *t, unsigned slot, uint64_t value)
{
    t->sel[slot] = value;
    if (!atomic_load_explicit(&sel_used[slot], memory_order_relaxed))
        atomic_store_explicit(&sel_used[slot], 1, memory_order_relaxed);
}

void cap_defer_swapped(cap_tls *t, uint64_t surf)
{
    if (surf == t->draw_surf)
        t->surf_swapped = 1;
    if (atomic_load_explicit(&cap_defer_on, memory_order_relaxed))
        cap_defer_now(); /* the frame before the start frame begins: writing on */
}

/* Drops the replaced entries, keeping the order of the others. */
static void compact(struct cap_defer_q *q)
{
    uint32_t n = 0, used = 0;
    uint8_t *other = q->data == q->bytes[0] ? q->bytes[1] : q->bytes[0];
    memset(q->slot, 0, sizeof q->slot);
    memset(q->last, 0, sizeof q->last);
    for (uint32_t i = 0; i < q->n; i++) {
        entry e = q->e[i];
        q->remap[i] = NONE;
        if (e.dead)
            continue;
        memcpy(other + used, q->data + e.off, e.len);
        e.off = used, used += e.len;
        for (unsigned r = 0; r < Q_READS; r++)
            e.read[r] = e.read[r] == NONE ? NONE : q->remap[e.read[r]];
        q->remap[i] = n;
        q->e[n] = e;
        ++n;
        if (e.latest) {
            uint32_t *sl = slot_of(q, &e.key);
            *sl = n, q->e[n - 1].slot = (uint32_t)(sl - q->slot);
        }
    }
    q->n = n, q->used = used, q->data = other;
}

void cap_defer_flush(cap_tls *t)
{
    struct cap_defer_q *q = t->dq;
    uint32_t n = q ? q->n : 0;
    t->npending = 0;
    if (!q)
        return;
    q->n = 0, q->used = 0;
    int renumber = -1;
    for (uint32_t i = 0; i < n; i++) {
        const entry *e = &q->e[i];
        q->named[e->key.name] = q->last[e->key.name] = 0;
        if (e->latest)
            q->slot[e->slot] = 0;
        if (e->dead)
            continue;
        if ((size_t)(t->end - t->pos) < e->len + 32 && !cap_tls_refill(t, e->len + 32))
            return; /* tracing stopped */
        /* Held across a swap (the only record that does not write the
         * queue: it reads no context state), the queue is numbered anew,
         * after it: a thread's records stay in the order of their numbers. */
        if (renumber < 0)
            renumber = e->seq <= t->last_seq;
        memcpy(t->pos, q->data + e->off, e->len);
        t->seq = renumber ? atomic_fetch_add_explicit(&cap_seq, 1, memory_order_relaxed) : e->seq;
        uint8_t *p = gt_rec_put_trailer(t->pos + e->len, t->seq, !t->seq_known || t->seq != t->last_seq + 1, 0, 0,
                                        0, e->alias);
        cap_rec_commit(t, p);
    }
}

/* Asked of the driver at a draw on a GLES 3 context, as trim asks it
 * (replay/rp_trim_draws.c side_effects): 1 when the draw may write more
 * than its framebuffer (transform feedback, storage blocks, atomic
 * counters, a texture bound to an image unit), or that cannot be told. */
int cap_defer_writes_elsewhere(void)
{
    GLboolean xfb = GL_TRUE;
    GLint prog = 0, major = 0, minor = 0, ssbo = 0, atomics = 0;
    if (!cap_real.f.glGetBooleanv || !cap_real.f.glGetIntegerv)
        return 1;
    cap_real.f.glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &xfb);
    cap_real.f.glGetIntegerv(GL_MAJOR_VERSION, &major);
    cap_real.f.glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (xfb || major * 10 + minor < 31)
        return xfb != GL_FALSE;
    cap_real.f.glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    if (!prog || !cap_real.f.glGetProgramiv || !cap_real.f.glGetProgramInterfaceiv)
        return 1; /* a program pipeline: not asked */
    cap_real.f.glGetProgramiv((GLuint)prog, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, &atomics);
    cap_real.f.glGetProgramInterfaceiv((GLuint)prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &ssbo);
    if (ssbo || atomics)
        return 1;
    /* A texture bound to an image unit: the draw may store into it. */
    GLint units = 0, name = 0;
    if (!cap_real.f.glGetIntegeri_v)
        return 1;
    cap_real.f.glGetIntegerv(GL_MAX_IMAGE_UNITS, &units);
    for (GLint i = 0; i < units && i < 32 && !name; i++)
        cap_real.f.glGetIntegeri_v(GL_IMAGE_BINDING_NAME, (GLuint)i, &name);
    return name != 0;
}

/* The draw surface's pixels, where trim and replay find what the draws
 * left out drew (a window redrawn only where it changed, and frames that
 * read the back buffer a swap preserved, need them). */
static void write_window(cap_tls *t)
{
    int32_t w = 0, h = 0;
    t->dropped = 0;
    if (t->draw_surf && cap_resize_known(t->draw_surf, &w, &h) && w > 0 && h > 0)
        cap_snapshot_initial(t, t->draw_surf, w, h);
    else
        cap_log("draws before the start were left out, and the window's size is not known: its pixels are not "
                "written");
}

/* Called before a call's driver function (the generated wrappers), so
 * what is read back is what the call will see. */
void cap_defer_catch_up(cap_tls *t)
{
    cap_defer_flush(t);
    if (atomic_load_explicit(&cap_defer_on, memory_order_relaxed))
        return;
    if (t->dropped)
        write_window(t);
    if (t->th_levels)
        cap_texhold_leave(t);
    if (t->bh_buffers)
        cap_bufhold_leave(t);
}

void cap_hold_reading(cap_tls *t)
{
    if (t->th_changed)
        cap_texhold_reading(t);
    if (t->bh_changed)
        cap_bufhold_reading(t);
}

/* A command that changes the texture or buffer bound to target otherwise
 * than an upload followed here (mipmaps, storage, a compressed upload,
 * which may read a pixel unpack buffer). */
void cap_hold_touch(cap_tls *t, uint32_t target)
{
    if (t->th_levels)
        cap_texhold_touch(t, target);
    if (t->bh_buffers)
        cap_bufhold_touch(t, target);
    if (t->bh_changed)
        cap_bufhold_unpacking(t);
}

void cap_defer_switching(cap_tls *t, uint64_t draw_surf, int other_context)
{
    /* Still current: what was left out is read now, before the thread leaves it. */
    if (t->dropped && draw_surf != t->draw_surf)
        write_window(t);
    if (t->th_levels && other_context)
        cap_texhold_leave(t); /* texture and buffer names are the context's share group's */
    if (t->bh_buffers && other_context)
        cap_bufhold_leave(t);
}

/* Room for a record of `max` bytes and its entry: the replaced ones
 * dropped, or else the queue written. 0: no queue. */
static int make_room(cap_tls *t, size_t max)
{
    if (!t->dq) {
        t->dq = calloc(1, sizeof *t->dq);
        if (!t->dq) {
            cap_log("no memory to hold state commands back before the start: every call is written");
            cap_defer_stop();
            return 0;
        }
        t->dq->data = t->dq->bytes[0];
    }
    struct cap_defer_q *q = t->dq;
    if (q->n < Q_ENTRIES && q->used + max <= Q_BYTES)
        return 1;
    compact(q);
    if (q->n > Q_ENTRIES / 2 || q->used + max > Q_BYTES / 2)
        cap_defer_flush(t); /* many keys read or set once: written as they stand */
    return 1;
}

/* The record is encoded at the queue's end; its seq and trailer are
 * written with it (cap_defer_flush). */
uint8_t *cap_defer_begin(cap_tls *t, size_t max, int32_t number, uint64_t t0)
{
    if (!make_room(t, max + 4))
        return cap_rec_begin(t, max, number, t0, t0);
    return gt_rec_put_header(t->dq->data + t->dq->used + 4, t->ctx, (int64_t)t0, 0, number);
}

static void kill(cap_tls *t, uint32_t i);

static int same_reads(const uint32_t *a, const uint32_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* One reader of entry j fewer. One nobody reads any more, that a later
 * entry of its key replaced, goes. */
static void unread(cap_tls *t, uint32_t j)
{
    struct cap_defer_q *q = t->dq;
    entry *e = &q->e[j];
    if (--e->readers == 0 && !e->sticky && !e->dead && !e->latest)
        kill(t, j);
}

static void kill(cap_tls *t, uint32_t i)
{
    entry *e = &t->dq->e[i];
    e->dead = 1;
    t->dq->named[e->key.name]--;
    t->npending--;
    for (unsigned r = 0; r < Q_READS; r++)
        if (e->read[r] != NONE)
            unread(t, e->read[r]);
}

/* The latest queued entry of key k, or NONE. */
static uint32_t find(struct cap_defer_q *q, const cap_defer_key *k)
{
    if (!q->named[k->name])
        return NONE;
    uint32_t j = q->last[k->name];
    if (j && q->e[j - 1].latest && keys_equal(&q->e[j - 1].key, k))
        return j - 1;
    j = *slot_of(q, k);
    if (j)
        q->last[k->name] = j;
    return j ? j - 1 : NONE;
}

/* The entries the keys k[1..] read (the latest queued of each), into
 * read[]; a read of every key of a name makes them stay for good. */
static void find_reads(struct cap_defer_q *q, const cap_defer_key *k, unsigned nk, uint32_t read[Q_READS])
{
    unsigned nr = 0;
    for (unsigned r = 0; r < Q_READS; r++)
        read[r] = NONE;
    for (unsigned i = 1; i < nk; i++) {
        if (!k[i].name)
            continue;
        if (k[i].any) {
            for (uint32_t j = 0; j < q->n; j++)
                if (q->e[j].key.name == k[i].name)
                    q->e[j].sticky = 1;
            continue;
        }
        uint32_t j = find(q, &k[i]);
        if (j == NONE)
            continue;
        if (nr < Q_READS)
            read[nr++] = j;
        else
            q->e[j].sticky = 1;
    }
}

void cap_defer_end(cap_tls *t, uint8_t *p, uint32_t alias, const cap_defer_key *k, unsigned nk)
{
    struct cap_defer_q *q = t->dq;
    if (!q || p < q->data || p > q->data + Q_BYTES) { /* cap_defer_begin had no queue: written now */
        cap_rec_end(t, p, alias, t->last_t, t->last_t);
        return;
    }
    uint8_t *rec = q->data + q->used;
    uint32_t len = (uint32_t)(p - rec), read[Q_READS];
    find_reads(q, k, nk, read);
    uint32_t prev = find(q, &k[0]), oi = prev;
    if (oi != NONE && (q->e[oi].readers || q->e[oi].sticky))
        oi = NONE; /* read since: it stays, and this one follows it */
    /* Replacing the latest of its key in its place when it read what that
     * one read (a loop setting one uniform): then no queued command
     * between the two read the key or set what this one reads, and the
     * selectors its parts name were as they are now, so the place sets
     * what the end would. Its bytes stay where they were encoded; the old
     * ones are left behind for compact. */
    if (oi != NONE && same_reads(read, q->e[oi].read)) {
        entry *old = &q->e[oi];
        old->off = q->used, old->len = len, old->alias = alias;
        q->used += len;
        return;
    }
    uint32_t *s = prev != NONE ? &q->slot[q->e[prev].slot] : slot_of(q, &k[0]);
    entry *e = &q->e[q->n];
    *e = (entry){.key = k[0], .seq = atomic_fetch_add_explicit(&cap_seq, 1, memory_order_relaxed), .off = q->used,
                 .len = len, .alias = alias, .slot = (uint32_t)(s - q->slot), .latest = 1};
    memcpy(e->read, read, sizeof read);
    for (unsigned r = 0; r < Q_READS; r++)
        if (read[r] != NONE)
            q->e[read[r]].readers++;
    if (prev != NONE)
        q->e[prev].latest = 0;
    *s = ++q->n;
    q->last[k[0].name] = q->n;
    q->named[k[0].name]++;
    q->used += len;
    t->npending++;
    if (oi != NONE)
        kill(t, oi);
}
