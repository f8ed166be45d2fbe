/* rp_trim_plan.c: which records before the start of a trim are left out.
 *
 * The original is replayed up to the start; after each record the replay's
 * own state says what the record did. Kept: everything that leaves state
 * behind (objects, their contents, bindings and settings, EGL set-up,
 * mapped data). Left out: queries and the app's reads into its memory
 * (their results are the driver's, nothing stays), the EGL calls replay
 * takes without doing anything (api/annotations.txt `replay ... egl` with
 * no handler: the window system is replay's own), snapshots and swaps
 * (nothing of the setup is compared, and the kept frames then number from
 * 0), and draws into a window surface in frames before the start's: a swap
 * discards what they drew (unless the trim is asked to keep them, for an
 * app whose frame reads its predecessor's; a pbuffer's swap keeps them,
 * so its pixels at the start are written instead). A draw into a framebuffer
 * object, or with transform feedback or shader stores active, is kept: its
 * results outlive the frame.
 *
 * Then whole frames: a frame whose kept records are, one for one, the
 * next frame's with only floating-point values (arguments, float arrays
 * such as matrices) differing is left out, since the next one sets every
 * piece of state it set again, with the same objects bound (an app that
 * animates its uniforms writes thousands of such frames; the frames of
 * an app that has not swapped yet end at its snapshots, taken where its
 * output becomes observable, at glFinish for one). What this
 * misses (state that accumulates: a GLES 1 glTranslatef without a reset, a
 * blended draw into a framebuffer object that is not cleared) the check of
 * the result finds, and the trim is then made again without it. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_enums.h"
#include "gt_trace.h"

#define TRIM_PENDING 32 /* client array records before one draw */
/* A frame is compared with this many frames before it: an app that
 * alternates between buffers (a pipeline's pool, ping-pong targets)
 * repeats its frames every second or third one. */
#define TRIM_PERIOD 4
#define STATE_COMMAND (1ull << 63) /* in a frame's seq[]: the record only sets state */

typedef struct planner {
    const gt_trim_options *opt;
    const char *in;
    rp_trim_plan *plan;
    size_t nbytes;
    uint64_t frame;             /* swaps replayed so far */
    int done;
    struct { uint64_t tid; uint64_t seq[TRIM_PENDING], sig[TRIM_PENDING]; int n; } pend[RP_MAX_THREADS];
    int npend;
    /* The kept records of this frame (cur) and of the TRIM_PERIOD before
     * it, and their signatures (sig_record). */
    struct { uint64_t *seq; size_t n, cap; uint64_t sig; } fr[TRIM_PERIOD + 1];
    int cur;
    rp_trim_ctxs ctxs;
    rp_trim_objs *objs;         /* NULL: every object's records are kept */
    rp_trim_sets *sets;         /* NULL: every state command is kept */
    rp_trim_draws *draws;       /* NULL: every draw into a texture is kept */
    rp_trim_holders *holders;   /* NULL: every framebuffer's and vertex array's records are kept */
    rp_trim_switches *switches; /* NULL: every context switch is kept */
    uint64_t windows[64];       /* recorded surfaces whose draws were left out */
    int nwindows;
    uint64_t pbuffers[64];      /* recorded pbuffers (`class ... pbuffer`): a swap keeps their pixels */
    int npbuffers;
    /* Draws into a window surface (and their client arrays) waiting for
     * that surface's next swap, which throws their pixels away: a thread
     * may draw into its window in a frame the other threads' swaps have
     * ended, and swap it after the start. */
    struct { uint64_t surface; uint64_t *seq; size_t n, cap, draws; } wpend[16];
    int nwpend;
    uint64_t waiting;           /* 1 + the seq of the last draw made to wait so */
    /* What the setup's kept records bound on each thread (recorded draw,
     * read, context), and the sizes they gave the surfaces: a record
     * saying the same again does nothing on replay. */
    struct { uint64_t tid, draw, read, ctx; } bound[RP_MAX_THREADS];
    int nbound;
    struct { uint64_t tid, api; } apis[RP_MAX_THREADS]; /* each thread's bound client API (eglBindAPI) */
    int napis;
    struct { uint64_t surface; int64_t w, h; } size[64];
    int nsize;
    /* The last clear of each window surface kept so far: a later one
     * clearing as much replaces it. */
    struct { uint64_t surface, seq, mask; } clear[16];
    int nclear;
} planner;

static void drop(planner *p, uint64_t seq)
{
    if ((seq >> 3) < p->nbytes)
        p->plan->drop[seq >> 3] |= (uint8_t)(1u << (seq & 7));
}

static int dropped(const planner *p, uint64_t seq)
{
    return (seq >> 3) < p->nbytes && (p->plan->drop[seq >> 3] >> (seq & 7) & 1);
}

static int grow(planner *p, uint64_t seq)
{
    if ((seq >> 3) < p->nbytes)
        return 0;
    size_t n = p->nbytes ? p->nbytes : 1 << 16;
    while ((seq >> 3) >= n)
        n *= 2;
    uint8_t *d = realloc(p->plan->drop, n);
    if (!d)
        return -1;
    memset(d + p->nbytes, 0, n - p->nbytes);
    p->plan->drop = d;
    p->nbytes = n;
    return 0;
}

/* The client array records (glVertexAttribPointerData) waiting for the draw
 * of thread tid that reads them. */
static int pending_of(planner *p, uint64_t tid)
{
    for (int i = 0; i < p->npend; i++)
        if (p->pend[i].tid == tid)
            return i;
    if (p->npend == RP_MAX_THREADS)
        return -1;
    p->pend[p->npend].tid = tid;
    p->pend[p->npend].n = 0;
    return p->npend++;
}

static const rp_entry *entry_of(const rp *r, const rp_msg *m)
{
    if (m->function < 0 || (size_t)m->function > r->max_number)
        return NULL;
    if (!m->has_alias || !m->alias)
        return r->by_number[m->function];
    for (size_t i = 0; i < rp_nentries; i++)
        if (rp_entries[i].number == m->function && rp_entries[i].alias == m->alias)
            return &rp_entries[i];
    return NULL;
}

/* A call that writes into the app's memory what it read from GL (a pixel
 * read): a `void *` out parameter whose bytes the record holds. With a pixel
 * pack buffer bound the pointer is an offset, nothing is recorded behind it,
 * and the call, which writes the buffer, is kept. */
static int reads_into_memory(const rp_msg *m)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f)
        return 0;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        const gt_api_param *pa = &f->params[i];
        size_t len;
        if (pa->kind == GT_K_POINTER && pa->dir == GT_DIR_OUT && strstr(pa->ctype, "void") &&
            rp_arg_bytes(m, i, &len))
            return 1;
    }
    return 0;
}

/* Whether the draw (or clear) just replayed left nothing behind but
 * pixels of the window surface: the default framebuffer bound, no
 * transform feedback, and (GLES 3.1) no storage block or atomic counter in
 * the program. A draw without a `mode` (compute dispatch) always leaves
 * something. */
static int window_only_draw(rp *r, const rp_msg *m, int clear)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || (!clear && (!f->nparams || strcmp(f->params[0].name, "mode") != 0)))
        return 0;
    GLint fb = -1, major = 0, minor = 0, prog = 0, ssbo = 0, atomics = 0;
    GLboolean xfb = GL_FALSE;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fb);
    if (r->cur_ctx >= 0 && r->ctx[r->cur_ctx].version >= 3) {
        glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &xfb);
        glGetIntegerv(GL_MAJOR_VERSION, &major);
        glGetIntegerv(GL_MINOR_VERSION, &minor);
        if (major * 10 + minor >= 31) {
            glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
            if (prog) {
                glGetProgramiv((GLuint)prog, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, &atomics);
                glGetProgramInterfaceiv((GLuint)prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &ssbo);
            }
        }
    }
    /* A GLES 1 context without framebuffer objects refuses the pname (fb
     * stays -1: kept); the error is not the app's, which nothing reads in
     * this replay. */
    for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; i++)
        ;
    return fb == 0 && !xfb && !ssbo && !atomics;
}

static uint64_t mix_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    uint64_t f = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        f = (f ^ p[i]) * 1099511628211ull;
    return rp_trim_mix(rp_trim_mix(h, n), f);
}

/* One argument (or the return value) into the frame's signature: all but
 * floating-point values, which are what changes between frames that set
 * the same state; addresses only where no data is recorded behind them
 * (offsets into buffers). */
static uint64_t sig_value(uint64_t h, const Gltrace__GLMessage__DataType *d, const gt_api_param *pa)
{
    int floats = pa && (pa->kind == GT_K_FLOAT || pa->kind == GT_K_DOUBLE ||
                        (pa->kind == GT_K_POINTER && pa->dir == GT_DIR_IN && strstr(pa->ctype, "GLfloat")));
    h = rp_trim_mix(h, (uint64_t)d->type);
    if (floats)
        return h;
    for (size_t i = 0; i < d->n_intvalue; i++)
        h = rp_trim_mix(h, (uint64_t)(uint32_t)d->intvalue[i]);
    for (size_t i = 0; i < d->n_boolvalue; i++)
        h = rp_trim_mix(h, d->boolvalue[i]);
    for (size_t i = 0; i < d->n_rawbytes; i++)
        h = mix_bytes(h, d->rawbytes[i].data, d->rawbytes[i].len);
    for (size_t i = 0; i < d->n_charvalue; i++)
        h = mix_bytes(h, d->charvalue[i].data, d->charvalue[i].len);
    if (!d->n_rawbytes && !d->n_charvalue)
        for (size_t i = 0; i < d->n_int64value; i++)
            h = rp_trim_mix(h, (uint64_t)d->int64value[i]);
    return h;
}

/* Whether argument i of m holds floating-point values its parameter does
 * not say: the bytes of a client array (a glVertexAttribPointerData
 * record: `type` its argument 2, `data` 5, proto/FORMAT.md) of a float
 * type, vertices that move between frames as a uniform does (glmark2's
 * desktop scene draws its windows so). */
static int float_bytes(const rp_msg *m, size_t i)
{
    if (m->function != GT_FN_VERTEX_ATTRIB_POINTER_DATA || i != 5 || m->n_args < 6)
        return 0;
    uint64_t type = rp_arg_u(m, 2);
    return type == GL_FLOAT || type == GL_HALF_FLOAT || type == GL_HALF_FLOAT_OES;
}

static uint64_t sig_record(uint64_t h, const rp_msg *m, uint64_t tid)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    h = rp_trim_mix(rp_trim_mix(rp_trim_mix(h, tid), (uint64_t)m->function), (uint64_t)(m->has_alias ? m->alias : 0));
    h = rp_trim_mix(h, (uint64_t)(uint32_t)m->context_id);
    for (size_t i = 0; i < m->n_args; i++)
        h = float_bytes(m, i) ? rp_trim_mix(h, m->args[i]->n_rawbytes ? m->args[i]->rawbytes[0].len : 0)
                                 : sig_value(h, m->args[i], f && i < f->nparams ? &f->params[i] : NULL);
    if (m->returnvalue)
        h = sig_value(h, m->returnvalue, NULL);
    if (m->fb)
        h = rp_trim_mix(h, 0x5eed);
    return h;
}

static int frame_keep(planner *p, uint64_t seq, uint64_t sig)
{
    typeof(p->fr[0]) *f = &p->fr[p->cur];
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 256;
        uint64_t *v = realloc(f->seq, cap * sizeof *v);
        if (!v)
            return -1;
        f->seq = v, f->cap = cap;
    }
    f->seq[f->n++] = seq;
    f->sig = rp_trim_mix(f->sig, sig);
    return 0;
}

/* At a swap: a frame of the last TRIM_PERIOD before the one ending is
 * left out when the two have one signature (the nearest first). */
static void frame_end(planner *p)
{
    typeof(p->fr[0]) *now = &p->fr[p->cur];
    for (int d = 1; d <= TRIM_PERIOD && !p->opt->keep_repeated_frames && now->n; d++) {
        typeof(p->fr[0]) *before = &p->fr[(p->cur + TRIM_PERIOD + 1 - d) % (TRIM_PERIOD + 1)];
        if (before->n != now->n || before->sig != now->sig)
            continue;
        /* Its state commands are left to step 8: what the frame set last
         * the next frame may read before setting it again (glmark2's
         * terrain sets the next frame's noise offset after its last draw,
         * and float arguments are not in the signature). */
        size_t n = 0;
        for (size_t i = 0; i < before->n; i++)
            if (!(before->seq[i] & STATE_COMMAND) || !p->sets)
                drop(p, before->seq[i] & ~STATE_COMMAND), n++;
        p->plan->dropped_frames++;
        p->plan->dropped_repeated += n;
        before->n = 0, before->sig = 0; /* gone: compared no more */
        break;
    }
    p->cur = (p->cur + 1) % (TRIM_PERIOD + 1);
    p->fr[p->cur].n = 0; /* the oldest: no frame is compared with it any more */
    p->fr[p->cur].sig = 0;
}

static void note_window(planner *p, uint64_t surface)
{
    for (int i = 0; i < p->nwindows; i++)
        if (p->windows[i] == surface)
            return;
    if (p->nwindows < (int)(sizeof p->windows / sizeof p->windows[0]))
        p->windows[p->nwindows++] = surface;
}

static int is_pbuffer(const planner *p, uint64_t surface)
{
    for (int i = 0; i < p->npbuffers; i++)
        if (p->pbuffers[i] == surface)
            return 1;
    return 0;
}

/* At the start: the pixels of the windows whose draws were left out, as
 * the replay of the original has them (a surface destroyed since has
 * none): all of them with window_contents, else the pbuffers', which
 * their swaps did not throw away (weston's headless output draws only
 * what changed, over what its earlier frames left). -1: out of memory. */
static int read_windows(planner *p, rp *r)
{
    p->plan->windows = calloc((size_t)p->nwindows + 1, sizeof *p->plan->windows);
    if (!p->plan->windows)
        return -1;
    for (int i = 0; i < p->nwindows; i++) {
        if (!p->opt->window_contents && !is_pbuffer(p, p->windows[i]))
            continue;
        struct rp_trim_window *w = &p->plan->windows[p->plan->nwindows];
        if (rp_initial_read(r, p->windows[i], &w->px, &w->w, &w->h) == 0) {
            w->surface = p->windows[i];
            p->plan->nwindows++;
        }
    }
    return 0;
}

/* Whether `api` is the client API thread tid has bound already (noted
 * as bound either way). */
static int same_api(planner *p, uint64_t tid, uint64_t api)
{
    int i = 0;
    while (i < p->napis && p->apis[i].tid != tid)
        i++;
    if (i < p->napis && p->apis[i].api == api)
        return 1;
    if (i == p->napis && i < RP_MAX_THREADS)
        p->napis++;
    if (i < RP_MAX_THREADS)
        p->apis[i].tid = tid, p->apis[i].api = api;
    return 0;
}

/* Whether m (eglMakeCurrent, gltraceCurrent, gltraceSurface, another EGL
 * call) changes nothing replay has: an eglMakeCurrent of what its thread
 * has bound, a gltraceSurface (not a creation's) of the size its surface
 * has, a binding of the client API its thread has bound (class api).
 * Notes what a kept one changes. Any other EGL call replay acts on
 * may end or make a handle, so the bindings are forgotten. */
static int changes_nothing(planner *p, const rp_msg *m, const rp_entry *e, uint64_t tid)
{
    if (m->function == GT_FN_SURFACE) {
        uint64_t s = rp_arg_u(m, 1);
        int64_t w = rp_arg_i(m, 2), h = rp_arg_i(m, 3);
        int created = m->n_args > 4 && m->args[4]->n_rawbytes, i = 0;
        while (i < p->nsize && p->size[i].surface != s)
            i++;
        if (i < p->nsize && !created && p->size[i].w == w && p->size[i].h == h)
            return 1;
        if (i == p->nsize && i < 64)
            p->nsize++;
        if (i < 64)
            p->size[i].surface = s, p->size[i].w = w, p->size[i].h = h;
        return 0;
    }
    if (e && e->cls == GT_CLASS_API && m->n_args) {
        if (same_api(p, tid, rp_arg_u(m, 0)))
            return 1;
        p->nbound = 0; /* another API: the next eglMakeCurrent stays */
        return 0;
    }
    int current = m->function == GT_FN_CURRENT || (e && e->cls == GT_CLASS_CURRENT && e->how == RP_EGL);
    if (!current) {
        if (e && e->how == RP_EGL && e->egl && e->cls != GT_CLASS_FRAME)
            p->nbound = 0;
        return 0;
    }
    uint64_t draw = rp_arg_u(m, 1), read = rp_arg_u(m, 2), ctx = rp_arg_u(m, 3);
    int i = 0;
    while (i < p->nbound && p->bound[i].tid != tid)
        i++;
    if (i < p->nbound && p->bound[i].draw == draw && p->bound[i].read == read && p->bound[i].ctx == ctx)
        return m->function != GT_FN_CURRENT;
    if (i == p->nbound && i < RP_MAX_THREADS)
        p->nbound++;
    if (i < RP_MAX_THREADS)
        p->bound[i].tid = tid, p->bound[i].draw = draw, p->bound[i].read = read, p->bound[i].ctx = ctx;
    return 0;
}

/* A clear of a window surface in a frame before the start's: it stays
 * (an app that clears once and draws over what is there needs it), but
 * the last one kept of that surface goes when this one clears as much:
 * its mask holds that one's bits, with no scissor and every colour
 * written (asked of the replay after it). The draws between went
 * already. */
/* Whether the scissor test leaves all of the bound window surface to a
 * clear: off, or its box covering the surface (mpv clears so). */
static int scissor_spares_window(const rp *r)
{
    if (!glIsEnabled(GL_SCISSOR_TEST))
        return 1;
    GLint box[4] = {0, 0, 0, 0}, w = 0, h = 0;
    glGetIntegerv(GL_SCISSOR_BOX, box);
    if (!eglQuerySurface(r->dpy, r->bound_draw, EGL_WIDTH, &w) || !eglQuerySurface(r->dpy, r->bound_draw, EGL_HEIGHT, &h))
        return 0;
    return w > 0 && h > 0 && box[0] <= 0 && box[1] <= 0 && (int64_t)box[0] + box[2] >= w && (int64_t)box[1] + box[3] >= h;
}

static void replace_clear(planner *p, const rp *r, const rp_msg *m, uint64_t seq)
{
    uint64_t surface = r->mc_draw, mask = m->n_args ? rp_arg_u(m, 0) : 0;
    GLboolean cm[4] = {0, 0, 0, 0};
    glGetBooleanv(GL_COLOR_WRITEMASK, cm);
    int whole = scissor_spares_window(r) && cm[0] && cm[1] && cm[2] && cm[3], i = 0;
    while (i < p->nclear && p->clear[i].surface != surface)
        i++;
    if (i < p->nclear && whole && (p->clear[i].mask & mask) == p->clear[i].mask) {
        drop(p, p->clear[i].seq);
        p->plan->dropped_draws++;
        note_window(p, surface);
    }
    if (i == p->nclear && i < 16)
        p->nclear++;
    if (i < 16)
        p->clear[i].surface = surface, p->clear[i].seq = seq, p->clear[i].mask = mask;
}

/* A draw into window surface `surface` and its client arrays: left out
 * at the surface's next swap before the start. -1: out of memory. */
static int window_wait(planner *p, uint64_t surface, uint64_t seq, const uint64_t *arrays, int narrays)
{
    int i = 0;
    while (i < p->nwpend && p->wpend[i].surface != surface)
        i++;
    if (i == p->nwpend) {
        if (i == (int)(sizeof p->wpend / sizeof p->wpend[0]))
            return 0; /* more windows than followed: the draw stays */
        p->wpend[p->nwpend++] = (typeof(p->wpend[0])){.surface = surface};
    }
    typeof(p->wpend[0]) *w = &p->wpend[i];
    if (w->n + (size_t)narrays + 1 > w->cap) {
        size_t cap = (w->cap ? w->cap * 2 : 64) + (size_t)narrays;
        uint64_t *v = realloc(w->seq, cap * sizeof *v);
        if (!v)
            return -1;
        w->seq = v, w->cap = cap;
    }
    w->seq[w->n++] = seq;
    p->waiting = seq + 1;
    for (int k = 0; k < narrays; k++)
        w->seq[w->n++] = arrays[k];
    w->draws++;
    return 0;
}

/* A swap of `surface` before the start: the draws waiting for it go. */
static void window_swapped(planner *p, uint64_t surface)
{
    for (int i = 0; i < p->nwpend; i++) {
        if (p->wpend[i].surface != surface || !p->wpend[i].n)
            continue;
        for (size_t k = 0; k < p->wpend[i].n; k++)
            drop(p, p->wpend[i].seq[k]);
        p->plan->dropped_draws += p->wpend[i].draws;
        p->wpend[i].n = p->wpend[i].draws = 0;
        note_window(p, surface);
    }
}

/* Marks the record left out, or adds it to its frame; -1: out of memory.
 * Client array records wait for their draw's verdict. */
static int classify(planner *p, rp *r, const rp_msg *m, uint64_t seq, uint64_t tid)
{
    int slot = pending_of(p, tid);
    int synthetic = GT_FN_IS_SYNTHETIC(m->function);
    const rp_entry *e = synthetic ? NULL : entry_of(r, m);
    if (e && e->cls == GT_CLASS_PBUFFER && p->npbuffers < (int)(sizeof p->pbuffers / sizeof p->pbuffers[0]))
        p->pbuffers[p->npbuffers++] = rp_ret_u(m);
    if ((m->function == GT_FN_SURFACE || m->function == GT_FN_CURRENT || (e && e->how == RP_EGL)) &&
        changes_nothing(p, m, e, tid)) {
        drop(p, seq);
        p->plan->dropped_other++;
        return 0;
    }
    if (synthetic) {
        if (m->function == GT_FN_SNAPSHOT || m->function == GT_FN_FRAME_END) {
            drop(p, seq);
            p->plan->dropped_other++;
            return 0;
        } else if (m->function == GT_FN_VERTEX_ATTRIB_POINTER_DATA && slot >= 0 &&
                   p->pend[slot].n < TRIM_PENDING) {
            p->pend[slot].sig[p->pend[slot].n] = sig_record(0, m, tid);
            p->pend[slot].seq[p->pend[slot].n++] = seq;
            return 0;
        }
        return frame_keep(p, seq, sig_record(0, m, tid));
    }
    int is_draw = e && e->cls == GT_CLASS_DRAW, is_clear = e && e->pixels == RP_PIXELS_CLEARS;
    /* An invalidation only allows the driver to forget pixels: without it
     * they are kept, one outcome it allows (mpv invalidates each pass's
     * target, six a frame, each keeping its bindings). */
    if (!e || e->how == RP_SKIP || (e->how == RP_EGL && (e->cls == GT_CLASS_FRAME || !e->egl)) ||
        (e->how == RP_CALL && reads_into_memory(m)) || e->pixels == RP_PIXELS_DISCARDS) {
        drop(p, seq);
        p->plan->dropped_other++;
    } else if ((is_draw || is_clear) && !p->opt->keep_window_draws && p->frame < p->plan->start_frame &&
               r->cur_ctx >= 0 && r->cur_ctx == r->bound_ctx && window_only_draw(r, m, is_clear)) {
        if (is_clear) {
            replace_clear(p, r, m, seq);
        } else if (window_wait(p, r->mc_draw, seq, slot >= 0 ? p->pend[slot].seq : NULL,
                               slot >= 0 ? p->pend[slot].n : 0) != 0) {
            return -1;
        }
    }
    int rc = 0;
    if (!dropped(p, seq)) {
        for (int i = 0; is_draw && slot >= 0 && i < p->pend[slot].n; i++)
            rc |= frame_keep(p, p->pend[slot].seq[i], p->pend[slot].sig[i]);
        const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
        int sets = f && f->nstate && !(f->state[0].flags & GT_KEY_NONE); /* a state command (step 8's) */
        rc |= frame_keep(p, seq | (sets ? STATE_COMMAND : 0), sig_record(0, m, tid));
    }
    if (is_draw && slot >= 0)
        p->pend[slot].n = 0;
    return rc;
}

/* After each record of the replay up to the start. */
static int after_call(void *user, rp *r, uint64_t tid)
{
    planner *p = user;
    const rp_msg *m = r->cur;
    uint64_t seq = r->seq;
    if (p->opt->by_calls && seq >= p->opt->call_first) {
        p->done = 1;
        return 1; /* replayed one too far: harmless, nothing is written here */
    }
    if (grow(p, seq) != 0) {
        snprintf(r->sum->error, sizeof r->sum->error, "out of memory");
        return 1;
    }
    const rp_entry *e = !GT_FN_IS_SYNTHETIC(m->function) ? entry_of(r, m) : NULL;
    if (classify(p, r, m, seq, tid) != 0 || (!p->opt->keep_gone_contexts && rp_trim_ctx_note(&p->ctxs, r, m, seq) != 0) ||
        (p->objs && rp_trim_objs_note(p->objs, r, m, seq) != 0) ||
        (p->sets && rp_trim_sets_note(p->sets, r, m, seq) != 0) ||
        (p->draws && rp_trim_draws_note(p->draws, r, m, e, seq) != 0) ||
        (p->holders && rp_trim_holders_note(p->holders, r, m, e, seq) != 0) ||
        (p->switches && rp_trim_switches_note(p->switches, m, e, seq, tid) != 0)) {
        snprintf(r->sum->error, sizeof r->sum->error, "out of memory");
        return 1;
    }
    /* A draw waiting for its window's swap reads nothing for steps 5 to
     * 7, as one left out: one its window swaps only after the start stays,
     * and the check finds what it read that they left out. What a draw
     * reads counts at the end only if the draw stays (step 9 may leave it
     * out). */
    int waits = p->waiting == seq + 1;
    if (p->objs && e && (e->cls == GT_CLASS_DRAW || e->pixels == RP_PIXELS_READS) && !dropped(p, seq) && !waits)
        rp_trim_objs_draw(p->objs, r, e->cls == GT_CLASS_DRAW, seq);
    else if (p->objs && e && e->pixels == RP_PIXELS_CLEARS && !dropped(p, seq) && !waits)
        rp_trim_objs_clear(p->objs, r, seq);
    if (e && e->cls == GT_CLASS_FRAME) {
        const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
        for (unsigned i = 0; f && i < f->nparams && i < m->n_args; i++)
            if (!strcmp(f->params[i].name, "surface"))
                window_swapped(p, rp_arg_u(m, i));
        p->frame++;
        frame_end(p);
    } else if ((m->function == GT_FN_SNAPSHOT || m->function == GT_FN_FRAME_END) && p->frame == 0) {
        frame_end(p); /* an app that never swaps: its snapshots (at glFinish) end its frames */
    }
    p->plan->first_kept = seq + 1;
    p->plan->last_tid = tid;
    if (p->opt->by_calls ? seq + 1 >= p->opt->call_first : p->frame == p->opt->frame_first) {
        p->done = 1;
        if (p->objs)
            rp_trim_objs_start(p->objs, r, p->plan, p->in, p->opt, p->opt->by_calls ? p->opt->call_first : seq + 1,
                               p->opt->keep_gone_contexts ? NULL : p->ctxs.destroyed);
        if (!p->opt->keep_window_draws && read_windows(p, r) != 0) {
            snprintf(r->sum->error, sizeof r->sum->error, "out of memory");
            return 1;
        }
        if (p->plan->state_dir)
            p->plan->state_dumped = rp_trim_state_dump(r, tid, p->plan->state_dir, p->plan->state_err,
                                                       sizeof p->plan->state_err) == 0;
        if (p->draws && rp_make_current_for(r, tid) == 0)
            rp_trim_draws_start(p->draws, r, p->plan);
        /* After the reads above: the calls of the state at the start,
         * which step 8 counts as the setup's last commands. */
        int calls = p->sets ? rp_trim_calls_make(r, tid, p->plan, rp_trim_sets_call, p->sets) : 0;
        if (calls != 0) {
            snprintf(r->sum->error, sizeof r->sum->error, "%s",
                     calls == -1 ? "out of memory"
                                 : "the replay refused to make the start's texture unit or matrix mode current again");
            return 1;
        }
        return 1;
    }
    return 0;
}

/* The frame call `call` lies in: the swaps before it, read off the records
 * without replaying them. */
static int start_frame_of_call(const char *in, uint64_t call, uint64_t *frame, gt_trim_summary *sum)
{
    char err[GT_ERRLEN];
    gt_reader *rd = gt_reader_open(in, err, sizeof err);
    if (!rd) {
        snprintf(sum->error, sizeof sum->error, "%s", err);
        return -1;
    }
    gt_record rec;
    int rc;
    *frame = 0;
    while ((rc = gt_reader_next(rd, &rec)) == 1 && rec.seq < call) {
        uint64_t fn, alias = 0;
        if (gt_wire_find_varint(rec.data, rec.size, 4, &fn) != 1)
            continue;
        gt_wire_find_varint(rec.data, rec.size, 12, &alias);
        const gt_api_fn *f = gt_api_find_number((int32_t)fn, (uint32_t)alias);
        if (f && f->cls == GT_CLASS_FRAME)
            ++*frame;
    }
    if (rc < 0)
        snprintf(sum->error, sizeof sum->error, "%s", gt_reader_error(rd));
    gt_reader_close(rd);
    return rc < 0 ? -1 : 0;
}

/* The steps' notes, and the planner. */
static void planner_free(planner *p)
{
    rp_trim_objs_free(p->objs);
    rp_trim_sets_free(p->sets);
    rp_trim_draws_free(p->draws);
    rp_trim_holders_free(p->holders);
    rp_trim_switches_free(p->switches);
    free(p);
}

int rp_trim_plan_make(const char *in, const gt_trim_options *opt, rp_trim_plan *plan, gt_trim_summary *sum)
{
    const char *state_dir = plan->state_dir;
    memset(plan, 0, sizeof *plan);
    plan->state_dir = state_dir;
    planner *pp = calloc(1, sizeof *pp); /* the context tables are large for a stack */
    if (!pp) {
        snprintf(sum->error, sizeof sum->error, "out of memory");
        return -1;
    }
    pp->opt = opt, pp->plan = plan, pp->in = in;
    if ((!opt->keep_all && (!(pp->objs = rp_trim_objs_new()) || !(pp->holders = rp_trim_holders_new()))) ||
        (!opt->keep_state_commands && (!(pp->sets = rp_trim_sets_new()) || !(pp->switches = rp_trim_switches_new()))) ||
        (!opt->keep_texture_draws && !(pp->draws = rp_trim_draws_new()))) {
        planner_free(pp);
        snprintf(sum->error, sizeof sum->error, "out of memory");
        return -1;
    }
#define p (*pp)
    if ((!opt->by_calls && opt->frame_first == 0) || (opt->by_calls && opt->call_first == 0)) {
        planner_free(pp);
        return 0; /* from the first record: no setup */
    }
    plan->start_frame = opt->frame_first;
    if (opt->by_calls && start_frame_of_call(in, opt->call_first, &plan->start_frame, sum) != 0) {
        planner_free(pp);
        return -1;
    }
    gt_replay_options ro;
    gt_replay_options_init(&ro);
    ro.quiet = 1;
    ro.benchmark = 1; /* nothing compared on the way */
    ro.after_call = after_call;
    ro.after_call_user = &p;
    gt_replay_summary rs;
    gt_replay_run(in, &ro, &rs);
    if (rs.error[0] && !p.done) {
        snprintf(sum->error, sizeof sum->error, "%s", rs.error);
    } else if (!p.done) {
        if (opt->by_calls)
            snprintf(sum->error, sizeof sum->error, "%s: has no call %llu (it ends at call %llu)", in,
                     (unsigned long long)opt->call_first, (unsigned long long)(plan->first_kept - 1));
        else
            snprintf(sum->error, sizeof sum->error, "%s: has no frame %llu (it has %llu)", in,
                     (unsigned long long)opt->frame_first, (unsigned long long)p.frame);
    }
    gt_replay_summary_free(&rs);
    for (int i = 0; i <= TRIM_PERIOD; i++)
        free(p.fr[i].seq);
    for (int i = 0; i < p.nwpend; i++)
        free(p.wpend[i].seq);
    if (!sum->error[0] && !opt->keep_gone_contexts)
        rp_trim_ctx_finish(&p.ctxs, plan, p.nbytes);
    /* Step 9 before steps 5 to 7: a draw it leaves out reads nothing. But
     * a pixel read into a pack buffer that a later one replaced reads
     * nothing either: the buffers first. */
    if (!sum->error[0] && p.draws && p.objs)
        rp_trim_objs_finish_buffers(p.objs, plan, p.nbytes);
    if (!sum->error[0] && p.draws)
        rp_trim_draws_finish(p.draws, plan, p.nbytes, p.objs);
    /* Step 10 before steps 5 to 7: an array setter it leaves out pins no
     * buffer. */
    if (!sum->error[0] && p.holders)
        rp_trim_holders_finish(p.holders, plan, p.nbytes);
    if (!sum->error[0] && p.objs)
        rp_trim_objs_finish(p.objs, plan, p.nbytes);
    /* Last: what the steps before left out reads nothing. */
    if (!sum->error[0] && p.sets)
        rp_trim_sets_finish(p.sets, plan, p.nbytes);
    /* Step 12, after all that leaves records out: the switches around them. */
    if (!sum->error[0] && p.switches)
        rp_trim_switches_finish(p.switches, plan, p.nbytes);
    free(p.ctxs.runs);
#undef p
    planner_free(pp);
    if (sum->error[0]) {
        rp_trim_plan_free(plan);
        return -1;
    }
    if (opt->by_calls)
        plan->first_kept = opt->call_first;
    return 0;
}

int rp_trim_plan_end(rp_trim_plan *plan, uint64_t made, uint64_t deleted)
{
    if (deleted == UINT64_MAX)
        return 0; /* deleted with others, or not: it stays */
    if (plan->nends == plan->capends) {
        size_t cap = plan->capends ? plan->capends * 2 : 64;
        struct rp_trim_end *v = realloc(plan->ends, cap * sizeof *v);
        if (!v)
            return -1;
        plan->ends = v, plan->capends = cap;
    }
    plan->ends[plan->nends++] = (struct rp_trim_end){made, deleted};
    return 0;
}

void rp_trim_plan_free(rp_trim_plan *plan)
{
    for (size_t i = 0; i < plan->calls.n; i++)
        free(plan->calls.v[i].bytes);
    free(plan->calls.v);
    plan->calls = (struct rp_trim_calls){0};
    free(plan->ends);
    plan->ends = NULL, plan->nends = plan->capends = 0;
    free(plan->drop);
    plan->drop = NULL;
    for (size_t i = 0; i < plan->nrestores; i++)
        free(plan->restores[i].px);
    free(plan->restores);
    for (size_t i = 0; i < plan->buffers.n; i++)
        free(plan->buffers.v[i].bytes);
    free(plan->buffers.v);
    plan->buffers.v = NULL, plan->buffers.n = 0;
    plan->restores = NULL, plan->nrestores = 0;
    for (size_t i = 0; i < plan->nsurfaces; i++)
        free(plan->surfaces[i].px);
    free(plan->surfaces);
    plan->surfaces = NULL, plan->nsurfaces = 0;
    for (size_t i = 0; i < plan->nwindows; i++)
        free(plan->windows[i].px);
    free(plan->windows);
    plan->windows = NULL, plan->nwindows = 0;
}
