/* rp_internal.h: what the replay modules share: the replay state, the
 * generated command table (gt_replay_gen.c) and the decoding of recorded
 * arguments. Error style of this layer: problems of the trace are counted
 * and reported in the summary (or stop the replay with a message naming the
 * file and record), never an abort. */
#ifndef RP_INTERNAL_H
#define RP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gltrace.pb-c.h"
#include "gt_gl_types.h" /* GL and EGL types, from the registry */
#include "gt_replay.h"

typedef Gltrace__GLMessage rp_msg;

/* Object classes of the registry whose names replay maps. Shaders and
 * programs share one name space in GL, so one class. */
enum {
    RP_PROGRAM, RP_TEXTURE, RP_BUFFER, RP_FRAMEBUFFER, RP_VERTEX_ARRAY, RP_QUERY, RP_RENDERBUFFER,
    RP_SAMPLER, RP_XFB, RP_PIPELINE, RP_NCLASSES
};
enum { RP_CALL, RP_SKIP, RP_EGL };
/* What a command does with the bound framebuffer's pixels. */
enum { RP_PIXELS_NONE, RP_PIXELS_READS, RP_PIXELS_CLEARS, RP_PIXELS_DISCARDS };

/* rp_decode.c: a call record decoded into reused storage (no malloc), in
 * protobuf-c's shape. 1: *out is valid until the next call; 0: not a
 * record it handles (protobuf-c must unpack it). Unlike protobuf-c's, the
 * pointer of an empty repeated field need not be NULL: go by its count. */
#define RP_DEC_ARGS 64
#define RP_DEC_VALUES 256
typedef struct rp_decoder {
    Gltrace__GLMessage msg;
    Gltrace__GLMessage__DataType dt[RP_DEC_ARGS];
    Gltrace__GLMessage__DataType *argp[RP_DEC_ARGS];
    int32_t ints[RP_DEC_VALUES];
    float floats[RP_DEC_VALUES];
    ProtobufCBinaryData bins[RP_DEC_VALUES];
    protobuf_c_boolean bools[RP_DEC_VALUES];
    int64_t i64[RP_DEC_VALUES];
    size_t nints, nfloats, nbins, nbools, ni64;
#define RP_DEC_BLOCKS 8
    struct rp_dec_block { uint8_t *data; size_t cap, used; } blocks[RP_DEC_BLOCKS]; /* aligned copies */
    int cur_block;
    int ready;             /* msg and dt bases set (rp_decode, once) */
    Gltrace__GLMessage__FrameBuffer fb; /* a snapshot's, its contents in the record */
    ProtobufCBinaryData fb_contents;
} rp_decoder;
int rp_decode(rp_decoder *d, const uint8_t *b, size_t n, Gltrace__GLMessage **out);
/* The reader's scanner (gt_reader_set_scanner; ctx: the rp): decodes the
 * record into the decoder not holding `keep`, and gives its seq. */
int rp_scan_record(void *ctx, const uint8_t *msg, size_t len, uint64_t id, uint64_t keep, uint64_t *seq);
void rp_decoder_free(rp_decoder *d);

typedef struct rp rp;
typedef void (*rp_handler)(rp *r, const rp_msg *m);
/* A hand-written EGL handler (`replay COMMAND egl HANDLER` in
 * api/annotations.txt; rp_handlers_gen.h declares them): the record, its
 * thread, and the driver's own function of the command (NULL: none). */
typedef void rp_egl_handler(rp *r, const rp_msg *m, uint64_t tid, void *fn);
typedef struct rp_entry {
    int32_t number;
    uint8_t alias;
    const char *name;
    rp_handler fn;
    uint8_t how;
    uint8_t cls;       /* gt_class (gt_api.h): `class` in api/annotations.txt */
    uint8_t pixels;    /* RP_PIXELS_*: `pixels` in api/annotations.txt */
    rp_handler check;  /* a skipped query's --check routine, or NULL */
    rp_egl_handler *egl; /* RP_EGL: its handler, NULL where nothing is done */
} rp_entry;
extern const rp_entry rp_entries[];
extern const size_t rp_nentries;

/* A client array as its glVertexAttribPointerData record has it. */
typedef struct rp_array {
    GLint index, size;
    GLenum type;
    GLboolean normalized;
    GLsizei stride;
    const void *ptr;
} rp_array;
/* A command that sets a vertex array (`class arrays`), generated. */
typedef struct rp_array_setter {
    void (*set)(rp *r, const rp_array *a); /* calls it with the array's values */
    uint8_t attrib;      /* its index is a vertex attribute's (`map ... index attrib`) */
    int32_t select_unit; /* entry of the command choosing its texture unit (`unit`), -1: none */
    uint8_t components;  /* of a setter with no size parameter (`components`), else 0 */
} rp_array_setter;
/* The setter of function number `number`, or NULL. */
const rp_array_setter *rp_array_setter_of(int32_t number);

/* 64-bit key -> 64-bit value, open addressing. */
typedef struct rp_map {
    uint64_t *keys, *vals;
    size_t cap, n;
    uint64_t puts;     /* changes counted, for caches of looked-up values */
} rp_map;
int rp_map_put(rp_map *h, uint64_t key, uint64_t val);
int rp_map_get(const rp_map *h, uint64_t key, uint64_t *val);
void rp_map_free(rp_map *h);

#define RP_MAX_CTX 256

/* A new surface's recorded contents, waiting for a command that sees them. */
#define RP_MAX_INITIAL 16
typedef struct rp_initial {
    uint64_t surface; /* recorded EGLSurface */
    int w, h;
    uint8_t *px;      /* RGBA8; NULL: a free slot */
} rp_initial;
#define RP_MAX_THREADS 64

typedef struct rp_ctx {
    int used;
    EGLContext ctx;
    int version;       /* client version */
    int gl_major;      /* the GLES major version it has (rp_snapshot.c), 0 not asked yet */
    int group;         /* share group: the id of its first context */
    uint32_t program;  /* recorded name of the program in use */
    uint32_t attrib_program; /* recorded program of the last attribute location asked */
    EGLConfig cfg;
    int pack_subimage; /* GLES 2 with NV_pack_subimage: 0 unknown, 1 yes, 2 no */
    uint32_t held_error; /* --check: the app's GL error replay's own reads took first */
    uint64_t failed_query; /* --check: 1 + the record whose query raised a GL error (outputs undefined) */
    int desktop;       /* the app made it for desktop OpenGL (eglBindAPI): its calls are not replayed */
} rp_ctx;

typedef struct rp_thread {
    uint64_t tid;
    int32_t ctx;       /* recorded context id current on it, -1 none */
    uint64_t draw, read; /* recorded surface handles */
} rp_thread;

struct rp {
    const gt_replay_options *opt;
    gt_replay_summary *sum;
    const char *path;
    void **fn;                 /* driver functions by entry index, looked up on first use (rp_fn) */
    uint8_t *fn_tried;         /* by entry index: looked up already (fn NULL then: the driver has none) */
    const rp_entry **by_number; /* alias 0 entries by function number */
    size_t max_number;
    EGLDisplay dpy;
    rp_ctx ctx[RP_MAX_CTX];
    rp_thread thr[RP_MAX_THREADS];
    size_t nthr;
    int32_t bound_ctx;         /* what is current on the replay thread */
    EGLSurface bound_draw, bound_read;
    /* rp_make_current_for's last success: while the thread's context and
     * surfaces, the surface map and the binding are the same, there is
     * nothing to look up or make current. mc_thr NULL: none. */
    rp_thread *mc_thr;
    int32_t mc_ctx;
    uint64_t mc_draw, mc_read, mc_surface_puts;
    rp_map names;              /* (group, class, recorded) -> replayed */
    rp_map handles;            /* recorded GLsync/EGL handle -> replayed */
    rp_map surfaces;           /* recorded EGLSurface -> replayed EGLSurface */
    rp_map surface_cfgs;       /* recorded EGLSurface -> the EGLConfig replay chose */
    rp_initial initial[RP_MAX_INITIAL]; /* new surfaces' contents, till seen (rp_initial.c) */
    unsigned initial_held;     /* how many of them hold contents */
    EGLContext initial_ctx;    /* replay's own, for writing them */
    struct rp_clients *clients; /* client arrays' copies (rp_client_guard.c), NULL: none set yet */
    /* The attributes of the last eglCreateContext, for the gltraceContext
     * record that follows it (the context it returned). */
    uint64_t pending_ctx;
    int pending_configless;    /* made with EGL_NO_CONFIG_KHR */
    int pending_desktop;       /* made while its thread had bound EGL_OPENGL_API */
    rp_map bound_api;          /* recorded thread -> the API it bound last (eglBindAPI), when not GLES */
    EGLint pending_attrs[32];
    int npending_attrs;
    rp_map locations;          /* (group, program, recorded location) -> replayed */
    rp_map attribs;            /* the same for attribute locations */
    int attrib_moved;          /* said that a driver put an attribute elsewhere */
    rp_map uncovered;          /* names of uncovered functions said (hashed) */
    rp_map maps;               /* (group, replayed buffer) -> index in mapv + 1, 0 unmapped */
    rp_map tex_targets;        /* (group, replayed texture) -> target first bound to */
    struct gt_snap_chain *snaps; /* coded snapshots' pixels by thread and slot (rp_snapshot.c) */
    struct { uint8_t *ptr; int64_t offset, length; } mapv[64]; /* ptr NULL: a free slot */
    size_t nmapv;
    /* Scratch for decoded arguments, reset after each call. */
    uint8_t *scratch;
    size_t scratch_used, scratch_cap;
    const rp_msg *cur;         /* the record being replayed */
    const char *cur_name;      /* its function's name */
    /* Call records, decoded without malloc. Two: the reader has the next
     * record decoded (rp_scan_record) while replay still reads the one it
     * delivered. dec_scan: the scan id (gt_record.scan) each holds, 0 none;
     * declined_scan: the last record rp_decode declined (protobuf-c's). */
    rp_decoder dec[2];
    uint64_t dec_scan[2], declined_scan;
    uint64_t seq, frame;
    int32_t cur_ctx;
    uint8_t warned[8192];      /* one warning per function number */
    int looping;               /* replaying the last frame again (--loop) */
    int snap_frames;           /* the trace never swaps: its snapshots end its frames (proto/gt_frames.c) */
    int snap_pending;          /* the record before was a snapshot of such a trace */
    uint64_t snap_tid;         /* its thread */
    int repeat;                /* a trim's repeat for --loop: replayed whole, from a reset */
    struct rp_reset *reset;    /* a trim's state at its start, for --loop's written reset (rp_reset.c) */
    rp_map *made_since;        /* while set: every name and handle made (rp_name_made_since) */
    double frame_start, last_progress; /* seconds, CLOCK_MONOTONIC */
    /* Work after a call (--snapshot, gltrace diverge's probe): one flag, so
     * that a plain replay tests nothing more per record. */
    int after_call;
    struct rp_probe *probe;
    /* The last out pointer rp_arg_out gave replay's own memory for, and
     * its argument: where a pixel read's replayed bytes are. */
    uint8_t *last_out;
    unsigned last_out_arg;    /* gltrace diverge's lockstep events, or NULL */
};

/* ---------------------------------------------------------------- arguments */

void *rp_scratch(rp *r, size_t n);

static inline int64_t rp_arg_i(const rp_msg *m, unsigned i)
{
    if (i >= m->n_args)
        return 0;
    const Gltrace__GLMessage__DataType *d = m->args[i];
    if (d->n_intvalue)
        return d->intvalue[0];
    if (d->n_int64value)
        return d->int64value[0];
    if (d->n_boolvalue)
        return d->boolvalue[0];
    return 0;
}

static inline uint64_t rp_arg_u(const rp_msg *m, unsigned i)
{
    return (uint64_t)rp_arg_i(m, i);
}

static inline float rp_arg_f(const rp_msg *m, unsigned i)
{
    return i < m->n_args && m->args[i]->n_floatvalue ? m->args[i]->floatvalue[0] : 0.0f;
}

static inline double rp_arg_d(const rp_msg *m, unsigned i)
{
    int64_t bits = rp_arg_i(m, i);
    double d;
    __builtin_memcpy(&d, &bits, sizeof d);
    return d;
}

static inline uint64_t rp_ret_u(const rp_msg *m)
{
    const Gltrace__GLMessage__DataType *d = m->returnvalue;
    if (!d)
        return 0;
    if (d->n_intvalue)
        return (uint64_t)(int64_t)d->intvalue[0];
    if (d->n_int64value)
        return (uint64_t)d->int64value[0];
    return 0;
}

/* The recorded address of a pointer argument (an offset into a bound buffer,
 * NULL, or an address of the app's that replay cannot use). */
static inline void *rp_arg_addr(const rp_msg *m, unsigned i)
{
    if (i >= m->n_args || !m->args[i]->n_int64value)
        return NULL;
    return (void *)(uintptr_t)m->args[i]->int64value[0];
}

/* Whether pointer argument i has data in the record or a non-NULL address. */
static inline int rp_arg_present(const rp_msg *m, unsigned i)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    return d && (d->n_rawbytes || d->n_charvalue || (d->n_int64value && d->int64value[0]));
}

/* The bytes recorded behind pointer argument i (in *len), NULL for none. */
static inline const uint8_t *rp_arg_bytes(const rp_msg *m, unsigned i, size_t *len)
{
    const Gltrace__GLMessage__DataType *d = i < m->n_args ? m->args[i] : NULL;
    if (!d || !d->n_rawbytes)
        return NULL;
    *len = d->rawbytes[0].len;
    return d->rawbytes[0].data;
}

const void *rp_arg_in(rp *r, const rp_msg *m, unsigned i, int offset_ok);
const char *rp_arg_text(rp *r, const rp_msg *m, unsigned i);
/* Replay's buffer for out pointer i: at least `room` bytes (what the call
 * may write; 0 unknown) and the recorded bytes; NULL for the app's NULL,
 * and with the summary's error set for room past 1 GB. */
void *rp_arg_out(rp *r, const rp_msg *m, unsigned i, int offset_ok, long room);
const char *const *rp_arg_strings(rp *r, const rp_msg *m, unsigned i);

/* rp_need.c: lower bounds of the bytes a call reads (api/annotations.txt
 * `sizefn ... replay=`), and the refusal of records shorter than that. */
long rp_need_unpack(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h, intptr_t d);
long rp_need_texel(rp *r, intptr_t format, intptr_t type);
long rp_need_indices(rp *r, intptr_t count, intptr_t type);
long rp_need_unpack_bytes(rp *r, intptr_t bytes);
long rp_need_pname(rp *r, intptr_t pname);
/* An upper bound of the bytes a pixel read writes under the pack state. */
long rp_need_pack(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h);
/* The bytes a pixel read of w x h writes under the current pack state,
 * from its first (a pack buffer bound or not); *gaps (when given): whether
 * bytes within that span are not written (padding, row length, skips). */
long rp_pack_bytes(rp *r, intptr_t format, intptr_t type, intptr_t w, intptr_t h, int *gaps);
/* n elements of `size` bytes: 0 for a count of none or less, LONG_MAX
 * where the product overflows (a hostile count is then refused, never
 * wrapped into a small bound). */
long rp_need_mul(long n, long size);
/* 1 (with the summary's error set) when argument i's data is shorter than
 * `need` bytes: the caller must not make the call. A NULL is shorter than
 * any need (the generated calls check one only where the parameter is not
 * `nullable` in api/annotations.txt). */
int rp_short(rp *r, const rp_msg *m, unsigned i, const char *param, long need);
/* 1 (with the summary's error set) when pointer argument i is an address
 * of the app's with no data behind it (where the size the call reads is
 * not known to replay): the driver would read the app's memory. */
int rp_no_data(rp *r, const rp_msg *m, unsigned i, const char *param);
/* The name of a record's function ("?" for a number api does not know). */
const char *rp_fn_name(const rp_msg *m);
/* 1 (with the summary's error set) when the record holds fewer than
 * `count` strings in argument i, or one shorter than its length in the
 * int array of argument length_arg (-1: none). */
int rp_strings_short(rp *r, const rp_msg *m, unsigned i, const char *param, long count, int length_arg);
/* 1 (with the summary's error set) when the attribute list in argument i
 * (name, value pairs) has no terminating GL_NONE within the record. */
int rp_attribs_short(rp *r, const rp_msg *m, unsigned i, const char *param);
/* 1 (with the summary's error set) when the record's arguments cannot be
 * its function's (api/gt_api.h): another count, or a pointer recorded as
 * a nonzero 32-bit value. The caller must not replay it. */
int rp_args_refused(rp *r, const rp_msg *m);

/* The width and height of what attachment `att` of the framebuffer bound to
 * `target` holds (rp_snapshot.c): a renderbuffer's, or with level_query
 * (GLES 3.1) a 2D or cube-face texture level's; 0 when that cannot be told.
 * Bindings are put back and the errors of a failed level query taken. */
void rp_attachment_size(GLenum target, GLenum att, int level_query, GLint *w, GLint *h);

/* ---------------------------------------------------------------- names */

uint32_t rp_name(rp *r, int cls, uint32_t recorded);
/* Whether the object of class cls replay named `replayed`, or the handle
 * recorded as `recorded` (cls -1), was made since r->made_since was set. */
int rp_name_made_since(rp *r, int cls, uint64_t name);
/* The k-th recorded name a command names by its object parameter (one
 * name, or an array of them: glDeleteTextures); *n how many there are. */
struct gt_api_fn;
uint32_t rp_obj_param_name(const struct gt_api_fn *f, const rp_msg *m, size_t k, size_t *n);
/* The RP_ class of an api/state.tsv class (gt_state_class), -1 for none. */
int rp_class_of_state(int state_cls);
void rp_name_set(rp *r, int cls, uint32_t recorded, uint32_t replayed);
const uint32_t *rp_names_in(rp *r, int cls, const rp_msg *m, unsigned i);
void rp_names_out(rp *r, int cls, const rp_msg *m, unsigned i, const uint32_t *replayed);
/* Replayed -> recorded names (gltrace inspect): rp_names_reverse fills
 * `rev` from the names map; rp_name_recorded looks a replayed name up in
 * it, for the current context. */
void rp_names_reverse(const rp *r, rp_map *rev);
/* The same, -1 when the map has no recorded name for it. */
int rp_name_recorded_of(rp *r, const rp_map *rev, int cls, uint32_t replayed, uint32_t *recorded);
uint32_t rp_name_recorded(rp *r, const rp_map *rev, int cls, uint32_t replayed);
/* The replayed GLsync or EGL handle of a recorded one; 0 (with one
 * warning) for one the trace never created or has destroyed. */
uint64_t rp_handle(rp *r, uint64_t recorded);
void rp_handle_set(rp *r, uint64_t recorded, uint64_t replayed);
int64_t rp_map_uniform(rp *r, const rp_msg *m, int64_t loc);
int64_t rp_map_program_uniform(rp *r, const rp_msg *m, int64_t loc);
/* A vertex attribute index, through the recorded glGetAttribLocation
 * answers of the program in use (or the last one asked). */
int64_t rp_map_attrib(rp *r, const rp_msg *m, int64_t index);
/* A name of the class the enum `what` gives (api/annotations.txt `map ... named:PARAM`). */
int64_t rp_map_named(rp *r, uint32_t name, uint32_t what);
/* The gt_state_class of what parameter i of record m names (gt_api_param_class). */
int rp_param_class(const struct gt_api_fn *f, const rp_msg *m, unsigned i);

/* ---------------------------------------------------------------- EGL, records */

int rp_egl_open(rp *r);
void rp_egl_close(rp *r);
/* Makes the recorded thread's context and surfaces current (0, or -1 when
 * it has none: GL records are then skipped). Inlined: every GL record
 * asks, and the same thread with the same context and surfaces as last
 * time (the context and surfaces it made current then still bound, the
 * surface map unchanged) needs no lookup. */
int rp_make_current_lookup(rp *r, uint64_t tid);
static inline int rp_make_current_for(rp *r, uint64_t tid)
{
    const rp_thread *t = r->mc_thr;
    if (t && t->tid == tid && t->ctx == r->mc_ctx && r->bound_ctx == r->mc_ctx && t->draw == r->mc_draw &&
        t->read == r->mc_read && r->surfaces.puts == r->mc_surface_puts) {
        r->cur_ctx = r->mc_ctx;
        return 0;
    }
    return rp_make_current_lookup(r, tid);
}
/* The records gltrace adds (rp_egl.c); 1 when it took the record. EGL
 * calls go to their handlers (rp_entry.egl). */
int rp_synthetic(rp *r, const rp_msg *m, uint64_t tid);
void rp_warn_once(rp *r, int32_t number, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* rp_check.c: --check. The generated routines fill zeroed buffers of the
 * recorded outputs' size, call the driver and compare. */
void *rp_check_out_buffer(rp *r, const rp_msg *m, unsigned i);
void rp_check_out(rp *r, const rp_msg *m, unsigned i, const char *param, const void *got);
void rp_check_ret(rp *r, const rp_msg *m, uint64_t got, int is_float);
void rp_check_ret_string(rp *r, const rp_msg *m, const char *got);
/* Before replay's own reads: the app's pending GL error, kept for its
 * glGetError (--check), and the error flags cleared. */
void rp_hold_errors(rp *r);

/* rp_run.c: a swap on thread `tid` ends a frame; whether the current
 * record lies inside --frames and --calls. */
void rp_frame_end(rp *r, uint64_t tid);
/* The driver's function of entry i (an index of rp_entries), NULL when the
 * driver has none; looked up the first time it is asked for. */
void *rp_fn(rp *r, size_t i);
int rp_in_range(const rp *r);

/* rp_snapshot.c */
void rp_snapshot_compare(rp *r, const rp_msg *m, uint64_t tid);
void rp_snapshot_loop(rp *r, const rp_msg *m);
/* The coded snapshots' chains go (end of a replay). */
void rp_snapshot_free(rp *r);
/* After the app's own glReadPixels into memory (`hook ... replay`): the
 * bytes replay read against the recorded ones. */
void rp_hook_read_pixels(rp *r, const rp_msg *m, uint64_t ret);
/* --snapshot: the current draw framebuffer (or, back_buffer, the surface's
 * back buffer) as RGBA8 to a PNG named after the frame, call and `why`. */
void rp_snapshot_extra(rp *r, int back_buffer, const char *why);
/* The current draw framebuffer (or, back_buffer, the surface's back
 * buffer) as an RGBA8 picture, rows top first, and the framebuffer's name
 * in *fbo. 0, or -1 (said once) when it cannot be read. */
struct gt_diff_image;
int rp_snapshot_read(rp *r, int back_buffer, struct gt_diff_image *img, int *fbo);
/* rp_trim_draws.c: whether a draw with program `prog` writes more than its
 * framebuffer (transform feedback, storage blocks, atomic counters, an
 * image bound). */
int rp_draw_side_effects(rp *r, GLuint prog);

/* rp_reset.c: --loop's written reset of a trimmed trace. rp_reset_take at
 * the start marker reads the state of the context current on tid (never
 * NULL but out of memory); rp_reset_note after each kept record's first
 * replay; rp_reset_write before a repeat writes back what differs (-1
 * when it cannot); rp_reset_why_not says why it cannot ("" while it can). */
typedef struct rp_reset rp_reset;
rp_reset *rp_reset_take(rp *r, uint64_t tid);
void rp_reset_before(rp_reset *s, rp *r, const rp_msg *m, uint64_t tid, const rp_entry *e, uint64_t seq);
void rp_reset_note(rp_reset *s, rp *r, const rp_msg *m, uint64_t tid, const rp_entry *e, uint64_t seq);
int rp_reset_write(rp_reset *s, rp *r);
uint64_t rp_reset_calls(const rp_reset *s);
const char *rp_reset_why_not(const rp_reset *s);
void rp_reset_cannot(rp_reset *s, const char *why); /* the first why stands */
void rp_reset_free(rp_reset *s);
/* rp_reset_objects.c: textures (target), buffers and renderbuffers
 * (RP_* classes, the replay's names) copied whole into objects of
 * replay's own before their first change, and copied back
 * (GLES 3.2); a framebuffer object's attachments read and attached again. rp_shadows_save: 0 saved now or before, -1 and *why when
 * it cannot be. rp_shadows_restore adds the copies and writes to *calls. */
typedef struct rp_shadows rp_shadows;
rp_shadows *rp_shadows_new(void);
int rp_shadows_save(rp_shadows *sh, int cls, GLenum target, GLuint obj, char *why, size_t n);
/* Every texture and renderbuffer attached to the framebuffer bound for drawing, saved. */
int rp_shadows_save_attachments(rp_shadows *sh, char *why, size_t n);
int rp_shadows_restore(rp_shadows *sh, uint64_t *calls, char *why, size_t n);
void rp_shadows_free(rp_shadows *sh);
/* rp_state_calls.c: the state of the context current on tid as calls of
 * api/state.tsv's set, toggle and each lines and GLES 1's matrix stacks
 * (NULL: no context, or out of memory). Call i: -1 when the context lacks
 * it. rp_state_differs: whether the context has other values now (a
 * unit-scope call makes its unit active). rp_state_restore: writes back
 * what differs now, the calls it made (UINT64_MAX: it cannot, why says
 * why). rp_state_refused: the GL errors cleared, 1 when there were. */
typedef struct rp_state rp_state;
typedef struct rp_state_call {
    const char *fn;
    const double *a;
    int n;
    int unit;         /* the texture unit it needs active, -1 none */
    uint32_t mode;    /* the matrix mode it needs (GLES 1's stacks), 0 none */
    int selects_unit; /* it is the call that makes a unit active */
    int selects_mode; /* it is the call that makes a matrix mode current */
    int eye;          /* it needs the identity as the modelview matrix (mode: GL_MODELVIEW) */
} rp_state_call;
rp_state *rp_state_read(rp *r, uint64_t tid);
int rp_state_version(const rp_state *s);
size_t rp_state_ncalls(const rp_state *s);
int rp_state_call_at(const rp_state *s, size_t i, rp_state_call *c);
int rp_state_differs(rp_state *s, size_t i);
uint64_t rp_state_restore(rp_state *s, char *why, size_t n);
void rp_state_units_used(rp_state *s);             /* read again only the units bound at the start... */
void rp_state_unit_touched(rp_state *s, int unit); /* ... and those made active since */
int rp_state_refused(void);
struct gt_api_state;
const struct gt_api_state *rp_state_row(uint32_t pname, int query); /* gt_api_states' row, NULL none */
void rp_state_free(rp_state *s);

/* The GLES major version the current context has (GL_VERSION), asked once. */
int rp_es_major(rp *r);
/* Whether --snapshot CALLSET names call `seq`. */
int rp_snapshot_wanted(const rp *r, uint64_t seq);
/* A snapshot on a thread replay has no context for: not compared, and a
 * failure when inside --frames/--calls. */
void rp_snapshot_no_context(rp *r, const rp_msg *m, uint64_t tid);
/* rp_initial.c: a gltraceSurfaceContents record (a new surface's
 * contents) is held (rp_snapshot_initial) until a command may see them:
 * rp_initial_seen, before a command whose `pixels` is not none, writes
 * them into thread tid's bound surfaces when that command reads the
 * default framebuffer, and drops them after a clear that covers it all;
 * rp_initial_flush writes those of the surfaces bound now, before replay
 * reads a framebuffer itself. */
void rp_snapshot_initial(rp *r, const rp_msg *m);
void rp_initial_seen(rp *r, const rp_entry *e, const rp_msg *m, uint64_t tid);
void rp_initial_flush(rp *r);
void rp_initial_free(rp *r);
int rp_initial_hold(rp *r, uint64_t surface, const uint8_t *pixels, int w, int h);
/* gltrace trim's side: a recorded surface's colour buffer as replay has
 * it now, RGBA8 (*px malloc'd); 0, or -1. */
int rp_initial_read(rp *r, uint64_t surface, uint8_t **px, int *w, int *h);

/* rp_shader_copy.c: a texture image (of target, level, and layer or cube
 * face) drawn texel for texel into an RGBA8 renderbuffer of replay's own,
 * as sampling gives it; `read` reads it (bound as GL_FRAMEBUFFER, w by h)
 * and says why it could not, or NULL. NULL, or why no copy was made. The
 * programs are made once a copier and deleted by rp_shader_copy_done. */
typedef struct rp_shader_copier { GLuint prog[4]; } rp_shader_copier;
typedef const char *(*rp_shader_copy_read)(void *arg, GLint w, GLint h);
const char *rp_shader_copy(rp_shader_copier *c, GLuint tex, GLenum target, GLint level, GLint layer, GLint w, GLint h,
                           rp_shader_copy_read read, void *arg);
void rp_shader_copy_done(rp_shader_copier *c);
/* rp_client_guard.c: client arrays. rp_client_noted: after a `class
 * arrays` call; rp_client_feed: a glVertexAttribPointerData record (the
 * array set to a copy of its bytes); rp_client_draw_refused: before a
 * `class draw` call, 1 (the summary's error set) when the driver would
 * read client memory the trace did not feed. */
void rp_client_noted(rp *r, const rp_msg *m);
void rp_client_feed(rp *r, const rp_msg *m);
int rp_client_draw_refused(rp *r, const rp_entry *e, const rp_msg *m);
void rp_client_free(rp *r);

/* rp_diverge_probe.c: the events gltrace diverge's parent reads from a
 * replay in lockstep (gt_replay_options.probe). open: 0, or -1 with the
 * summary's error set. snapshot: after a recorded snapshot was compared
 * (`same`: byte for byte; expected/actual: its pictures when they differ). */
int rp_probe_open(rp *r);
void rp_probe_close(rp *r);
void rp_probe_call(rp *r, const rp_entry *e);
void rp_probe_frame(rp *r, uint64_t tid);
void rp_probe_snapshot(rp *r, const gt_replay_snapshot *o, int same, const struct gt_diff_image *expected,
                       const struct gt_diff_image *actual);

#endif
