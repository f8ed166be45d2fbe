/* cap_internal.h: the capture library's internal interface, shared by the
 * hand-written runtime and the generated wrappers (cap_gen.c).
 *
 * Hot path (every traced call): cap_tls_get, cap_clock_now twice, the real
 * call, cap_rec_begin, the generated encoder, cap_rec_end. No malloc, no
 * syscall, no lock: a thread-local pointer, rdtsc, one atomic add for the
 * global sequence number, stores into the thread's own buffer. */
#ifndef CAP_INTERNAL_H
#define CAP_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cap_count.h"
#include "gt_gl_types.h"
#include "gt_settings.h"
#include "gt_wire_enc.h"

#define CAP_EXPORT __attribute__((visibility("default")))
#define CAP_INLINE static inline __attribute__((always_inline))

/* Everything declared below is internal to the library: hidden visibility
 * lets the hot path reach it without a trip through the GOT. */
#pragma GCC visibility push(hidden)
#define CAP_LIKELY(x) __builtin_expect(!!(x), 1)
#define CAP_UNLIKELY(x) __builtin_expect(!!(x), 0)

typedef void (*cap_proc)(void);

/* ------------------------------------------------------------ buffers */

/* A run of records written by one thread. The owning thread appends and
 * publishes `commit` (release) after each whole record: the end offset in
 * the low 32 bits and the low 32 bits of that record's seq in the high
 * ones, in one store, so the flusher knows the seq at any cut even where
 * records leave it out. The flusher alone reads [flushed, commit) and owns
 * the fields marked so. A buffer goes back to the pool only through the
 * flusher, so the flusher never reads memory that is being reused. */
#define CAP_COMMIT(off, seq) ((uint64_t)(seq) << 32 | (uint32_t)(off))
#define CAP_COMMIT_OFF(c) ((size_t)(uint32_t)(c))
typedef struct cap_buffer {
    uint8_t *data;
    size_t cap;                 /* < 4 GiB (offsets are 32-bit) */
    _Atomic uint64_t commit;
    size_t flushed;             /* flusher only */
    uint64_t flushed_seq;       /* flusher only: seq of the last flushed record */
    uint64_t tid;
    uint64_t frame_mark;        /* flusher only: cap_frame when the next chunk began */
    _Atomic int retired;        /* the thread has moved on to another buffer */
    _Atomic uint32_t snaps;     /* snapshot records begun in it (counted before their commit) */
    uint32_t snaps_seen;        /* flusher only: of those, the ones it has coded or passed */
    struct cap_buffer *next_live;    /* list of all buffers in use (flusher lock) */
    struct cap_buffer *next_retired; /* queue to the flusher (flusher lock) */
} cap_buffer;

/* ------------------------------------------------------------ contexts */

/* A buffer range the app has mapped (glMapBufferRange, glMapBufferOES). */
typedef struct cap_map {
    uint32_t target, buffer, access;
    uint8_t *ptr;
    int64_t offset, length;
} cap_map;

#define CAP_MAX_MAPS 32
#define CAP_MAX_RENDERED 64

/* What capture keeps per EGL context. A context is current on one thread
 * at a time, so only that thread touches its state: no lock. */
typedef struct cap_ctx_state {
    int32_t id;
    int es_major, es_minor;     /* GLES version, known once first current */
    int client_ptrs;            /* a vertex array pointer was set with no buffer bound */
    int unpack_subimage;        /* GLES 2 with EXT_unpack_subimage: unpack row length, skips */
    int pack_subimage;          /* GLES 2 with NV_pack_subimage: pack row length, skips */
    int read_depth, read_stencil; /* NV_read_depth, NV_read_stencil */
    int read_depth_stencil;     /* NV_read_depth_stencil */
    int float_colour;           /* EXT_color_buffer_float (or GLES 3.2): float levels drawn into and read */
    int norm16;                 /* EXT_texture_norm16: 16-bit normalized levels drawn into and read */
    int nmaps;
    cap_map maps[CAP_MAX_MAPS];
    int npersistent;            /* maps with GL_MAP_PERSISTENT_BIT among them */
    int nrendered;              /* textures drawn into since the last swap (--textures) */
    struct { uint32_t tex, target; int32_t level, layer; } rendered[CAP_MAX_RENDERED];
    uint32_t snap_fbo;          /* our framebuffer for reading textures, 0: none yet */
    int drew;                   /* drew or cleared since its last snapshot (cap_unswapped.c) */
    int swapped;                /* has swapped once: its swaps are its snapshots */
} cap_ctx_state;

/* What the library does, from GLTRACE (GT_MODE_*, proto/gt_settings.h:
 * nothing, record a trace, check every GL call for errors, or time every
 * call), or wait for a host's start (GLTRACE_LISTEN). */
enum { CAP_MODE_IDLE = GT_MODE_TIMING + 1 };

/* Options read once at start (cap_init.c); GT_FB_* in gt_settings.h. */
/* Atomic: a host connected to the trace server may change them while the
 * app draws (cap_server.c); plain loads on x86. */
extern _Atomic int cap_opt_fb;         /* GLTRACE_FB: none, swap (default), draw */
extern _Atomic int cap_opt_textures;   /* GLTRACE_TEXTURES=1 */
extern int cap_opt_fb_depth;   /* GLTRACE_FB_DEPTH=1: depth and stencil too */

/* Per-thread capture state. */
typedef struct cap_tls {
    uint8_t *pos;        /* where the next record goes */
    uint8_t *end;        /* end of the current buffer */
    cap_buffer *buf;
    uint64_t tid;        /* kernel thread id */
    int32_t ctx;         /* dense id of the current context, -1 for none */
    int es_major;        /* GLES major version of the current context (0: none) */
    cap_ctx_state *cs;   /* the current context's state, NULL for none */
    uint64_t seq;        /* seq of the record being written */
    uint64_t last_seq;   /* seq of the previous record in this buffer */
    int seq_known;       /* 0 at a buffer's start: the next record writes its seq */
    uint64_t cpu0;       /* thread CPU time at call start (when asked) */
    int size_check;      /* a frame began: ask the draw surface's size (cap_resize.c) */
    uint32_t session;    /* the value of cap_session this thread records under */
    uint32_t switch_after; /* the cap_session under which its last swap/makeCurrent
                              was its switch point: act at the next call */
    int foreign;         /* its GL calls go to another API's context (GLX): not
                            recorded until it makes an EGL context current
                            (cap_foreign.c); session is then CAP_SESSION_FOREIGN */
    uint64_t last_t;     /* end time of its last record written at once: a held one's time */
    uint32_t npending;   /* state commands held back (cap_defer.c), written first */
    struct cap_defer_q *dq; /* their queue, made at the first one */
    uint64_t sel[8];     /* selectors' values while writing is off (CAP_DEFER_NSEL) */
    int made_current;    /* it made a context current once */
    uint64_t draw_surf;  /* the draw surface of its eglMakeCurrent */
    int surf_swapped;    /* ... swapped since: a window whose draws go (cap_defer.c) */
    int dropped;         /* draws into it left out: its pixels written when writing comes on */
    int passing;         /* a record that reads no context state (a swap): the queue waits */
    struct cap_texhold *th; /* texture levels written off (cap_texhold.c), made at the first */
    uint32_t th_levels;  /* ... how many it holds */
    uint32_t th_changed; /* ... of them changed since last written: written before a reader */
    struct cap_bufhold *bh; /* buffers written off (cap_bufhold.c), made at the first */
    uint32_t bh_buffers; /* ... how many it holds */
    uint32_t bh_changed; /* ... of them changed since last written */
} cap_tls;

/* A session value cap_session never takes: every call of a thread holding
 * it goes to cap_tls_slow. */
#define CAP_SESSION_FOREIGN 0xffffffffu

extern __thread cap_tls *cap_self __attribute__((tls_model("initial-exec")));
extern _Atomic int cap_tracing;       /* 1 while records are taken */
extern _Atomic uint64_t cap_seq;      /* next global sequence number */
/* Which recording session is on (cap_switch.c): 0 always when tracing runs
 * from start to exit, so every thread's `session` matches and the check
 * below costs a compare; switched at runtime (GLTRACE_LISTEN), a thread
 * whose value differs takes the slow path until its switch point. */
extern _Atomic uint32_t cap_session;
extern int cap_opt_threadtime;        /* GLTRACE_THREADTIME=1 */

/* Creates the calling thread's state on its first traced call. NULL when
 * tracing is off or memory ran out (tracing then stops, the app goes on). */
cap_tls *cap_tls_create(void);

/* Moves the thread to a fresh buffer with at least `need` free bytes.
 * Returns 0 when that fails (tracing stops). */
int cap_tls_refill(cap_tls *t, size_t need);

/* cap_switch.c: the calling thread's state when it has none yet or its
 * session differs from cap_session; NULL: this call is not recorded. idx is
 * the command (or -1), so that a swap or eglMakeCurrent (`class frame`,
 * `class current`) can be the thread's switch point. */
cap_tls *cap_tls_slow(cap_tls *t, int idx);

CAP_INLINE cap_tls *cap_tls_get(void)
{
    if (CAP_UNLIKELY(!atomic_load_explicit(&cap_tracing, memory_order_relaxed)))
        return NULL;
    cap_tls *t = cap_self;
    if (CAP_LIKELY(t != NULL && t->session == atomic_load_explicit(&cap_session, memory_order_relaxed)))
        return t;
    return cap_tls_slow(t, -1);
}

/* cap_tls_get for the commands where tracing switched at runtime starts or
 * ends on a thread. */
CAP_INLINE cap_tls *cap_tls_get_at(unsigned idx)
{
    if (CAP_UNLIKELY(!atomic_load_explicit(&cap_tracing, memory_order_relaxed)))
        return NULL;
    cap_tls *t = cap_self;
    if (CAP_LIKELY(t != NULL && t->session == atomic_load_explicit(&cap_session, memory_order_relaxed)))
        return t;
    return cap_tls_slow(t, (int)idx);
}

/* ------------------------------------------------------------ clock */

/* CLOCK_MONOTONIC nanoseconds. With an invariant TSC this is rdtsc and a
 * multiply (about 10 ns here against 25 ns for clock_gettime); the
 * conversion is re-anchored by the flusher once a second so it tracks
 * CLOCK_MONOTONIC without steps backwards. */
typedef struct cap_clock_params {
    uint64_t base_tsc;
    uint64_t base_ns;
    uint64_t mult;       /* ns per tick, 32.32 fixed point */
} cap_clock_params;

extern _Atomic(const cap_clock_params *) cap_clock_cur; /* NULL: no usable TSC */
uint64_t cap_clock_slow(void);
void cap_clock_init(void);
void cap_clock_recalibrate(void);

uint64_t cap_thread_cpu_ns(void);

CAP_INLINE uint64_t cap_clock_now(void)
{
    const cap_clock_params *c = atomic_load_explicit(&cap_clock_cur, memory_order_acquire);
    if (CAP_UNLIKELY(c == NULL))
        return cap_clock_slow();
    uint64_t tsc = __builtin_ia32_rdtsc();
    uint64_t d = tsc > c->base_tsc ? tsc - c->base_tsc : 0;
    return c->base_ns + (uint64_t)(((unsigned __int128)d * c->mult) >> 32);
}

/* ------------------------------------------------------------ records */

/* ------------------------------------------------------------ writing off */

/* cap_defer.c: while writing is off (before the start of a mid-run
 * capture), a command that only sets state waits in its thread's queue,
 * keyed by the piece it sets (api/emit_defer.py); a later one of the same
 * key replaces it unless something read it. Every other record writes the
 * queue first (cap_rec_begin). */
#define CAP_DEFER_NSEL 8                 /* selectors (api/emit_defer.py SEL_MAX) */
#define CAP_SEL_UNKNOWN UINT64_MAX       /* not known on this thread since its eglMakeCurrent */
#define CAP_SEL_DEFAULT (UINT64_MAX - 1) /* never set in the process: every context's first value */
#define CAP_DEFER_REC_MAX 4096           /* a larger record is written at once */
typedef struct cap_defer_key {
    uint16_t name;    /* api/emit_defer.py key_names; 0: no key (a read that does not count) */
    uint8_t nparts;
    uint8_t any;      /* a read of every key of the name */
    uint64_t part[3];
} cap_defer_key;
extern _Atomic int cap_defer_on;         /* 1 while some thread may hold commands back */
extern int cap_opt_coalesce;             /* GLTRACE_COALESCE */
void cap_defer_enable(void);             /* at init, for a start frame or the spool */
void cap_defer_stop(void);               /* the start: every thread writes from its next call */
void cap_defer_thread_new(cap_tls *t);   /* its selectors */
void cap_defer_select(cap_tls *t, unsigned slot, uint64_t value);
/* eglMakeCurrent: selectors unknown again; a second thread making a context
 * current turns holding back off for good. */
void cap_defer_made_current(cap_tls *t, int with_context, uint64_t draw_surf);
/* Before an eglMakeCurrent to draw_surf: a window left with draws left out
 * has its pixels written while it is still current. */
void cap_defer_switching(cap_tls *t, uint64_t draw_surf, int other_context);
/* A swap ended: the start frame reached, or the draw surface a window. */
void cap_defer_swapped(cap_tls *t, uint64_t surf);
/* Writing on again: the queue written, then the window's pixels if its
 * draws were left out. */
void cap_defer_catch_up(cap_tls *t);
uint8_t *cap_defer_begin(cap_tls *t, size_t max, int32_t number, uint64_t t0);
void cap_defer_end(cap_tls *t, uint8_t *p, uint32_t alias, const cap_defer_key *k, unsigned nk);
void cap_defer_flush(cap_tls *t);        /* writes the queue, in order */

/* The frames ended so far, as the start and stop frames count them:
 * swaps, and the frames of a program that has not swapped (below). */
CAP_INLINE uint64_t cap_frames_ended(void)
{
    extern _Atomic uint64_t cap_frame, cap_unswapped_frames;
    return atomic_load_explicit(&cap_frame, memory_order_relaxed) +
           atomic_load_explicit(&cap_unswapped_frames, memory_order_relaxed);
}

/* Holding back now (cap_defer_on being 1): before the start frame
 * (GLTRACE_START_FRAME) or a host's start. */
CAP_INLINE int cap_defer_now(void)
{
    extern uint64_t cap_opt_start_frame;
    if (CAP_LIKELY(!cap_opt_start_frame || cap_frames_ended() + 1 < cap_opt_start_frame))
        return 1;
    cap_defer_stop();
    return 0;
}

int cap_defer_writes_elsewhere(void); /* transform feedback, storage blocks, atomic counters */

/* cap_texhold.c: texture levels and renderbuffers written off before the
 * start, written as read back before anything reads them and where
 * writing comes on. */
#define CAP_DRAW_ALL UINT32_MAX /* a draw's "mask": it may write every buffer its tests allow */
int cap_texhold_upload(cap_tls *t, int define, uint32_t target, int32_t level, uint32_t ifmt, int32_t w, int32_t h,
                       int32_t d, uint32_t fmt, uint32_t type); /* 1: not to be written */
int cap_texhold_fbo_draw(cap_tls *t, uint32_t mask); /* 1: a draw or clear (mask) into written-off levels only */
void cap_texhold_storage(cap_tls *t, uint32_t target, int32_t levels, uint32_t ifmt, int32_t w, int32_t h,
                         int32_t d);
void cap_texhold_renderbuffer(cap_tls *t, uint32_t target, int32_t samples, uint32_t ifmt, int32_t w, int32_t h);
void cap_texhold_rb_deleted(cap_tls *t, int32_t n, const uint32_t *names);
void cap_texhold_reading(cap_tls *t);                /* every changed level written */
int cap_texhold_named(cap_tls *t, uint32_t tex, int32_t level); /* 1: a change of a followed level, not written */
void cap_texhold_touch(cap_tls *t, uint32_t target); /* the texture bound to target written and forgotten */
void cap_texhold_pinned(cap_tls *t, uint32_t tex);   /* attached: written, not forgotten, when deleted */
void cap_texhold_deleted(cap_tls *t, int32_t n, const uint32_t *names);
void cap_texhold_leave(cap_tls *t);                  /* all written and forgotten: writing on, or another context */
/* cap_bufhold.c: buffer contents written off before the start (GLES 3),
 * written as read back before anything reads them and where writing
 * comes on. */
int cap_bufhold_data(cap_tls *t, uint32_t target, int64_t size, uint32_t usage); /* 1: not to be written */
int cap_bufhold_subdata(cap_tls *t, uint32_t target);                         /* 1: not to be written */
void cap_bufhold_storage(cap_tls *t, uint32_t target, int64_t size, uint32_t flags); /* written */
void cap_bufhold_map(cap_tls *t, uint32_t target, uint32_t access, int64_t offset, int64_t length); /* before it */
int cap_bufhold_pixel_read(cap_tls *t);                  /* 1: a pixel read not to be written */
int cap_bufhold_mapped_bytes(cap_tls *t, uint32_t name); /* 1: a held mapping's bytes, not written */
void cap_bufhold_unmapped(cap_tls *t, uint32_t name);
void cap_bufhold_after_unmap(cap_tls *t, uint32_t name); /* after the unmap's record */
void cap_bufhold_read_mapped(cap_tls *t, uint32_t name);
void cap_bufhold_reading(cap_tls *t);                    /* every changed buffer written */
void cap_bufhold_unpacking(cap_tls *t);                  /* the pixel unpack buffer bound, if changed */
void cap_bufhold_touch(cap_tls *t, uint32_t target);     /* the buffer bound to target written and forgotten */
void cap_bufhold_deleted(cap_tls *t, int32_t n, const uint32_t *names);
void cap_bufhold_leave(cap_tls *t);                      /* all written and forgotten */
void cap_mapped_write_all(cap_tls *t, uint32_t buffer); /* cap_mapped.c */
/* cap_defer.c: what may read a level or buffer written off writes them first. */
void cap_hold_reading(cap_tls *t);
void cap_hold_touch(cap_tls *t, uint32_t target);

/* cap_write_call.c: a call of the function api/state.tsv names for `use`
 * (`function` lines), written as the thread's next record: integer
 * arguments, and `len` bytes behind its one pointer. */
void cap_write_call(cap_tls *t, const char *use, const int64_t *args, const void *bytes, size_t len);
/* cap_snapshot.c: a layer of a texture level (a 2D texture's, a cube
 * face's, a 3D or array texture's), or a renderbuffer (face
 * GL_RENDERBUFFER), attached at `att` of capture's framebuffer and read
 * as fmt/type (colour: GL_RGBA, GL_UNSIGNED_BYTE; depth, with
 * NV_read_depth: GL_DEPTH_COMPONENT); -1: not readable. */
int cap_snapshot_read_level(cap_tls *t, uint32_t tex, uint32_t face, int32_t level, int32_t layer, int32_t w,
                            int32_t h, uint32_t att, uint32_t fmt, uint32_t type, uint8_t *px);

/* A draw not to write: into the window its thread swapped, with no
 * framebuffer object bound for drawing (the selector slot `fb`), and
 * nothing else it writes (what trim's step 2 leaves out); or into a
 * framebuffer object whose colour is a texture level written off, and
 * nothing else (cap_texhold.c). `mask`: a clear's or a blit's, or
 * CAP_DRAW_ALL. */
CAP_INLINE int cap_defer_window_draw(cap_tls *t, unsigned fb, uint32_t mask)
{
    if (t->sel[fb] != 0 && t->sel[fb] != CAP_SEL_DEFAULT) {
        if (t->sel[fb] == CAP_SEL_UNKNOWN || !t->th_levels || !cap_texhold_fbo_draw(t, mask))
            return 0;
        if (t->cs)
            t->cs->drew = 1; /* drawn all the same: its frame ends at glFinish if it never swaps (cap_unswapped.c) */
        return 1;
    }
    if (!t->surf_swapped || t->es_major < 1 || (t->es_major >= 3 && mask == CAP_DRAW_ALL && cap_defer_writes_elsewhere()))
        return 0;
    t->dropped = 1;
    return 1;
}

/* Reserves `max` bytes and writes the frame length placeholder and fields
 * 1-4. Returns where the arguments go, or NULL (tracing stopped). */
CAP_INLINE uint8_t *cap_rec_begin(cap_tls *t, size_t max, int32_t number,
                                    uint64_t t0, uint64_t t1)
{
    if (CAP_UNLIKELY(t->npending && !t->passing) ||
        CAP_UNLIKELY(t->dropped && !atomic_load_explicit(&cap_defer_on, memory_order_relaxed)))
        cap_defer_catch_up(t);
    t->last_t = t1; /* a held record starts where this one ended: times stay in order (their coding needs it) */
    /* The seq is taken first: a locked add waits for the store buffer to
     * drain, and here it holds little (the record's stores come after). */
    t->seq = atomic_fetch_add_explicit(&cap_seq, 1, memory_order_relaxed);
    if (CAP_UNLIKELY((size_t)(t->end - t->pos) < max) && !cap_tls_refill(t, max))
        return NULL;
    /* Ask for the buffer's next lines early so the record stores hit. */
    __builtin_prefetch(t->pos + 1024, 1, 3);
    uint64_t dur = t1 > t0 ? t1 - t0 : 0;
    return gt_rec_put_header(t->pos + 4, t->ctx, (int64_t)t0,
                             dur > INT32_MAX ? INT32_MAX : (int32_t)dur, number);
}

/* Writes the frame length and publishes the record ending at p. */
CAP_INLINE void cap_rec_commit(cap_tls *t, uint8_t *p)
{
    gt_put_be32(t->pos, (uint32_t)(p - t->pos - 4));
    t->pos = p;
    t->last_seq = t->seq;
    t->seq_known = 1;
    atomic_store_explicit(&t->buf->commit, CAP_COMMIT(p - t->buf->data, t->seq), memory_order_release);
}

/* Writes fields 8-12, the frame length, and publishes the record. */
CAP_INLINE void cap_rec_end(cap_tls *t, uint8_t *p, uint32_t alias, uint64_t t0, uint64_t t1)
{
    uint64_t dur = t1 > t0 ? t1 - t0 : 0;
    if (CAP_UNLIKELY(cap_opt_threadtime)) {
        uint64_t cpu = cap_thread_cpu_ns() - t->cpu0;
        *p++ = 0x40;
        p = gt_put_varint(p, (uint64_t)(int64_t)(cpu > INT32_MAX ? INT32_MAX : (int32_t)cpu));
    }
    p = gt_rec_put_trailer(p, t->seq, !t->seq_known || t->seq != t->last_seq + 1, 0 /* in the chunk header */,
                           (int64_t)dur, dur > INT32_MAX, alias);
    cap_rec_commit(t, p);
}

/* ------------------------------------------------------------ fixups */

/* The largest datum behind one pointer that is recorded; beyond it only the
 * address is (a trace buffer's offsets are 32-bit). */
#define CAP_SPAN_MAX ((size_t)1 << 30)

/* n elements of `elem` bytes; n < 0: the extent is not known here. */
CAP_INLINE void cap_span_raw(gt_span *s, const void *data, long n, size_t elem)
{
    if (n < 0 || (size_t)n > CAP_SPAN_MAX / (elem ? elem : 1))
        return;
    s->kind = GT_SPAN_RAW;
    s->data = data;
    s->bytes = (size_t)n * elem;
}

CAP_INLINE void cap_span_string(gt_span *s, const char *str)
{
    s->kind = GT_SPAN_STRING;
    s->data = str;
    s->bytes = strnlen(str, CAP_SPAN_MAX);
}

/* A string the driver wrote into a buffer of `size` chars: *length chars
 * when the app asked for the length, else up to the NUL; never past the
 * buffer, so a driver that wrote nothing costs nothing. */
CAP_INLINE void cap_span_outstring(gt_span *s, const char *str, long size, const int32_t *length)
{
    if (size <= 0)
        return;
    s->kind = GT_SPAN_STRING;
    s->data = str;
    if (length && *length >= 0 && *length < size)
        s->bytes = (size_t)*length;
    else
        s->bytes = strnlen(str, (size_t)size < CAP_SPAN_MAX ? (size_t)size : CAP_SPAN_MAX);
}

CAP_INLINE void cap_span_strings(gt_span *s, const char *const *strs, long count, const int32_t *lens)
{
    if (count < 0 || count > 65536)
        return;
    s->kind = GT_SPAN_STRINGS;
    s->strs = strs;
    s->count = (size_t)count;
    s->lens = lens;
}

/* An attribute list: key/value pairs up to `term`, which is included. */
CAP_INLINE void cap_span_attribs(gt_span *s, const void *list, size_t elem, int64_t term)
{
    size_t i = 0;
    for (; i < 8192; i += 2) {
        int64_t v = elem == 8 ? ((const int64_t *)list)[i] : ((const int32_t *)list)[i];
        if (v == term)
            break;
    }
    cap_span_raw(s, list, (long)(i + 1), elem);
}

/* A synthetic record with arguments: cap_syn_begin reserves `room` bytes
 * beyond the header and returns where fields 5 on go (NULL: tracing
 * stopped); cap_syn_end writes the trailer and publishes it. */
uint8_t *cap_syn_begin(cap_tls *t, int32_t number, size_t room);
void cap_syn_end(cap_tls *t, uint8_t *p);
/* The same, with the record's duration: the nanoseconds since t0
 * (cap_clock_now), what making it cost the app's thread. */
void cap_syn_end_timed(cap_tls *t, uint8_t *p, uint64_t t0);

/* Appends a synthetic record (metadata, marker) whose fields after 4 are
 * given already encoded in `tail` (fields 13 or 14, written after 9-10). */
void cap_rec_synthetic(cap_tls *t, int32_t number, const uint8_t *tail, size_t tail_len);

/* ------------------------------------------------------------ runtime */

void cap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Stops tracing for good after a fault of ours; logs once. */
void cap_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Generated (cap_gen.c). */
extern const char *const cap_fn_names[CAP_NFNS];
extern const int32_t cap_fn_numbers[CAP_NFNS];
#define cap_fn_number(idx) cap_fn_numbers[idx]
extern const cap_proc cap_export_tab[CAP_NFNS];
extern const cap_proc cap_missing_tab[CAP_NFNS];
void cap_dispatch_select(int mode);  /* GT_MODE_*: the table every entry point calls through */
void cap_install_replacements(void);
cap_proc cap_real_get(unsigned idx);
void cap_real_set(unsigned idx, cap_proc fn);

/* Hand-written capture calls the driver one way: cap_real.f.NAME(...), typed
 * from the registry (cap_real_fns.h), for a NAME that a `driver` line of
 * api/annotations.txt declares (tests/api/check_name_literals.py checks), so
 * no function is looked up by a name in a string. CAP_REAL_OR_NULL(NAME): the
 * function, or NULL where the driver lacks it; CAP_REAL_IDX(NAME): its index
 * in the dispatch tables (GT_IDX_NAME without gt_encoders.h). */
#define CAP_REAL_IDX(name) ((unsigned)(offsetof(struct cap_fns, name) / sizeof(cap_proc)))
#define CAP_REAL_OR_NULL(name) \
    (cap_real.v[CAP_REAL_IDX(name)] == cap_missing_tab[CAP_REAL_IDX(name)] ? NULL : cap_real.f.name)

/* cap_init.c */
cap_proc cap_init_entry(unsigned idx); /* runs init once, returns the entry */
void cap_missing(unsigned idx);        /* a call to a function the driver lacks */
int cap_fn_index(const char *name);    /* index in cap_fn_names, or -1 */
cap_proc cap_real_lookup(const char *name); /* the driver's function, or NULL */

/* cap_layer.c: in a GLES layer chain (AndroidGLESLayer_*), where the
 * functions below this layer come from. */
int cap_layer_active(void);
cap_proc cap_layer_lookup(unsigned idx);

/* cap_server.c: GLTRACE_LISTEN; -1 (logged): no server. */
int cap_server_start(const char *spec, int zstd_level);

/* cap_spool.c: the trace server's spool (every call recorded into a file
 * of the app's, a host's start and stop as call numbers in it). */
int cap_spool_open(int keep_at_exit, char *err, size_t errlen); /* makes the file (0600) */
const char *cap_spool_path(void);
void cap_spool_discard(void);       /* the spool could not be used: its file goes */
void cap_spool_remove(void);        /* at exit or a fatal signal: the file goes unless kept */
int cap_server_spooling(void);      /* cap_server.c: the server records into the spool */
extern _Atomic int cap_spool_wanted; /* a point is wanted: the next frame end of any thread */
void cap_spool_want_point(void);
void cap_spool_swapped(cap_tls *t); /* a frame ended: a swap, or a snapshot of a program that never swapped */
/* 1 and *after, the first call after the point, once it was reached; now:
 * the point is the next call if no swap came. */
int cap_spool_point(uint64_t *after, int now);

/* cap_outpath.c */
const char *cap_proc_name(void);      /* argv[0]'s last part */
int cap_proc_selected(void);          /* GLTRACE_PROC unset or naming this process */
/* The output file for GLTRACE_OUT `spec` (file, folder or %p/%n pattern),
 * with `ext` (".gltrace", ".json") where the name is ours. -1: logged. */
int cap_out_path(const char *spec, const char *ext, char *out, size_t len);
void cap_out_announce(const char *path); /* tells gltrace record the file exists */

/* cap_flusher.c */
int cap_flusher_start(const char *path, int level);
/* Snapshot coding on the flusher thread (cap_snapshot_code.c): on/off
 * (GLTRACE_SNAPSHOT_DELTA) and zstd level, set at init. */
void cap_snapshot_code_setup(int on, int level);
/* Codes the snapshot records among [d, d+len) of thread tid; *res, *res_len:
 * d itself, or the coder's buffer (valid until the next call). Returns how
 * many snapshot records it found. Flusher thread only. */
/* A new trace (a host attached): every slot starts again with a keyframe. */
void cap_snapshot_code_restart(void);
uint32_t cap_snapshot_code(uint64_t tid, const uint8_t *d, size_t len, const uint8_t **res, size_t *res_len);
/* Memory the buffers in flight may take (GLTRACE_BUFFER_MB; 512 MiB): a
 * thread that would exceed it waits for the writer thread. Before start. */
void cap_flusher_set_mem_cap(size_t bytes);
void cap_flusher_register(cap_buffer *b);
void cap_flusher_retire(cap_buffer *b);
cap_buffer *cap_flusher_take_buffer(size_t min_cap); /* from the pool */
void cap_flusher_kick(void);          /* flush soon (swap); async-signal-safe */
void cap_flusher_shutdown(int from_signal); /* flush all, write the index, close */
void cap_flusher_forget(void);        /* in a forked child: touch nothing */
/* Waits (at most timeout_ms) until what was committed before the call is
 * written: two passes of the writer thread. 0, or -1 late. */
int cap_flusher_sync(int timeout_ms);
/* Serving a host (cap_server.c): the thread runs with no file; a session's
 * writer is attached (what the buffers held before is dropped) and
 * detached (everything committed written, then the seek index). */
struct gt_writer;
int cap_flusher_start_serving(void);
void cap_flusher_attach(struct gt_writer *w);
void cap_flusher_detach(int abandon); /* abandon: the host is gone, write nothing more */
int cap_flusher_serving_broken(void); /* the session's writer failed (the host is gone) */
extern _Atomic uint64_t cap_frame;    /* eglSwapBuffers calls so far */
/* Frames ended by a snapshot of a context that never swaps (at glFinish,
 * cap_unswapped.c) while the process had not swapped yet: a program that
 * never swaps has its frames end there, as replay and trim count them
 * (proto/gt_frames.c). Counted toward the start frame, so a start is
 * never later than by swaps alone. */
extern _Atomic uint64_t cap_unswapped_frames;
/* GLTRACE_START_FRAME: the swaps (and --fb=draw's draws) of frames before
 * this one less one take no snapshot (a trim from this frame leaves them
 * out; one frame early, as threads' swaps may be counted in another order
 * than the trace's). A context that never swaps takes its own (at
 * glFinish, cap_unswapped.c), before the start too: they end the frames
 * of a program that never swaps. */
extern uint64_t cap_opt_start_frame;
extern uint64_t cap_opt_stop_frame; /* GLTRACE_STOP_FRAME, 0: none (cap_init.c) */
void cap_stop_frame_check(void);    /* at a frame's end: tracing stops past the stop frame */
static inline int cap_before_start(void)
{
    return cap_opt_start_frame && cap_frames_ended() + 1 < cap_opt_start_frame;
}

/* cap_egl_hooks.c */
cap_ctx_state *cap_ctx_state_of(int32_t id);
/* Writes gltraceSurface (config attributes when config != 0) with the size
 * in *wp, *hp when they are given and positive, else the size EGL says now
 * (then left in *wp, *hp when not NULL). */
void cap_surface_record(cap_tls *t, uint64_t dpy, uint64_t surf, uint64_t config, int32_t number, int32_t *wp,
                       int32_t *hp);

/* What tracing switched on at runtime writes for a thread's current
 * context and surfaces made before it (once per session each). */
void cap_announce_context(cap_tls *t, uint64_t ctx);
void cap_announce_surface(cap_tls *t, uint64_t dpy, uint64_t surf);
void cap_hook_make_current(cap_tls *t, unsigned idx, const uint64_t *args, uint64_t ret);
extern _Atomic int cap_gl_meta_known; /* written once per trace, at the first eglMakeCurrent */

/* cap_switch.c: tracing switched on and off while the app runs. */
int cap_switch_mark_context(int32_t id);  /* 1 the first time in this session */
int cap_switch_mark_surface(uint64_t surf); /* 1 the first time in this session */
/* A session starts; fresh: in a new trace; at_once: every thread records
 * from its next call (the app waited for the host before its first). */
void cap_switch_begin(int fresh, int at_once);
void cap_switch_stop(void);               /* threads stop at their next switch point */
int cap_switch_active_threads(void);      /* threads still recording */
void cap_switch_end(void);                /* every thread stops now; back to idle */
void cap_switch_thread_exit(cap_tls *t);

/* cap_resize.c: the size of a window that changed between frames, recorded
 * before the first call that draws at it. */
void cap_resize_note(uint64_t surf, int32_t w, int32_t h); /* a gltraceSurface was written */
int cap_resize_known(uint64_t surf, int32_t *w, int32_t *h); /* the size last recorded: 1, or 0 */
void cap_resize_check(cap_tls *t, unsigned idx);          /* t->size_check was set */

/* cap_foreign.c: a thread drawing under a GLX context. check: at a
 * thread's first traced call (marks it foreign); call: each call of a
 * foreign thread, NULL (not recorded) but for an eglMakeCurrent (`class
 * current`), which makes it an EGL thread again and returns t. */
void cap_foreign_check(cap_tls *t);
cap_tls *cap_foreign_call(cap_tls *t, int cls);
/* An EGL context made current: says once if it is desktop OpenGL's. */
void cap_foreign_egl_context(EGLDisplay dpy, EGLContext ctx);

/* cap_snapshot.c: framebuffer and texture snapshots (gltraceSnapshot). */
void cap_snapshot_surface(cap_tls *t, uint64_t surface, int32_t w, int32_t h);
/* A new surface's contents, at the first binding (cap_fresh.c). */
void cap_snapshot_initial(cap_tls *t, uint64_t surface, int32_t w, int32_t h);
/* cap_fresh.c: surfaces made but not yet bound. */
void cap_fresh_note(uint64_t surf);
void cap_fresh_take(cap_tls *t, uint64_t surf);
void cap_snapshot_draw_buffers(cap_tls *t);
void cap_snapshot_rendered_textures(cap_tls *t);
void cap_snapshot_note_render_targets(cap_tls *t);

/* cap_mapped.c */
void cap_mapped_flush_persistent(cap_tls *t);

/* cap_meta.c */
void cap_meta_emit_start(cap_tls *t);
void cap_meta_emit_gl(cap_tls *t);
void cap_meta_emit_egl(cap_tls *t, void *dpy);
void cap_meta_emit_marker(cap_tls *t, const char *name);

#pragma GCC visibility pop
#endif
