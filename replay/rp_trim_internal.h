/* rp_trim_internal.h: what the parts of the trim share (gt_trim.h is the
 * public side): the plan, one bit per original record of the setup saying
 * whether it is left out, made by replaying up to the start
 * (rp_trim_plan.c), and the writing of the trimmed trace from it
 * (rp_trim_write.c). */
#ifndef RP_TRIM_INTERNAL_H
#define RP_TRIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gt_trim.h"

struct rp;
struct Gltrace__GLMessage;

typedef struct rp_trim_plan {
    uint8_t *drop;          /* bit per seq below first_kept: left out of the setup */
    uint64_t first_kept;    /* seq of the first record kept verbatim */
    uint64_t start_frame;   /* the frame it lies in */
    uint64_t dropped_draws, dropped_other;
    uint64_t dropped_frames, dropped_repeated; /* frames set again by the next, their records */
    uint64_t gone_contexts, dropped_gone;      /* contexts destroyed with their group, their records */
    uint64_t dead_objects, dropped_dead;       /* objects deleted before the start, their contents records */
    uint64_t untouched_objects, dropped_untouched; /* alive, but neither bound at the start nor named after it */
    uint64_t superseded_objects, dropped_superseded; /* alive, and writes a later one replaced before a read */
    uint64_t syncs, dropped_syncs; /* fence syncs no kept record names, their records (made, waited on, deleted) */
    uint64_t dropped_sets;  /* state commands a later one of the same key replaced before a read */
    uint64_t dropped_asked; /* queries replay maps the answer of, asked again with the same answer */
    uint64_t dropped_switches; /* context switches and flushes with nothing kept between (rp_trim_switches.c) */
    uint64_t dropped_texture_draws; /* draws into textures whose pixels are written back instead */
    uint64_t dropped_texture_uploads; /* glTexSubImage2D into them, left out the same way */
    uint64_t dead_framebuffers, dead_vertex_arrays, dropped_holder_calls; /* made and deleted before the start,
                                                                            nothing read through them */
    /* Texture levels read back at the start (rp_trim_draws.c), written as
     * glTexSubImage2D records before the start marker when `used` (a draw
     * into it was left out), with the state those records set and set back. */
    struct rp_trim_restore {
        uint32_t texture, bind, face, level; /* recorded name, target bound to, of the level; a renderbuffer's:
                                                its name, bind GL_RENDERBUFFER */
        uint32_t internal;                   /* a renderbuffer's internal format (its texture's storage) */
        int w, h;
        uint32_t format, type;
        uint8_t *px;
        size_t len;
        int used;
    } *restores;
    size_t nrestores;
    struct rp_trim_restore_state {
        int32_t ctx;         /* recorded context current at the start */
        int32_t unpack[6];   /* GL_UNPACK_ALIGNMENT, ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS, IMAGE_HEIGHT, SKIP_IMAGES */
        uint32_t unpack_buffer, tex2d, texcube; /* recorded names bound at the start (active unit) */
    } restore_state;
    uint64_t last_tid;      /* the thread of the last record before the start */
    const char *state_dir;  /* in: where the state at the start is dumped, or NULL */
    int state_dumped;       /* it was */
    char state_err[160];    /* why not */
    /* gt_trim_options.window_contents: the colour buffers at the start of
     * the window surfaces draws were left out of (rp_initial_read). */
    struct rp_trim_window { uint64_t surface; int w, h; uint8_t *px; int used; } *windows;
    size_t nwindows;
    /* Surfaces never swapped whose draws rp_trim_draws.c left out: their
     * colour buffers at the start, written when `used`. */
    struct rp_trim_window *surfaces;
    size_t nsurfaces;
    /* Objects made and deleted before the start that steps 5 to 7 and 10
     * left nothing of: the records that made and deleted them (one name
     * each, UINT64_MAX none), which step 8 leaves out too unless the
     * deletion's unbinding is read (its binding not set again before a
     * read or the start) or a kept record names the object. */
    struct rp_trim_end { uint64_t made, deleted; } *ends;
    size_t nends, capends;
    uint64_t dropped_ends; /* of those records, left out */
    /* Buffers a pixel read wrote into (a pixel pack buffer), read back at
     * the start (rp_trim_objects.c), written as glBufferSubData records of
     * all of them on the context `ctx` when `used` (the read was left out
     * instead of the draws behind it), bound to GL_COPY_WRITE_BUFFER, which
     * is then bound back to `copy_write`. */
    struct rp_trim_buffers {
        int32_t ctx;
        uint32_t copy_write;
        struct rp_trim_buffer { uint32_t buffer; uint8_t *bytes; size_t len; int used; } *v;
        size_t n;
    } buffers;
    /* The state of the context current at the start, as calls of
     * api/state.tsv's set and toggle lines (rp_trim_calls.c): packed
     * GLMessages of context `ctx`, written on thread `tid` after the
     * setup's records and before the start marker. */
    struct rp_trim_calls {
        int32_t ctx;
        uint64_t tid;
        struct rp_trim_call {
            uint8_t *bytes;
            size_t len;
            uint8_t kind;   /* RP_TRIM_CALL_* */
            uint8_t needed; /* written: it sets what a command step 8 left out set, or it must be */
            uint8_t on;     /* RP_TRIM_ON_*: what it needs current (a pick's: what it makes current) */
        } *v;
        size_t n, cap;
    } calls;
} rp_trim_plan;

/* The calls that set the state of the context current on thread tid as it
 * is at the start, written at the end of the setup (rp_trim_calls.c):
 * those whose key `note` says a command of the setup sets (commit 0), then
 * those the others leave differing; each noted (commit 1) as it is added
 * to plan->calls. 0, -1 out of memory, -2 the driver refused to make the
 * start's texture unit or matrix mode current again. */
enum {
    RP_TRIM_CALL_SET,    /* a piece of state a command of the setup sets */
    RP_TRIM_CALL_FORCED, /* a piece the calls before it left differing: always written */
    RP_TRIM_CALL_PICK,   /* makes the unit of the calls after it active */
    RP_TRIM_CALL_BACK    /* makes the start's unit active again */
};
/* the active texture unit, GLES 1's matrix mode, the identity as its
 * modelview matrix (for a light's eye coordinates); EYE_BACK marks the
 * load of the modelview stack's top after a pick of the identity: needed
 * when that pick is */
enum { RP_TRIM_ON_UNIT = 1, RP_TRIM_ON_MODE = 2, RP_TRIM_ON_EYE = 4, RP_TRIM_ON_EYE_BACK = 8 };
/* After step 8 (rp_trim_sets_finish marks the SET calls needed whose key's
 * last command of the setup it left out): the picks before needed calls,
 * and the last one back, are needed too. */
void rp_trim_calls_needed(rp_trim_plan *plan);
/* f's call with arguments a, packed as a record of context ctx (*out
 * malloc'd): n numbers, each scalar parameter one; a last pointer
 * parameter gets `bytes` when given (at a made-up address, as replay
 * takes recorded bytes wherever the app had them), else the rest of a as
 * floats or 32-bit integers by its C type. 0, or -1. */
struct gt_api_fn;
int rp_trim_call_pack(const struct gt_api_fn *f, int32_t ctx, const double *a, int n, const uint8_t *bytes,
                      size_t nbytes, uint8_t **out, size_t *len);
typedef int rp_trim_calls_note(void *user, struct rp *r, const struct Gltrace__GLMessage *m, int commit);
int rp_trim_calls_make(struct rp *r, uint64_t tid, rp_trim_plan *plan, rp_trim_calls_note *note, void *user);

/* One hash step for trim's keys and signatures (frames, state keys,
 * queries): within one trim only, never stored. */
static inline uint64_t rp_trim_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

static inline int rp_trim_dropped(const rp_trim_plan *p, uint64_t seq)
{
    return seq < p->first_kept && (p->drop[seq >> 3] >> (seq & 7) & 1);
}

/* The index of f's parameter `name` (the registry's), or -1; the value of
 * it in m, or `absent` (rp_trim_objects.c). */
int rp_trim_param(const struct gt_api_fn *f, const char *name);
int64_t rp_trim_arg(const struct gt_api_fn *f, const struct Gltrace__GLMessage *m, const char *name, int64_t absent);

/* A candidate of plan->ends; -1: out of memory. */
int rp_trim_plan_end(rp_trim_plan *plan, uint64_t made, uint64_t deleted);

/* Replays `in` up to the start `opt` asks for and fills the plan (set
 * plan->state_dir first, or NULL). 0, or -1 with sum->error set. */
int rp_trim_plan_make(const char *in, const gt_trim_options *opt, rp_trim_plan *plan, gt_trim_summary *sum);
void rp_trim_plan_free(rp_trim_plan *plan);

/* The contexts of the setup and the records of each (rp_trim_contexts.c). */
#define RP_TRIM_MAX_CTX 256 /* RP_MAX_CTX */
typedef struct rp_trim_ctxs {
    struct { uint64_t first, last; int32_t id; } *runs; /* consecutive records of one context */
    size_t nruns, capruns;
    uint64_t handle[RP_TRIM_MAX_CTX * 2]; /* recorded EGLContext -> id, latest last */
    int32_t handle_id[RP_TRIM_MAX_CTX * 2];
    int nhandles;
    int32_t group[RP_TRIM_MAX_CTX];
    uint8_t made[RP_TRIM_MAX_CTX], destroyed[RP_TRIM_MAX_CTX], pinned[RP_TRIM_MAX_CTX];
    uint64_t create_seq;  /* an eglCreateContext waiting for its gltraceContext */
    int create_seq_valid;
} rp_trim_ctxs;
/* Notes a setup record (after replay took it); -1: out of memory. */
int rp_trim_ctx_note(rp_trim_ctxs *c, const struct rp *r, const struct Gltrace__GLMessage *m, uint64_t seq);
/* Marks the records of the groups gone in the plan (nbytes: its bitmap's). */
void rp_trim_ctx_finish(rp_trim_ctxs *c, rp_trim_plan *plan, size_t nbytes);

/* The objects deleted before the start and the records that only filled
 * them (rp_trim_objects.c). note: after replay took a setup record (0, or
 * -1: out of memory); finish: marks the dead objects' records in the plan. */
typedef struct rp_trim_objs rp_trim_objs;
rp_trim_objs *rp_trim_objs_new(void);
int rp_trim_objs_note(rp_trim_objs *o, struct rp *r, const struct Gltrace__GLMessage *m, uint64_t seq);
void rp_trim_objs_finish(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes);
/* Before step 9: the writes into buffers left out so far (draws not yet
 * left out still count as reads). A pixel read into a pack buffer is one:
 * left out, it reads no texture, and step 9 may leave out the draws it
 * would have read. What comes out is what rp_trim_objs_finish would find
 * too, or less. */
void rp_trim_objs_finish_buffers(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes);
/* After a draw of the setup (draw), or another command that reads
 * through the framebuffer (a blit, a copy, a read into a buffer), the
 * record seq: every object bound to the context was read (what it wrote
 * so far stays), and by a draw pinned (what it drew into outlives the
 * draw), and so were the objects something holds (attachments, arrays'
 * buffers); all of which counts at rp_trim_objs_finish only if the record
 * stays. */
void rp_trim_objs_draw(rp_trim_objs *o, struct rp *r, int draw, uint64_t seq);
/* A clear of the setup that may stay (counts if seq does): what is
 * attached keeps what gave it its storage. */
void rp_trim_objs_clear(rp_trim_objs *o, struct rp *r, uint64_t seq);
/* After rp_trim_objs_start: whether the object of class cls (a
 * gt_state_class) and replayed name of share group `group` is alive at the
 * start, of the start's share group (alone there), and no kept record
 * reaches it: neither bound at the start nor named, nor attached to a
 * framebuffer object that is. What it holds then matters to nothing kept. */
int rp_trim_objs_unreached(const rp_trim_objs *o, int group, int cls, uint32_t name);
/* At the start (the replay's current context is the last record's): the
 * objects of its share group bound there or named by the kept records
 * (read from `in`) are touched; the others may go. Nothing may go when
 * another context of the group is alive (destroyed: by context id, or
 * NULL when not known) or `in` cannot be read. */
void rp_trim_objs_start(rp_trim_objs *o, struct rp *r, rp_trim_plan *plan, const char *in, const gt_trim_options *opt, uint64_t first_kept,
                        const uint8_t *destroyed);
void rp_trim_objs_free(rp_trim_objs *o);
/* The binding a target names (a cube face's: the cube map's;
 * GL_FRAMEBUFFER's: the draw framebuffer's; another's its own), and the
 * second one binding it sets (GL_FRAMEBUFFER: the read framebuffer), or 0. */
uint32_t rp_trim_binding_target(uint32_t target);
uint32_t rp_trim_binding_also(uint32_t target);
/* The object bound to `target` on the replay's current context (its
 * replayed name; *cls its gt_state_class), 0 none or no such binding. */
uint32_t rp_trim_bound(uint32_t target, int *cls);

/* The state commands a later one of the same key replaced before anything
 * read them (rp_trim_sets.c, api/annotations.txt `state` lines). note:
 * after replay took a setup record (0, or -1: out of memory); finish,
 * after every other step marked its records: marks those in the plan. */
/* Framebuffer objects and vertex arrays made and deleted before the start
 * that nothing kept drew into, with or read through (rp_trim_holders.c).
 * note: after replay took a setup record (0, or -1: out of memory);
 * finish: after step 9, before steps 5 to 7 and 8, marks their making,
 * their state commands and their deletion. */
typedef struct rp_trim_holders rp_trim_holders;
rp_trim_holders *rp_trim_holders_new(void);
struct rp_entry;
int rp_trim_holders_note(rp_trim_holders *b, struct rp *r, const struct Gltrace__GLMessage *m,
                         const struct rp_entry *e, uint64_t seq);
void rp_trim_holders_finish(rp_trim_holders *b, rp_trim_plan *plan, size_t nbytes);
void rp_trim_holders_free(rp_trim_holders *b);

/* Step 12 (rp_trim_switches.c): eglMakeCurrent and flushes of the setup
 * that bind or submit nothing kept. Noted after each record replayed
 * (e its entry); finished after every other step. */
typedef struct rp_trim_switches rp_trim_switches;
rp_trim_switches *rp_trim_switches_new(void);
int rp_trim_switches_note(rp_trim_switches *s, const struct Gltrace__GLMessage *m, const struct rp_entry *e,
                          uint64_t seq, uint64_t tid);
void rp_trim_switches_finish(rp_trim_switches *s, rp_trim_plan *plan, size_t nbytes);
void rp_trim_switches_free(rp_trim_switches *s);

typedef struct rp_trim_sets rp_trim_sets;
rp_trim_sets *rp_trim_sets_new(void);
int rp_trim_sets_note(rp_trim_sets *s, struct rp *r, const struct Gltrace__GLMessage *m, uint64_t seq);
/* For rp_trim_calls_make (user: the rp_trim_sets): commit 0, whether a
 * command of the setup sets m's key (1) or not (0); commit 1, m is noted
 * as a command after the setup's (0, or -1 out of memory). */
int rp_trim_sets_call(void *user, struct rp *r, const struct Gltrace__GLMessage *m, int commit);
void rp_trim_sets_finish(rp_trim_sets *s, rp_trim_plan *plan, size_t nbytes);
void rp_trim_sets_free(rp_trim_sets *s);
/* The piece of state the state command f's record m sets (its first key),
 * as step 8 numbers it on the replay's current context; 0 when f sets
 * none or the driver cannot say. */
uint64_t rp_trim_state_key(struct rp *r, const struct Gltrace__GLMessage *m, const struct gt_api_fn *f);

/* The draws into textures left out, and the textures read back at the
 * start instead (rp_trim_draws.c). note: after replay took a setup record
 * (0, or -1: out of memory); start: at the start, reads back what draws
 * wrote; finish: marks the draws left out, and the restores used. */
typedef struct rp_trim_draws rp_trim_draws;
rp_trim_draws *rp_trim_draws_new(void);
int rp_trim_draws_note(rp_trim_draws *d, struct rp *r, const struct Gltrace__GLMessage *m, const struct rp_entry *e,
                       uint64_t seq);
void rp_trim_draws_start(rp_trim_draws *d, struct rp *r, rp_trim_plan *plan);
void rp_trim_draws_finish(rp_trim_draws *d, rp_trim_plan *plan, size_t nbytes, const rp_trim_objs *objs);
void rp_trim_draws_free(rp_trim_draws *d);

/* The state at the start (rp_trim_state.c): a temporary folder made
 * (0, or -1), removed with its files; a dump of the context current on
 * thread tid (0, or -1 with err); the number of differences between the
 * original's dump and the trim's, the first one named in `first` (-1: the
 * dumps could not be read). */
int rp_trim_state_dir(char *dir, size_t n, const char *what);
void rp_trim_state_remove(const char *dir);
int rp_trim_state_dump(struct rp *r, uint64_t tid, const char *dir, char *err, size_t errlen);
int rp_trim_state_compare(const char *orig, const char *trim, char *first, size_t n);

/* Writes `out`: the setup records the plan keeps, a marker, and the records
 * of the kept frames or calls, renumbered from 0. 0, or -1 with sum->error
 * set (`out` is then removed). */
int rp_trim_write(const char *in, const char *out, const gt_trim_options *opt, const rp_trim_plan *plan,
                  gt_trim_summary *sum);

/* rp_trim_snap.c: coded snapshots (gt_snapshot.h) through a chain, so that
 * the first one the trim writes for each thread and slot is a keyframe. */
struct gt_record;
typedef struct rp_trim_snaps {
    struct gt_snap_chain *chain;
    struct { uint64_t tid; uint32_t slot; } keyed[256];
    size_t nkeyed;
} rp_trim_snaps;
int rp_trim_snaps_open(rp_trim_snaps *s);
void rp_trim_snaps_close(rp_trim_snaps *s);
/* Every record of the original, in order; `emitted`: the trim writes it.
 * *key: NULL (write the record as it is), or the record made a keyframe
 * (malloc'd, *keylen bytes) to write instead. 0, or -1 with err. */
int rp_trim_snap_record(rp_trim_snaps *s, const struct gt_record *rec, int emitted, uint8_t **key, size_t *keylen,
                        char *err, size_t errlen);

#endif
