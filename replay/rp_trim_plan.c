/* rp_trim_plan.c: which records before the start of a trim are left out.
 *
 * The original is replayed up to the start; after each record the replay's
 * own state says what the record did. Kept: everything that leaves state
 * behind (objects, their contents, bindings and settings, EGL set-up,
 * mapped data). Left out: queries and the app's reads into its memory
 * (their results are the driver's, nothing stays), snapshots and swaps
 * (nothing of the setup is compared, and the kept frames then number from
 * 0), and draws into a window surface in frames before the start's: a swap
 * discards what they drew (unless the trim is asked to keep them, for an
 * app whose frame reads its predecessor's). A draw into a framebuffer
 * object, or with transform feedback or shader stores active, is kept: its
 * results outlive the frame. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_enums.h"
#include "gt_trace.h"

#define TRIM_PENDING 32 /* client array records before one draw */

typedef struct planner {
    const gt_trim_options *opt;
    rp_trim_plan *plan;
    size_t nbytes;
    uint64_t frame;             /* swaps replayed so far */
    int done;
    struct { uint64_t tid; uint64_t seq[TRIM_PENDING]; int n; } pend[RP_MAX_THREADS];
    int npend;
} planner;

static void drop(planner *p, uint64_t seq)
{
    if ((seq >> 3) < p->nbytes)
        p->plan->drop[seq >> 3] |= (uint8_t)(1u << (seq & 7));
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

/* Whether the draw just replayed left nothing behind but pixels of the
 * window surface: the default framebuffer bound, no transform feedback,
 * and (GLES 3.1) no storage block or atomic counter in the program. A
 * command without a `mode` (compute dispatch) always leaves something. */
static int window_only_draw(rp *r, const rp_msg *m)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    if (!f || !f->nparams || strcmp(f->params[0].name, "mode") != 0)
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

static void classify(planner *p, rp *r, const rp_msg *m, uint64_t seq, uint64_t tid)
{
    int slot = pending_of(p, tid);
    if (m->function >= GT_FN_INVALID && m->function <= GT_FN_SYNTHETIC_LAST) {
        if (m->function == GT_FN_SNAPSHOT) {
            drop(p, seq);
            p->plan->dropped_other++;
        } else if (m->function == GT_FN_VERTEX_ATTRIB_POINTER_DATA && slot >= 0 &&
                   p->pend[slot].n < TRIM_PENDING) {
            p->pend[slot].seq[p->pend[slot].n++] = seq;
        }
        return;
    }
    const rp_entry *e = entry_of(r, m);
    int is_draw = e && e->cls == GT_CLASS_DRAW;
    if (!e || e->how == RP_SKIP || (e->how == RP_EGL && e->cls == GT_CLASS_FRAME) ||
        (e->how == RP_CALL && reads_into_memory(m))) {
        drop(p, seq);
        p->plan->dropped_other++;
    } else if (is_draw && !p->opt->keep_window_draws && p->frame < p->plan->start_frame && r->cur_ctx >= 0 &&
               r->cur_ctx == r->bound_ctx && window_only_draw(r, m)) {
        drop(p, seq);
        p->plan->dropped_draws++;
        for (int i = 0; slot >= 0 && i < p->pend[slot].n; i++)
            drop(p, p->pend[slot].seq[i]);
    }
    if (is_draw && slot >= 0)
        p->pend[slot].n = 0;
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
    classify(p, r, m, seq, tid);
    const rp_entry *e = m->function < GT_FN_INVALID ? entry_of(r, m) : NULL;
    if (e && e->cls == GT_CLASS_FRAME)
        p->frame++;
    p->plan->first_kept = seq + 1;
    if (!p->opt->by_calls && p->frame == p->opt->frame_first) {
        p->done = 1;
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

int rp_trim_plan_make(const char *in, const gt_trim_options *opt, rp_trim_plan *plan, gt_trim_summary *sum)
{
    memset(plan, 0, sizeof *plan);
    planner p = {.opt = opt, .plan = plan};
    if ((!opt->by_calls && opt->frame_first == 0) || (opt->by_calls && opt->call_first == 0))
        return 0; /* from the first record: no setup */
    plan->start_frame = opt->frame_first;
    if (opt->by_calls && start_frame_of_call(in, opt->call_first, &plan->start_frame, sum) != 0)
        return -1;
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
    if (sum->error[0]) {
        rp_trim_plan_free(plan);
        return -1;
    }
    if (opt->by_calls)
        plan->first_kept = opt->call_first;
    return 0;
}

void rp_trim_plan_free(rp_trim_plan *plan)
{
    free(plan->drop);
    plan->drop = NULL;
}
